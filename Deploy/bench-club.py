#!/usr/bin/env python3
"""A club's competition day on one clubhouse node, measured: the hub is its own `caddie serve --https` process, each
player's phone checks in from its group's code on the starter's sheet and becomes that player's device (keys of its
own), signs its scores as ops and posts them over HTTPS, streams watch the public board, some phones come back from
a dead zone at once, and the hub is killed with SIGKILL in the middle of the day and restarted.

    python3 Deploy/bench-club.py [--caddie PATH] [--players 160] [--streams 40] [--hole-seconds 3] [--dead-zone 30]
                                 [--token]

What it is (docs/performance.md says the same): each phone is a thread of this Python process with its own Ed25519
user and device keys (PyNaCl), its own source address on loopback (127.0.1.N, so the node's places per address
count each phone apart, as on a course's Wi-Fi), and its own HTTPS connection trusting the home's authority; it
signs in with its group's check-in code, is admitted, signs its join and its player's claim, then one op a hole
(Protocol/op-format.md, encoded by Deploy/tools/check-vectors.py, the independent checker), and keeps an op until
the hub answers it, as the web app's outbox does. `--token` plays the day the older way instead: one POST a score
with the node's API token over plain HTTP, the node signing. Everything is real: the hub's SQLite file, TLS, its
checks of each phone's signatures and chains, its event hub computing the public board only while streams watch it.

Prints each figure and a JSON line:
- entryToBoardP50Ms / P95 / P99: from the answer (200/201) to a score to the first board event on a stream that shows it
  (the player's thru reaching that hole's count), over every stream, timed by this one Python process (its own
  queueing is in the figure); scoreStreamPairsNeverShown counts those never seen (a stream that was reconnecting);
- deadZoneLastShownSeconds: the dead-zone phones send six holes each at once (one request each); from the last
  answer to the last of those entries on the board;
- checkInSeconds: from the first phone's sign-in to the last phone's claim answered;
- hubCpuPercentOfOneCore, hubPeakRssMiB: the hub's processes over the day (before and after the kill);
- answeredButMissingAfterKill: scores answered 200/201 whose card is short of them on the board at the end;
- boardEventBytesMedian / boardEventWholeBytes: what a stream receives per change, and the board whole.
"""
import argparse
import http.client
import importlib.util
import json
import os
import random
import shutil
import signal
import re
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PASSPHRASE = "club bench passphrase"
HERE = os.path.dirname(os.path.abspath(__file__))
# PyNaCl, as Deploy/vector-check.sh installs it.
VECTOR_VENV = os.environ.get("CADDIE_VECTOR_VENV", "/tmp/caddie-vector-venv")


def checker():
    """The op encoder of Deploy/tools/check-vectors.py (the independent checker of Protocol/), as a module."""
    spec = importlib.util.spec_from_file_location("check_vectors", os.path.join(HERE, "tools", "check-vectors.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def say(text):
    print("bench-club: " + text, file=sys.stderr, flush=True)


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

    def __init__(self, binary, home, port, https):
        self.binary, self.home, self.port, self.https = binary, home, port, https
        self.process = None
        self.cpu_seconds = 0.0
        self.peak_kib = 0

    def start(self):
        env = dict(os.environ, CADDIE_PASSPHRASE=PASSPHRASE, CADDIE_LOG="warning")
        log = open(os.path.join(self.home, "serve.log"), "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--home", self.home, "--listen", "127.0.0.1:0", "--no-mdns",
             "--https" if self.https else "--http", "127.0.0.1:%d" % self.port], stdout=log, stderr=log, env=env)
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


class Link:
    """How one client reaches the hub: HTTPS trusting the home's authority (or plain HTTP), from its own loopback
    address, so that the node counts its connections apart from every other client's."""

    def __init__(self, port, tls, source):
        self.port, self.tls, self.source = port, tls, source

    def connect(self, timeout):
        if self.tls:
            return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, context=self.tls,
                                               source_address=(self.source, 0))
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(self.source, 0))


class Stream(threading.Thread):
    """One viewer of the public board (a TV or a phone): reads its server-sent events, reconnecting when the hub goes,
    and notes for each player the time their thru first reached each count."""

    def __init__(self, link, path, stop):
        super().__init__(daemon=True)
        self.link, self.path, self.stop = link, path, stop
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
        connection = self.link.connect(60)
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


