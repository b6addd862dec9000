#!/usr/bin/env bash
# Regenerates screenshots/*.png from real runs of fitiq-tui in tmux (docs/ncurses.md "Screenshots
# from real runs"): the binaries run in a private tmux server, are driven with send-keys, and every
# capture (`capture-pane -e -p -N`) is rendered to PNG by render.py (pyte + Pillow, local venv).
#
# Usage: scripts/screenshots/run.sh [BIN_DIR]   (BIN_DIR holds fitiq-tui and fitiq-dev-server;
#        default: `swift build --show-bin-path`)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="${1:-$(cd "$ROOT" && swift build --show-bin-path)}"
BIN="$(cd "$BIN" && pwd)"
OUT="$ROOT/screenshots"
VENV="$ROOT/.venv-screenshots"
TIMEOUT="${SCREENSHOT_TIMEOUT:-20}"

for binary in fitiq-tui fitiq-dev-server; do
    [ -x "$BIN/$binary" ] || { echo "error: $BIN/$binary is missing (swift build --product $binary)" >&2; exit 1; }
done

if ! "$VENV/bin/python" -c 'import pyte, PIL' 2>/dev/null; then
    echo "Setting up $VENV (pyte, Pillow)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check pyte Pillow
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/fitiq-screenshots.XXXXXX")"
SOCKET="fitiq-shots-$$"
TMUX_CMD=(tmux -L "$SOCKET" -f /dev/null)
SERVER_PID=""

