#!/usr/bin/env bash
# The no-rebuild checks of `make check`, after `make release` (README "Building"):
#   - a second release build compiles nothing;
#   - `make stage` (what install, dist and demo build first) compiles nothing;
#   - after it, .build/release/fitiq-tui still has the static Swift runtime;
#   - a change of the version alone (the checkout marked dirty) compiles one file.
#
#   scripts/test/rebuilds.sh RELEASE_FLAGS...
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
log=$(mktemp)
marked=""
restore() {
    if [ -n "$marked" ]; then cp -p "$marked" README.md && rm -f "$marked"; fi
    rm -f "$log"
}
trap restore EXIT

# The lines of a build log that compiled or linked something ("Compiling plugin" lines are printed
# for cached plugins too, and compile nothing).
work_lines() {
    grep -E "^\[[0-9]+/[0-9]+\] ($1)" "$log" | grep -v '\] Compiling plugin ' || true
}
# How many files a build log compiled or linked; the first few go to standard error.
compiled() {
    work_lines 'Compiling|Linking' | head -5 >&2
    work_lines 'Compiling|Linking' | wc -l
}
fail() {
    echo "rebuilds: $*" >&2
    exit 1
}
static_runtime() {
    ! ldd .build/release/fitiq-tui | grep -q libswiftCore
}

"$SWIFT" build "$@" >"$log" 2>&1 || { cat "$log"; fail "the release build failed"; }
n=$(compiled)
[ "$n" = 0 ] || fail "a second release build with nothing changed compiled or linked $n files"
echo "rebuilds: a second release build compiled nothing"

make --no-print-directory stage >"$log" 2>&1 || { cat "$log"; fail "make stage failed"; }
n=$(compiled)
[ "$n" = 0 ] || fail "make stage after make release compiled or linked $n files"
static_runtime || fail ".build/release/fitiq-tui lost its static Swift runtime in make stage"
echo "rebuilds: make stage compiled nothing, and .build/release/fitiq-tui keeps its static runtime"

# A version-only change: README.md is no build input, and a changed tracked file makes the version
# `…-dirty` (scripts/version.sh). The copy puts it back, with its time, whatever happens.
marked=$(mktemp)
cp -p README.md "$marked"
echo >>README.md
"$SWIFT" build "$@" >"$log" 2>&1 || { cat "$log"; fail "the release build of a new version failed"; }
work_lines Compiling >&2
swift_files=$(work_lines Compiling | wc -l)
cp -p "$marked" README.md
rm -f "$marked"
marked=""
[ "$swift_files" -le 1 ] || fail "a version-only change compiled $swift_files files, not 1"
.build/release/fitiq-tui --version | grep -q -- '-dirty' || fail "the new version did not reach the program"
"$SWIFT" build "$@" >"$log" 2>&1 || { cat "$log"; fail "the release build of the version put back failed"; }
echo "rebuilds: a version-only change compiled $swift_files file"