class Phone(threading.Thread):
    """One entrant's phone: checks in from its group's code as its player's device, then signs one op a hole from the
    group's start and posts it; in a dead zone it keeps six holes' ops and posts them in one request when it is back.
    An op is posted again until the hub answers it (the hub may be down), as the web app's outbox does."""

    def __init__(self, cv, link, space, game, player, name, code, start, holes, pace, dead_zone, rng):
        super().__init__(daemon=True)
        self.cv, self.link, self.space, self.game, self.player, self.name = cv, link, space, game, player, name
        self.code = code
        self.order = [(start - 1 + k) % holes + 1 for k in range(holes)]
        self.pace, self.dead_zone, self.rng = pace, dead_zone, rng
        self.user_seed, self.device_seed = os.urandom(32), os.urandom(32)
        self.user, self.device = cv.ed25519_public(self.user_seed), cv.ed25519_public(self.device_seed)
        self.signer = cv.nacl.signing.SigningKey(self.device_seed)
        self.seq, self.prev, self.clock = 0, cv.ZERO32, 0
        self.connection, self.cookie = None, None
        self.answered = []  # (count of holes entered, time of the answer)
        self.dead_zone_sent = None
        self.checked_in = threading.Event()
        self.go = threading.Event()
        self.error = None

    def request(self, method, path, body=None, expect=(200, 201)):
        """Sends until the hub answers with a status other than 502/503 (it may be down or full), on a kept
        connection; returns the status, the headers and the body."""
        headers = {"Origin": "https://127.0.0.1:%d" % self.link.port}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        while True:
            try:
                if self.connection is None:
                    self.connection = self.link.connect(30)
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.status in (502, 503):
                    raise OSError("the hub has no room just now")
                if response.status not in expect:
                    raise RuntimeError("%s %s was answered %d: %s" % (method, path, response.status, data[:300]))
                return response.status, response.headers, data
            except (OSError, http.client.HTTPException) as error:
                if os.environ.get("CADDIE_BENCH_DEBUG"):
                    say("%s %s: %r" % (method, path, error))
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                time.sleep(0.1)

    def next_clock(self):
        """The hybrid logical clock as the phone keeps it (Web/ops.js nextClock): milliseconds << 16, a counter."""
        now = int(time.time() * 1000)
        ms, counter = self.clock >> 16, self.clock & 0xFFFF
        if now > ms:
            self.clock = now << 16
        elif counter == 0xFFFF:
            self.clock = (ms + 1) << 16
        else:
            self.clock += 1
        return self.clock

    def sign(self, payload):
        """The next op of this phone's log: seq, the previous op's hash, the clock, signed by the device key."""
        self.seq += 1
        unsigned = self.cv.encode_op_unsigned({
            "version": 1, "space": bytes.fromhex(self.space), "device": self.device, "seq": self.seq,
            "prev": self.prev, "hlc": self.next_clock(), "pred": [], "payload": payload})
        op = unsigned + self.signer.sign(self.cv.OP_CONTEXT + unsigned).signature
        self.prev = self.cv.blake2b256(op)
        return op

    def post_ops(self, ops):
        self.request("POST", "/v1/spaces/%s/ops" % self.space, {"ops": [op.hex() for op in ops]})
        return time.time()

    def check_in(self):
        """The group's code signs the phone in; its own keys are admitted; it joins, claims its player and signs it."""
        status, headers, _ = self.request("GET", self.code, expect=(303,))
        self.cookie = headers["Set-Cookie"].split(";")[0]
        _, _, whoami = self.request("GET", "/v1/whoami")
        session = json.loads(whoami)["session"]
        certified_at = int(time.time() * 1000)
        certificate = self.cv.ed25519_sign(
            self.user_seed, self.cv.certificate_message(self.user, self.device, certified_at))
        proof = self.signer.sign(b"caddie-web-session-v1" + session.encode() + self.user + self.device).signature
        _, _, admitted = self.request("POST", "/v1/spaces/%s/admissions" % self.space, {
            "user": self.user.hex(), "device": self.device.hex(), "certifiedAt": certified_at,
            "certificate": certificate.hex(), "sessionProof": proof.hex()})
        join = self.cv.encode_payload([("join", {
            "user": self.user, "certifiedAt": certified_at, "certificate": certificate,
            "proof": bytes.fromhex(json.loads(admitted)["proof"]), "name": self.name})])
        self.post_ops([self.sign(join)])
        _, _, draft = self.request(
            "POST", "/v1/spaces/%s/player-claims" % self.space, {"player": self.player, "user": self.user.hex()})
        self.post_ops([self.sign(bytes.fromhex(json.loads(draft)["payload"]))])

    def score(self, hole):
        return self.sign(self.cv.encode_payload([("score", {
            "game": bytes.fromhex(self.game), "player": bytes.fromhex(self.player), "hole": hole,
            "strokes": 3 + self.rng.randrange(4), "putts": None, "penalties": None})]))

    def run(self):
        try:
            self.check_in()
            self.checked_in.set()
            self.go.wait()
            self.play()
        except Exception as error:  # a refused request ends this phone; main() reports it
            self.error = error
            self.checked_in.set()

    def play(self):
        time.sleep(self.rng.random() * self.pace)
        kept = []
        for count, hole in enumerate(self.order, start=1):
            if self.dead_zone and 7 <= count <= 12:
                kept.append((count, self.score(hole)))
                if count < 12:
                    time.sleep(self.pace)
                    continue
                sent = self.post_ops([op for _, op in kept])
                self.answered.extend((kept_count, sent) for kept_count, _ in kept)
                self.dead_zone_sent = sent
            else:
                self.answered.append((count, self.post_ops([self.score(hole)])))
            time.sleep(self.pace)


