#!/usr/bin/env bash
# Caddie's foursome round beside pycrdt's and Loro's, run one after the other, and the ratios of their convergence
# times (to each, and to the faster of the two).
#
#   bash Deploy/bench-peer.sh [EDITS]        # EDITS per device, 10000 by default
#
# Installs pycrdt 0.14.13 and loro 1.17.1 from PyPI in a virtual environment ($CADDIE_BENCH_VENV,
# /tmp/caddie-bench-venv by default), runs Deploy/bench-peer.py (both libraries, the same round), then
# `caddie-bench --converge-only` (the release build, or $CADDIE_BENCH) with their times, which prints
# convergeRatioToPycrdt, convergeRatioToLoro and convergeRatioToFaster. Build first: swift build -c release.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
edits="${1:-10000}"
venv="${CADDIE_BENCH_VENV:-/tmp/caddie-bench-venv}"
bench="${CADDIE_BENCH:-$repo/.build/release/caddie-bench}"
[ -x "$bench" ] || { echo "bench-peer: $bench is not built: run swift build -c release (or set CADDIE_BENCH)" >&2; exit 1; }
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
versions="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pycrdt"), m.version("loro"))' 2>/dev/null || true)"
if [ "$versions" != "0.14.13 1.17.1" ]; then
    "$venv/bin/pip" install --quiet "pycrdt==0.14.13" "loro==1.17.1"
fi
peers="$("$venv/bin/python" "$here/bench-peer.py" --edits "$edits")"
echo "pycrdt and loro: $peers"
field() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$peers" "$1"; }
"$bench" --converge-only --sync-ops "$edits" --pycrdt-seconds "$(field pycrdtConvergeSeconds)" \
    --loro-seconds "$(field loroConvergeSeconds)"
