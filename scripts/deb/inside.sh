#!/bin/sh
# Run by scripts/deb/check.sh inside the clean Debian 12 root, as root: see there.
#
#   sh /check/inside.sh VERSION ARCH
set -eu
version=$1 arch=$2
cd /check
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'deb-check: %s\n' "$*" >&2; exit 1; }
# Waits (at most 30 s) until `command` succeeds: a state, not a time.
wait_for() {
    what=$1; shift
    tries=0
    until "$@" >/dev/null 2>&1; do
        tries=$((tries + 1))
        [ $tries -lt 300 ] || fail "gave up waiting for $what"
        sleep 0.1
    done
}

step "apt-get install ./fitiq-tui ./fitiq-dev-server (revision 0, to upgrade from)"
old_tui=$(ls old/fitiq-tui_*.deb) old_server=$(ls old/fitiq-dev-server_*.deb)
dpkg-query -W -f '${Package}\n' | sort > before
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "./$old_tui" "./$old_server" >apt.log 2>&1 \
    || { cat apt.log; fail "apt-get install failed"; }
dpkg-query -W -f '${Package}\n' | sort > after
echo "apt pulled in: $(comm -13 before after | tr '\n' ' ')"

step "fitiq-tui --version, man -w, the bash completion"
fitiq-tui --version
man -w fitiq-tui
bash -c '. /usr/share/bash-completion/completions/fitiq-tui && complete -p fitiq-tui'

step "the packaged fitiq-dev-server on loopback; register, weight set, sync --wait, status"
useradd --create-home ana
server_log=$(mktemp)
FITIQ_DEV_API_KEY=deb-check-api-key-0123 fitiq-dev-server --port 0 --log-level error >"$server_log" 2>&1 &
server=$!
wait_for "the server to listen" grep -q '^listening on ' "$server_log"
url=$(sed -n 's/^listening on //p' "$server_log" | head -1)
echo "server: $url"
as_ana() { su ana -c "FITIQ_API_KEY=deb-check-api-key-0123 $*"; }
printf 'deb-check-password-1\n' | as_ana "fitiq-tui register --server $url --email ana@example.com --name Ana --date-of-birth 1990-05-15"
as_ana "fitiq-tui weight set 72.4"
as_ana "fitiq-tui sync --wait"
as_ana "fitiq-tui status"
german=$(as_ana "FITIQ_LANG=de fitiq-tui status")
echo "$german"
echo "$german" | grep -q 'Konto' || fail "status in German said: $german"

step "fitiq-tui demo in tmux, with both packages"
tmux new-session -d -s demo -x 100 -y 30 "fitiq-tui demo"
wait_for "the demo profile" sh -c 'tmux capture-pane -p -t demo | grep -q "Alex Demo"'
tmux capture-pane -p -t demo | head -8
tmux kill-session -t demo

step "upgrade to $version: the cache and session stay"
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "./fitiq-tui_${version}_$arch.deb" "./fitiq-dev-server_${version}_$arch.deb" >apt.log 2>&1 \
    || { cat apt.log; fail "the upgrade failed"; }
dpkg-query -W -f '${Package} ${Version}\n' fitiq-tui fitiq-dev-server
as_ana "fitiq-tui weight history" | tee history
grep -q '72.4 kg' history || fail "the weight logged before the upgrade is gone"
as_ana "fitiq-tui status" | grep -qi 'ana@example.com' || fail "the session did not survive the upgrade"
kill "$server"

step "fitiq-tui alone: demo names the package to install"
DEBIAN_FRONTEND=noninteractive apt-get remove -y fitiq-dev-server >apt.log 2>&1 || { cat apt.log; fail "remove"; }
if said=$(fitiq-tui demo 2>&1); then fail "demo ran without its server"; fi
echo "$said"
echo "$said" | grep -q 'Debian package fitiq-dev-server' || fail "demo did not name the package: $said"

step "apt-get purge: no file of the packages stays; the user's data does"
dpkg -L fitiq-tui | while read -r path; do if [ -f "$path" ]; then echo "$path"; fi; done > files
DEBIAN_FRONTEND=noninteractive apt-get purge -y fitiq-tui >apt.log 2>&1 || { cat apt.log; fail "purge"; }
left=$(while read -r path; do if [ -e "$path" ]; then echo "$path"; fi; done < files)
[ -z "$left" ] || fail "files left after the purge: $left"
echo "purged $(wc -l < files) files; none left"
[ -n "$(find /home/ana -name '*.json' -path '*fitiq*' | head -1)" ] || fail "the purge removed the user's data"
echo "the user's cache stays: $(find /home/ana -path '*fitiq*' -type f | wc -l) files"
echo
echo "deb-check: passed"
