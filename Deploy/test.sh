#!/usr/bin/env bash
# Sets up a fresh Debian machine, checks the formatting and the layering (Deploy/layers.sh), builds Caddie, and runs
# every test: the XCTest and swift-testing suites (unit, property, store, CLI, API, crash, hostile-peer, 16-peer
# load and `caddie demo` end to end), the protocol vectors with an independent Python decoder, the HTTP API
# against its OpenAPI document with schemathesis, the web app in Debian's chromium (Selenium, axe-core), every
# libFuzzer harness for CADDIE_FUZZ_SECONDS (15) each, and the systemd unit. Any step that fails or cannot run
# fails the whole run and says which; CADDIE_SKIP_ROOT_TESTS=1 skips only the tests that need root (README).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# Each step's time, printed as it ends and again at the close of the run (what a slow CI spends its minutes on).
run_started=$(date +%s)
step_name=""
step_started=$run_started
step_times=()
step() {
    local now
    now=$(date +%s)
    if [ -n "$step_name" ]; then
        step_times+=("$(printf '%5d s  %s' $((now - step_started)) "$step_name")")
        echo "test: $step_name took $((now - step_started)) s"
    fi
    step_name="$1"
    step_started=$now
}

# The switches that size a test, echoed with their values; a value that would empty its test is refused.
for switch in CADDIE_CRASH_KILLS CADDIE_CONVERGENCE_CASES CADDIE_LOAD_PEERS CADDIE_FUZZ_SECONDS CADDIE_API_EXAMPLES; do
    value="${!switch:-}"
    [ -z "$value" ] && continue
    echo "test: $switch=$value"
    floor=1
    [ "$switch" = CADDIE_LOAD_PEERS ] && floor=2
    if ! [[ "$value" =~ ^[0-9]+$ ]] || [ "$value" -lt "$floor" ]; then
        echo "test: $switch=$value would empty its test: give a whole number of at least $floor, or unset it" >&2
        exit 1
    fi
done
if [ -n "${CADDIE_BIN:-}" ]; then echo "test: CADDIE_BIN=$CADDIE_BIN: the CLI tests run that binary, not this build"; fi

step "setup"
bash Deploy/setup.sh
step "formatting and layering"
echo "test: checking the formatting (swift-format, .swift-format)"
if ! swift-format lint --strict --recursive Sources Tests Package.swift; then
    echo "test: the code above is not formatted: run swift-format format --in-place --recursive Sources Tests Package.swift" >&2
    exit 1
fi
echo "test: checking the layering (Deploy/layers.sh)"
bash Deploy/layers.sh
step "resolving the packages"
# Once, before the two builds below start: they then share one Package.resolved and never write it at once.
if ! swift package resolve > /tmp/caddie-resolve.log 2>&1; then
    tail -20 /tmp/caddie-resolve.log >&2
    echo "test: the packages did not resolve (log: /tmp/caddie-resolve.log)" >&2
    exit 1
fi
# Fuzzing (its own libFuzzer build, then each harness on one core) runs beside the build, the suites and the API and
# web checks rather than after them. Its build starts first, at CPU niceness 19: it takes only what the main build
# and the suites leave idle (a build waits on one module at a time; the suites on processes), so it no longer
# slows them. Its harnesses then run at this script's priority, beside the main build: that build waits on one
# module at a time often enough to absorb them (881 s with them beside it, 888 s with them held back until it was
# done, when they slowed the suites from 402 s to 459 s). Its result is judged at the end, with the rest.
fuzz_log=/tmp/caddie-fuzz.log
fuzz_started=$(date +%s)
echo "test: fuzzing every harness for ${CADDIE_FUZZ_SECONDS:-15} s (libFuzzer), beside the steps below (log: $fuzz_log)"
# In a session of its own, so that a run that stops early takes the fuzz build and harnesses with it.
CADDIE_FUZZ_BUILD_NICE=19 setsid bash Deploy/fuzz.sh "${CADDIE_FUZZ_SECONDS:-15}" > "$fuzz_log" 2>&1 &
fuzz_pid=$!
trap 'kill -- -"$fuzz_pid" 2>/dev/null || true' EXIT
step "build"
echo "test: building"
if ! swift build --build-tests > /tmp/caddie-build.log 2>&1; then
    { grep -E "error:" /tmp/caddie-build.log || tail -20 /tmp/caddie-build.log; } | head -40 >&2
    echo "test: the build failed (log: /tmp/caddie-build.log)" >&2
    exit 1
