#!/usr/bin/env bash
# Checks Caddie's protocol test vectors (Protocol/vectors/*.json) with a second implementation written from
# Protocol/op-format.md and Protocol/wire.md alone (Deploy/tools/check-vectors.py, on PyNaCl from PyPI): every
# field decoded and encoded again, every signature, MAC, hash, key and sealed message recomputed, and tampered
# copies refused. Needs no Swift build. Ends with "vectors: N passed, M failed".
#
#   bash Deploy/vector-check.sh [VECTORS_DIR]
#
# VECTORS_DIR defaults to Protocol/vectors. Environment: CADDIE_VECTOR_VENV (the Python venv, default
# /tmp/caddie-vector-venv). Exits with the checker's status: non-zero if any vector fails or some are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PYNACL_VERSION=1.6.2
VENV=${CADDIE_VECTOR_VENV:-/tmp/caddie-vector-venv}
if ! "$VENV/bin/python" -c "import nacl, sys; sys.exit(nacl.__version__ != '$PYNACL_VERSION')" 2>/dev/null; then
    echo "vector-check: installing pynacl $PYNACL_VERSION in $VENV"
    [[ -x $VENV/bin/python ]] || python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "pynacl==$PYNACL_VERSION"
fi
echo "vector-check: checking ${1:-Protocol/vectors} against Protocol/op-format.md and Protocol/wire.md"
status=0
"$VENV/bin/python" Deploy/tools/check-vectors.py "$@" || status=$?
if [[ $status -ne 0 ]]; then
    echo "vector-check: the vectors do not match the specifications (exit $status)" >&2
fi
exit "$status"
