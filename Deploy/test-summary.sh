#!/usr/bin/env bash
# Judges one `swift test` run from its log and its exit status, for Deploy/test.sh. `swift test` runs two
# frameworks, XCTest and then swift-testing, and each prints its own summary; a run passes only when
# `swift test` exited 0, neither framework reports a failure, and swift-testing ran at least one test. It
# says which framework failed and lists the failing tests.
#
#   bash Deploy/test-summary.sh LOG EXIT_STATUS
set -euo pipefail
log=${1:?usage: Deploy/test-summary.sh LOG EXIT_STATUS}
status=${2:?usage: Deploy/test-summary.sh LOG EXIT_STATUS}
failed=0

# XCTest: "Executed N tests, with M failures (K unexpected) in ..." for each suite; the last is the total.
xctest=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1 || true)
if [ -n "$xctest" ]; then
    xfailures=$(echo "$xctest" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
    if [ "$xfailures" != 0 ]; then
        echo "test: XCTest reports $xfailures failure(s):" >&2
        { grep -E "error: .*XCT|Test Case .* failed" "$log" || true; } | head -40 >&2
        failed=1
    fi
fi

# swift-testing: "✔ Test run with N tests in M suites passed after S seconds." or "✘ Test run with N tests ... failed".
testing=$(grep -E "^(✔|✘|􁁛|􀢄) Test run with" "$log" | tail -1 || true)
if [ -z "$testing" ]; then
    echo "test: swift-testing printed no summary: the run crashed or was cut short (full log: $log)" >&2
    tail -20 "$log" >&2
    failed=1
elif ! echo "$testing" | grep -q " passed after "; then
    echo "test: swift-testing reports failures: $testing" >&2
    { grep -E "^(✘|􀢄) (Test|Suite) .* (failed|recorded an issue)" "$log" || true; } | head -40 >&2
    failed=1
elif echo "$testing" | grep -qE "Test run with 0 tests"; then
    echo "test: swift-testing ran no test" >&2
    failed=1
fi

# A floor on the number of tests (Deploy/test-floor, raised by whoever adds tests): a target dropped from the run,
# or a filter left in place, passes nothing below it.
floor_file="$(dirname "$0")/test-floor"
if [ -n "$testing" ] && [ -f "$floor_file" ]; then
    floor=$(tr -dc '0-9' < "$floor_file")
    ran=$(echo "$testing" | sed -E 's/.*Test run with ([0-9]+) tests?.*/\1/')
    if [ -n "$floor" ] && [ -n "$ran" ] && [ "$ran" -lt "$floor" ]; then
        echo "test: swift-testing ran $ran tests, fewer than the floor of $floor (Deploy/test-floor): a suite was dropped" >&2
        failed=1
    fi
fi
# Tests that skipped themselves (a swift-testing `.enabled(if:)` or `.disabled`), named so that none hides.
skips=$(grep -E "^(➜|􀙟|↷|⤼) Test .* skipped" "$log" || true)
if [ -n "$skips" ]; then
    echo "test: $(printf '%s\n' "$skips" | wc -l) tests skipped:"
    printf '%s\n' "$skips" | head -20
fi

if [ "$status" != 0 ]; then
    echo "test: swift test exited with status $status" >&2
    failed=1
fi
if [ "$failed" != 0 ]; then
    echo "test: the test suites failed (full log: $log)" >&2
    exit 1
fi
echo "test: swift test passed: ${testing#* }${xctest:+; XCTest: $(echo "$xctest" | sed -E 's/^[[:space:]]*//')}"