fi
fuzz_done() {
    local status=0
    wait "$fuzz_pid" || status=$?
    echo "test: fuzzing ended $(($(date +%s) - fuzz_started)) s after it began"
    cat "$fuzz_log"
    return $status
}
api_pid=""
trap 'for pid in $fuzz_pid $api_pid; do kill -- -"$pid" 2>/dev/null || true; done' EXIT
step "swift test"
echo "test: running the test suites (XCTest and swift-testing)"
set +e
swift test 2>&1 | tee /tmp/caddie-swift-test.log | grep -E "✘|Test run with|Executed [0-9]+ tests?, with" | grep -vE "^Test Suite"
swift_status=${PIPESTATUS[0]}
set -e
bash Deploy/test-summary.sh /tmp/caddie-swift-test.log "$swift_status"
step "sync sessions alone"
# Two sync nodes in the test process, their sessions timed: they need the process to themselves
# (Tests/CaddieSyncTests/SessionsAlone.swift), so they run here, skipped in the suite above.
echo "test: the tests that time live sync sessions in-process, alone (LiveRevocationTests, SyncDurabilityTests, PeerTableTests)"
set +e
CADDIE_SESSIONS_ALONE=1 swift test --skip-build --filter 'LiveRevocationTests|SyncDurabilityTests|PeerTableTests' 2>&1 \
    | tee /tmp/caddie-sessions-test.log | grep -E "✘|Test run with|after the revocation"
sessions_status=${PIPESTATUS[0]}
set -e
if [ "$sessions_status" -ne 0 ] || grep -q "✘" /tmp/caddie-sessions-test.log \
    || ! grep -qE "Test run with 3 tests in 3 suites passed" /tmp/caddie-sessions-test.log; then
    echo "test: the sync sessions' tests failed or did not run (full log: /tmp/caddie-sessions-test.log)" >&2
    exit 1
fi
step "protocol vectors"
echo "test: decoding Protocol/vectors with an independent checker written from the specifications (Deploy/vector-check.sh)"
if ! bash Deploy/vector-check.sh; then
    echo "test: the protocol vectors do not match Protocol/op-format.md and Protocol/wire.md" >&2
    exit 1
fi
step "API and web checks (side by side)"
# Each keeps about one core busy (schemathesis and a node; chromium and two nodes), so they run together.
bin_path="$(swift build --show-bin-path)"
echo "test: checking the HTTP API against Protocol/openapi.yaml (openapi-spec-validator, schemathesis; log: /tmp/caddie-api-check.log)"
setsid bash Deploy/api-check.sh "$bin_path/caddie" > /tmp/caddie-api-check.log 2>&1 &
api_pid=$!
echo "test: the web app in a real browser (Deploy/web-check.sh; log: /tmp/caddie-web-check.log)"
web_status=0
bash Deploy/web-check.sh "$bin_path/caddie" > /tmp/caddie-web-check.log 2>&1 || web_status=$?
api_status=0
wait "$api_pid" || api_status=$?
grep -vE "^\s*$" /tmp/caddie-api-check.log | tail -25
if [ $api_status -ne 0 ]; then
    echo "test: the HTTP API check failed (log: /tmp/caddie-api-check.log, above)" >&2
    exit 1
fi
if [ $web_status -ne 0 ]; then
    echo "test: the web app check failed (log: /tmp/caddie-web-check.log)" >&2
    grep -E "FAIL|Error|error" /tmp/caddie-web-check.log | head -30 >&2
    exit 1
fi
grep -E "^# (pass|fail) |^web: |^\{\"web\"" /tmp/caddie-web-check.log
step "fuzzing (what was left of it)"
if ! fuzz_done; then
    echo "test: fuzzing failed: a harness crashed (inputs in Fuzz/crashes/) or its build failed (above)" >&2
    exit 1
fi
step "systemd unit"
echo "test: checking the systemd unit (systemd-analyze verify)"
if ! command -v systemd-analyze >/dev/null; then
    echo "test: systemd-analyze is missing (Deploy/setup.sh installs the systemd package): the unit cannot be checked" >&2
    exit 1
fi
unit_dir="$(mktemp -d)"
sed "s|/usr/local/bin/caddie|$(swift build --show-bin-path)/caddie|" Deploy/systemd/caddie.service > "$unit_dir/caddie.service"
# systemd-analyze exits 0 on a misspelt key (it warns and ignores the line): such a warning fails the step too,
# since a typo would silently drop a hardening line.
unit_status=0
unit_out=$(systemd-analyze verify "$unit_dir/caddie.service" 2>&1) || unit_status=$?
[ -n "$unit_out" ] && printf '%s\n' "$unit_out"
rm -rf "$unit_dir"
if [ $unit_status -ne 0 ]; then echo "test: the systemd unit does not verify" >&2; exit 1; fi
if printf '%s' "$unit_out" | grep -qiE "unknown (key|lvalue|section)|ignoring"; then
    echo "test: systemd-analyze ignored a line of Deploy/systemd/caddie.service (above): fix its spelling" >&2
    exit 1
fi
step ""
echo "test: time by step ($(($(date +%s) - run_started)) s in all):"
printf '  %s\n' "${step_times[@]}"
# The suites' closing line last, for whoever reads the end of the run (test-summary.sh has judged it already).
grep -E "Test run with .* tests" /tmp/caddie-swift-test.log | tail -1 || true
