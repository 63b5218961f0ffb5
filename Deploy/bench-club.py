#!/usr/bin/env python3
"""A club's competition day on one clubhouse node, measured: the hub is its own `caddie serve` process, a field of
players enters its scores hole by hole through the HTTP API, streams watch the public board, some players come back
from a dead zone at once, and the hub is killed with SIGKILL in the middle of the day and restarted.

    python3 Deploy/bench-club.py [--caddie PATH] [--players 160] [--streams 40] [--hole-seconds 3] [--dead-zone 30]

What it is and is not (docs/performance.md says the same): scores are entered with the node's API token, one POST a
score, over plain HTTP on loopback; not by 160 phones each signing its own ops over HTTPS (that is what
`caddie-bench --club` in issue 49 asks for, not built). Everything else is real: the hub's SQLite file, its event
hub computing the public board only while streams watch it, the streams receiving only the lines that changed.

Prints each figure and a JSON line:
- entryToBoardP50Ms / P95 / P99: from the answer (201) to a score to the first board event on a stream that shows it
  (the player's thru reaching that hole's count), over every stream, timed by this one Python process (its own
  queueing is in the figure); scoreStreamPairsNeverShown counts those never seen (a stream that was reconnecting);
- deadZoneLastShownSeconds: the dead-zone players send six holes each at once; from the last answer to the last of
  those entries on the board;
- hubCpuPercentOfOneCore, hubPeakRssMiB: the hub's processes over the day (before and after the kill);
- answeredButMissingAfterKill: scores answered 201 whose card is short of them on the board at the end;
- boardEventBytesMedian / boardEventWholeBytes: what a stream receives per change, and the board whole.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PASSPHRASE = "club bench passphrase"


def caddie(binary, home, *args):
    env = dict(os.environ, CADDIE_PASSPHRASE=PASSPHRASE, CADDIE_LOG="warning")
    result = subprocess.run([binary, *args, "--home", home], capture_output=True, text=True, env=env, timeout=120)
    if result.returncode != 0:
        raise RuntimeError("caddie %s failed: %s" % (" ".join(args), result.stderr.strip()))
    return result.stdout


def caddie_json(binary, home, *args):
    return json.loads(caddie(binary, home, *args, "--json"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hub:
    """`caddie serve` on the clubhouse home, with its CPU time and peak memory read from /proc before it ends."""

    def __init__(self, binary, home, port):
        self.binary, self.home, self.port = binary, home, port
        self.process = None
        self.cpu_seconds = 0.0
        self.peak_kib = 0

    def start(self):
        env = dict(os.environ, CADDIE_PASSPHRASE=PASSPHRASE, CADDIE_LOG="warning")
        log = open(os.path.join(self.home, "serve.log"), "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--home", self.home, "--listen", "127.0.0.1:0", "--no-mdns",
             "--http", "127.0.0.1:%d" % self.port], stdout=log, stderr=log, env=env)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the hub did not start (see %s/serve.log)" % self.home)

    def sample(self):
        """Adds the running process's CPU time and peak memory so far (read just before it ends)."""
        pid = self.process.pid
        with open("/proc/%d/stat" % pid) as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        with open("/proc/%d/status" % pid) as handle:
            peak = next(int(line.split()[1]) for line in handle if line.startswith("VmHWM:"))
        return (int(fields[11]) + int(fields[12])) / ticks, peak

    def end(self, sig):
        cpu, peak = self.sample()
        self.cpu_seconds += cpu
        self.peak_kib = max(self.peak_kib, peak)
        self.process.send_signal(sig)
        self.process.wait(30)


