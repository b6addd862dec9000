#!/usr/bin/env bash
# Regenerates screenshots/*.png from real runs of fitiq-tui in tmux: the end-to-end tests' tmux driver
# takes them (Tests/EndToEndTests/ScreenshotTests.swift, run when FITIQ_SCREENSHOTS names a folder),
# and render.py paints each capture (`capture-pane -e -p -N`) to PNG (pyte + Pillow, local venv).
#
# Usage: scripts/screenshots/run.sh   (after `swift build --build-tests`)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/screenshots"
VENV="$ROOT/.venv-screenshots"

if ! "$VENV/bin/python" -c 'import pyte, PIL' 2>/dev/null; then
    echo "Setting up $VENV (pyte, Pillow)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check pyte Pillow
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/fitiq-screenshots.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

cd "$ROOT"
FITIQ_SCREENSHOTS="$WORK" swift test --skip-build --filter ScreenshotTests

mkdir -p "$OUT"
for capture in "$WORK"/*.ans; do
    name="$(basename "$capture" .ans)"
    read -r cols rows cursor <"$WORK/$name.size"
    "$VENV/bin/python" scripts/screenshots/render.py "$capture" "$OUT/$name.png" --cols "$cols" --rows "$rows" \
        ${cursor:+--cursor "$cursor"}
    echo "screenshots/$name.png (${cols}x${rows})"
done
echo "done: $(ls "$WORK"/*.ans | wc -l) screenshots in screenshots/"
