#!/usr/bin/env bash
# Makes an upgrade fixture: a small home written by the `caddie` of one schema version, with what that version
# showed of it, for UpgradeTests to open with today's `caddie` (which migrates it) and compare.
#
#   bash Tests/CaddieCLITests/Fixtures/make-home.sh CADDIE VERSION [COURSE_FILE]
#   e.g. bash Tests/CaddieCLITests/Fixtures/make-home.sh /tmp/old/.build/debug/caddie v7 /tmp/old/docs/examples/course.json
#
# Run it with the binary of the version named (built from the last commit that had that schema), never with a newer
# one: the point is a home that version wrote. COURSE_FILE defaults to today's docs/examples/course.json; give the
# example of the version's own commit. It makes Ana's and Ben's homes, a space, four players, a course, a game
# (stroke play, Stableford and the Wolf, or skins before the Wolf, where the version has game formats), scores entered on both homes (one
# disputed), a Wolf choice (where the version has `game setup`), merged by export and import, and Ana's attestation
# of Ben's card; then records Ana's `card`, `card --json`, `standings --json` (where the version has it), `log
# --game` and `verify`. What a version lacks it skips, and says so in made-by.txt. The passphrase is
# "correct horse battery", as the CLI tests use.
set -euo pipefail
caddie=$(realpath "$1")
version=$2
here=$(cd "$(dirname "$0")" && pwd)
course_file=$(realpath "${3:-$here/../../../docs/examples/course.json}")
out="$here/$version"
rm -rf "$out"
mkdir -p "$out"
export CADDIE_PASSPHRASE="correct horse battery"
ana="$out/ana"
ben="$out/ben"
run() { "$caddie" "$@"; }
json() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
# Whether the version has a subcommand: `has game setup` (an unknown one's --help prints its parent's help).
has() { local last=${*: -1}; run "${@:1:$#-1}" --help 2>/dev/null | grep -qE "^  $last( |$)"; }
skipped=""
run login --home "$ana" --name Ana > /dev/null
run login --home "$ben" --name Ben > /dev/null
created=$(run space create --home "$ana" Saturday --json)
space=$(echo "$created" | json space)
if echo "$created" | grep -q '"invite"'; then
    invite=$(echo "$created" | json invite) # up to the invites as tickets, creating a space printed its code
elif has space invite && { run space invite --help; run space invite new --help 2>/dev/null || true; } | grep -q -- --shared-key; then
    invite=$(run space invite --home "$ana" --shared-key --space "$space" --json | json invite)
else
    invite=$(run space invite --home "$ana" --space "$space" --json | json invite)
fi
run space join --home "$ben" "$invite" > /dev/null
players=""
for name in Ana Ben Cleo Dev; do
    id=$(run player add --home "$ana" "$name" --index 18.2 --json | json player)
    players="$players${players:+,}$id"
done
course=$(run course import --home "$ana" "$course_file" --json | json course)
formats=()
wolf=no
if run game new --help | grep -q -- --formats; then
    if run game new --help | grep -qw wolf; then
        formats=(--formats stroke,stableford,wolf)
        wolf=yes
    else
        formats=(--formats stroke,stableford,skins)
        skipped="$skipped the Wolf (skins instead);"
    fi
else
    skipped="$skipped game formats;"
fi
game=$(run game new --home "$ana" --course "$course" --tee 1 --players "$players" "${formats[@]}" --json | json game)
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
if [ "$wolf" = yes ] && has game setup; then
    run game setup --home "$ana" "$game" --entry 1:wolf=Cleo > /dev/null
else
    skipped="$skipped the Wolf's choice;"
fi
# The same cell on both homes before they meet: a dispute.
run score --home "$ben" "$game" Cleo 2 4 > /dev/null
run score --home "$ana" "$game" Cleo 2 6 > /dev/null
merge
run attest --home "$ana" "$game" Ben > /dev/null || true
merge
run card --home "$ana" "$game" > "$out/card.txt"
run card --home "$ana" "$game" --json > "$out/card.json"
if has standings; then
    run standings --home "$ana" "$game" --json > "$out/standings.json"
else
    skipped="$skipped standings;"
fi
run log --home "$ana" --game "$game" > "$out/log.txt"
run verify --home "$ana" > "$out/verify.txt"
echo "$game" > "$out/game.txt"
commit=$(git -C "$(dirname "$caddie")" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "caddie $("$caddie" --version 2>/dev/null) at commit $commit (schema $version), made by make-home.sh $version on $(date -u +%F)"
    if [ -n "$skipped" ]; then echo "that version has no:$skipped"; fi
} > "$out/made-by.txt"
echo "fixture $version written to $out (game $game)"
