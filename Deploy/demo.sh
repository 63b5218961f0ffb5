#!/usr/bin/env bash
# The main job: sets up a fresh Debian machine, builds Caddie, and plays a scripted foursome round across
# four local homes (one per player) that score offline, disagree on one hole, merge by file, and agree.
# It ends by printing the merged scorecard and the audit log. Everything lives in a temporary folder that
# is removed at the end (keep it with CADDIE_DEMO_KEEP=1).
#
#   bash Deploy/demo.sh          merge by file (export/import), anywhere
#   bash Deploy/demo.sh --lab    as root: four hosts in the network lab find each other over mDNS and sync
set -euo pipefail
lab=0
[ "${1:-}" = "--lab" ] && lab=1
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash Deploy/setup.sh
echo "demo: building caddie"
swift build --product caddie 2>&1 | tail -n 1
caddie="$(swift build --show-bin-path)/caddie"

work="$(mktemp -d /tmp/caddie-demo.XXXXXX)"
export CADDIE_LAB_PREFIX="cd$$"
cleanup() {
    if [ "$lab" = 1 ]; then
        pkill -f "caddie serve --listen 10.251.0" 2>/dev/null || true
        bash Deploy/lab.sh down >/dev/null 2>&1 || true
    fi
    if [ "${CADDIE_DEMO_KEEP:-0}" != 1 ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
if [ "$lab" = 1 ] && [ "$(id -u)" -ne 0 ]; then echo "demo: --lab needs root (network namespaces)" >&2; exit 1; fi
export CADDIE_PASSPHRASE="demo passphrase"
names=(Ana Ben Cleo Dev)
c() { local who="$1"; shift; "$caddie" --home "$work/$who" "$@"; }
hashes() { for who in "${names[@]}"; do c "$who" state-hash; done | sort -u | wc -l; }
wait_converged() {
    local start=$SECONDS
    for _ in $(seq 1 300); do
        [ "$(hashes)" -eq 1 ] && { echo "   converged over the network in about $((SECONDS - start + 1)) s"; return; }
        sleep 0.1
    done
    echo "demo: the four nodes did not converge within 30 s" >&2; exit 1
}
live=0
merge() {
    if [ "$live" = 1 ]; then wait_converged; return; fi
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

if [ "$lab" = 1 ]; then
    echo "== Back at the clubhouse: four hosts in the network lab, each running caddie serve with no --peer"
    bash Deploy/lab.sh up 4 >/dev/null
    i=0
    for who in "${names[@]}"; do
        i=$((i + 1))
        bash Deploy/lab.sh exec "$i" env CADDIE_PASSPHRASE="$CADDIE_PASSPHRASE" "$caddie" serve \
            --listen "10.251.0.$i:7400" --home "$work/$who" > "$work/$who.serve.log" 2>&1 &
    done
    live=1
    merge
    echo "   how Ana's device found the others: $(c Ana peers --json | python3 -c 'import json,sys; print(sorted({p["foundBy"] for p in json.load(sys.stdin)}))')"
else
    echo "== Back at the clubhouse the devices meet and merge"
    merge
fi
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
