#!/usr/bin/env bash
# Makes an upgrade fixture: a small home written by the `caddie` of one schema version, with what that version
# showed of it, for UpgradeTests to open with today's `caddie` (which migrates it) and compare.
#
#   bash Tests/CaddieCLITests/Fixtures/make-home.sh .build/debug/caddie v10
#
# Run it with the binary of the version named (the commit that had that schema), never with a newer one: the point is
# a home that version wrote. It makes Ana's and Ben's homes, a space, four players, a course, a game of stroke play,
# Stableford and the Wolf, scores entered on both homes (one disputed), a Wolf choice, merged by export and import,
# and Ana's attestation of Ben's card; then records Ana's `card`, `standings --json`, `log --game` and `verify`.
# The passphrase is "correct horse battery", as the CLI tests use.
set -euo pipefail
caddie=$(realpath "$1")
version=$2
here=$(cd "$(dirname "$0")" && pwd)
out="$here/$version"
rm -rf "$out"
mkdir -p "$out"
export CADDIE_PASSPHRASE="correct horse battery"
ana="$out/ana"
ben="$out/ben"
run() { "$caddie" "$@"; }
run login --home "$ana" --name Ana > /dev/null
run login --home "$ben" --name Ben > /dev/null
space=$(run space create --home "$ana" Saturday --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["space"])')
invite=$(run space invite --home "$ana" --shared-key --space "$space" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["invite"])')
run space join --home "$ben" "$invite" > /dev/null
players=""
for name in Ana Ben Cleo Dev; do
    id=$(run player add --home "$ana" "$name" --index 18.2 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["player"])')
    players="$players${players:+,}$id"
done
course=$(run course import --home "$ana" "$here/../../../docs/examples/course.json" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["course"])')
game=$(run game new --home "$ana" --course "$course" --tee 1 --players "$players" --formats stroke,stableford,wolf --json \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["game"])')
merge() {
    run export --home "$ana" --out "$out/a.bundle" > /dev/null
    run export --home "$ben" --out "$out/b.bundle" > /dev/null
    run import --home "$ana" "$out/b.bundle" > /dev/null
    run import --home "$ben" "$out/a.bundle" > /dev/null
    rm -f "$out/a.bundle" "$out/b.bundle"
}
merge
for entry in "Ana 1 4" "Ben 1 5" "Cleo 1 5" "Dev 1 6" "Ana 2 5" "Ben 2 3"; do
    set -- $entry
    run score --home "$ana" "$game" "$1" "$2" "$3" > /dev/null
done
run game setup --home "$ana" "$game" --entry 1:wolf=Cleo > /dev/null
# The same cell on both homes before they meet: a dispute.
run score --home "$ben" "$game" Cleo 2 4 > /dev/null
run score --home "$ana" "$game" Cleo 2 6 > /dev/null
merge
run attest --home "$ana" "$game" Ben > /dev/null || true
merge
run card --home "$ana" "$game" > "$out/card.txt"
run standings --home "$ana" "$game" --json > "$out/standings.json"
run log --home "$ana" --game "$game" > "$out/log.txt"
run verify --home "$ana" > "$out/verify.txt"
echo "$game" > "$out/game.txt"
"$caddie" --version > "$out/made-by.txt" 2>/dev/null || echo "caddie at $(git -C "$here" rev-parse --short HEAD)" > "$out/made-by.txt"
echo "fixture $version written to $out (game $game)"
