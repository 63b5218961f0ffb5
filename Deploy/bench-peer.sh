#!/usr/bin/env bash
# Caddie's foursome round beside pycrdt's, run one after the other, and the ratio of their convergence times.
#
#   bash Deploy/bench-peer.sh [EDITS]        # EDITS per device, 10000 by default
#
# Installs pycrdt 0.14.13 from PyPI in a virtual environment ($CADDIE_BENCH_VENV, /tmp/caddie-bench-venv by
# default), runs Deploy/bench-peer.py, then `caddie-bench --converge-only` (the release build, or $CADDIE_BENCH)
# with pycrdt's time, which prints convergeRatioToPycrdt. Build first: swift build -c release.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
edits="${1:-10000}"
venv="${CADDIE_BENCH_VENV:-/tmp/caddie-bench-venv}"
bench="${CADDIE_BENCH:-$repo/.build/release/caddie-bench}"
[ -x "$bench" ] || { echo "bench-peer: $bench is not built: run swift build -c release (or set CADDIE_BENCH)" >&2; exit 1; }
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if [ "$("$venv/bin/python" -c 'import pycrdt; print(pycrdt.__version__)' 2>/dev/null)" != "0.14.13" ]; then
    "$venv/bin/pip" install --quiet "pycrdt==0.14.13"
fi
pycrdt="$("$venv/bin/python" "$here/bench-peer.py" --edits "$edits")"
echo "pycrdt: $pycrdt"
seconds="$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["pycrdtConvergeSeconds"])' "$pycrdt")"
"$bench" --converge-only --sync-ops "$edits" --pycrdt-seconds "$seconds"
