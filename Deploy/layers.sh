#!/usr/bin/env bash
# Checks the layering rules of docs/architecture.md that the compiler cannot: each C library and GRDB is imported
# by one target, NIO's sockets by the sync target only, and the CLI and the API reach the database only through
# the node (Home), never through its store. Prints each breach with its file and line; exit 1 if there is one.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
only() { # MODULE TARGET: only Sources/TARGET may import MODULE
    local found
    found=$(grep -rnE "^(@[a-zA-Z_]+ )?import $1\$" Sources --include=*.swift | grep -v "^Sources/$2/" || true)
    if [ -n "$found" ]; then
        echo "layers: only $2 may import $1:" >&2
        echo "$found" >&2
        status=1
    fi
}
only GRDB CaddieStore
only CSodium CaddieCrypto
only CAvahi CaddieDiscovery
only NIOPosix CaddieSync

# A member named store in the CLI or the API (`home.store...`): the enum case `.store(` of the API's errors is not one.
found=$(grep -rnE '\.store\b' Sources/caddie Sources/CaddieAPI --include=*.swift | grep -vE '\.store\(' || true)
if [ -n "$found" ]; then
    echo "layers: the CLI and the API go through Home, not its store (add a Home method):" >&2
    echo "$found" >&2
    status=1
fi
[ $status -eq 0 ] && echo "layers: every import and store access is where docs/architecture.md puts it"
exit $status
