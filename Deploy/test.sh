#!/usr/bin/env bash
# Sets up a fresh Debian machine, checks the formatting and the layering (Deploy/layers.sh), builds Caddie, and runs
# every test: the swift-testing suites (unit,
# property, store, CLI, API, crash, hostile-peer and 16-peer load tests), the HTTP API against its OpenAPI
# document with schemathesis, the web app in Debian's chromium (Selenium, axe-core), every libFuzzer harness
# for CADDIE_FUZZ_SECONDS (45) each, the systemd unit, and `caddie demo` as an end-to-end check.
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
swift build 2>&1 | grep -E "error|warning: unreachable|Compiling|Build complete" | grep -v "^\[" || true
swift build >/dev/null
echo "test: running the test suites"
swift test 2>&1 | tee /tmp/caddie-swift-test.log | grep -E "✘|Test run with|passed after [0-9.]+ seconds\.$" | grep -E "✘|Test run" || true
if ! grep -q "^✔ Test run with .* passed" /tmp/caddie-swift-test.log; then
    echo "test: the test suites failed; see the lines marked ✘ above (full log: /tmp/caddie-swift-test.log)" >&2
    grep -E "✘|Expectation failed|error:" /tmp/caddie-swift-test.log | head -40 >&2
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
echo "test: fuzzing every harness for ${CADDIE_FUZZ_SECONDS:-45} s (libFuzzer)"
if ! bash Deploy/fuzz.sh "${CADDIE_FUZZ_SECONDS:-45}"; then
    echo "test: a fuzz harness crashed (inputs in Fuzz/crashes/)" >&2
    exit 1
fi
if command -v systemd-analyze >/dev/null; then
    echo "test: checking the systemd unit"
    unit_dir="$(mktemp -d)"
    sed "s|/usr/local/bin/caddie|$(swift build --show-bin-path)/caddie|" Deploy/systemd/caddie.service > "$unit_dir/caddie.service"
    if ! systemd-analyze verify "$unit_dir/caddie.service"; then echo "test: the systemd unit does not verify" >&2; exit 1; fi
    rm -rf "$unit_dir"
fi
echo "test: running the round demo end to end"
if bash Deploy/demo.sh > /tmp/caddie-demo.log 2>&1 && grep -q "^demo: converged, all four homes hold the same state" /tmp/caddie-demo.log \
    && grep -q "Dev, hole 7: 6 by Ben vs 4 by Dev" /tmp/caddie-demo.log && grep -q "— standing" /tmp/caddie-demo.log; then
    echo "test: demo converged, showed the conflict and its resolution ($(grep -o 'converged after the round in [0-9.]* s' /tmp/caddie-demo.log))"
else
    echo "test: the demo failed (log: /tmp/caddie-demo.log)" >&2
    tail -20 /tmp/caddie-demo.log >&2
    exit 1
fi
grep -E "^✔ Test run with" /tmp/caddie-swift-test.log