cleanup() {
    local status=$?
    # Sessions left by a failure: quit politely (Esc, then q, then y at the quit prompt) so that
    # `fitiq-tui demo` stops its child server; then close tmux and stop whatever is left by pid.
    local leftovers=() pane
    for pane in $("${TMUX_CMD[@]}" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
        leftovers+=("$pane" $(pgrep -P "$pane" 2>/dev/null || true))  # env execs fitiq-tui; its child: the server
    done
    for session in $("${TMUX_CMD[@]}" list-sessions -F '#{session_name}' 2>/dev/null); do
        for key in Escape q y; do
            "${TMUX_CMD[@]}" send-keys -t "$session" "$key" 2>/dev/null || true
            sleep 0.2
        done
    done
    "${TMUX_CMD[@]}" kill-server 2>/dev/null || true
    for pid in "${leftovers[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t() { "${TMUX_CMD[@]}" "$@"; }

screen_text() { t capture-pane -p -t "$1" 2>/dev/null; }

# wait_for SESSION TEXT: polls the screen until TEXT appears (deadline $TIMEOUT s), then until two
# consecutive captures agree (a frame is not caught half painted).
wait_for() {
    local session="$1" text="$2" deadline=$((SECONDS + TIMEOUT))
    until screen_text "$session" | grep -qF -- "$text"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "error: \"$text\" did not appear in session $session within ${TIMEOUT}s; the screen:" >&2
            screen_text "$session" >&2 || echo "(the session has ended)" >&2
            exit 1
        fi
        sleep 0.05
    done
    local previous="" current
    current="$(t capture-pane -e -p -N -t "$session")"
    while [ "$current" != "$previous" ] && [ "$SECONDS" -lt "$deadline" ]; do
        sleep 0.05
        previous="$current"
        current="$(t capture-pane -e -p -N -t "$session")"
    done
}

# quit_session SESSION: presses q (answering y if the quit prompt asks) and waits for the exit.
quit_session() {
    local session="$1" answered="" deadline=$((SECONDS + TIMEOUT))
    t send-keys -t "$session" q
    while t has-session -t "$session" 2>/dev/null; do
        if [ -z "$answered" ] && screen_text "$session" | grep -qF "not saved"; then
            t send-keys -t "$session" y
            answered=1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "error: session $session did not end within ${TIMEOUT}s; the screen:" >&2
            screen_text "$session" >&2
            exit 1
        fi
        sleep 0.05
    done
}

# shot SESSION NAME: captures the pane with colours and renders screenshots/NAME.png.
shot() {
    local session="$1" name="$2" size cursor=()
    t capture-pane -e -p -N -t "$session" >"$WORK/$name.ans"
    size="$(t display-message -p -t "$session" '#{pane_width} #{pane_height} #{cursor_flag} #{cursor_x},#{cursor_y}')"
    read -r cols rows cursor_flag cursor_xy <<<"$size"
    [ "$cursor_flag" = 1 ] && cursor=(--cursor "$cursor_xy")
    "$VENV/bin/python" "$ROOT/scripts/screenshots/render.py" "$WORK/$name.ans" "$OUT/$name.png" \
        --cols "$cols" --rows "$rows" "${cursor[@]}"
    echo "screenshots/$name.png (${cols}x${rows})"
}

start() { # start SESSION COLS ROWS COMMAND...
    local session="$1" cols="$2" rows="$3"
    shift 3
    t new-session -d -s "$session" -x "$cols" -y "$rows" \
        env LANG=C.UTF-8 LC_ALL= TERM=tmux-256color "$@"
}

# progress_year SESSION LEGEND: from the profile, opens the progress screen (p) on the weight and steps
# its range (→) from 4 weeks to 3 months to 1 year, waiting for each range's sentences (and the
# chart's LEGEND) before the next key, so that no answer for a range left meanwhile is on show.
progress_year() {
    local session="$1" legend="$2"
    t send-keys -t "$session" p
    wait_for "$session" "Weight · 4 weeks"
    wait_for "$session" "$legend"
    t send-keys -t "$session" Right
    wait_for "$session" "over the last 3 months."
    wait_for "$session" "$legend"
    t send-keys -t "$session" Right
    wait_for "$session" "over the last year."
    wait_for "$session" "$legend"
}

mkdir -p "$OUT"

# 1. The demo account: profile screen, the progress screen (the demo's year of weights: a slow loss
#    with day-to-day noise, and its trend line), an inline validation error, the chart at 120x40.
#    FITIQ_GRAPHICS: braille whatever the caller's environment says.
start demo 100 30 FITIQ_GRAPHICS=braille "$BIN/fitiq-tui" demo
wait_for demo "Alex Demo"
wait_for demo "● synced"
shot demo profile

progress_year demo "· readings  ⠉ trend"
shot demo progress

# A goal set with g (a value and a date half a year on): its line, the plan, and the day the trend
# gets there; then the table by week (t), and back to the chart (t twice).
t send-keys -t demo g
wait_for demo "Weight goal"
t send-keys -t demo -l "76 $(date -u -d '+6 months' +%F)"
t send-keys -t demo Enter
wait_for demo "it reaches the goal on"
wait_for demo "· readings  ⠉ trend"
shot demo progress-goal
t send-keys -t demo t
wait_for demo "Weight · 1 year · by week"
shot demo progress-summary
t send-keys -t demo t t
wait_for demo "· readings  ⠉ trend"
t send-keys -t demo Escape
wait_for demo "Enter edit"  # back on the profile, its focus on the name as before

t send-keys -t demo Tab Tab Tab Tab
wait_for demo "›Height"
t send-keys -t demo Enter C-u
t send-keys -t demo -l "5'13\""
wait_for demo "5'13\""
t send-keys -t demo C-s
wait_for demo "! Height"
shot demo validation-error

t send-keys -t demo Escape
wait_for demo "Enter edit"  # the edit is cancelled before the resize (an Esc and a resize read together lose the Esc)
t resize-window -t demo -x 120 -y 40
wait_for demo "└$(printf '─%.0s' $(seq 118))┘"
shot demo history

# A phone's or a split pane's 60×20: the boxes stack and the history keeps its list.
t resize-window -t demo -x 60 -y 20
wait_for demo "┌─ Physical"
wait_for demo "? help"
shot demo small
quit_session demo

# The same progress screen with ASCII graphics. FITIQ_GRAPHICS, not the root option: `fitiq-tui
# --graphics ascii demo` parses the option but the demo's editor does not see it.
start ascii 100 30 FITIQ_GRAPHICS=ascii "$BIN/fitiq-tui" demo
wait_for ascii "Alex Demo"
wait_for ascii "● synced"
progress_year ascii ". readings  * trend"
shot ascii progress-ascii
t send-keys -t ascii Escape
wait_for ascii "Enter edit"
quit_session ascii

# 2. A server of our own: the sign-in screen with empty XDG folders, then (after signing in and
#    stopping the server) a change that is waiting to be sent, in the sync details view.
API_KEY="screenshots-$$-$RANDOM"
PASSWORD="demo-$$-$RANDOM"
FITIQ_DEV_API_KEY="$API_KEY" FITIQ_DEV_DEMO_PASSWORD="$PASSWORD" \
    "$BIN/fitiq-dev-server" --port 0 --demo-account --log-level error >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
deadline=$((SECONDS + TIMEOUT))
until grep -q '^listening on ' "$WORK/server.out" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "error: fitiq-dev-server did not start:" >&2
        cat "$WORK/server.err" >&2
        exit 1
    fi
    sleep 0.05
done
URL="$(sed -n '1s/^listening on //p' "$WORK/server.out")"
mkdir -p "$WORK/xdg/config" "$WORK/xdg/data" "$WORK/xdg/state"

start signin 100 30 env XDG_CONFIG_HOME="$WORK/xdg/config" XDG_DATA_HOME="$WORK/xdg/data" \
    XDG_STATE_HOME="$WORK/xdg/state" FITIQ_API_KEY="$API_KEY" "$BIN/fitiq-tui" --server "$URL"
wait_for signin "Sign in to FitIQ"
t send-keys -t signin -l "demo@fitiq.dev"
wait_for signin "demo@fitiq.dev"
t send-keys -t signin Tab
shot signin sign-in

t send-keys -t signin -l "$PASSWORD"
t send-keys -t signin Enter
wait_for signin "Alex Demo"
wait_for signin "● synced"

kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
t send-keys -t signin Enter End
t send-keys -t signin -l " Jr."
wait_for signin "Alex Demo Jr."
t send-keys -t signin Enter C-s
wait_for signin "pending"
t send-keys -t signin h
wait_for signin "○ pending"
wait_for signin "○ offline"
shot signin sync-details
quit_session signin

echo "done: $(ls "$OUT"/*.png | wc -l) screenshots in screenshots/"
