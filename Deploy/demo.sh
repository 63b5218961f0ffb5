#!/usr/bin/env bash
# The main job: sets up a fresh Debian machine, builds Caddie, and runs `caddie demo`: four nodes (four
# processes, four homes) play a foursome round: setup synced, eighteen holes scored offline with one deliberate
# conflict, the nodes meet and converge, and the demo prints the card with net and Stableford points, the
# playing handicaps, a guidance callout, the conflict and its resolution from the audit log, and how long
# convergence took. It removes its homes at the end (keep them with --keep).
#
#   bash Deploy/demo.sh          static peers on loopback, anywhere
#   bash Deploy/demo.sh --lab    as root: four hosts in the network lab find each other over mDNS
#   bash Deploy/demo.sh --club   a club's Stableford on one clubhouse home: entries, draw, board, results
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash Deploy/setup.sh
echo "demo: building caddie"
swift build --product caddie 2>&1 | tail -n 1
exec "$(swift build --show-bin-path)/caddie" demo "$@"
