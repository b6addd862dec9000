#!/usr/bin/env bash
# The no-rebuild checks of `make check`, after `make release` (CONTRIBUTING.md "What the checks run"):
#   - a second `make release` compiles nothing;
#   - `make stage` (what install, dist and demo build first) compiles nothing;
#   - after it, .build/release/fitiq-tui still has the static Swift runtime;
#   - a new commit, which changes only the version (VERSION's number + the commit), compiles one file
#     (Sources/FitIQVersion).
# "Compiles" counts the object files a build wrote.
#
#   scripts/test/rebuilds.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
stamp=$(mktemp)
log=$(mktemp)
head_before=""
restore() {
    # The commit made for the version check is dropped again: the branch points where it did.
    if [ -n "$head_before" ]; then git update-ref -m "rebuilds: back" HEAD "$head_before"; fi
    rm -f "$stamp" "$log"
}
trap restore EXIT

fail() {
    echo "rebuilds: $*" >&2
    exit 1
}
# Runs a command with its output in the log, and prints the object files it wrote.
objects_written_by() {
    touch "$stamp"
    "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$* failed"; }
    find .build/release/ -name '*.o' -newer "$stamp" | sort
}
count() { grep -c . || true; }

written=$(objects_written_by make --no-print-directory release)
[ -z "$written" ] || fail "a second make release with nothing changed compiled $(count <<<"$written") files: $written"
echo "rebuilds: a second make release compiled nothing"

written=$(objects_written_by make --no-print-directory stage)
[ -z "$written" ] || fail "make stage after make release compiled $(count <<<"$written") files: $written"
if ldd .build/release/fitiq-tui | grep -q libswiftCore; then
    fail ".build/release/fitiq-tui lost its static Swift runtime in make stage"
fi
echo "rebuilds: make stage compiled nothing, and .build/release/fitiq-tui keeps its static runtime"

# A commit that changes nothing but the version: made with git's plumbing, so the index and the
# work tree are not touched, and the branch is put back at the end.
head_before=$(git rev-parse HEAD)
# (An identity of its own: a fresh machine may have none configured.)
commit=$(GIT_AUTHOR_NAME=rebuilds GIT_AUTHOR_EMAIL=rebuilds@localhost GIT_COMMITTER_NAME=rebuilds \
    GIT_COMMITTER_EMAIL=rebuilds@localhost git commit-tree "HEAD^{tree}" -p HEAD -m "rebuilds: a version-only commit")
git update-ref -m "rebuilds: a version-only commit" HEAD "$commit"
written=$(objects_written_by make --no-print-directory release)
# The number in VERSION, then the commit as its suffix (scripts/version.sh).
.build/release/fitiq-tui --version | grep -qE "^$(sed 's/\./\\./g' VERSION)\+[0-9]+\.g${commit:0:7}" \
    || fail "the new version did not reach fitiq-tui: $(.build/release/fitiq-tui --version)"
[ "$written" = ".build/release/FitIQVersion.build/Version.swift.o" ] \
    || fail "a version-only commit compiled $(count <<<"$written") files, not Sources/FitIQVersion alone: $written"
git update-ref -m "rebuilds: back" HEAD "$head_before"
head_before=""
objects_written_by make --no-print-directory release >/dev/null
echo "rebuilds: a version-only commit compiled one file, Sources/FitIQVersion/Version.swift"
