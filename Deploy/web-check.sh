#!/usr/bin/env bash
# Checks the web app: its pure helpers with node's test runner, then the app in Debian's chromium (through
# chromium-driver, driven by Selenium from PyPI) against two real `caddie serve` nodes that sync; accessibility
# with axe-core (from the axe-selenium-python package). Prints the figures (first-load bytes, tap-to-paint
# latency, the app's memory) and ends with "web: N passed, N failed".
#
# Usage: Deploy/web-check.sh CADDIE_BINARY
# CADDIE_SCREENSHOTS=DIR keeps the screenshots there (docs/screenshots to refresh the documented ones).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: Deploy/web-check.sh CADDIE_BINARY}
SELENIUM_VERSION=4.38.0
AXE_VERSION=2.1.6
VENV=${CADDIE_WEB_VENV:-/tmp/caddie-web-venv}
for tool in chromium chromedriver node; do
    command -v "$tool" >/dev/null || { echo "web-check: $tool is missing: run Deploy/setup.sh" >&2; exit 1; }
done
if ! "$VENV/bin/python" -c "import selenium, axe_selenium_python, sys; sys.exit(selenium.__version__ != '$SELENIUM_VERSION')" 2>/dev/null; then
    echo "web-check: installing selenium $SELENIUM_VERSION and axe-selenium-python $AXE_VERSION"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "selenium==$SELENIUM_VERSION" "axe-selenium-python==$AXE_VERSION"
fi
echo "web-check: the app's helpers (node --test)"
# node's runner passes with "tests 0" when it finds no test file: a renamed file must not pass silently.
node_log="$(mktemp)"
node_status=0
node --test --test-reporter=tap Tests/Web/ > "$node_log" 2>&1 || node_status=$?
cat "$node_log"
node_tests=$(grep -oE "^# tests [0-9]+" "$node_log" | grep -oE "[0-9]+$" || echo 0)
if [ "$node_status" != 0 ] || [ "$node_tests" = 0 ]; then
    echo "web-check: the app's helper tests failed or none ran (exit $node_status, $node_tests tests)" >&2
    exit 1
fi
SHOTS=${CADDIE_SCREENSHOTS:-$(mktemp -d)}
echo "web-check: the app in chromium, screenshots in $SHOTS"
"$VENV/bin/python" Tests/Web/browser_test.py "$BIN" "$SHOTS"
