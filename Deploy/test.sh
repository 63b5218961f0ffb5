#!/usr/bin/env bash
# Sets up a fresh Debian machine, checks the formatting and the layering (Deploy/layers.sh), builds Caddie, and runs
# every test: the XCTest and swift-testing suites (unit, property, store, CLI, API, crash, hostile-peer, 16-peer
# load and `caddie demo` end to end), the protocol vectors with an independent Python decoder, the HTTP API
# against its OpenAPI document with schemathesis, the web app in Debian's chromium (Selenium, axe-core), every
# libFuzzer harness for CADDIE_FUZZ_SECONDS (30) each, and the systemd unit. Any step that fails or cannot run
# fails the whole run and says which; CADDIE_SKIP_ROOT_TESTS=1 skips only the tests that need root (README).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash Deploy/setup.sh
echo "test: checking the formatting (swift-format, .swift-format)"
if ! swift-format lint --strict --recursive Sources Tests Package.swift; then
    echo "test: the code above is not formatted: run swift-format format --in-place --recursive Sources Tests Package.swift" >&2
    exit 1
fi
echo "test: checking the layering (Deploy/layers.sh)"
bash Deploy/layers.sh
echo "test: building"
if ! swift build --build-tests > /tmp/caddie-build.log 2>&1; then
    { grep -E "error:" /tmp/caddie-build.log || tail -20 /tmp/caddie-build.log; } | head -40 >&2
    echo "test: the build failed (log: /tmp/caddie-build.log)" >&2
    exit 1
fi
echo "test: running the test suites (XCTest and swift-testing)"
set +e
swift test 2>&1 | tee /tmp/caddie-swift-test.log | grep -E "✘|Test run with|Executed [0-9]+ tests?, with" | grep -vE "^Test Suite"
swift_status=${PIPESTATUS[0]}
set -e
bash Deploy/test-summary.sh /tmp/caddie-swift-test.log "$swift_status"
echo "test: decoding Protocol/vectors with an independent checker written from the specifications (Deploy/vector-check.sh)"
if ! bash Deploy/vector-check.sh; then
    echo "test: the protocol vectors do not match Protocol/op-format.md and Protocol/wire.md" >&2
    exit 1
fi
echo "test: checking the HTTP API against Protocol/openapi.yaml (openapi-spec-validator, schemathesis)"
if ! bash Deploy/api-check.sh "$(swift build --show-bin-path)/caddie"; then
    echo "test: the HTTP API check failed" >&2
    exit 1
fi
echo "test: the web app in a real browser (Deploy/web-check.sh)"
if ! bash Deploy/web-check.sh "$(swift build --show-bin-path)/caddie" > /tmp/caddie-web-check.log 2>&1; then
    echo "test: the web app check failed (log: /tmp/caddie-web-check.log)" >&2
    grep -E "FAIL|Error|error" /tmp/caddie-web-check.log | head -30 >&2
    exit 1
fi
grep -E "^# (pass|fail) |^web: |^\{\"web\"" /tmp/caddie-web-check.log
echo "test: fuzzing every harness for ${CADDIE_FUZZ_SECONDS:-30} s (libFuzzer)"
if ! bash Deploy/fuzz.sh "${CADDIE_FUZZ_SECONDS:-30}"; then
    echo "test: a fuzz harness crashed (inputs in Fuzz/crashes/)" >&2
    exit 1
fi
echo "test: checking the systemd unit (systemd-analyze verify)"
if ! command -v systemd-analyze >/dev/null; then
    echo "test: systemd-analyze is missing (Deploy/setup.sh installs the systemd package): the unit cannot be checked" >&2
    exit 1
fi
unit_dir="$(mktemp -d)"
sed "s|/usr/local/bin/caddie|$(swift build --show-bin-path)/caddie|" Deploy/systemd/caddie.service > "$unit_dir/caddie.service"
if ! systemd-analyze verify "$unit_dir/caddie.service"; then echo "test: the systemd unit does not verify" >&2; exit 1; fi
rm -rf "$unit_dir"
# The suites' closing line last, for whoever reads the end of the run (test-summary.sh has judged it already).
grep -E "Test run with .* tests" /tmp/caddie-swift-test.log | tail -1 || true