class Player(threading.Thread):
    """`--token`: one entrant's scores, hole by hole from their group's start, through the API with the node's token
    (the node signs); a dead-zone player keeps six holes and sends them at once. Each score is tried again until
    answered (the hub may be down)."""

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
    parser.add_argument("--token", action="store_true",
                        help="scores posted with the node's API token over plain HTTP, the node signing (not phones)")
    arguments = parser.parse_args()
    if arguments.players < 8 or arguments.streams < 0 or arguments.dead_zone > arguments.players:
        sys.exit("bench-club: give at least 8 players, no negative streams, and no more dead-zone players than players")
    binary = os.path.abspath(arguments.caddie)
    if not os.access(binary, os.X_OK):
        sys.exit("bench-club: no caddie binary at %s: build it (swift build -c release) or pass --caddie" % binary)
    phones = not arguments.token
    cv = None
    if phones:
        try:
            cv = checker()
        except SystemExit:
            venv_python = os.path.join(VECTOR_VENV, "bin", "python")
            if os.path.exists(venv_python) and os.path.realpath(sys.prefix) != os.path.realpath(VECTOR_VENV):
                os.execv(venv_python, [venv_python, os.path.abspath(__file__), *sys.argv[1:]])
            sys.exit("bench-club: the phones sign with PyNaCl, which is missing: run `bash Deploy/vector-check.sh` "
                     "once (it installs PyNaCl in %s), or pass --token" % VECTOR_VENV)
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
        hub = Hub(binary, home, port, https=phones)
        hub.start()
        tls = None
        codes = []
        if phones:
            authority = os.path.join(work, "authority.crt")
            caddie(binary, home, "web", "authority", "--out", authority)
            tls = ssl.create_default_context(cafile=authority)
            sheet = os.path.join(work, "sheet.html")
            caddie(binary, home, "competition", "show", medal, "--format", "html", "--check-in",
                   "--url", "https://127.0.0.1:%d" % port, "--out", sheet)
            with open(sheet) as handle:
                codes = re.findall(r"check in, \d+ phones: https://[^/]+(/signin\?t=[a-z0-9]+)", handle.read())
            if len(codes) != len(groups):
                raise RuntimeError("the check-in sheet holds %d codes for %d groups" % (len(codes), len(groups)))
        with open(os.path.join(home, "api-token")) as handle:
            token = handle.read().strip()
        stop = threading.Event()
        streams = [Stream(Link(port, tls, "127.0.2.%d" % (1 + n)), "/board/%s/%s/events" % (space, medal), stop)
                   for n in range(arguments.streams)]
        for stream in streams:
            stream.start()
        time.sleep(1.0)
        rng = random.Random(49)
        players = []
        dead = set(rng.sample(range(arguments.players), arguments.dead_zone))
        for number, group in enumerate(groups):
            for player in group["players"]:
                index = len(players)
                if phones:
                    link = Link(port, tls, "127.0.1.%d" % (1 + index) if index < 254 else "127.0.3.%d" % (index - 253))
                    players.append(Phone(cv, link, space, group["game"], player["player"], player["name"], codes[number],
                                         group["startHole"], 18, arguments.hole_seconds, index in dead,
                                         random.Random(index)))
                else:
                    players.append(Player(port, token, space, group["game"], player["player"], group["startHole"], 18,
                                          arguments.hole_seconds, index in dead, random.Random(index)))
        say("the hub serves %s on port %d; %d %s, %d board streams" % (
            "HTTPS" if phones else "HTTP", port, len(players), "phones" if phones else "players", len(streams)))
        check_in_seconds = None
        if phones:
            # Every phone checks in at the 1st tee (a shotgun: all before the start), then the day begins.
            began = time.time()
            for player in players:
                player.start()
            for player in players:
                player.checked_in.wait()
            check_in_seconds = time.time() - began
            failed = [p.error for p in players if p.error]
            if failed:
                raise RuntimeError("%d phones could not check in: %s" % (len(failed), failed[0]))
            say("%d phones checked in, each its player's device, in %.1f s" % (len(players), check_in_seconds))
            time.sleep(1.0)
        # The hub's CPU over the day only: what it used before (setup, check-in, the first whole boards) is taken off.
        before_day, _ = hub.sample()
        started = time.time()
        for player in players:
            if phones:
                player.go.set()
            else:
                player.start()
        killed_at = None
        if not arguments.no_kill:
            # In the middle of the day: SIGKILL, a moment with no hub, then the same home served again.
            time.sleep(arguments.hole_seconds * 9)
            hub.end(signal.SIGKILL)
            killed_at = time.time()
            say("the hub killed (SIGKILL) %.0f s into the day; restarting it" % (killed_at - started))
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
        connection = Link(port, tls, "127.0.0.1").connect(30)
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
            "clients": "phones signing over HTTPS" if phones else "the API token over HTTP",
            "players": arguments.players, "streams": arguments.streams, "holeSeconds": arguments.hole_seconds,
            "checkInSeconds": round(check_in_seconds, 1) if check_in_seconds is not None else None,
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
