#!/usr/bin/env bash
# Checks the layering rules of docs/architecture.md that the compiler cannot: each C library and GRDB is imported
# by one target, NIO's sockets by the sync target only, the CLI and the API reach the database only through
# the node (Home), never through its store, and each feature service only through its own store protocol. Prints each breach with its file and line; exit 1 if there is one.
set -uo pipefail
cd "$(dirname "$0")/.."

for dir in Sources/caddie Sources/CaddieAPI Sources/CaddieStore Sources/CaddieSync Sources/CaddieNode/Features; do
    [ -d "$dir" ] || { echo "layers: $dir is missing: update Deploy/layers.sh to the new layout" >&2; exit 2; }
done

status=0
# grep's status 1 means "nothing found", which is what every rule wants; 2 is an error. `search` runs inside a command
# substitution, where `exit` leaves only that subshell: a failure is noted in a file the script checks at its end.
grep_failed=$(mktemp)
rm -f "$grep_failed"
trap 'rm -f "$grep_failed"' EXIT
search() {
    local out rc
    out=$(grep "$@")
    rc=$?
    if [ $rc -gt 1 ]; then
        echo "layers: grep failed ($*)" >&2
        touch "$grep_failed"
    fi
    printf '%s' "$out"
}
only() { # MODULE TARGET: only Sources/TARGET may import MODULE (in any form: attributes, access level, one symbol)
    local pattern found
    pattern="^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((struct|class|enum|protocol|typealias|func|let|var)\s+)?$1(\.|\s|$)"
    found=$(search -rnE "$pattern" Sources --include='*.swift' | grep -v "^Sources/$2/")
    if [ -n "$found" ]; then
        echo "layers: only $2 may import $1:" >&2
        echo "$found" >&2
        status=1
    fi
}
only GRDB CaddieStore
only GRDBSQLite CaddieStore
only CSQLite CaddieStore
only CSodium CaddieCrypto
only CAvahi CaddieDiscovery
only NIOPosix CaddieSync
only NIOSSL CaddieTLS
only COpenSSL CaddieTLS

# The CLI and the API neither reach a home's store (`home.store...`) nor open one (`OpStore(...)`). The node's error
# enum has a case `.store(...)`, which the API's error mapping names: its text is removed before the search, so it
# hides nothing else on its line. (They cannot import CaddieStore or CaddieSync at all: Package.swift gives them no
# such dependency, and MemberImportVisibility keeps them from the members of types those modules define.)
found=$(search -rnE '\.store\(|\.store\b|\bOpStore\b' Sources/caddie Sources/CaddieAPI --include='*.swift' \
    | sed -E 's/\.store\(//g; s/case \.store:/case:/g' | grep -E '\.store\b|\bOpStore\b')
if [ -n "$found" ]; then
    echo "layers: the CLI and the API go through Home, not its store (add a Home method):" >&2
    echo "$found" >&2
    status=1
fi

# A feature service sees the store only as its own protocol (Features/ServiceStores.swift): the one place it
# touches the home's store is the line that declares that view, `var store: any XStore { home.store }`.
found=$(search -rnE '\bhome\.store\b|\bOpStore\b' Sources/CaddieNode/Features --include='*.swift' \
    | grep -vE '^[^:]+:[0-9]+:\s*//' | grep -vE 'var store: any [A-Za-z]+Store \{ home\.store \}' \
    | grep -v 'ServiceStores.swift:.*extension OpStore:')
if [ -n "$found" ]; then
    echo "layers: a feature service uses the store only through its protocol in ServiceStores.swift:" >&2
    echo "$found" >&2
    status=1
fi
if [ -e "$grep_failed" ]; then
    echo "layers: a search failed (above), so the rules were not all checked" >&2
    exit 2
fi
[ $status -eq 0 ] && echo "layers: every import and store access is where docs/architecture.md puts it"
exit $status
