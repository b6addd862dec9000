#!/usr/bin/env bash
# Sanitizer run (`make sanitize`): builds the tests under ThreadSanitizer, runs the suites below,
# then the same under AddressSanitizer (with LeakSanitizer). Each sanitizer builds into its own
# scratch folder (.build-tsan, .build-asan), so the normal .build is untouched.
#
# Usage: scripts/sanitize/run.sh [thread|address ...]   (default: thread address)
#   Environment: SWIFT (default swift); SANITIZE_SUITES (space-separated test targets, default below);
#   TSAN_OPTIONS / ASAN_OPTIONS / LSAN_OPTIONS are appended to the options set here (later wins).
# A suite fails when its tests fail, when it ends without the test run's closing line, or when a
# sanitizer report appears in its output. Suppressions: scripts/sanitize/{tsan,asan,lsan}.supp.
# Full output of each suite: SCRATCH/sanitize-logs/SUITE.log; the reports of every process it
# started (log_path): SCRATCH/sanitize-logs/SUITE.reports/. Exits 1 when any suite failed.
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$repo_root/scripts/sanitize"
swift="${SWIFT:-swift}"
sanitizers=("$@")
[[ ${#sanitizers[@]} -gt 0 ]] || sanitizers=(thread address)
read -r -a suites <<<"${SANITIZE_SUITES:-FitIQLocalizationTests FitIQCoreTests FitIQCacheTests FitIQHTTPTests FitIQImportTests FitIQTUITests FitIQEditorTests NcursesTerminalTests FitIQDevServerTests FitIQCLITests EndToEndTests}"

# What every sanitizer report starts with (the run fails on any of them, whatever the exit code).
report_pattern='WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer'

cd "$repo_root" || exit 2
summary=()
failed=0

for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
    thread) scratch=.build-tsan ;;
    address) scratch=.build-asan ;;
    *)
        echo "sanitize: unknown sanitizer '$sanitizer' (thread or address)" >&2
        exit 2
        ;;
    esac
    flags=(--sanitize="$sanitizer" --scratch-path "$scratch")

    echo "sanitize: building the tests with --sanitize=$sanitizer into $scratch" >&2
    build_start=$(date +%s)
    if ! "$swift" build --build-tests "${flags[@]}"; then
        summary+=("$(printf '%-8s %-22s %s' "$sanitizer" "(build)" "FAILED")")
        failed=1
        continue
    fi
    summary+=("$(printf '%-8s %-22s %-34s %5ds' "$sanitizer" "(build)" "ok" $(($(date +%s) - build_start)))")

    logs="$scratch/sanitize-logs"
    mkdir -p "$logs"
    for suite in "${suites[@]}"; do
        log="$logs/$suite.log"
        # Every process the suite starts (the fitiq-tui binary, the cache's crash child, a launched
        # development server) is built with the same sanitizer and writes its reports here too.
        reports_dir="$logs/$suite.reports"
        rm -rf "$reports_dir" && mkdir -p "$reports_dir"
        echo "sanitize: $sanitizer $suite" >&2
        start=$(date +%s)
        # halt_on_error: the first report ends the process with a non-zero code. The filter matches
        # Swift Testing's names, TARGET.Type/test(): a test in an extension of another module's type
        # would be named after that module and left out.
        TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$here/tsan.supp log_path=$reports_dir/tsan ${TSAN_OPTIONS:-}" \
            ASAN_OPTIONS="halt_on_error=1 exitcode=67 detect_leaks=1 suppressions=$here/asan.supp log_path=$reports_dir/asan ${ASAN_OPTIONS:-}" \
            LSAN_OPTIONS="exitcode=68 suppressions=$here/lsan.supp print_suppressions=0 ${LSAN_OPTIONS:-}" \
            "$swift" test --skip-build "${flags[@]}" --disable-xctest --filter "^$suite[./]" >"$log" 2>&1
        status=$?
        seconds=$(($(date +%s) - start))

        # Swift Testing's closing line: "Test run with N tests in M suites passed after S seconds."
        closing="$(grep -E 'Test run with [0-9]+ tests? ' "$log" | tail -n 1)"
        tests="$(sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' <<<"$closing")"
        reports="$(cat "$log" "$reports_dir"/* 2>/dev/null | grep -cE "$report_pattern")"
        if [[ $status -eq 0 && $reports -eq 0 && "$closing" == *" passed after "* ]]; then
            result="ok, ${tests} tests passed"
        else
            result="FAILED (exit $status, ${tests:-?} tests, $reports sanitizer reports)"
            failed=1
            echo "sanitize: $sanitizer $suite failed; full output in $log" >&2
            if [[ $reports -gt 0 ]]; then
                cat "$log" "$reports_dir"/* 2>/dev/null | grep -m 1 -A 40 -E "$report_pattern" >&2
            else
                tail -n 40 "$log" >&2
            fi
        fi
        summary+=("$(printf '%-8s %-22s %-34s %5ds' "$sanitizer" "$suite" "$result" "$seconds")")
    done
done

echo
echo "sanitizer suite                  result                              time"
printf '%s\n' "${summary[@]}"
exit "$failed"