class Stream(threading.Thread):
    """One viewer of the public board (a TV or a phone): reads its server-sent events, reconnecting when the hub goes,
    and notes for each player the time their thru first reached each count."""

    def __init__(self, port, path, stop):
        super().__init__(daemon=True)
        self.port, self.path, self.stop = port, path, stop
        self.reached = {}  # player -> {thru: first time seen}
        self.change_bytes = []
        self.whole_bytes = []

    def run(self):
        while not self.stop.is_set():
            try:
                self.read()
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.2)

    def read(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("GET", self.path, headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        if response.status != 200:
            raise ValueError("stream answered %d" % response.status)
        kind, data = None, []
        while not self.stop.is_set():
            line = response.fp.readline()
            if not line:
                raise OSError("the stream ended")
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and kind:
                if kind == "board":
                    self.take("\n".join(data), time.time())
                kind, data = None, []

    def take(self, text, now):
        event = json.loads(text)
        (self.whole_bytes if event["whole"] else self.change_bytes).append(len(text))
        for line in event["lines"]:
            self.reached.setdefault(line["player"], {}).setdefault(line["thru"], now)

    def shown(self, player, thru):
        """When this stream first showed the player thru `thru` or more."""
        times = [t for n, t in self.reached.get(player, {}).items() if n >= thru]
        return min(times) if times else None


class Player(threading.Thread):
    """One entrant's scores, hole by hole from their group's start, through the API; a dead-zone player keeps six holes
    and sends them at once. Each score is tried again until answered (the hub may be down)."""

    def __init__(self, port, token, space, game, player, start, holes, pace, dead_zone, rng):
        super().__init__(daemon=True)
        self.port, self.token, self.space, self.game, self.player = port, token, space, game, player
        self.order = [(start - 1 + k) % holes + 1 for k in range(holes)]
        self.pace, self.dead_zone, self.rng = pace, dead_zone, rng
        self.answered = []  # (count of holes entered, time of the answer)
        self.dead_zone_sent = None
        self.error = None

    def post(self, hole):
        body = json.dumps({"player": self.player, "hole": hole, "strokes": 3 + self.rng.randrange(4)})
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                connection.request("POST", "/v1/spaces/%s/games/%s/scores" % (self.space, self.game), body=body,
                                   headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                connection.close()
                if response.status in (200, 201):
                    return time.time()
                if response.status not in (502, 503):
                    raise RuntimeError("a score was answered %d" % response.status)
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.1)

    def run(self):
        try:
            self.play()
        except Exception as error:  # a refused score ends this player; main() reports it
            self.error = error

    def play(self):
        time.sleep(self.rng.random() * self.pace)
        kept = []
        for count, hole in enumerate(self.order, start=1):
            if self.dead_zone and 7 <= count <= 12:
                kept.append((count, hole))
                if count < 12:
                    time.sleep(self.pace)
                    continue
                for kept_count, kept_hole in kept:
                    self.answered.append((kept_count, self.post(kept_hole)))
                self.dead_zone_sent = self.answered[-1][1]
            else:
                self.answered.append((count, self.post(hole)))
            time.sleep(self.pace)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = os.path.join(repo, ".build", "release", "caddie")
    if not os.path.exists(default):
        default = os.path.join(repo, ".build", "debug", "caddie")
    parser.add_argument("--caddie", default=default)
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--streams", type=int, default=40)
    parser.add_argument("--hole-seconds", type=float, default=3.0, help="a hole every N seconds, each player")
    parser.add_argument("--dead-zone", type=int, default=30, help="players who keep six holes and send them at once")
    parser.add_argument("--no-kill", action="store_true", help="no SIGKILL of the hub in the middle of the day")
    arguments = parser.parse_args()
    if arguments.players < 8 or arguments.streams < 0 or arguments.dead_zone > arguments.players:
        sys.exit("bench-club: give at least 8 players, no negative streams, and no more dead-zone players than players")
    binary = os.path.abspath(arguments.caddie)
    if not os.access(binary, os.X_OK):
        sys.exit("bench-club: no caddie binary at %s: build it (swift build -c release) or pass --caddie" % binary)
    work = tempfile.mkdtemp(prefix="caddie-bench-club-")
    home = os.path.join(work, "clubhouse")
    try:
        caddie(binary, home, "login", "--name", "Committee")
        space = caddie_json(binary, home, "space", "create", "Club")["space"]
        caddie(binary, home, "course", "import", "--sample")
        course = next(c for c in caddie_json(binary, home, "course", "list") if c["name"].startswith("Haagsche"))
        medal = caddie_json(binary, home, "competition", "new", "Saturday Stableford", "--divisions", "12,24")["competition"]
        entries = os.path.join(work, "entries.csv")
        with open(entries, "w") as handle:
            handle.write("name,index,tee\n")
            for number in range(arguments.players):
                handle.write("Player %d,%.1f,1\n" % (number + 1, (number * 37) % 360 / 10))
        caddie(binary, home, "competition", "entries", medal, entries)
        caddie(binary, home, "competition", "draw", medal, "--course", course["course"], "--shotgun")
        caddie(binary, home, "competition", "public", medal, "on")
        groups = caddie_json(binary, home, "competition", "show", medal)["groups"]
        port = free_port()
        hub = Hub(binary, home, port)
        hub.start()
        with open(os.path.join(home, "api-token")) as handle:
            token = handle.read().strip()
        stop = threading.Event()
        streams = [Stream(port, "/board/%s/%s/events" % (space, medal), stop) for _ in range(arguments.streams)]
        for stream in streams:
            stream.start()
        time.sleep(1.0)
        rng = random.Random(49)
        players = []
        dead = set(rng.sample(range(arguments.players), arguments.dead_zone))
        for group in groups:
            for player in group["players"]:
                index = len(players)
                players.append(Player(port, token, space, group["game"], player["player"], group["startHole"], 18,
                                      arguments.hole_seconds, index in dead, random.Random(index)))
        # The hub's CPU over the day only: what it used before (setup, the first whole boards) is taken off.
        before_day, _ = hub.sample()
        started = time.time()
        for player in players:
            player.start()
        killed_at = None
        if not arguments.no_kill:
            # In the middle of the day: SIGKILL, a moment with no hub, then the same home served again.
            time.sleep(arguments.hole_seconds * 9)
            hub.end(signal.SIGKILL)
            killed_at = time.time()
            time.sleep(1.0)
            hub.start()
        for player in players:
            player.join()
        day = time.time() - started
        hub.cpu_seconds -= before_day
        failed = [p.error for p in players if p.error]
        if failed:
            raise RuntimeError("%d players could not enter their scores: %s" % (len(failed), failed[0]))
        # Let the last events arrive, then read the board whole.
        time.sleep(3.0)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/board/%s/%s/board.json" % (space, medal))
        board = json.loads(connection.getresponse().read())
        hub.end(signal.SIGTERM)
        stop.set()

        thru = {line["player"]: line["thru"] for line in board["lines"]}
        missing = sum(max(0, len(p.answered) - thru.get(p.player, 0)) for p in players)
        latencies = []
        never_shown = 0
        for player in players:
            for count, answered in player.answered:
                for stream in streams:
                    shown = stream.shown(player.player, count)
                    if shown is None:
                        never_shown += 1
                    else:
                        latencies.append(max(0.0, shown - answered))
        latencies.sort()

        def percentile(share):
            return latencies[min(len(latencies) - 1, int(share * len(latencies)))] * 1000 if latencies else None

        dead_players = [p for p in players if p.dead_zone and p.dead_zone_sent]
        last_sent = max((p.dead_zone_sent for p in dead_players), default=None)
        last_shown = None
        if last_sent and streams:
            shown = [streams[0].shown(p.player, 12) for p in dead_players]
            last_shown = max(s for s in shown if s is not None) if all(shown) else None
        changes = [b for s in streams for b in s.change_bytes]
        wholes = [b for s in streams for b in s.whole_bytes]
        figures = {
            "players": arguments.players, "streams": arguments.streams, "holeSeconds": arguments.hole_seconds,
            "daySeconds": round(day, 1), "scoresAnswered": sum(len(p.answered) for p in players),
            "entryToBoardP50Ms": round(percentile(0.50), 1) if latencies else None,
            "entryToBoardP95Ms": round(percentile(0.95), 1) if latencies else None,
            "entryToBoardP99Ms": round(percentile(0.99), 1) if latencies else None,
            "deadZoneLastShownSeconds": round(last_shown - last_sent, 2) if last_sent and last_shown else None,
            "hubCpuPercentOfOneCore": round(100 * hub.cpu_seconds / day, 1),
            "hubPeakRssMiB": round(hub.peak_kib / 1024, 1),
            "answeredButMissingAfterKill": missing if killed_at else None,
            "answeredButMissing": missing,
            "scoreStreamPairsNeverShown": never_shown,
            "boardEventBytesMedian": statistics.median(changes) if changes else None,
            "boardEventWholeBytes": max(wholes) if wholes else None,
            "caddie": os.path.relpath(binary, repo),
        }
        for name, value in figures.items():
            print("  %-30s %s" % (name, value))
        print(json.dumps({"club": figures}))
        return 0 if missing == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
