#!/usr/bin/env bash
# The main job: sets up a fresh Debian machine, builds Caddie, and plays a scripted foursome round across
# four local homes (one per player) that score offline, disagree on one hole, merge by file, and agree.
# It ends by printing the merged scorecard and the audit log. Everything lives in a temporary folder that
# is removed at the end (keep it with CADDIE_DEMO_KEEP=1).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash Deploy/setup.sh
echo "demo: building caddie"
swift build --product caddie 2>&1 | tail -n 1
caddie="$(swift build --show-bin-path)/caddie"

work="$(mktemp -d /tmp/caddie-demo.XXXXXX)"
if [ "${CADDIE_DEMO_KEEP:-0}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi
export CADDIE_PASSPHRASE="demo passphrase"
names=(Ana Ben Cleo Dev)
c() { local who="$1"; shift; "$caddie" --home "$work/$who" "$@"; }
merge() {
    for who in "${names[@]}"; do c "$who" export --out "$work/$who.bundle" >/dev/null; done
    for who in "${names[@]}"; do
        for other in "${names[@]}"; do
            [ "$who" = "$other" ] || c "$who" import "$work/$other.bundle" >/dev/null
        done
    done
}
json() { python3 -c "import json,sys; print(json.load(sys.stdin)[\"$1\"])"; }

echo "== Each player logs in on their own device"
for who in "${names[@]}"; do c "$who" login --name "$who" >/dev/null; echo "   $who: $(c "$who" whoami --json)"; done

echo "== Ana creates the space and shares the invite; the others join"
invite=$(c Ana space create "Saturday foursome" --json | json invite)
echo "   invite: $invite"
for who in Ben Cleo Dev; do c "$who" space join "$invite" >/dev/null; done

echo "== Ana adds the players, the course (docs/examples/course.json) and the game"
declare -A id
for who in "${names[@]}"; do id[$who]=$(c Ana player add "$who" --json | json player); done
course=$(c Ana course import docs/examples/course.json --json | json course)
game=$(c Ana game new --course "$course" --tee 1 --players "${id[Ana]},${id[Ben]},${id[Cleo]},${id[Dev]}" --json | json game)
merge
echo "   game $game on course $course, merged to every device"

echo "== On the course, offline: everyone marks their own card for nine holes"
scores_Ana=(5 4 5 3 6 4 4 3 5); scores_Ben=(6 5 4 4 6 5 5 3 4); scores_Cleo=(5 5 5 3 5 4 5 4 5); scores_Dev=(7 4 6 3 6 5 4 4 5)
for who in "${names[@]}"; do
    eval "list=(\"\${scores_$who[@]}\")"
    for hole in $(seq 1 9); do c "$who" score "$game" "$who" "$hole" "${list[$((hole - 1))]}" >/dev/null; done
done
echo "== Ben, marking Dev, enters 6 on the 7th; Dev's own card says 4: a conflict nobody sees yet"
c Ben score "$game" Dev 7 6 >/dev/null

echo "== Back at the clubhouse the devices meet and merge"
merge
for who in "${names[@]}"; do echo "   $who state hash $(c "$who" state-hash)"; done

echo
c Ana card "$game"
echo
echo "== Dev and Ben agree on 5; Dev enters it, which supersedes both values"
c Dev score "$game" Dev 7 5 >/dev/null
merge
c Cleo attest "$game" Dev >/dev/null
merge
echo
c Ben card "$game"
echo
echo "== Audit log of the game (as Cleo's device sees it)"
c Cleo log --game "$game"
echo
echo "== History of Dev's 7th"
c Cleo history "$game" Dev 7
echo
c Ana verify
hashes=$(for who in "${names[@]}"; do c "$who" state-hash; done | sort -u | wc -l)
if [ "$hashes" -ne 1 ]; then echo "demo: the four homes did not converge" >&2; exit 1; fi
echo "demo: all four homes hold the same state"
