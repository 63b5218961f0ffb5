#!/usr/bin/env bash
# Checks the HTTP API of `caddie serve --http` against Protocol/openapi.yaml.
#
#   bash Deploy/api-check.sh [PATH/TO/caddie]
#
# 1. Validates Protocol/openapi.yaml as an OpenAPI 3.1 document (openapi-spec-validator).
# 2. Builds a throwaway home with real data: a space, the sample courses, players with a Handicap Index,
#    three finished rounds (so that an index is computed), a game in progress with scores, a corrected
#    score, an attestation, a conflict (from a second home, merged by bundle) and a peer (a sync with a
#    second home).
# 3. Serves it on a free loopback port and runs Schemathesis against the document: every response must
#    not be a server error, must have a documented status, content type and headers, and must match its
#    schema. Path and body fields that name records get this home's real ids and names much of the time
#    (a Schemathesis dictionary), and the document's examples are replaced by real ids, so that the
#    success paths are exercised as well as the 400s and 404s.
#
# The caddie binary defaults to the one `swift build` made; pass its path to skip asking SwiftPM.
# Environment: CADDIE_VENV (the Python venv, default /tmp/caddie-venv), CADDIE_PASSPHRASE (for the
# throwaway homes; a fixed one by default), CADDIE_API_EXAMPLES (test cases per operation and phase,
# default 60), CADDIE_API_SEED (repeat a run), CADDIE_API_REPORT (a directory to keep the reports in).
# Exits non-zero when the document is invalid or Schemathesis finds any failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SPEC="$ROOT/Protocol/openapi.yaml"
SCHEMATHESIS_VERSION=4.32.5
SPEC_VALIDATOR_VERSION=0.9.0
VENV=${CADDIE_VENV:-/tmp/caddie-venv}
EXAMPLES=${CADDIE_API_EXAMPLES:-60}
export CADDIE_PASSPHRASE=${CADDIE_PASSPHRASE:-api-check-passphrase}
unset CADDIE_HOME

say() { echo "api-check: $*"; }
fail() { echo "api-check: $*" >&2; exit 1; }

CADDIE=${1:-}
if [[ -z $CADDIE ]]; then
    CADDIE="$(cd "$ROOT" && PATH="/opt/swift/usr/bin:$PATH" swift build --show-bin-path)/caddie"
fi
[[ -x $CADDIE ]] || fail "no caddie binary at $CADDIE: build it (swift build) or pass its path"
CADDIE=$(cd "$(dirname "$CADDIE")" && pwd)/$(basename "$CADDIE")

