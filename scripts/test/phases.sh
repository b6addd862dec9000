#!/usr/bin/env bash
# Runs make targets one after another, stops at the first that fails, and prints how long each took
# (the table at the end of `make test` and `make check`).
#
#   scripts/test/phases.sh TARGET...
set -uo pipefail
cd "$(dirname "$0")/../.."

names=()
seconds=()
outcome=0
report() {
    echo
    printf '%-16s %8s\n' phase seconds
    total=0
    for i in "${!names[@]}"; do
        printf '%-16s %8s\n' "${names[$i]}" "${seconds[$i]}"
        total=$((total + ${seconds[$i]%%[!0-9]*}))
    done
    printf '%-16s %8s\n' total "$total"
}
trap report EXIT

for target in "$@"; do
    start=$(date +%s)
    make --no-print-directory "$target"
    status=$?
    names+=("$target")
    if [ "$status" -ne 0 ]; then
        seconds+=("$(($(date +%s) - start)) failed")
        outcome=$status
        break
    fi
    seconds+=("$(($(date +%s) - start))")
done
exit "$outcome"