WORK=$(mktemp -d /tmp/caddie-api-check.XXXXXX)
SERVER_PID=
PEER_PID=
stop() {
    local pid=$1
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local status=$?
    stop "$PEER_PID"
    stop "$SERVER_PID"
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Tools -------------------------------------------------------------------------------------------
if [[ ! -x $VENV/bin/python ]]; then
    say "creating the Python venv $VENV"
    if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
        rm -rf "$VENV"
        say "python3 -m venv failed: installing python3-venv"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$VENV"
    fi
fi
if ! "$VENV/bin/python" - "$SCHEMATHESIS_VERSION" "$SPEC_VALIDATOR_VERSION" 2>/dev/null <<'EOF'
import sys
from importlib.metadata import version
sys.exit(0 if (version("schemathesis"), version("openapi-spec-validator")) == tuple(sys.argv[1:3]) else 1)
EOF
then
    say "installing schemathesis $SCHEMATHESIS_VERSION and openapi-spec-validator $SPEC_VALIDATOR_VERSION"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$SPEC_VALIDATOR_VERSION"
fi
PY="$VENV/bin/python"

# --- 1. The document ---------------------------------------------------------------------------------
say "validating Protocol/openapi.yaml"
"$VENV/bin/openapi-spec-validator" "$SPEC"

# --- 2. A home with data -----------------------------------------------------------------------------
ANA="$WORK/ana"
BEN="$WORK/ben"
caddie_ana() { "$CADDIE" --home "$ANA" "$@"; }
caddie_ben() { "$CADDIE" --home "$BEN" "$@"; }
field() { "$PY" -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

say "building a home with a space, courses, players, games and scores"
caddie_ana login --name Ana >/dev/null
created=$(caddie_ana space create "Saturday foursome" --json)
SPACE=$(field space <<<"$created")
INVITE=$(caddie_ana space invite --shared-key --json | field invite)
caddie_ana course import --sample >/dev/null
courses=$(caddie_ana course list --json)
course_id() { "$PY" -c 'import json, sys; print(next(c["course"] for c in json.load(sys.stdin) if c["name"].startswith(sys.argv[1])))' "$1" <<<"$courses"; }
HAAGSCHE=$(course_id Haagsche)   # rated tees, pars and stroke indexes: net scores on the card
PEBBLE=$(course_id Pebble)       # rated tees, no stroke indexes: no handicap on the card
ZOUTE=$(course_id "Royal Zoute") # geometry only, no tees
PLAYER_ANA=$(caddie_ana player add Ana --index 18.2 --json | field player)
PLAYER_BEN=$(caddie_ana player add Ben --index 9.4 --json | field player)
PLAYER_CLEO=$(caddie_ana player add Cleo --json | field player)
caddie_ana player add Dev --index=-1.5 >/dev/null

# Three finished 18-hole rounds give Ana a computed Handicap Index.
rounds=()
for strokes in "5 6 4 5 4 6 5 3 5 6 5 4 5 6 4 5 5 6" "6 5 5 5 4 6 6 4 5 5 5 4 6 6 4 5 6 5" "5 5 4 6 5 6 5 4 6 6 6 3 5 5 5 5 5 6"; do
    game=$(caddie_ana game new --course "$HAAGSCHE" --tee 1 --players Ana --json | field game)
    hole=0
    for s in $strokes; do
        hole=$((hole + 1))
        caddie_ana score "$game" Ana "$hole" "$s" >/dev/null
    done
    caddie_ana game finish "$game" >/dev/null
    rounds+=("$game")
done
FINISHED=${rounds[0]}
# A game on a course without stroke indexes (no handicap on its card).
PEBBLE_GAME=$(caddie_ana game new --course "$PEBBLE" --tee Blue --players Ana,Cleo --json | field game)
caddie_ana score "$PEBBLE_GAME" Ana 1 5 --putts 2 >/dev/null
caddie_ana score "$PEBBLE_GAME" Cleo 1 7 --penalties 1 >/dev/null
# The game in progress: scores, a corrected score, attestations (one no longer current).
GAME=$(caddie_ana game new --course "$HAAGSCHE" --tee 1 --players Ana,Ben,Cleo --json | field game)
for hole in 1 2 3 4 5; do
    caddie_ana score "$GAME" Ana "$hole" $((3 + hole % 3)) --putts 2 >/dev/null
    caddie_ana score "$GAME" Ben "$hole" $((4 + hole % 2)) --putts 1 --penalties 0 >/dev/null
    caddie_ana score "$GAME" Cleo "$hole" $((5 + hole % 4)) >/dev/null
done
caddie_ana score "$GAME" Ana 3 4 --putts 1 >/dev/null
caddie_ana attest "$GAME" Ben >/dev/null
caddie_ana attest "$GAME" Cleo >/dev/null
caddie_ana score "$GAME" Cleo 5 9 >/dev/null

# A second home (Ben's device) joins the space; both enter hole 6 for Ana without seeing each other.
say "making a conflict with a second home"
caddie_ben login --name Ben >/dev/null
caddie_ben space join "$INVITE" >/dev/null
caddie_ana export --out "$WORK/ana.bundle" >/dev/null
caddie_ben import "$WORK/ana.bundle" >/dev/null
caddie_ben score "$GAME" Ana 6 7 --putts 3 >/dev/null
caddie_ana score "$GAME" Ana 6 5 --putts 2 >/dev/null
caddie_ben export --out "$WORK/ben.bundle" >/dev/null
caddie_ana import "$WORK/ben.bundle" >/dev/null
# A competition whose group is the game in progress, its board public with each card's last three holes hidden.
MEDAL=$(caddie_ana competition new Medal --scoring gross --json | field competition)
caddie_ana competition add Medal "$GAME" >/dev/null
caddie_ana competition public Medal on --hide-last 3 >/dev/null

# --- 3. Serve it ------------------------------------------------------------------------------------
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
API=
for attempt in 1 2 3; do
    PORT=$(free_port)
    : >"$WORK/serve.log"
    "$CADDIE" serve --home "$ANA" --listen 127.0.0.1:0 --no-mdns --http "127.0.0.1:$PORT" >"$WORK/serve.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 300); do
        if grep -q "api on http://" "$WORK/serve.log"; then
            API=$(grep -o "api on http://[^ ]*" "$WORK/serve.log" | head -1 | sed 's/^api on //')
            break
        fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    [[ -n $API ]] && break
    stop "$SERVER_PID"
    SERVER_PID=
    say "the server did not start on port $PORT (attempt $attempt):"
    sed 's/^/    /' "$WORK/serve.log" >&2
done
[[ -n $API ]] || fail "caddie serve did not start"
SYNC_PORT=$(grep -o "^listening on [^ ]*" "$WORK/serve.log" | head -1 | sed 's/.*://')
TOKEN=$(tr -d '[:space:]' <"$ANA/api-token")
say "serving on $API"

# Ben's home runs a node of its own that keeps a session with this one, so that /v1/peers and the
# sessions of /v1/sync are not empty (and every write during the run is pushed to a real peer).
"$CADDIE" serve --home "$BEN" --listen 127.0.0.1:0 --no-mdns --peer "127.0.0.1:$SYNC_PORT" >"$WORK/peer.log" 2>&1 &
PEER_PID=$!
session=
for _ in $(seq 100); do
    sync=$(curl -s -H "Authorization: Bearer $TOKEN" "$API/v1/sync")
    [[ $sync == *'"sessions": [{'* ]] && { session=yes; break; }
    kill -0 "$PEER_PID" 2>/dev/null || break
    sleep 0.1
done
[[ -n $session ]] || fail "the peer node opened no session with the node; its log: $(cat "$WORK/peer.log")"

# A quick look before fuzzing: the token works, and the card has its conflict, Ana's computed
# handicap and an attestation that is no longer current.
status=$(curl -s -o "$WORK/card.json" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" \
    "$API/v1/spaces/$SPACE/games/$GAME/card")
[[ $status == 200 ]] || fail "GET the card answered $status: $(cat "$WORK/card.json")"
"$PY" - "$WORK/card.json" <<'EOF' || fail "the card of the game in progress is not what the fixture made"
import json, sys
card = json.load(open(sys.argv[1]))
ana = next(p for p in card["players"] if p["name"] == "Ana")
sys.exit(0 if card["conflicts"] and ana["handicap"] and ana["handicap"]["indexSource"] == "computed"
         and sorted(a["current"] for a in card["attestations"]) == [False, True] else 1)
EOF

# --- 4. Schemathesis ---------------------------------------------------------------------------------
# The document with its example ids replaced by this home's, for the examples phase.
sed -e "s/8783144dd60826ba9f0a36b55d1408c1/$SPACE/g" -e "s/bca9b0baec6ed85e/$PLAYER_ANA/g" \
    -e "s/3060ae495de80d4f/$HAAGSCHE/g" -e "s/039122d7840c523e/$GAME/g" -e "s/51b7c68e0172f54c/$MEDAL/g" "$SPEC" >"$WORK/openapi.yaml"

# CPython 3.11 and early 3.12 can raise "SystemError: AST constructor recursion depth mismatch" when
# Hypothesis parses a big source file to describe a lambda (python/cpython#106905); the description is
# only cosmetic, so a hook makes that failure fall back to "<unknown>".
cat >"$WORK/hooks.py" <<'EOF'
import hypothesis.internal.lambda_sources as lambda_sources

_describe = lambda_sources._lambda_description


def _describe_safely(f, *args, **kwargs):
    try:
        return _describe(f, *args, **kwargs)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources._lambda_description = _describe_safely
EOF

# Real names and ids for path, query and body fields, used most of the time; the rest is random.
cat >"$WORK/schemathesis.toml" <<EOF
hooks = "$WORK/hooks.py"

[dictionaries.spaces]
values = ["$SPACE", "${SPACE:0:6}"]
[dictionaries.players]
values = ["$PLAYER_ANA", "$PLAYER_BEN", "$PLAYER_CLEO", "Ana", "Ben", "Cleo", "Dev", "${PLAYER_BEN:0:5}"]
[dictionaries.courses]
values = ["$HAAGSCHE", "$PEBBLE", "$ZOUTE", "Haagsche", "Pebble Beach Golf Links", "Old Course", "Zoute"]
[dictionaries.games]
values = ["$GAME", "$GAME", "$PEBBLE_GAME", "$FINISHED", "${GAME:0:6}", "current"]
[dictionaries.competitions]
values = ["$MEDAL", "$MEDAL", "Medal", "${MEDAL:0:6}"]
[dictionaries.tees]
values = ["1", "2", "Blue", "Championship", "White"]
[dictionaries.searches]
values = ["pebble", "peble bech", "zoute", "St Andrews", "haagsche", "Torrey Pines"]
[dictionaries.targets]
values = ["green", "front", "back", "centre"]
[dictionaries.holes]
values = [1, 2, 7, 9, 10, 18]

[parameters]
"path.space" = { dictionary = "spaces", probability = 0.9 }
"path.player" = { dictionary = "players", probability = 0.7 }
"path.course" = { dictionary = "courses", probability = 0.7 }
"path.game" = { dictionary = "games", probability = 0.7 }
"path.competition" = { dictionary = "competitions", probability = 0.7 }
"query.player" = { dictionary = "players", probability = 0.7 }
"query.game" = { dictionary = "games", probability = 0.5 }
"query.tee" = { dictionary = "tees", probability = 0.5 }
"query.q" = { dictionary = "searches", probability = 0.6 }
"body.player" = { dictionary = "players", probability = 0.7 }
"body.players[*]" = { dictionary = "players", probability = 0.7 }
"body.course" = { dictionary = "courses", probability = 0.7 }
"body.tee" = { dictionary = "tees", probability = 0.7 }
"body.game" = { dictionary = "games", probability = 0.7 }
"body.target" = { dictionary = "targets", probability = 0.5 }
"body.hole" = { dictionary = "holes", probability = 0.5 }
"query.hole" = { dictionary = "holes", probability = 0.5 }
EOF

REPORT=${CADDIE_API_REPORT:-$WORK/report}
mkdir -p "$REPORT"
CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,unsupported_method
args=(--config-file "$WORK/schemathesis.toml" run "$WORK/openapi.yaml"
      --url "$API"
      --header "Authorization: Bearer $TOKEN"
      --exclude-path /v1/events
      --exclude-path '/board/{space}/{competition}/events'
      --checks "$CHECKS"
      --phases examples,coverage,fuzzing,stateful
      --max-examples "$EXAMPLES"
      --workers 2
      --request-timeout 10
      --report har --report-har-path "$REPORT/api-check.har"
      --no-color)
[[ -n ${CADDIE_API_SEED:-} ]] && args+=(--seed "$CADDIE_API_SEED")
say "running schemathesis $SCHEMATHESIS_VERSION against $API (max $EXAMPLES examples per operation)"
started=$(date +%s)
set +e
# A hard cap, so that a hung run fails instead of holding CI up.
(cd "$WORK" && timeout --signal=INT --kill-after=30 600 "$VENV/bin/schemathesis" "${args[@]}")
result=$?
set -e
calls=$("$PY" -c '
import glob, json, sys
print(sum(len(json.load(open(f))["log"]["entries"]) for f in glob.glob(sys.argv[1] + "/api-check.har")))' "$REPORT" 2>/dev/null || echo "?")
say "schemathesis made $calls API calls in $(( $(date +%s) - started )) s"
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    say "the server died during the run; its log:"
    tail -40 "$WORK/serve.log" >&2
    exit 1
fi
if [[ $result -ne 0 ]]; then
    say "schemathesis found failures (exit $result); the server's last log lines:"
    tail -20 "$WORK/serve.log" >&2
    exit "$result"
fi
say "the API conforms to Protocol/openapi.yaml"
