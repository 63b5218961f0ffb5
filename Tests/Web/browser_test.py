"""The web app in a real browser: Debian's chromium through chromium-driver, against two real `caddie serve` nodes
that sync over loopback TCP. Run by Deploy/web-check.sh, which installs Selenium and axe-core from PyPI.

Usage: browser_test.py CADDIE_BINARY SCREENSHOT_DIR

Every step asserts what a golfer would see; the figures (first-load bytes, tap-to-paint latency, the app's memory)
are printed as a table and as JSON on the last line.
"""

import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

CADDIE = os.path.abspath(sys.argv[1])
SHOTS = os.path.abspath(sys.argv[2])
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PASSPHRASE = "correct horse battery"
FAILURES = []
CHECKED = []


def check(condition, what):
    print(("  ok    " if condition else "  FAIL  ") + what, flush=True)
    CHECKED.append(what)
    if not condition:
        FAILURES.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def caddie(home, *args, check_ok=True):
    env = dict(os.environ, CADDIE_PASSPHRASE=PASSPHRASE)
    result = subprocess.run([CADDIE, *args, "--home", home], capture_output=True, text=True, env=env, timeout=60)
    if check_ok and result.returncode != 0:
        raise RuntimeError("caddie %s failed: %s" % (" ".join(args), result.stderr))
    return result


def caddie_json(home, *args):
    return json.loads(caddie(home, *args, "--json").stdout)


class Node:
    """A `caddie serve` with sync on `port`, HTTP on `http`, and static peers."""

    def __init__(self, home, port, http, peers):
        self.home, self.port, self.http, self.peers = home, port, http, peers
        self.process = None
        self.start()

    def start(self):
        args = [CADDIE, "serve", "--home", self.home, "--listen", "127.0.0.1:%d" % self.port, "--no-mdns",
                "--http", "127.0.0.1:%d" % self.http]
        for peer in self.peers:
            args += ["--peer", "127.0.0.1:%d" % peer]
        env = dict(os.environ, CADDIE_PASSPHRASE=PASSPHRASE, CADDIE_LOG="warning")
        self.log = open(os.path.join(self.home, "serve.log"), "a")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=self.log, env=env)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/" % self.http, timeout=1)
                return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError("the node on %d did not start" % self.http)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def token(self):
        with open(os.path.join(self.home, "api-token")) as handle:
            return handle.read().strip()

    def request(self, method, path, body=None, headers=None, token=True):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.http, path), data=data, method=method)
        if token:
            request.add_header("Authorization", "Bearer " + self.token())
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def card(self, space, game):
        status, _, body = self.request("GET", "/v1/spaces/%s/games/%s/card" % (space, game))
        assert status == 200, body
        return json.loads(body)


def browser(width, height, home=None, extra=()):
    """A chromium at width x height; `home`: a HOME of its own (its NSS database holds the authorities it trusts)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=%d,%d" % (width, height), "--enable-precise-memory-info", "--lang=en-GB",
                     *extra]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    environment = dict(os.environ, HOME=home) if home else None
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver"), env=environment), options=options)
    driver.set_window_size(width, height)
    return driver


def browser_connections(driver, port):
    """The TCP connections to 127.0.0.1:`port` held by this driver's chromium (its processes, found from the
    chromedriver's own), as the machine's socket table shows them."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    family = {driver.service.process.pid}
    grown = True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in family and pid not in family:
                family.add(pid)
                grown = True
    lines = subprocess.run(["ss", "-Htnp", "state", "established", "( dport = :%d )" % port],
                           capture_output=True, text=True, check=True).stdout.strip().splitlines()
    return [line.split()[2] for line in lines
            if any(int(pid) in family for pid in re.findall(r"pid=(\d+)", line))]


def wait(driver, predicate, what, timeout=10):
    try:
        # The app re-renders on live events, so an element found a moment ago may be gone: look again.
        WebDriverWait(driver, timeout, poll_frequency=0.05,
                      ignored_exceptions=[StaleElementReferenceException]).until(lambda d: predicate(d))
        return True
    except Exception:
        check(False, what + " (timed out)")
        try:
            print("        the page said: " + text(driver).replace("\n", " | ")[:600])
        except Exception:
            pass
        return False


def retry(action, attempts=40):
    """Runs a step that touches an element, again if a live re-render replaced the element meanwhile."""
    for _ in range(attempts - 1):
        try:
            return action()
        except StaleElementReferenceException:
            time.sleep(0.05)
    return action()


def tap(driver, element):
    """Brings an element to the middle of the screen, as a person scrolls to what they are about to tap, then taps it.
    Without this the driver may tap a control that is only partly in view, under the sticky header."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    element.click()


def shot(driver, name):
    path = os.path.join(SHOTS, name + ".png")
    driver.save_screenshot(path)
    print("  shot  " + os.path.relpath(path, REPO))


def text(driver):
    return retry(lambda: driver.find_element(By.TAG_NAME, "body").text)


def axe(driver, page):
    import axe_selenium_python
    script = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    with open(script) as handle:
        driver.execute_script(handle.read())
    result = driver.execute_async_script("const done = arguments[arguments.length - 1]; axe.run().then(done);")
    bad = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
    for violation in bad:
        print("        axe: %s (%s): %s at %s" % (violation["id"], violation["impact"], violation["help"],
                                             [node["target"] for node in violation["nodes"]][:3]))
    check(not bad, "axe-core: no serious or critical violation on %s (%d checks passed)" % (page, len(result["passes"])))


SMALL_TARGETS = """
return [...document.querySelectorAll('button, select, input:not([type=hidden]), a[href]')].filter((e) => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || e.classList.contains('skip')) return false;
  // A link inside a sentence is sized by its text (the inline exception of WCAG 2.5.8).
  if (e.tagName === 'A' && [...e.parentElement.childNodes].some((n) => n !== e && n.nodeType === 3 && n.textContent.trim()))
    return false;
  return r.width < 44 || r.height < 44;
}).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${(e.getAttribute('aria-label') || e.textContent)
  .trim().slice(0, 30)}" ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}`);
"""


def targets(driver, page):
    """Every control on the screen at least 44 x 44 CSS px, as the issue asks of a phone held in a glove."""
    small = driver.execute_script(SMALL_TARGETS)
    check(not small, "every control of %s is at least 44 x 44 px%s" % (page, (": smaller: " + "; ".join(small)) if small else ""))


def console_errors(driver, page):
    entries = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    # The refused sign-in link is answered 401 on purpose; Chrome logs that load as an error.
    entries = [e for e in entries if "signin?t=" not in e["message"]]
    for entry in entries:
        print("        console: " + entry["message"])
    check(not entries, "no console errors on %s" % page)


TEE, GREEN = (0.001, 0.001), (0.0040, 0.0027)


def nine_hole_course(home, work):
    """Imports a made-up nine-hole course whose first hole has a tee, a green and a pond where the test puts them."""
    tee, green = TEE, GREEN
    nine = {"name": "Browser Test Nine", "source": "made up for the browser test", "asOf": "2026-11",
            "tees": [{"name": "Yellow", "rating": 35.1, "slope": 124, "par": 36}],
            "holes": [{"number": n, "par": 4, "strokeIndex": n} for n in range(1, 10)]}
    nine["holes"][0].update({
        "teePositions": [{"lat": tee[0], "lon": tee[1]}],
        "green": {"centre": {"lat": green[0], "lon": green[1]}, "front": {"lat": green[0] - 0.0001, "lon": green[1]},
                  "back": {"lat": green[0] + 0.0001, "lon": green[1]}},
        "hazards": [{"name": "Pond", "kind": "water", "points": [[0.0025, 0.0020]]}]})
    nine_file = os.path.join(work, "nine-%s.json" % os.path.basename(home))
    with open(nine_file, "w") as handle:
        json.dump(nine, handle)
    return caddie_json(home, "course", "import", nine_file)["course"]


def trust_page(work, stranger, fingerprint, https_port, trust_port):
    """The plain-HTTP trust page: the fingerprint, the authority as a .crt and as an iPhone profile, the steps; every
    other path only redirects to HTTPS."""
    import hashlib
    import plistlib
    stranger.get("http://caddie.test:%d/" % trust_port)
    wait(stranger, lambda d: d.find_elements(By.ID, "fingerprint"), "a new phone opens the trust page over plain HTTP")
    check(stranger.find_element(By.ID, "fingerprint").text == fingerprint,
          "the trust page shows the authority's fingerprint, as caddie web authority does")
    check("iPhone or iPad" in text(stranger) and "Android" in text(stranger), "it gives the steps for each platform")
    shot(stranger, "trust-page-390")
    axe(stranger, "the trust page")
    base = "http://127.0.0.1:%d" % trust_port
    with urllib.request.urlopen(base + "/authority.crt", timeout=10) as response:
        der = response.read()
    digest = ":".join("%02X" % b for b in hashlib.sha256(der).digest())
    check(digest.upper() == fingerprint.upper(), "the .crt it serves is the authority with that fingerprint")
    with urllib.request.urlopen(base + "/caddie.mobileconfig", timeout=10) as response:
        profile = plistlib.loads(response.read())
    payload = profile["PayloadContent"][0]
    check(payload["PayloadType"] == "com.apple.security.root" and payload["PayloadContent"] == der,
          "the iPhone profile installs that same certificate as a root authority")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    opener = urllib.request.build_opener(NoRedirect)
    for path in ["/v1/spaces", "/signin?t=secret", "/app.js"]:
        try:
            opener.open(base + path, timeout=10)
            status, location = 200, None
        except urllib.error.HTTPError as error:
            status, location = error.code, error.headers.get("Location")
        check(status == 308 and location == "https://127.0.0.1:%d%s" % (https_port, path.split("?")[0]),
              "plain HTTP gives %s no answer but a redirect to HTTPS (%s, %s)" % (path, status, location))


def trusting_browser(work, name, authority, width, height, rules):
    """A chromium with a profile of its own that trusts the home's authority (as a phone or TV does once)."""
    profile = os.path.join(work, name)
    nssdb = os.path.join(profile, ".pki", "nssdb")
    os.makedirs(nssdb)
    subprocess.run(["certutil", "-d", "sql:" + nssdb, "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", "sql:" + nssdb, "-A", "-t", "C,,", "-n", "caddie-test", "-i", authority], check=True)
    return browser(width, height, home=profile, extra=rules)


def board_thru(driver, name):
    """The Thru of a player's line on a public board, or None while the line is not shown."""
    return driver.execute_script(
        "const row = [...document.querySelectorAll('#board tr[data-player]')]"
        ".find((r) => r.querySelector('td.name').firstChild.textContent === arguments[0]);"
        "return row ? row.querySelector('td.thru').textContent : null;", name)


def public_board(work, home, origin, authority, rules, drivers, figures):
    """The clubhouse TV at 1920 x 1080 and a spectator's phone at 390 x 844 open a competition's public board over
    HTTPS with no sign-in, and both follow a score live; the holes the committee hides stay off it."""
    print("A competition's public board: the clubhouse TV and a spectator's phone, live, no sign-in")
    space = caddie_json(home, "space", "list")[0]["space"]
    course = next(c["course"] for c in caddie_json(home, "course", "list") if c["name"] == "Browser Test Nine")
    players = [caddie_json(home, "player", "add", name)["player"] for name in ("Ivo", "Jun")]
    game = caddie_json(home, "game", "new", "--course", course, "--tee", "Yellow", "--players", ",".join(players))["game"]
    medal = caddie_json(home, "competition", "new", "Club Medal", "--scoring", "gross")["competition"]
    caddie(home, "competition", "add", medal, game)
    url = "%s/board/%s/%s" % (origin, space, medal)
    tv = trusting_browser(work, "tv-home", authority, 1920, 1080, rules)
    drivers.append(tv)
    # The TV's whole screen is the page (a browser window's own bars would take some of it).
    tv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                       {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    spectator = trusting_browser(work, "spectator-home", authority, 390, 844, rules)
    drivers.append(spectator)
    # Before the committee opens it, the page says why there is nothing to see.
    spectator.get(url)
    wait(spectator, lambda d: "caddie competition public" in text(d), "a board not yet public says how it is opened")
    opened = caddie(home, "competition", "public", medal, "on", "--hide-last", "1").stdout
    check("/board/%s/%s" % (space, medal) in opened, "`caddie competition public` names the board's address: %s"
          % opened.strip())
    for hole in range(1, 8):
        caddie(home, "score", game, "Ivo", str(hole), "4")
        caddie(home, "score", game, "Jun", str(hole), "5" if hole != 3 else "2")
    # Jun's 9th, the hole hidden: never on the public board.
    caddie(home, "score", game, "Jun", "9", "3")
    for driver in (tv, spectator):
        driver.get(url)
        wait(driver, lambda d: board_thru(d, "Ivo") == "7" and board_thru(d, "Jun") == "7",
             "the board shows both players thru 7 (%s), Jun's hidden 9th left off" % driver.get_window_size()["width"])
        check(driver.execute_script("return document.cookie") == "", "the board needs no sign-in (no cookie)")
    facts = retry(lambda: tv.find_element(By.ID, "facts").text)
    check("Medal (gross)" in facts and "last hole hidden" in facts, "the TV says the scoring and the hidden hole: %s"
          % facts)
    size = tv.execute_script("return parseFloat(getComputedStyle(document.querySelector('#board td.name')).fontSize)")
    check(size >= 28, "the TV's names are large enough to read from five metres: %s px" % size)
    check(spectator.execute_script("return document.documentElement.scrollWidth") <= 390,
          "the spectator's page fits the phone's width")
    check("Twos: Jun (3)" in text(tv), "the twos are on the TV: %s" % tv.find_element(By.ID, "twos").text)
    # A score on the 8th reaches both pages by itself; the TV's time to show it is a figure.
    started = time.time()
    caddie(home, "score", game, "Ivo", "8", "3")
    wait(tv, lambda d: board_thru(d, "Ivo") == "8", "the TV shows Ivo's 8th without a reload", timeout=15)
    figures["publicBoardUpdateMs"] = round((time.time() - started) * 1000)
    wait(spectator, lambda d: board_thru(d, "Ivo") == "8", "the spectator's phone shows it too", timeout=15)
    check(board_thru(tv, "Jun") == "7", "Jun's 9th stays hidden after the update")
    order = tv.execute_script("return [...document.querySelectorAll('#board td.name')].map((c) => c.firstChild.textContent)")
    check(order == ["Ivo", "Jun"], "Ivo, level par, leads Jun, 4 over with his two: %s" % order)
    shot(tv, "competition-board-tv-1920")
    shot(spectator, "competition-board-spectator-390")
    axe(tv, "the TV board")
    axe(spectator, "the spectator board")
    console_errors(tv, "the TV board")
    # The committee closes it: the pages say so, by themselves.
    caddie(home, "competition", "public", medal, "off")
    for driver in (tv, spectator):
        wait(driver, lambda d: "closed this board" in text(d), "a closed board says so on the page it was open on")
    tv.quit()
    spectator.quit()
    drivers.remove(tv)
    drivers.remove(spectator)
    return game


def check_in(work, home, origin, authority, rules, drivers):
    """A group's check-in code from the starter's sheet: Kim's phone (it trusts the authority) opens it, says it is
    Kim's, becomes Kim's device with keys of its own and links Kim to its user, signed on the phone; then the card
    opens. Lee's phone, with the same code, is no longer offered Kim."""
    print("Check-in: the group's code on the starter's sheet makes a phone its player's device")
    course = next(c["course"] for c in caddie_json(home, "course", "list") if c["name"] == "Browser Test Nine")
    players = {name: caddie_json(home, "player", "add", name)["player"] for name in ("Kim", "Lee")}
    game = caddie_json(home, "game", "new", "--course", course, "--tee", "Yellow", "--players",
                       ",".join(players.values()))["game"]
    day = caddie_json(home, "competition", "new", "Stableford Day")["competition"]
    caddie(home, "competition", "add", day, game)
    sheet = os.path.join(work, "check-in-sheet.html")
    caddie(home, "competition", "show", day, "--format", "html", "--url", origin, "--check-in", "--out", sheet)
    with open(sheet) as handle:
        page = handle.read()
    link = re.search(r"https://caddie\.test:\d+/signin\?t=[a-z0-9]+", page).group(0)
    check("check in, 2 phones" in page, "the sheet's code checks in the group's two phones")
    trust = re.search(r"http://caddie\.test:\d+/", page)
    check("First, once per phone" in page and trust is not None,
          "the sheet has the trust page's code for a phone new to the node: %s" % (trust.group(0) if trust else None))
    kim = trusting_browser(work, "kim-home", authority, 390, 844, rules)
    drivers.append(kim)
    kim.get(link)
    mine = "checkin-" + players["Kim"]
    wait(kim, lambda d: d.find_elements(By.ID, mine) and "/#/checkin/" + game in d.current_url,
         "the code opens the group's check-in on the phone", timeout=20)
    check("I am Lee" in text(kim), "the phone offers each player of the group")
    shot(kim, "competition-check-in-390")
    axe(kim, "the check-in")
    retry(lambda: tap(kim, kim.find_element(By.ID, mine)))
    wait(kim, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#recovery-words li")) == 24,
         "Kim's phone makes its own keys and shows the 24 recovery words", timeout=20)
    wait(kim, lambda d: d.find_elements(By.ID, "checked-in"), "the phone says it checked in as Kim", timeout=20)
    retry(lambda: tap(kim, kim.find_element(By.ID, "words-done")))
    wait(kim, lambda d: d.find_elements(By.ID, "hole-title") and "/#/game/" + game in d.current_url,
         "once the words are written down, the group's card opens", timeout=20)
    deadline = time.time() + 20
    linked = None
    while time.time() < deadline and not linked:
        card = caddie_json(home, "card", game)
        linked = next(p["user"] for p in card["players"] if p["name"] == "Kim")
        time.sleep(0.2)
    user = kim.execute_async_script(PHONE_DEVICE)["user"]
    check(linked == user, "the node's card links Kim to the phone's own user (%s)" % (linked or "none")[:8])
    # Back at the check-in, the phone goes straight to its card; Lee's phone, with the same code, sees Kim taken.
    kim.get(origin + "/#/checkin/" + game)
    wait(kim, lambda d: "/#/game/" + game in d.current_url, "a phone checked in already goes to its card")
    console_errors(kim, "the check-in")
    lee = trusting_browser(work, "lee-home", authority, 390, 844, rules)
    drivers.append(lee)
    lee.get(link)
    wait(lee, lambda d: d.find_elements(By.ID, "checkin-" + players["Lee"]), "Lee's phone opens the same code",
         timeout=20)
    check("Kim: checked in" in text(lee) and not lee.find_elements(By.ID, mine),
          "Lee's phone is not offered Kim, who has checked in: %s" % text(lee))
    for driver in (kim, lee):
        driver.quit()
        drivers.remove(driver)


def locked_card(phone, origin, home, game):
    """A competition card signed by two people is locked: Hana signs Ivo's card at the CLI, Ida's phone (a device of
    its own) signs it too, and the phone's card then shows Ivo's row signed, with no controls; the node refuses an
    entry for it by name, the committee's own `caddie score` too."""
    print("A competition card signed by two people is locked")
    phone.get_log("browser")  # what the phone logged earlier (its dead zones' refused connections) is checked there
    caddie(home, "attest", game, "Ivo")
    phone.get(origin + "/#/game/" + game)
    attest = "//button[normalize-space()=\"Attest Ivo's card\"]"
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and d.find_elements(By.XPATH, attest),
         "Ida's phone offers to sign Ivo's card", timeout=20)
    check(not phone.find_elements(By.CSS_SELECTOR, "li.player.locked"), "one signature does not lock the card")
    retry(lambda: tap(phone, phone.find_element(By.XPATH, attest)))
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "li.player.locked"),
         "once the phone's signature reaches the node, Ivo's row shows the card signed", timeout=20)
    # The live card may draw itself again (a later event) between finding the row and reading it.
    row = retry(lambda: phone.find_element(By.CSS_SELECTOR, "li.player.locked").text)
    check("Ivo" in row and "Hana" in row and "Ida" in row and "only the committee" in row,
          "the row names who signed and who may change it: %s" % row.replace("\n", " / "))
    check(not phone.find_elements(By.CSS_SELECTOR, "li.player.locked .stepper"), "the signed card has no stroke buttons")
    check(phone.find_elements(By.CSS_SELECTOR, "li.player:not(.locked) .stepper"), "Jun's card, not signed, still has them")
    check("finishes the groups at the close" in text(phone) and not phone.find_elements(By.ID, "finish"),
          "a group's phone offers no Finish: the committee finishes the groups when it closes the competition")
    refused = caddie(home, "score", game, "Ivo", "9", "4", check_ok=False)
    check(refused.returncode != 0 and "Ivo's card is locked" in refused.stderr,
          "the node refuses an entry for the signed card, the committee's own: %s" % refused.stderr.strip())
    shot(phone, "competition-locked-card-390")
    console_errors(phone, "the locked card")


def https_phone(work, drivers, figures):
    """A phone on the course's Wi-Fi: the node serves HTTPS with a certificate from its home's own authority, the
    phone trusts that authority once (certutil into the browser's own NSS database) and opens the node at a name
    that is not loopback (chromium maps caddie.test to 127.0.0.1 for itself; nothing changes on the machine)."""
    print("HTTPS at a name that is not loopback, trusted once")
    home = os.path.join(work, "hana")
    caddie(home, "login", "--name", "Hana")
    space = caddie_json(home, "space", "create", "Course Wi-Fi")["space"]
    hana = caddie_json(home, "player", "add", "Hana")["player"]
    caddie_json(home, "game", "new", "--course", nine_hole_course(home, work), "--tee", "Yellow", "--players", hana)
    port, http, trust_port = free_port(), free_port(), free_port()
    env = dict(os.environ, CADDIE_PASSPHRASE=PASSPHRASE, CADDIE_LOG="warning")
    log = open(os.path.join(home, "serve.log"), "a")

    def start():
        started = subprocess.Popen(
            [CADDIE, "serve", "--home", home, "--listen", "127.0.0.1:0", "--no-mdns", "--https", "127.0.0.1:%d" % port,
             "--https-name", "caddie.test", "--http", "127.0.0.1:%d" % http, "--trust-page", "127.0.0.1:%d" % trust_port],
            stdout=log, stderr=log, env=env)
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return started
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("the HTTPS node did not start (%s)" % os.path.join(home, "serve.log"))
                time.sleep(0.1)

    def stop(running):
        running.send_signal(signal.SIGTERM)
        try:
            running.wait(10)
        except subprocess.TimeoutExpired:
            running.kill()

    process = start()
    try:
        authority = os.path.join(work, "caddie-authority.crt")
        shown = caddie_json(home, "web", "authority", "--out", authority)
        check(len(shown["fingerprint"].split(":")) == 32, "caddie web authority gives the fingerprint to compare")
        profile = os.path.join(work, "phone-home")
        nssdb = os.path.join(profile, ".pki", "nssdb")
        os.makedirs(nssdb)
        subprocess.run(["certutil", "-d", "sql:" + nssdb, "-N", "--empty-password"], check=True)
        subprocess.run(["certutil", "-d", "sql:" + nssdb, "-A", "-t", "C,,", "-n", "caddie-test", "-i", authority],
                       check=True)
        rules = ["--host-resolver-rules=MAP caddie.test 127.0.0.1"]
        origin = "https://caddie.test:%d" % port
        # Without the authority, the browser refuses the page.
        stranger_home = os.path.join(work, "stranger-home")
        os.makedirs(stranger_home)
        stranger = browser(390, 844, home=stranger_home, extra=rules)
        drivers.append(stranger)
        stranger.get(origin + "/")
        refusal = text(stranger)
        check("Sign in with a link" not in refusal and "ERR_CERT_AUTHORITY_INVALID" in refusal,
              "a browser that has not trusted the home's authority refuses the certificate (%s)" % stranger.title)
        shot(stranger, "https-untrusted-390")
        trust_page(work, stranger, shown["fingerprint"], port, trust_port)
        # With it, the QR code's address opens the trust page, whose "Continue" signs the phone in over HTTPS.
        phone = browser(390, 844, home=profile, extra=rules)
        drivers.append(phone)
        made = caddie_json(home, "web", "link", "--host", "caddie.test")
        link = made["url"]
        check(link.startswith(origin + "/signin?t="), "caddie web link names the HTTPS server: %s" % link)
        check(made["trustUrl"] == "http://caddie.test:%d/" % trust_port,
              "the trust page has a code of its own that carries no sign-in: %s" % made["trustUrl"])
        phone.get(made["trustUrl"])
        wait(phone, lambda d: d.find_elements(By.ID, "continue"), "the trust page opens from its own code")
        secret = link.split("t=")[1]
        check(secret not in phone.page_source and "t=" not in phone.find_element(By.ID, "continue").get_attribute("href"),
              "no sign-in secret reaches the plain-HTTP page or its links")
        # The second code: the HTTPS sign-in, opened once the authority is trusted.
        phone.get(link)
        wait(phone, lambda d: d.execute_script("return document.readyState") == "complete"
             and "/#/" in d.current_url, "the HTTPS link signs the phone in", timeout=20)
        check(phone.execute_script("return window.isSecureContext") is True,
              "at https://caddie.test the page is a secure context")
        cookie = {c["name"]: c for c in phone.get_cookies()}.get("caddie_session", {})
        check(cookie.get("secure") is True and cookie.get("httpOnly") is True, "the session cookie is Secure")
        # The app registers its worker once it has read the phone's storage: give it a moment.
        wait(phone, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
             "the service worker registers and controls the page over HTTPS", timeout=20)
        has_ed25519 = phone.execute_async_script(
            "const done = arguments[0]; crypto.subtle.generateKey({name: 'Ed25519'}, false, ['sign', 'verify'])"
            ".then(() => done(true)).catch(e => done(String(e)));")
        check(has_ed25519 is True, "WebCrypto's Ed25519 is there for a phone's own device key (%s)" % has_ed25519)
        shot(phone, "https-390")
        figures["httpsSecureContext"] = True
        # Guide on the phone over HTTPS: the page may ask for the position (a secure context), and gets it.
        phone.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
        phone.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": TEE[0], "longitude": TEE[1], "accuracy": 5})
        phone.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        phone.get(origin + "/#/guide")
        wait(phone, lambda d: d.find_elements(By.ID, "guide-start"), "the guidance screen opens over HTTPS")
        retry(lambda: tap(phone, phone.find_element(By.ID, "guide-start")))
        wait(phone, lambda d: "Green" in d.find_element(By.ID, "targets").text and "Pond" in d.find_element(By.ID, "targets").text,
             "over HTTPS, Guide gets the phone's position and shows the green and the pond", timeout=20)
        check(phone.execute_script("return navigator.maxTouchPoints") >= 1, "the phone has touch")
        shot(phone, "https-guide-390")
        # HTTP/2: the page, its files, its reads and its live events over one connection (two at most while one
        # closes), as the node's own sockets count them.
        protocols = set(phone.execute_script(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".map(e => e.nextHopProtocol).filter(p => p)"))
        check(protocols == {"h2"}, "over HTTPS the phone speaks HTTP/2 to the node: %s" % sorted(protocols))
        # Only this phone's sockets count (the untrusted browser above is still open), and a connection the phone
        # has given up, or opened ahead and never used (chromium closes those after 10 s), is let close before the
        # count is taken as held.
        held = browser_connections(phone, port)
        deadline = time.time() + 15
        while len(held) > 2 and time.time() < deadline:
            time.sleep(0.25)
            held = browser_connections(phone, port)
        figures["httpsConnectionsPerPhone"] = len(held)
        # The target is 2 (one for credentialed requests, one without: the manifest). Chromium sometimes keeps a third
        # of its own past the wait (seen in 2 of about 12 runs): the figure is reported, and more than 3 fails.
        check(1 <= len(held) <= 3, "the phone holds %d connection(s) to the node (target at most 2, fails past 3): %s"
              % (len(held), held))
        online_targets = phone.find_element(By.ID, "targets").text
        online_callout = phone.find_element(By.ID, "callout").text

        # Over HTTPS at a name that is not loopback, the phone becomes Ida's device and keeps a score through a
        # dead zone; the node takes it signed by the phone.
        mine = own_device(phone, origin, work, figures, owner="Hana", name="Ida")
        figures["phoneDevice"] = mine["device"][:8]
        phone.get(origin + "/#/game/current")
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens over HTTPS")
        stop(process)
        wait(phone, lambda d: "out of reach" in status(d), "the phone sees the node go")
        # Guide in the dead zone: the phone works the distances out itself from the hole geometry it kept, and at
        # the same position gets what the node said.
        phone.get(origin + "/#/guide")
        wait(phone, lambda d: d.find_elements(By.ID, "guide-start"), "the guidance screen opens with no node")
        retry(lambda: tap(phone, phone.find_element(By.ID, "guide-start")))
        wait(phone, lambda d: "worked out on this phone" in d.find_element(By.ID, "guide-source").text,
             "with no node, Guide says the distances are worked out on the phone", timeout=20)
        offline_targets = phone.find_element(By.ID, "targets").text
        check(offline_targets == online_targets and phone.find_element(By.ID, "callout").text == online_callout,
              "the phone's own distances and callout are the node's at the same position: %r and %r"
              % (offline_targets, online_targets))
        phone.execute_cdp_cmd("Emulation.setGeolocationOverride",
                              {"latitude": TEE[0] + 0.0005, "longitude": TEE[1], "accuracy": 5})
        wait(phone, lambda d: d.find_element(By.ID, "targets").text != online_targets,
             "walking on in the dead zone, the distances follow the phone", timeout=20)
        shot(phone, "https-guide-dead-zone-390")
        retry(lambda: tap(phone, phone.find_element(By.ID, "guide-start")))
        phone.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": TEE[0], "longitude": TEE[1], "accuracy": 5})
        phone.get(origin + "/#/game/current")
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens again in the dead zone")
        # Hana picks up on the 1st, in the dead zone: under her More, the pick-up box turns her strokes into P.
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='Fairway, green and pick-up for Hana']")))
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//label[normalize-space()='Picked up (no score)']")))
        wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, "output[aria-label='Hana: picked up']").text == "P",
             "ticking the pick-up shows P for Hana's strokes")
        shot(phone, "https-pick-up-dead-zone-390")
        retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
        wait(phone, lambda d: "1 entry on this phone, not yet sent" in status(d), "the entry is kept on the phone")
        phone.refresh()
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and "1 entry on this phone" in status(d),
             "with no node, the reloaded HTTPS page still opens and keeps the entry", timeout=20)
        process = start()
        wait(phone, lambda d: "not yet sent" not in status(d), "the node back, the entry is sent", timeout=20)
        # The page was opened from the phone's copy while no node answered, so its first event stream failed
        # outright (the browser gives such a stream up): it must come back live by itself, without a reload.
        wait(phone, lambda d: d.find_element(By.ID, "status").get_attribute("data-link") == "live",
             "the node back, the page opened in the dead zone is live again without a reload", timeout=30)
        request = urllib.request.Request("http://127.0.0.1:%d/v1/spaces/%s/log" % (http, space))
        with open(os.path.join(home, "api-token")) as handle:
            request.add_header("Authorization", "Bearer " + handle.read().strip())
        with urllib.request.urlopen(request, timeout=10) as response:
            log_entries = json.loads(response.read())
        scored = [e for e in log_entries if e["change"].startswith("score Hana hole 1")]
        check(len(scored) == 1 and scored[0]["user"] == "Ida" and scored[0]["device"] == mine["device"]
              and scored[0]["verified"], "the node's audit names Ida and the phone's device for the entry: %s"
              % [(e["user"], e["device"][:8]) for e in scored])
        check(scored[0]["change"].startswith("score Hana hole 1: picked up"),
              "the entry kept through the dead zone is the pick-up, signed as one (0x23): %s" % scored[0]["change"])

        # The round's screens over HTTPS as on the LAN: the bottom bar, the standings, and a sign-in code that a
        # partner's phone (its own browser, trusting the same authority) opens over HTTPS.
        phone.get(origin + "/#/game/current")
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens over HTTPS again")
        bar = phone.execute_script(
            "const n = document.querySelector('nav.tabs'); if (!n) return null; const r = n.getBoundingClientRect();"
            "return {links: n.querySelectorAll('a').length, bottom: Math.round(r.bottom), height: window.innerHeight}")
        check(bar is not None and bar["links"] == 6 and abs(bar["bottom"] - bar["height"]) <= 1,
              "over HTTPS the bottom bar holds the six screens at the foot of the phone's screen: %s" % bar)
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//nav[contains(@class,'tabs')]//a[normalize-space()='Standings']")))
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "table.standings"), "the bar's Standings opens them over HTTPS")
        phone.get(origin + "/#/sync")
        wait(phone, lambda d: d.find_elements(By.ID, "signin-code"), "the Devices screen offers a sign-in code over HTTPS")
        retry(lambda: tap(phone, phone.find_element(By.ID, "signin-code")))
        wait(phone, lambda d: d.find_elements(By.ID, "signin-url"), "the sign-in code is shown")
        partner_link = phone.find_element(By.ID, "signin-url").text
        trust_url = phone.find_element(By.ID, "trust-url").text
        check(partner_link.startswith(origin + "/signin?t="),
              "the sign-in code is the node as the phone reached it (%s), over HTTPS: %s" % (origin, partner_link))
        check(trust_url == "http://caddie.test:%d/" % trust_port,
              "the trust page's code, shown first, carries no sign-in: %s" % trust_url)
        shot(phone, "https-signin-code-390")
        partner_profile = os.path.join(work, "partner-home")
        partner_db = os.path.join(partner_profile, ".pki", "nssdb")
        os.makedirs(partner_db)
        subprocess.run(["certutil", "-d", "sql:" + partner_db, "-N", "--empty-password"], check=True)
        subprocess.run(["certutil", "-d", "sql:" + partner_db, "-A", "-t", "C,,", "-n", "caddie-test", "-i", authority],
                       check=True)
        partner = browser(390, 844, home=partner_profile, extra=rules)
        drivers.append(partner)
        partner.get(trust_url)
        wait(partner, lambda d: d.find_elements(By.ID, "continue"), "the partner's phone opens the trust page first")
        check(partner_link.split("t=")[1] not in partner.page_source, "the trust page never sees the sign-in secret")
        partner.get(partner_link)
        wait(partner, lambda d: d.find_elements(By.ID, "hole-title") or "Course Wi-Fi" in text(d),
             "the partner's phone opens the app over HTTPS, signed in from the second code", timeout=20)
        check(partner.execute_script("return window.isSecureContext") is True, "the partner's page is a secure context")
        who = partner.execute_async_script(
            "const done = arguments[0]; fetch('/v1/whoami').then(r => r.json()).then(done).catch(e => done(String(e)));")
        check(isinstance(who, dict) and who.get("kind") == "partner" and who.get("user") is None,
              "the partner's session is a partner's, not the node's owner: %s" % who)
        partner.get(origin + "/#/sync")
        wait(partner, lambda d: d.find_elements(By.ID, "phone-partner"),
             "the partner's Devices screen says it reads until it becomes a device of its own")
        check(not partner.find_elements(By.ID, "signin-code"), "a partner's phone offers no sign-in codes")
        shot(partner, "https-partner-devices-390")
        https_code_and_game(phone, partner, origin, mine, lambda: api_log(home, http, space))
        partner.quit()
        drivers.remove(partner)
        board_game = public_board(work, home, origin, authority, rules, drivers, figures)
        locked_card(phone, origin, home, board_game)
        check_in(work, home, origin, authority, rules, drivers)
    finally:
        stop(process)
        log.close()


def api_log(home, http, space):
    """The audit of `space` from the node's API on its plain-HTTP port, with the home's token."""
    request = urllib.request.Request("http://127.0.0.1:%d/v1/spaces/%s/log" % (http, space))
    with open(os.path.join(home, "api-token")) as handle:
        request.add_header("Authorization", "Bearer " + handle.read().strip())
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def https_code_and_game(phone, partner, origin, mine, log):
    """Over HTTPS at caddie.test: the partner's phone becomes another device of Ida's by a code her phone approves,
    then adds Ida as a player and starts a game, both signed on that phone (the node drafts them and signs nothing)."""
    print("Over HTTPS: another device of Ida's by a code, then a player and a game signed on it")
    retry(lambda: tap(partner, partner.find_element(By.CSS_SELECTOR, "#phone-ask summary")))
    retry(lambda: tap(partner, partner.find_element(By.ID, "ask-go")))
    wait(partner, lambda d: d.find_elements(By.ID, "ask-code"), "the partner's phone shows a code over HTTPS")
    code = partner.find_element(By.ID, "ask-code").text
    asking = partner.find_element(By.ID, "ask-device").text
    phone.get(origin + "/#/sync")
    wait(phone, lambda d: d.find_elements(By.ID, "phone-add"), "Ida's phone offers to add another device of hers")
    retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "#phone-add summary")))
    retry(lambda: phone.find_element(By.ID, "add-code").send_keys(code))
    retry(lambda: tap(phone, phone.find_element(By.ID, "add-look")))
    wait(phone, lambda d: d.find_elements(By.ID, "add-device"), "the code names the asking device")
    check(phone.find_element(By.ID, "add-device").text == asking, "both phones show the same device: %s" % asking)
    retry(lambda: tap(phone, phone.find_element(By.ID, "add-go")))
    wait(phone, lambda d: d.find_elements(By.ID, "add-done"), "Ida's phone signed the certificate")
    wait(partner, lambda d: d.find_elements(By.ID, "ask-accept"), "the asking phone learns it was added", timeout=20)
    retry(lambda: tap(partner, partner.find_element(By.ID, "ask-accept")))
    wait(partner, lambda d: d.find_elements(By.ID, "phone-identity"), "the asking phone joins as Ida's device", timeout=20)
    record = partner.execute_async_script(PHONE_DEVICE)
    check(record is not None and record["user"] == mine["user"] and record["device"] != mine["device"],
          "over HTTPS the code made the partner's phone a second device of Ida: %s" % record)
    shot(partner, "https-code-joined-390")

    partner.get(origin + "/#/new")
    wait(partner, lambda d: d.find_elements(By.ID, "course-q"), "the new-game screen opens on the second device")
    retry(lambda: tap(partner, partner.find_element(By.CSS_SELECTOR, "#add-player summary")))
    retry(lambda: partner.find_element(By.ID, "player-name").send_keys("Ida"))
    retry(lambda: tap(partner, partner.find_element(By.ID, "player-me")))
    retry(lambda: tap(partner, partner.find_element(By.ID, "player-add")))
    wait(partner, lambda d: d.find_elements(By.XPATH, "//div[@class='player-pick']//label[normalize-space()='Ida']"),
         "the player added on the phone is listed to play", timeout=20)
    partner.find_element(By.ID, "course-q").send_keys("nine")
    retry(lambda: tap(partner, partner.find_element(By.XPATH, "//button[normalize-space()='Search']")))
    wait(partner, lambda d: d.find_elements(By.XPATH, "//button[normalize-space()='Browser Test Nine']"), "the course is found")
    retry(lambda: tap(partner, partner.find_element(By.XPATH, "//button[normalize-space()='Browser Test Nine']")))
    wait(partner, lambda d: d.find_elements(By.CSS_SELECTOR, "#tee option[value='Yellow']"), "its tee is listed")
    shot(partner, "https-new-game-signed-390")
    retry(lambda: tap(partner, partner.find_element(By.XPATH, "//button[normalize-space()='Start the game']")))
    wait(partner, lambda d: "/#/game/" in d.current_url and d.find_elements(By.ID, "hole-title"),
         "the game signed on the phone opens its card once the node has it", timeout=20)
    game = partner.current_url.split("/#/game/")[1]
    check("Ida" in text(partner) and "Hana" in text(partner), "the new game's card shows Hana and Ida")
    entries = log()
    added = [e for e in entries if e["change"].startswith("player ") and "name=Ida" in e["change"]]
    started = [e for e in entries if e["change"].startswith("new game %s" % game[:8])]
    check(len(started) == 1 and "added Hana to game %s" % game[:8] in started[0]["change"]
          and "added Ida to game %s" % game[:8] in started[0]["change"],
          "the new game's op puts Hana and Ida on its roster: %s" % [e["change"] for e in started])
    for what, found in (("the new player", added), ("the new game", started)):
        check(len(found) == 1 and found[0]["user"] == "Ida" and found[0]["device"] == record["device"] and found[0]["verified"],
              "the audit names Ida and her second phone's device for %s, signed there: %s"
              % (what, [(e["change"], e["user"], e["device"][:8]) for e in found]))
    check("user=" + mine["user"][:8] in added[0]["change"], "the player is linked to Ida's user: %s" % added[0]["change"])


def to_hole(phone, number):
    """Taps the hole arrows until the card shows hole `number`."""
    for _ in range(40):
        title = retry(lambda: phone.find_element(By.ID, "hole-title").text)
        shown = int(re.match(r"Hole (\d+)", title).group(1))
        if shown == number:
            return True
        label = "Next hole" if shown < number else "Previous hole"
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='%s']" % label)))
        wait(phone, lambda d: ("Hole %d" % shown) not in d.find_element(By.ID, "hole-title").text, "the card turns")
    return False


def status(phone):
    return retry(lambda: phone.find_element(By.ID, "status").text)


# main() names its HTTP statuses `status`: there the status line is read by this name.
phone_status = status


PHONE_DEVICE = """
const done = arguments[0];
const opened = indexedDB.open('caddie');
opened.onerror = () => done(null);
opened.onsuccess = () => {
  const read = opened.result.transaction('device').objectStore('device').get('me');
  read.onsuccess = () => {
    const r = read.result;
    done(r ? { user: r.user, device: r.device, name: r.name, deviceKeyExtractable: r.deviceKey.extractable,
      userKeyExtractable: r.userKey ? r.userKey.extractable : null, joined: Object.keys(r.spaces) } : null);
  };
  read.onerror = () => done(null);
};
"""


def audit(node, space, words):
    """The node's audit entries whose change starts with `words`."""
    status, _, body = node.request("GET", "/v1/spaces/%s/log" % space)
    return [e for e in json.loads(body) if e["change"].startswith(words)] if status == 200 else []


def phone_attests(phone, origin, node, space, game, players, mine):
    """The phone, now Dev's own device, attests the card Dev marks (Cleo's): the attestation is signed on the phone
    as Dev, with the card hash made in the browser, and the node finds it current (the same hash)."""
    print("The phone attests as its own user")
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and status(d) and "not yet sent" not in status(d),
         "the card opens with nothing waiting on the phone")
    wait(phone, lambda d: d.find_elements(By.XPATH, "//button[normalize-space()=\"Attest Cleo's card\"]"),
         "Dev's phone offers to attest the card Dev marks")
    shown = text(phone)
    check("Attest Ben's card" not in shown and "Attest Ana's card" not in shown,
          "it offers no card that Dev does not mark (the node's owner, Ana, marks Ben)")
    retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()=\"Attest Cleo's card\"]")))
    made = []
    deadline = time.time() + 20
    while time.time() < deadline and not made:
        made = [a for a in node.card(space, game)["attestations"] if a["player"] == players["Cleo"]]
        time.sleep(0.1)
    check(len(made) == 1 and made[0]["marker"] == "Dev (%s)" % mine["user"][:8] and made[0]["current"] is True,
          "the node holds Dev's attestation of Cleo's card, and the hash made on the phone is the node's: %s" % made)
    signed = audit(node, space, "attested Cleo's card")
    check(len(signed) == 1 and signed[0]["user"] == "Dev" and signed[0]["device"] == mine["device"] and signed[0]["verified"],
          "the audit names Dev and the phone's own device for the attestation: %s"
          % [(e["user"], e["device"][:8]) for e in signed])
    wait(phone, lambda d: "Cleo attested" in text(d), "the card shows Cleo's card attested")


def new_phone_at(origin, ana, drivers, section, offer):
    """Another phone, signed in to Ana's node, on the Devices screen with the `section` (what it offers) open."""
    other = browser(390, 844)
    drivers.append(other)
    other.get(caddie_json(ana, "web", "link")["url"])
    wait(other, lambda d: d.find_elements(By.ID, "hole-title") or "Games in" in text(d), "the new phone is signed in")
    other.get(origin + "/#/sync")
    wait(other, lambda d: d.find_elements(By.ID, section), "the Devices screen offers " + offer)
    retry(lambda: tap(other, other.find_element(By.CSS_SELECTOR, "#%s summary" % section)))
    return other


def second_phone(origin, work, ana, node, space, mine, drivers):
    """Dev's second phone: his 24 recovery words (written down when his first phone made its user) make it another
    device of the same user, so the group still sees one Dev. Words with one missing are refused, and nothing is made."""
    print("A second phone of the same golfer, from the recovery words")
    other = new_phone_at(origin, ana, drivers, "phone-restore", "the recovery words")
    with open(os.path.join(work, "Dev-words.txt")) as handle:
        words = handle.read().split()
    retry(lambda: other.find_element(By.ID, "restore-name").send_keys("Dev"))
    retry(lambda: other.find_element(By.ID, "restore-words").send_keys(" ".join(words[:23])))
    retry(lambda: tap(other, other.find_element(By.ID, "restore-go")))
    wait(other, lambda d: "24 words, got 23" in d.find_element(By.ID, "phone-message").text,
         "23 words are refused with what is wrong")
    check(other.execute_async_script(PHONE_DEVICE) is None, "a refused restore makes no device")
    check(other.find_element(By.ID, "restore-words").get_attribute("value") == "", "the typed words leave the page")
    retry(lambda: other.find_element(By.ID, "restore-words").send_keys(" ".join(words)))
    retry(lambda: tap(other, other.find_element(By.ID, "restore-go")))
    wait(other, lambda d: d.find_elements(By.ID, "phone-identity"), "the second phone joins the space", timeout=20)
    record = other.execute_async_script(PHONE_DEVICE)
    check(record is not None and record["user"] == mine["user"] and record["device"] != mine["device"]
          and record["userKeyExtractable"] is False,
          "the words make the second phone a new device of the same user: %s" % record)
    shot(other, "phone-restored-390")
    joins = []
    deadline = time.time() + 20
    while time.time() < deadline:
        status_code, _, body = node.request("GET", "/v1/spaces/%s/log" % space)
        joins = [(e["user"], e["device"]) for e in json.loads(body) if e["device"] in (mine["device"], record["device"])
                 and e["change"].endswith("joined the space")] if status_code == 200 else []
        if len(joins) == 2:
            break
        time.sleep(0.2)
    check(sorted(joins) == sorted([("Dev", mine["device"]), ("Dev", record["device"])]),
          "the node's audit shows both phones as devices of one Dev, not two users of that name: %s"
          % [(u, d[:8]) for u, d in joins])
    other.quit()
    drivers.remove(other)


def phone_by_code(phone, origin, ana, node, space, mine, drivers):
    """Dev's third phone, with no recovery words at hand: it shows a code, Dev's first phone (which holds his user
    key) looks the code up, sees the same device as the new phone shows, and adds it; the new phone checks the
    certificate, names the user, and joins as Dev's device. A wrong code is refused with what to do."""
    print("A third phone of the same golfer, added from his first phone by a code")
    other = new_phone_at(origin, ana, drivers, "phone-ask", "a code for another phone")
    # "Make this phone my device" as Dev again would make a second Dev: the phone says who Dev is and how to add it.
    retry(lambda: other.find_element(By.ID, "phone-name").send_keys("dev"))
    retry(lambda: tap(other, other.find_element(By.ID, "phone-make")))
    wait(other, lambda d: d.find_elements(By.ID, "phone-same-name"), "a name the group knows is questioned first")
    warned = other.find_element(By.ID, "phone-same-name").text
    check("Dev is in" in warned and mine["user"][:8] in warned and "2 devices" in warned and "another device" in warned,
          "it names the Dev of the group, his devices, and the way to add this phone: %s" % warned)
    check(other.execute_async_script(PHONE_DEVICE) is None, "and makes no user until asked again")
    shot(other, "phone-same-name-390")
    retry(lambda: tap(other, other.find_element(By.ID, "ask-go")))
    wait(other, lambda d: d.find_elements(By.ID, "ask-code"), "the new phone shows its code")
    code = other.find_element(By.ID, "ask-code").text
    asking = other.find_element(By.ID, "ask-device").text
    check(re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code) is not None, "the code is two groups of four: %s" % code)
    shot(other, "phone-ask-390")

    phone.get(origin + "/#/sync")
    wait(phone, lambda d: d.find_elements(By.ID, "phone-add"), "Dev's first phone offers to add another device of his")
    retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "#phone-add summary")))
    retry(lambda: phone.find_element(By.ID, "add-code").send_keys("ZZZZ-ZZZZ"))
    retry(lambda: tap(phone, phone.find_element(By.ID, "add-look")))
    wait(phone, lambda d: "lasts 10 minutes" in d.find_element(By.ID, "add-found").text, "a wrong code is refused, saying why")
    # The refused lookup is the one thing the console may show here (the node's 404); later checks read it afresh.
    logged = [e["message"] for e in phone.get_log("browser") if e["level"] == "SEVERE"]
    check(all("device-requests/ZZZZ-ZZZZ" in m and "404" in m for m in logged),
          "the console shows only the wrong code's 404: %s" % logged)
    field = phone.find_element(By.ID, "add-code")
    field.clear()
    field.send_keys(code.lower().replace("-", " "))
    retry(lambda: tap(phone, phone.find_element(By.ID, "add-look")))
    wait(phone, lambda d: d.find_elements(By.ID, "add-device"), "the code names the asking device")
    check(phone.find_element(By.ID, "add-device").text == asking,
          "the first phone shows the same device as the new one: %s and %s" % (phone.find_element(By.ID, "add-device").text, asking))
    shot(phone, "phone-add-390")
    retry(lambda: tap(phone, phone.find_element(By.ID, "add-go")))
    wait(phone, lambda d: d.find_elements(By.ID, "add-done"), "the first phone signed the new phone's certificate")

    wait(other, lambda d: d.find_elements(By.ID, "ask-accept"), "the new phone learns it was added", timeout=20)
    check("as Dev's device" in other.find_element(By.ID, "ask-confirm").text, "it names the user before it joins")
    shot(other, "phone-ask-confirm-390")
    retry(lambda: tap(other, other.find_element(By.ID, "ask-accept")))
    wait(other, lambda d: d.find_elements(By.ID, "phone-identity"), "the third phone joins the space", timeout=20)
    record = other.execute_async_script(PHONE_DEVICE)
    check(record is not None and record["user"] == mine["user"] and record["device"].startswith(asking)
          and record["userKeyExtractable"] is None and record["deviceKeyExtractable"] is False,
          "the third phone is a new device of the same user, holding no user key: %s" % record)
    joins = []
    deadline = time.time() + 20
    while time.time() < deadline:
        status_code, _, body = node.request("GET", "/v1/spaces/%s/log" % space)
        joins = [e["user"] for e in json.loads(body) if e["change"].endswith("joined the space")
                 and e["user"].startswith("Dev")] if status_code == 200 else []
        if len(joins) == 3:
            break
        time.sleep(0.2)
    check(joins == ["Dev", "Dev", "Dev"], "the node's audit shows three devices of one Dev: %s" % joins)
    check(not other.find_elements(By.ID, "phone-add"), "a phone without the user key offers to add none")
    other.quit()
    drivers.remove(other)


def correction_in_dead_zone(phone, origin, node, space, game, players):
    """In a dead zone Ana's 7th is saved on the phone, then corrected before any node has it. When the node is back
    and takes the first entry, the correction is no "meanwhile" to the phone (it is its own entry), and saving it
    replaces it: no dispute of the phone with itself."""
    print("A correction made in a dead zone, before the first entry was sent")
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens")
    node.stop()
    wait(phone, lambda d: "out of reach" in status(d), "the phone sees the node go")
    to_hole(phone, 7)
    plus = "button[aria-label='One stroke more for Ana']"
    retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, plus)))
    retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
    wait(phone, lambda d: "1 entry on this phone, not yet sent" in status(d), "the first entry is kept on the phone")
    to_hole(phone, 7)
    retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, plus)))
    corrected = retry(lambda: phone.find_element(By.ID, "s-" + players["Ana"]).text)
    node.start()
    wait(phone, lambda d: "not yet sent" not in status(d), "the node back, the first entry is sent", timeout=30)
    time.sleep(0.5)
    check(not phone.find_elements(By.ID, "late-" + players["Ana"]),
          "the phone's own entry, sent after the correction was begun, is not shown as entered meanwhile")
    retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
    cell = None
    deadline = time.time() + 20
    while time.time() < deadline:
        ana = next(p for p in node.card(space, game)["players"] if p["name"] == "Ana")
        cell = next((c for c in ana["cells"] if c["hole"] == 7), None)
        if cell and str(cell["strokes"]) == corrected:
            break
        time.sleep(0.2)
    check(cell is not None and [v["strokes"] for v in cell["values"]] == [int(corrected)] and not cell["conflict"],
          "the correction replaced the phone's own first entry, with no dispute: %s" % cell)
    # While the node was away the browser logged each refused connection; nothing else may be logged.
    logged = [e["message"] for e in phone.get_log("browser") if e["level"] == "SEVERE"]
    check(all("net::ERR_CONNECTION_REFUSED" in m for m in logged),
          "through this dead zone the console shows only refused connections: %s" % logged[:3])


def pick_up(phone, origin, node, space, game, players, mine):
    """Dev picks up on the 12th: under his More, "Picked up (no score)" turns his strokes into P, the phone signs the
    pick-up (change 0x23) and the node holds it as one, with no total for Dev (NR) on the card."""
    print("A pick-up entered on the phone")
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens")
    to_hole(phone, 12)
    dev = players["Dev"]
    retry(lambda: tap(phone, phone.find_element(By.ID, "more-" + dev)))
    retry(lambda: tap(phone, phone.find_element(By.ID, "pu-" + dev)))
    wait(phone, lambda d: d.find_element(By.ID, "s-" + dev).text == "P", "ticking the pick-up shows P for Dev's strokes")
    check(phone.find_element(By.ID, "pu-" + dev).is_selected(), "the pick-up box stays ticked")
    shot(phone, "card-pick-up-390")
    retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
    wait(phone, lambda d: "Hole 12 saved" in d.find_element(By.ID, "save-message").text, "the pick-up is saved")
    cell = None
    deadline = time.time() + 20
    while time.time() < deadline:
        row = next(p for p in node.card(space, game)["players"] if p["name"] == "Dev")
        cell = next((c for c in row["cells"] if c["hole"] == 12), None)
        if cell:
            break
        time.sleep(0.1)
    check(cell is not None and cell["pickUp"] is True and cell["strokes"] is None and row["noReturn"] is True
          and row["total"] is None, "the node holds Dev's 12th as a pick-up, and his card has no total: %s" % cell)
    check(cell["winner"]["op"].startswith(mine["device"] + ":") and cell["winner"]["author"] == mine["name"],
          "the pick-up is signed by the phone's own device, for its user %s: %s" % (mine["name"], cell["winner"]))
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, ".table-view table"), "the whole card is shown")
    label = "button[aria-label='Dev hole 12: P. History']"
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, label), "the whole card shows P on Dev's 12th")
    dev_row = retry(lambda: phone.find_element(By.XPATH, "//table//tr[th[normalize-space()='Dev']]").text)
    check("NR" in dev_row, "Dev's total is NR: %s" % dev_row)
    shot(phone, "card-pick-up-1280")
    phone.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def late_draft(phone, origin, node_a, node_b, ben, space, game, players, drivers):
    """Two scorers in one group: Ana's phone types Ben's hole 2 and has not saved it when Ben's own phone (on his
    node) saves a different value for the same cell. Ana's row says so, and saving hers makes a dispute that both
    nodes show: never a silent replacement of Ben's value."""
    print("A late draft: two phones on one cell")
    other = browser(390, 844)
    drivers.append(other)
    other.get(caddie_json(ben, "web", "link")["url"])
    wait(other, lambda d: d.find_elements(By.ID, "hole-title"), "Ben's phone opens the card on his node")
    other.get("http://127.0.0.1:%d/#/game/%s" % (node_b.http, game))
    wait(other, lambda d: d.find_elements(By.ID, "hole-title"), "Ben's phone shows the game")
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "Ana's phone shows the game")
    to_hole(phone, 2)
    to_hole(other, 2)
    cell = "s-" + players["Ben"]
    retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke more for Ben']")))
    mine = retry(lambda: phone.find_element(By.ID, cell).text)
    for _ in range(2):
        retry(lambda: tap(other, other.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke more for Ben']")))
    theirs = retry(lambda: other.find_element(By.ID, cell).text)
    check(mine != theirs, "the two phones type different values (%s, %s)" % (mine, theirs))
    retry(lambda: tap(other, other.find_element(By.ID, "save-hole")))
    wait(phone, lambda d: d.find_elements(By.ID, "late-" + players["Ben"]),
         "Ana's phone, with its draft unsaved, says that Ben's phone entered a value meanwhile", timeout=20)
    late = retry(lambda: phone.find_element(By.ID, "late-" + players["Ben"]).text)
    check("Ben entered %s meanwhile" % theirs in late, "the row names who entered what: %r" % late)
    check(retry(lambda: phone.find_element(By.ID, cell).text) == mine, "Ana's own draft is still what she typed")
    check(phone.find_elements(By.ID, "take-" + players["Ben"]), "Ana may take Ben's value instead, in one tap")
    shot(phone, "card-late-draft-390")
    retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
    wait(phone, lambda d: "settle the dispute" in d.find_element(By.ID, "save-message").text,
         "saving says that Ana's entry stands beside Ben's as a dispute")
    made = []
    deadline = time.time() + 20
    while time.time() < deadline:
        on_a = [(c["name"], c["hole"], sorted(v["strokes"] for v in c["values"])) for c in node_a.card(space, game)["conflicts"]]
        on_b = [(c["name"], c["hole"]) for c in node_b.card(space, game)["conflicts"]]
        made = (on_a, on_b)
        if on_a and on_b:
            break
        time.sleep(0.2)
    want = sorted([int(mine), int(theirs)])
    check(made == ([("Ben", 2, want)], [("Ben", 2)]),
          "both nodes hold the dispute, Ana's %s beside Ben's %s, and neither replaced the other: %s" % (mine, theirs, made))
    # Settled in one tap on Ana's phone, and the settlement reaches Ben's node.
    wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "button[id^='keep-%s-2-']" % players["Ben"])) == 2,
         "the banner offers each of the two values")
    retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Keep %s (Ben)']" % theirs)))
    deadline = time.time() + 20
    while time.time() < deadline and (node_a.card(space, game)["conflicts"] or node_b.card(space, game)["conflicts"]):
        time.sleep(0.2)
    check(not node_a.card(space, game)["conflicts"] and not node_b.card(space, game)["conflicts"],
          "one tap settles it on both nodes")
    other.quit()
    drivers.remove(other)


def own_device(phone, origin, work, figures, owner="Ana", name="Dev"):
    """The phone becomes a device of the group: `name` makes a user and a device key in the browser, writes down the
    24 recovery words shown once, and the phone joins the space; the words bring the same user back with the CLI."""
    print("The phone becomes %s's device, at %s" % (name, origin))
    phone.get(origin + "/#/sync")
    wait(phone, lambda d: d.find_elements(By.ID, "phone-name"), "the Devices screen offers to make this phone a device")
    check("signed now by %s's node" % owner in text(phone), "it says whose node signs this browser's entries now")
    retry(lambda: phone.find_element(By.ID, "phone-name").send_keys(name))
    retry(lambda: tap(phone, phone.find_element(By.ID, "phone-make")))
    wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#recovery-words li")) == 24,
         "the 24 recovery words are shown", timeout=20)
    words = [e.text for e in phone.find_elements(By.CSS_SELECTOR, "#recovery-words li")]
    if name == "Dev":
        shot(phone, "phone-recovery-words-390")
    axe(phone, "the recovery words")
    wait(phone, lambda d: d.find_elements(By.ID, "phone-identity"), "the phone joins the space", timeout=20)
    retry(lambda: tap(phone, phone.find_element(By.ID, "words-done")))
    check(not phone.find_elements(By.ID, "recovery-words"), "once written down, the words are gone from the page")
    record = phone.execute_async_script(PHONE_DEVICE)
    check(record is not None and record["name"] == name and len(record["joined"]) == 1,
          "the phone keeps its device, joined to one space: %s" % record)
    check(record["deviceKeyExtractable"] is False and record["userKeyExtractable"] is False,
          "the phone's keys cannot be read out of WebCrypto")
    check(record["device"][:8] in text(phone), "the screen names the phone's own device")
    # The words are the user: typed into `caddie login --recover` on a new home they give the same user key.
    phrase = os.path.join(work, "%s-words.txt" % name)
    with open(phrase, "w") as handle:
        handle.write(" ".join(words) + "\n")
    recovered = os.path.join(work, "%s-recovered" % name)
    caddie(recovered, "login", "--recover", "--name", name, "--phrase-file", phrase)
    check(caddie_json(recovered, "whoami")["user"] == record["user"],
          "the 24 words shown by the phone bring back the same user with caddie login --recover")
    return record


def dead_zone(phone, origin, node_a, node_b, ben, space, game, players, figures, mine):
    """The node the phone uses stops; the phone keeps a whole hole, a draft and its screens through a reload; another
    device enters a different value for one of those cells; the node comes back and takes every entry; the card shows
    exactly one dispute."""
    print("A dead zone: the node stops, a hole is entered and kept on the phone through a reload")
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens")
    wait(phone, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
         "the service worker controls the page", timeout=20)
    node_a.stop()
    wait(phone, lambda d: "out of reach" in status(d), "the status line says the node is out of reach")
    to_hole(phone, 3)
    entered = {"Ana": 0, "Ben": 1, "Cleo": 0, "Dev": 2}
    for name, extra in entered.items():
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke more for %s']" % name)))
        for _ in range(extra):
            retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke more for %s']" % name)))
    retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
    wait(phone, lambda d: "4 entries on this phone, not yet sent" in status(d),
         "saving with no node keeps the hole on the phone: the status line counts 4 entries not yet sent")
    # A figure, reported against its target (docs/web.md), not a pass or fail: timing depends on the machine.
    figures["tapToOnPhoneMs"] = round(phone.execute_script("return window.caddieSavedMs"), 1)
    print("  figure tap to 'on this phone' (IndexedDB write done): %.1f ms (target 50 ms: %s)"
          % (figures["tapToOnPhoneMs"], "met" if figures["tapToOnPhoneMs"] <= 50 else "missed"))
    wait(phone, lambda d: "Hole 4" in d.find_element(By.ID, "hole-title").text, "the card moves on to hole 4")
    # A draft on hole 4, typed and not saved, must survive the reload too.
    retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke more for Ana']")))
    time.sleep(0.3)
    phone.refresh()
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "with no node in reach, the reloaded page still opens the card",
         timeout=20)
    line = status(phone)
    check("4 entries on this phone, not yet sent" in line and "as of" in line,
          "after the reload the status line says what waits and how old the card is: %s" % line)
    to_hole(phone, 3)
    kept = len(phone.find_elements(By.XPATH, "//span[@class='tag pending' and normalize-space()='on this phone']"))
    check(kept == 4, "hole 3 shows its 4 entries as 'on this phone' after the reload (%d)" % kept)
    values = {name: phone.find_element(By.ID, "s-" + players[name]).text for name in entered}
    check(values == {"Ana": "4", "Ben": "5", "Cleo": "4", "Dev": "6"}, "the kept values are shown: %s" % values)
    # The leaderboard counts the kept entries, each row marked provisional (node B holds what node A held).
    held = {p["name"]: len([c for c in p["cells"] if c["hole"] != 3]) for p in node_b.card(space, game)["players"]}
    board = {li.text.split()[1]: li.text for li in phone.find_elements(By.CSS_SELECTOR, ".leaderboard li")}
    check(all(("thru %d•" % (held[name] + 1)) in board.get(name, "") for name in entered),
          "the leaderboard counts hole 3 kept on the phone, marked provisional: %s (held %s)" % (board, held))
    shot(phone, "card-dead-zone-390")
    to_hole(phone, 4)
    check(phone.find_element(By.ID, "s-" + players["Ana"]).text == "3" and "not saved" in text(phone),
          "Ana's unsaved draft on hole 4 (par 3) survived the reload")
    # The standings and the log, never opened on this page, were kept when the card opened: the dead zone shows them.
    for screen, expect in (("standings", "Settlement"), ("log", "signature valid")):
        phone.get(origin + "/#/game/%s/%s" % (game, screen))
        wait(phone, lambda d: expect in text(d) and "as of" in status(d),
             "in the dead zone the %s screen shows what the phone kept when the card opened" % screen, timeout=20)
        shot(phone, "%s-dead-zone-390" % screen)
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "back to the card, still in the dead zone")

    print("Another device enters a different value for one of those cells; the node comes back")
    caddie(ben, "score", game, "Dev", "3", "9")
    # The requests that carry the kept hole to the node, counted from here (failed tries while it is down excluded).
    phone.execute_script("performance.setResourceTimingBufferSize(5000); performance.clearResourceTimings()")
    node_a.start()
    back = time.time()
    hole3 = {}
    while time.time() - back < 60:
        card = node_a.card(space, game)
        hole3 = {p["name"]: [v["strokes"] for c in p["cells"] if c["hole"] == 3 for v in c["values"]] for p in card["players"]}
        if all(entered_value in hole3.get(name, []) for name, entered_value in
               [("Ana", 4), ("Ben", 5), ("Cleo", 4), ("Dev", 6)]):
            break
        time.sleep(0.05)
    figures["nodeBackToAppliedSeconds"] = round(time.time() - back, 2)
    check(all(v in hole3.get(n, []) for n, v in [("Ana", 4), ("Ben", 5), ("Cleo", 4), ("Dev", 6)]),
          "every kept entry reached the node once it was back: %s" % hole3)
    print("  figure node back to every kept entry applied: %.2f s (target 2 s: %s)"
          % (figures["nodeBackToAppliedSeconds"], "met" if figures["nodeBackToAppliedSeconds"] <= 2 else "missed"))
    wait(phone, lambda d: "not yet sent" not in status(d), "the status line no longer counts entries on the phone")
    posts = phone.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/ops') && e.initiatorType === 'fetch'"
        " && e.responseStatus > 0).length")
    figures["requestsForKeptHole"] = posts
    check(posts == 1, "the hole kept on the phone (4 signed entries) reached the node in one request (%d)" % posts)
    deadline = time.time() + 30
    conflicts = []
    while time.time() < deadline:
        conflicts = [(c["name"], c["hole"], sorted(v["strokes"] for v in c["values"])) for c in node_a.card(space, game)["conflicts"]]
        other = [(c["name"], c["hole"]) for c in node_b.card(space, game)["conflicts"]]
        if conflicts and other:
            break
        time.sleep(0.1)
    check(conflicts == [("Dev", 3, [6, 9])] and other == [("Dev", 3)],
          "both nodes hold exactly one dispute, Dev's 6 (kept on the phone) against Ben's 9: %s, %s" % (conflicts, other))
    wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "td.disputed")) == 1 and "1 disputed score" in text(d),
         "the phone's card shows the one dispute", timeout=20)
    for node, who in [(node_a, "Ana's node"), (node_b, "Ben's node")]:
        entries = [e for e in json.loads(node.request("GET", "/v1/spaces/%s/log?game=%s" % (space, game))[2])
                   if "hole 3" in e["change"]]
        phone_entries = [e for e in entries if e["device"] == mine["device"]]
        check(len(entries) == 5 and len(phone_entries) == 4 and all(e["user"] == "Dev" and e["verified"] for e in phone_entries)
              and [e["user"] for e in entries if e not in phone_entries] == ["Ben"],
              "on %s the audit names the phone's own device and its user Dev for the four kept entries, and Ben for his: %s"
              % (who, [(e["user"], e["device"][:8], e["change"]) for e in entries]))
    shot(phone, "card-after-dead-zone-390")
    # While the node was away the browser logged each refused connection; nothing else may be logged.
    logged = [e["message"] for e in phone.get_log("browser") if e["level"] == "SEVERE"]
    other = [m for m in logged if "net::ERR_CONNECTION_REFUSED" not in m]
    for message in other:
        print("        console: " + message)
    check(not other, "through the dead zone the console shows only the refused connections (%d of them)" % len(logged))


def one_screen(phone, origin, node, space, game, players, figures):
    """A hole for four with putts on one screen: counted taps, no scrolling, every control at least 44 px; then a
    score entered sideways, on a tablet and on a laptop."""
    print("The round on one screen: a hole for four in a few taps, and entry at every size")
    # A phone's own viewport: 390 x 844 CSS pixels, touch, no browser frame taking its height.
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    phone.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the card opens")
    # The dispute the dead zone left (Dev, hole 3) is named on the banner with a button per value: settled there.
    banner = retry(lambda: phone.find_element(By.CSS_SELECTOR, ".disputes").text)
    check("Dev, hole 3: " in banner and "Keep 6 (Dev)" in banner and "Keep 9 (Ben)" in banner,
          "the banner names the dispute and its values: %s" % banner.replace("\n", " | "))
    shot(phone, "card-dispute-banner-390")
    # The same banner on the standings screen settles it there.
    phone.get(origin + "/#/game/%s/standings" % game)
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, ".disputes button.keep"), "the standings show the dispute's banner")
    shot(phone, "standings-dispute-banner-390")
    retry(lambda: tap(phone, phone.find_element(By.XPATH, "//section[contains(@class,'disputes')]//button[normalize-space()='Keep 9 (Ben)']")))
    wait(phone, lambda d: not d.find_elements(By.CSS_SELECTOR, ".disputes") and d.find_elements(By.CSS_SELECTOR, "table.standings"),
         "one tap on the standings banner settles it, and the standings stay on screen", timeout=20)
    phone.get(origin + "/#/game/" + game)
    wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and not d.find_elements(By.CSS_SELECTOR, ".disputes"),
         "the card has no dispute left")
    to_hole(phone, 5)
    phone.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.2)
    small = phone.execute_script(
        "return [...document.querySelectorAll('.hole-view button, .hole-view select, .hole-view input')]"
        ".map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && (r.width < 44 || r.height < 44)).length")
    check(small == 0, "every control of the hole view is at least 44 x 44 px (%d smaller)" % small)
    fits = phone.execute_script(
        "const rows = [...document.querySelectorAll('.hole-view li.player')];"
        "const save = document.getElementById('save-hole').getBoundingClientRect();"
        "return window.innerHeight === 844 && rows.length === 4"
        " && rows.every(r => r.getBoundingClientRect().bottom <= window.innerHeight) && save.bottom <= window.innerHeight")
    if not fits:
        print("        layout: " + json.dumps(phone.execute_script(
            "return {h: window.innerHeight, rows: [...document.querySelectorAll('.hole-view li.player')]"
            ".map(r => Math.round(r.getBoundingClientRect().bottom)), save: document.getElementById('save-hole')"
            ".getBoundingClientRect().bottom, top: document.querySelector('.hole-view').getBoundingClientRect().top}")))
    shot(phone, "card-one-screen-before-390")
    check(fits, "at 390 x 844 the four players and Save hole 5 are all on the screen at once")
    taps = 0

    def press(selector):
        nonlocal taps
        taps += 1
        # A person taps what is on the screen: no scrolling first (Selenium scrolls only if it must).
        retry(lambda: phone.find_element(By.CSS_SELECTOR, selector).click())
    # Hole 5 (par 5): Ana par with 2 putts, Ben bogey with 2, Cleo par with 1, Dev birdie with 1.
    press("button[aria-label='2 putts for Ana']")
    press("button[aria-label='2 putts for Ben']")
    press("button[aria-label='One stroke more for Ben']")
    press("button[aria-label='1 putt for Cleo']")
    press("button[aria-label='1 putt for Dev']")
    press("button[aria-label='One stroke fewer for Dev']")
    press("#save-hole")
    figures["tapsPerHoleWithPutts"] = taps
    check(taps <= 8, "a hole for four with putts took %d taps (target 8; 13 before, 17 as the issue found it)" % taps)
    check(phone.execute_script("return window.scrollY") == 0, "nothing scrolled while entering the hole")
    wait(phone, lambda d: "Hole 5 saved" in d.find_element(By.ID, "save-message").text and
         "Hole 6" in d.find_element(By.ID, "hole-title").text, "saving says so on screen and moves to hole 6")
    shot(phone, "card-one-screen-390")
    # Focus stays where the finger was when a live update redraws the card: a draft on hole 6, then a score
    # from elsewhere (Cleo's 18th, entered at the node) redraws the whole hole view.
    press("button[aria-label='2 putts for Ben']")
    phone.execute_script("document.querySelector('.hole-view').dataset.before = 'yes'")
    node.request("POST", "/v1/spaces/%s/games/%s/scores" % (space, game), {"player": players["Cleo"], "hole": 18, "strokes": 4})
    wait(phone, lambda d: d.execute_script("const v = document.querySelector('.hole-view'); return v && !v.dataset.before"),
         "the score from elsewhere redraws the hole view", timeout=20)
    kept = phone.execute_script("const a = document.activeElement; return [a.id, a.getAttribute('aria-pressed')]")
    check(kept == ["p-%s-2" % players["Ben"], "true"],
          "after a live redraw the focus is still on Ben's 2-putt chip, and the draft is kept: %s" % kept)
    deadline = time.time() + 20
    got = {}
    while time.time() < deadline:
        got = {p["name"]: next(([c["strokes"], c["winner"]["putts"]] for c in p["cells"] if c["hole"] == 5), None)
               for p in node.card(space, game)["players"]}
        if None not in got.values():
            break
        time.sleep(0.1)
    check(got == {"Ana": [5, 2], "Ben": [6, 2], "Cleo": [5, 1], "Dev": [4, 1]}, "the node holds hole 5 as tapped: %s" % got)
    # The audit log: newest first, filtered by player and hole.
    phone.get(origin + "/#/game/%s/log" % game)
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#log-entries li"), "the audit log opens")
    first = retry(lambda: phone.find_element(By.CSS_SELECTOR, "#log-entries li").text)
    check("Cleo hole 18" in first, "the audit log lists the newest change (Cleo's 18th, entered last) first: %s" % first)
    Select(phone.find_element(By.ID, "log-player")).select_by_value("Dev")
    Select(phone.find_element(By.ID, "log-hole")).select_by_value("3")
    shown = [e.text for e in phone.find_elements(By.CSS_SELECTOR, "#log-entries li") if e.is_displayed()]
    check(len(shown) == 3 and all("Dev hole 3" in t for t in shown),
          "filtered by Dev and hole 3 it shows that cell's three entries (the phone's, Ben's, the settling): %s" % shown)
    check(any("this phone" in t for t in shown) and not any("this phone" in t and " Ben: " in t for t in shown),
          "the entries this phone signed are marked 'this phone', Ben's are not: %s" % shown)
    phone.get(origin + "/#/game/" + game)
    for (width, height), hole, par in zip([(844, 390), (768, 1024), (1280, 800)], [6, 7, 8], [4, 4, 3]):
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 1000})
        phone.get(origin + "/#/game/" + game)
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and d.find_element(By.ID, "hole-title").is_displayed(),
             "at %d x %d the hole view is shown" % (width, height))
        to_hole(phone, hole)
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='2 putts for Ana']")))
        retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
        wait(phone, lambda d: "Hole %d saved" % hole in d.find_element(By.ID, "save-message").text,
             "at %d x %d a score is entered and saved" % (width, height))
        shot(phone, "card-entry-%dx%d" % (width, height))
        deadline = time.time() + 20
        while time.time() < deadline:
            ana = next(p for p in node.card(space, game)["players"] if p["name"] == "Ana")
            if any(c["hole"] == hole for c in ana["cells"]):
                break
            time.sleep(0.1)
        check(any(c["hole"] == hole and c["strokes"] == par for c in ana["cells"]),
              "Ana's par on hole %d, entered at %d x %d, reached the node" % (hole, width, height))
    phone.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def main():
    os.makedirs(SHOTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="caddie-web-")
    ana, ben = os.path.join(work, "ana"), os.path.join(work, "ben")
    nodes, drivers = [], []
    figures = {}
    try:
        # Two players' homes in one space, a four-player game on the Haagsche course (pars and stroke indexes).
        caddie(ana, "login", "--name", "Ana")
        caddie(ben, "login", "--name", "Ben")
        caddie_json(ana, "space", "create", "Saturday foursome")
        invite = caddie_json(ana, "space", "invite", "--shared-key")["invite"]
        caddie(ben, "space", "join", invite)
        players = {name: caddie_json(ana, "player", "add", name, "--index", index)["player"]
                   for name, index in [("Ana", "12.4"), ("Ben", "18.0"), ("Cleo", "7.5"), ("Dev", "24.1")]}
        course = caddie_json(ana, "course", "import", os.path.join(REPO, "docs", "examples", "course.json"))["course"]
        game = caddie_json(ana, "game", "new", "--course", course, "--tee", "1", "--players",
                           ",".join(players.values()), "--markers", "Ben:Ana,Ana:Ben,Cleo:Dev,Dev:Cleo")["game"]
        space = caddie_json(ana, "space", "list")[0]["space"]
        # The group's side games: net skins and a four-ball match, 1 a unit.
        caddie(ana, "game", "setup", game, "--formats", "stroke,stableford,match,skins", "--teams", "Ana+Ben,Cleo+Dev",
               "--stake", "1")
        ports = [free_port() for _ in range(4)]
        node_a = Node(ana, ports[0], ports[1], [ports[2]])
        node_b = Node(ben, ports[2], ports[3], [ports[0]])
        nodes += [node_a, node_b]
        deadline = time.time() + 20
        while time.time() < deadline and caddie(ben, "card", game, check_ok=False).returncode != 0:
            time.sleep(0.2)
        check(caddie(ben, "card", game, check_ok=False).returncode == 0, "Ben's node received the game over sync")

        phone = browser(390, 844)
        drivers.append(phone)
        origin = "http://127.0.0.1:%d" % node_a.http

        print("Signing in")
        phone.get(origin + "/")
        check("Sign in with a link" in text(phone) and "Ana" not in text(phone),
              "without a session the app shows the sign-in page and no data")
        shot(phone, "signin-390")
        axe(phone, "the sign-in page")
        link = caddie_json(ana, "web", "link")["url"]
        check(link.startswith(origin + "/signin?t="), "caddie web link --json gives this node's link")
        qr = caddie(ana, "web", "link").stdout
        check("█" in qr and "/signin?t=" in qr, "caddie web link prints a QR code and the link")
        started = time.time()
        phone.get(link)
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the link opens the current game's card")
        check(phone.current_url.endswith("/#/game/current") and "t=" not in phone.current_url,
              "after sign-in the address holds no secret: %s" % phone.current_url)
        cookies = {c["name"]: c for c in phone.get_cookies()}
        session = cookies.get("caddie_session", {})
        check(session.get("httpOnly") is True and session.get("sameSite") == "Strict",
              "the session cookie is HttpOnly and SameSite=Strict")
        wait(phone, lambda d: "Live" in d.find_element(By.ID, "status").text, "the live-events stream connects")
        resources = phone.execute_script(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".filter(e => !e.name.includes('/v1/')).map(e => [e.name, e.encodedBodySize || 0, e.transferSize || 0])")
        figures["firstLoadBytes"] = sum(r[1] for r in resources)
        figures["firstLoadFiles"] = len(resources)
        check(figures["firstLoadBytes"] <= 60 * 1024, "first load is at most 60 KB on the wire, the files gzipped "
              "(%d bytes in %d files)" % (figures["firstLoadBytes"], len(resources)))
        figures["signInToCardSeconds"] = round(time.time() - started, 3)
        sessions = caddie_json(ana, "web", "sessions")
        check(len(sessions) == 1 and "Chrome" in sessions[0]["browser"], "caddie web sessions lists the browser")

        print("Entering hole 1 for four players")
        check("Hole 1" in retry(lambda: phone.find_element(By.ID, "hole-title").text) and "Par 5" in text(phone),
              "the card opens on hole 1 with its par")
        for name, extra in [("Ana", 0), ("Ben", 1), ("Cleo", -1), ("Dev", 2)]:
            retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke more for %s']" % name)))
            for _ in range(abs(extra)):
                button = "more" if extra > 0 else "fewer"
                retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='One stroke %s for %s']" % (button, name))))
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label='2 putts for Ana']")))
        # Fairway and green in regulation for Ana, behind her "More"; her strokes and putts must survive these changes.
        check(not phone.find_elements(By.ID, "fw-" + players["Ana"]), "fairway and green are folded away by default")
        retry(lambda: tap(phone, phone.find_element(By.ID, "more-" + players["Ana"])))
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "#fw-%s option[value='left']" % players["Ana"])))
        retry(lambda: tap(phone, phone.find_element(By.ID, "gir-" + players["Ana"])))
        check(phone.find_element(By.ID, "gir-" + players["Ana"]).is_selected()
              and phone.find_element(By.ID, "s-" + players["Ana"]).text == "5",
              "ticking green in regulation keeps Ana's 5 strokes on the open hole")
        shot(phone, "card-hole-entry-390")
        # The requests the saved hole makes, counted from the tap.
        phone.execute_script("performance.setResourceTimingBufferSize(5000); performance.clearResourceTimings()")
        retry(lambda: tap(phone, phone.find_element(By.ID, "save-hole")))
        wait(phone, lambda d: "Hole 2" in d.find_element(By.ID, "hole-title").text, "after saving, the card moves to hole 2")
        # The hole is kept on the phone at the tap and sent at once: the node holds it a moment later.
        deadline = time.time() + 10
        while True:
            card = node_a.card(space, game)
            hole1 = {p["name"]: next((c["strokes"] for c in p["cells"] if c["hole"] == 1), None) for p in card["players"]}
            if None not in hole1.values() or time.time() > deadline:
                break
            time.sleep(0.05)
        check(hole1 == {"Ana": 5, "Ben": 6, "Cleo": 4, "Dev": 7}, "the node holds hole 1 as entered: %s" % hole1)
        wait(phone, lambda d: "not yet sent" not in d.find_element(By.ID, "status").text,
             "with the node in reach, nothing waits on the phone")
        # The node pushes the card after the commit: the sent hole stays drawn until that card shows it, and the
        # phone reads nothing (past the 3 s after which it would read the card itself).
        wait(phone, lambda d: "•" not in d.find_element(By.CSS_SELECTOR, ".leaderboard").text,
             "the card the node pushed shows hole 1: no row is marked provisional")
        time.sleep(3.5)
        reads = phone.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.initiatorType === 'fetch'"
            " && /\\/games\\/[^/]+(\\/card)?$/.test(new URL(e.name).pathname)).map(e => new URL(e.name).pathname)")
        posts = phone.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.initiatorType === 'fetch'"
            " && /\\/(ops|scores)$/.test(new URL(e.name).pathname)).length")
        figures["readsAfterSavedHole"] = len(reads)
        check(not reads and posts >= 1,
              "a hole saved with the node live is sent and not read back: the card comes with the live event "
              "(%d sends, reads %s)" % (posts, reads))
        ana_cell = next(c for p in card["players"] if p["name"] == "Ana" for c in p["cells"] if c["hole"] == 1)
        check(ana_cell["winner"]["putts"] == 2, "Ana's putts were saved")
        check(ana_cell["winner"]["fairway"] == "left" and ana_cell["winner"]["gir"] is True,
              "Ana's fairway (missed left) and green in regulation were saved: %s" % ana_cell["winner"])
        ben_cell = next(c for p in card["players"] if p["name"] == "Ben" for c in p["cells"] if c["hole"] == 1)
        check(ben_cell["winner"]["fairway"] is None and ben_cell["winner"]["gir"] is None,
              "a fairway and green left untouched are not recorded: %s" % ben_cell["winner"])

        print("A score entered on the other node arrives without reload")
        marker = phone.execute_script("window.__sameDocument = 1; return 1")
        caddie(ben, "score", game, "Cleo", "2", "3")
        arrived = wait(phone, lambda d: d.find_element(By.ID, "s-" + players["Cleo"]).text == "3",
                       "Cleo's 3 on hole 2, typed on Ben's device, appears on Ana's open page")
        check(arrived and phone.execute_script("return window.__sameDocument") == marker, "it arrived without a reload")

        print("A conflict, made offline, and settled in one tap")
        node_b.stop()
        caddie(ben, "score", game, "Dev", "2", "6")
        caddie(ana, "score", game, "Dev", "2", "5")
        node_b.start()
        wait(phone, lambda d: "Disputed" in text(d), "the disputed cell is marked after the devices meet", timeout=20)
        check("⚠" in text(phone), "the dispute is shown with a sign, not colour alone")
        shot(phone, "card-conflict-390")
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button.dispute")))
        wait(phone, lambda d: d.find_elements(By.ID, "panel-title"), "tapping the dispute opens its values")
        panel = retry(lambda: phone.find_element(By.CSS_SELECTOR, ".panel").text)
        check("by Ana" in panel and "by Ben" in panel and "Keep 5 (Ana)" in panel and "Keep 6 (Ben)" in panel,
              "the panel shows each value with who entered it")
        shot(phone, "conflict-panel-390")
        axe(phone, "the card with a dispute open")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Keep 5 (Ana)']")))
        wait(phone, lambda d: "Disputed" not in text(d), "one tap settles it")
        check(not node_a.card(space, game)["conflicts"], "the node's card has no conflict left")

        late_draft(phone, origin, node_a, node_b, ben, space, game, players, drivers)
        mine = own_device(phone, origin, work, figures)
        second_phone(origin, work, ana, node_a, space, mine, drivers)
        phone_by_code(phone, origin, ana, node_a, space, mine, drivers)
        dead_zone(phone, origin, node_a, node_b, ben, space, game, players, figures, mine)
        one_screen(phone, origin, node_a, space, game, players, figures)
        phone_attests(phone, origin, node_a, space, game, players, mine)
        correction_in_dead_zone(phone, origin, node_a, space, game, players)
        pick_up(phone, origin, node_a, space, game, players, mine)

        print("Inviting a player from the phone: a QR code, redeemed by a new device, then revoked")
        phone.get(origin + "/#/invite")
        wait(phone, lambda d: d.find_elements(By.ID, "invite-uses"), "the invite screen opens")
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "#invite-uses option[value='2']")))
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Make an invite']")))
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#invite-made img.qr"), "the invite shows its QR code")
        check(phone.execute_script("return document.querySelector('#invite-made img.qr').naturalWidth") > 0,
              "the QR code image loads")
        command = phone.find_element(By.CSS_SELECTOR, "#invite-made .invite-code").text
        check(command.startswith("caddie space join CADDIE2"), "the invite shows the command with its code: %s" % command)
        check("Admits 2 devices" in text(phone), "the invite says how many devices it admits")
        shot(phone, "invite-390")
        axe(phone, "the invite screen")
        code = command.split()[-1]
        cleo, dee = os.path.join(work, "cleo"), os.path.join(work, "dee")
        caddie(cleo, "login", "--name", "Cleo")
        caddie(dee, "login", "--name", "Dee")
        joined = caddie_json(cleo, "space", "join", code, "--peer", "127.0.0.1:%d" % node_a.port)
        check(joined["invitedBy"] == "Ana" and joined["space"] == space, "a new device redeems the code: %s" % joined)
        phone.refresh()
        wait(phone, lambda d: "admitted Cleo" in text(d), "the list shows whom the invite admitted")
        check("1 of 2 used" in text(phone), "one of the two uses is taken")
        retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button[aria-label^='Revoke invite']")))
        wait(phone, lambda d: "revoked" in text(d) and not d.find_elements(By.CSS_SELECTOR, "button[aria-label^='Revoke invite']"),
             "revoking marks the invite revoked")
        shot(phone, "invite-revoked-390")
        refused = caddie(dee, "space", "join", code, "--peer", "127.0.0.1:%d" % node_a.port, check_ok=False)
        check(refused.returncode != 0 and "revoked" in refused.stderr,
              "the revoked invite refuses a second device: %s" % refused.stderr.strip())

        print("History, attest, finish and the audit log at a laptop's width")
        laptop = browser(1280, 800)
        drivers.append(laptop)
        laptop.get(origin + "/")
        check("Sign in" in text(laptop), "a second browser without its own link sees only the sign-in page")
        laptop.get(caddie_json(ana, "web", "link")["url"])
        wait(laptop, lambda d: d.find_elements(By.CSS_SELECTOR, ".table-view table"), "the laptop shows the whole card")
        table = retry(lambda: laptop.find_element(By.CSS_SELECTOR, ".table-view table").text)
        check("Out" in table and "In" in table and "Total" in table and "Pts" in table, "the whole card has Out, In, Total, Pts")
        shot(laptop, "card-1280")
        retry(lambda: tap(laptop, laptop.find_element(By.CSS_SELECTOR, "button[aria-label^='Dev hole 2: 5']")))
        wait(laptop, lambda d: "history" in d.find_element(By.ID, "panel-title").text, "a cell opens its history")
        history = retry(lambda: laptop.find_element(By.CSS_SELECTOR, ".panel").text)
        check("6 by Ben" in history and "5 by Ana" in history and "standing" in history, "the history shows every value")
        shot(laptop, "history-1280")
        check("Ana marks Ben" in text(laptop) and "Attest Cleo's card" not in text(laptop),
              "Ana is offered to attest only the card she marks")
        retry(lambda: tap(laptop, laptop.find_element(By.XPATH, "//button[normalize-space()=\"Attest Ben's card\"]")))
        wait(laptop, lambda d: "Ben attested" in text(d), "attesting Ben's card shows it as attested")
        retry(lambda: tap(laptop, laptop.find_element(By.ID, "finish")))
        wait(laptop, lambda d: d.find_elements(By.ID, "finish-confirm"), "Finish asks before it finishes")
        check(node_a.card(space, game)["finished"] is False, "one tap on Finish finishes nothing by itself")
        shot(laptop, "card-finish-ask-1280")
        retry(lambda: tap(laptop, laptop.find_element(By.ID, "finish-confirm")))
        wait(laptop, lambda d: d.find_element(By.ID, "finish").text == "Reopen the game", "finishing offers to reopen")
        check(node_a.card(space, game)["finished"] is True, "the node's game is finished")
        shot(laptop, "card-finished-1280")
        retry(lambda: tap(laptop, laptop.find_element(By.ID, "finish")))
        wait(laptop, lambda d: d.find_element(By.ID, "finish").text == "Finish the game", "reopening works")
        laptop.get(origin + "/#/game/%s/log" % game)
        wait(laptop, lambda d: "signature valid" in text(d), "the audit log shows signature checks")
        shot(laptop, "audit-log-1280")
        axe(laptop, "the audit log")

        print("Standings: the match, the skins, the settlement, live")
        laptop.get(origin + "/#/game/%s/standings" % game)
        wait(laptop, lambda d: "Settlement" in text(d), "the standings screen opens")
        shown = text(laptop)
        check("Match: Ana & Ben v Cleo & Dev" in shown and "Skins (net)" in shown, "standings show the match and the skins")
        status, _, body = node_a.request("GET", "/v1/spaces/%s/games/%s/standings" % (space, game))
        check(status == 200, "GET standings answers 200")
        standings = json.loads(body)
        check(standings["match"]["status"] in shown, "the match line is the node's: %s" % standings["match"]["status"])
        shot(laptop, "standings-1280")
        axe(laptop, "the standings")
        ana_thru = lambda d: d.find_element(By.XPATH, "//table[contains(@class,'standings')]//tr[th[normalize-space()='Ana']]/td[1]").text
        before = retry(lambda: ana_thru(laptop))
        caddie(ben, "score", game, "Ana", "9", "4")
        wait(laptop, lambda d: ana_thru(d) == str(int(before) + 1),
             "a score typed on Ben's device updates the open standings (thru %s -> %d)" % (before, int(before) + 1))
        caddie(ana, "game", "finish", game)  # statistics count finished rounds
        retry(lambda: tap(laptop, laptop.find_element(By.LINK_TEXT, "Ana")))
        wait(laptop, lambda d: "Ana: statistics" in text(d), "a player's name opens their statistics")
        status, _, body = node_a.request("GET", "/v1/spaces/%s/players/%s/stats" % (space, players["Ana"]))
        stats = json.loads(body)
        shown = text(laptop)
        check(stats["rounds"] == 1 and "Over 1 finished round (%d holes)" % stats["holes"] in shown
              and "Putts per round" in shown and any("Par %d average" % p["par"] in shown for p in stats["byPar"]),
              "the statistics screen shows the node's figures: %s" % stats)
        shot(laptop, "stats-1280")
        axe(laptop, "a player's statistics")
        caddie(ana, "game", "reopen", game)
        laptop.get(origin + "/v1/spaces/%s/games/%s/card.html" % (space, game))
        wait(laptop, lambda d: "State hash" in text(d), "the printable card opens in the signed-in browser")
        check("Attestations" in text(laptop) and "Ben: signed by Ana" in text(laptop),
              "the printable card lists the attestation with who signed")
        shot(laptop, "card-print-1280")
        in_step = False
        deadline = time.time() + 45
        laptop.get(origin + "/#/sync")
        while time.time() < deadline and not in_step:
            # The same URL again changes no hash and re-renders nothing: reload the page for a fresh /v1/sync.
            laptop.refresh()
            wait(laptop, lambda d: "Connected now" in text(d), "the devices screen opens")
            in_step = "holds the same state as this one" in text(laptop)
            if not in_step:
                time.sleep(1)
        if not in_step:
            status, _, body = node_a.request("GET", "/v1/sync")
            print("  (diagnosis) Ana's /v1/sync: %s" % body.decode(errors="replace"))
        check(in_step, "the devices screen says Ben's device holds the same state")
        check("Ben's device" in text(laptop), "a connected device is named by its user, not only its address")
        check("state hash" in text(laptop), "the devices screen shows the state hash")
        shot(laptop, "devices-1280")
        phone.get(origin + "/#/games")
        wait(phone, lambda d: "Games in Saturday foursome" in text(d), "the games list opens")
        shot(phone, "games-390")
        phone.get(origin + "/#/new")
        wait(phone, lambda d: d.find_elements(By.ID, "course-q"), "the new-game screen opens")
        phone.find_element(By.ID, "course-q").send_keys("haagsche")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Search']")))
        wait(phone, lambda d: d.find_elements(By.XPATH, "//button[normalize-space()='Haagsche 18 holes']"),
             "course search finds the course")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Haagsche 18 holes']")))
        wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tee option")) == 2, "choosing it lists its tees")
        # Side games: skins and a Nassau, Ana and Ben against Cleo and Dev, 2 a unit.
        for name in ("skins", "nassau"):
            retry(lambda: tap(phone, phone.find_element(By.ID, "f-" + name)))
        for name, side in (("Ana", "A"), ("Ben", "A"), ("Cleo", "B"), ("Dev", "B")):
            Select(phone.find_element(By.ID, "t-" + players[name])).select_by_value(side)
        stake = phone.find_element(By.ID, "stake")
        stake.clear()
        stake.send_keys("2")
        shot(phone, "new-game-390")
        axe(phone, "the new-game screen")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Start the game']")))
        wait(phone, lambda d: "/#/game/" in d.current_url and d.find_elements(By.ID, "hole-title"), "starting the game opens its card")
        new_game = phone.current_url.split("/#/game/")[1]
        made = node_a.card(space, new_game)
        check(len(made["players"]) == 4 and len(made["markers"]) == 4 and all(m["player"] != m["marker"] for m in made["markers"]),
              "the game made in the browser has four players, each with a marker")
        status, _, body = node_a.request("GET", "/v1/spaces/%s/games/%s" % (space, new_game))
        setup = json.loads(body)
        teams = {t["player"]: t["team"] for t in setup["teams"]}
        check(status == 200 and setup["formats"] == ["stroke", "stableford", "skins", "nassau"] and setup["stake"] == 2
              and teams == {players["Ana"]: "A", players["Ben"]: "A", players["Cleo"]: "B", players["Dev"]: "B"},
              "the game made in the browser plays skins and a Nassau, Ana & Ben v Cleo & Dev, 2 a unit: %s" % setup)
        # The phone is Dev's own device by now: it signed the new game itself, from the node's draft.
        started = audit(node_a, space, "new game %s" % new_game[:8])
        check(len(started) == 1 and started[0]["user"] == "Dev" and started[0]["device"] == mine["device"]
              and started[0]["change"].count("added ") == 4,
              "the audit names Dev and the phone's device for the new game and its four players: %s"
              % [(e["change"], e["user"], e["device"][:8]) for e in started])

        print("Tap to paint on the other node's page (50 taps)")
        phone_b = browser(390, 844)
        drivers.append(phone_b)
        origin_b = "http://127.0.0.1:%d" % node_b.http
        phone_b.get(caddie_json(ben, "web", "link")["url"])
        wait(phone_b, lambda d: "Live" in d.find_element(By.ID, "status").text, "Ben's phone is live")
        phone_b.get(origin_b + "/#/game/" + game)
        card_b = node_b.card(space, game)
        hole = next((n for n in range(1, card_b["holes"] + 1)
                     if any(all(c["hole"] != n for c in p["cells"]) for p in card_b["players"])), card_b["holes"])
        wait(phone_b, lambda d: d.find_elements(By.ID, "s-" + players["Ana"])
             and retry(lambda: d.find_element(By.ID, "hole-title").text).startswith("Hole %d" % hole),
             "Ben's phone shows the card at hole %d" % hole)
        latencies = []
        card_requests = ("return performance.getEntriesByType('resource')"
                         ".filter(e => /\\/games\\/[^/]+(\\/(card|standings))?$/.test(e.name)).length")
        # The card's first draw does not wait for the reads that keep its other screens for a dead zone (the standings
        # among them): one still on its way when the count starts would be counted when it ends. They end first.
        wait(phone_b, lambda d: d.execute_script(
            "return performance.getEntriesByType('resource').some(e => /\\/games\\/[^/]+\\/standings$/.test(e.name))"),
            "Ben's phone has read the standings it keeps for a dead zone")
        # A fresh, large enough resource-timing buffer: a full one records nothing, and would count nothing.
        phone_b.execute_script("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(2000)")
        requests_before = phone_b.execute_script(card_requests)
        for i in range(50):
            strokes = 3 + (i % 2)
            phone_b.execute_script(
                "window.__painted = null; const target = document.getElementById('main');"
                "const want = arguments[0], id = arguments[1];"
                "if (window.__observer) window.__observer.disconnect();"
                "window.__observer = new MutationObserver(() => { const e = document.getElementById(id);"
                " if (e && e.textContent === want && window.__painted === null) window.__painted = performance.timeOrigin + performance.now(); });"
                "window.__observer.observe(target, {subtree: true, childList: true, characterData: true});",
                str(strokes), "s-" + players["Ana"])
            sent = time.time() * 1000
            status, _, _ = node_a.request("POST", "/v1/spaces/%s/games/%s/scores" % (space, game),
                                          {"player": players["Ana"], "hole": hole, "strokes": strokes})
            if status != 201:
                check(False, "tap %d was refused (%d)" % (i, status))
                break
            if not wait(phone_b, lambda d: d.execute_script("return window.__painted") is not None, "tap %d painted" % i):
                break
            latencies.append(phone_b.execute_script("return window.__painted") - sent)
        if latencies:
            latencies.sort()
            figures["tapToPaintMedianMs"] = round(statistics.median(latencies), 1)
            figures["tapToPaintP99Ms"] = round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 1)
            check(len(latencies) == 50, "all 50 taps painted on the other node's page")
            asked = phone_b.execute_script(card_requests) - requests_before
            check(asked == 0, "the other page drew all 50 from the live events, asking for no card and no game's setup "
                  "(%d requests)" % asked)

        print("Guidance with an emulated position")
        nine_id = nine_hole_course(ana, work)
        nine_game = caddie_json(ana, "game", "new", "--course", nine_id, "--tee", "Yellow", "--players",
                                ",".join(players.values()))["game"]
        phone.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
        tee, green = TEE, GREEN
        phone.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": tee[0], "longitude": tee[1], "accuracy": 5})
        phone.get(origin + "/#/guide")
        wait(phone, lambda d: d.find_elements(By.ID, "guide-start"), "the guidance screen opens")
        retry(lambda: tap(phone, phone.find_element(By.ID, "guide-start")))
        wait(phone, lambda d: "Green" in d.find_element(By.ID, "targets").text, "guidance shows the green from the position")
        status, _, body = node_a.request("POST", "/v1/spaces/%s/guidance/hole" % space, {
            "latitude": tee[0], "longitude": tee[1], "game": nine_game, "player": "Ana"})
        expected = json.loads(body) if status == 200 else {"targets": []}
        names = [t["target"] for t in expected["targets"]]
        check(status == 200 and names[:3] == ["Green", "Green front", "Green back"] and "Pond" in names,
              "the node gives the green's centre, front, back and the pond: %s" % names)
        shown = retry(lambda: phone.find_element(By.ID, "targets").text)
        yards = round(expected["targets"][0]["distanceYards"]) if expected["targets"] else -1
        check("%d yd" % yards in shown and "Pond" in shown, "the page shows the node's distances (%d yd to the green)" % yards)
        check("Hole 1" in retry(lambda: phone.find_element(By.ID, "callout").text), "the callout names the hole")
        shot(phone, "guide-390")
        axe(phone, "the guidance screen")
        retry(lambda: tap(phone, phone.find_element(By.ID, "g-beacon")))
        retry(lambda: tap(phone, phone.find_element(By.ID, "g-metres")))
        phone.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": green[0], "longitude": green[1], "accuracy": 5})
        wait(phone, lambda d: "On the green of hole 1" in d.find_element(By.ID, "arrival").text,
             "arriving at the green asks for the hole's scores", timeout=20)
        check(" m" in retry(lambda: phone.find_element(By.ID, "targets").text), "metres are shown when chosen")
        shot(phone, "guide-arrived-390")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Enter hole 1']")))
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and "Hole 1" in d.find_element(By.ID, "hole-title").text,
             "the prompt opens the card at that hole")
        # "Nearby" on the new-game screen finds the course from its first tee, though it has no clubhouse point.
        phone.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": tee[0], "longitude": tee[1], "accuracy": 5})
        phone.get(origin + "/#/new")
        wait(phone, lambda d: d.find_elements(By.XPATH, "//button[normalize-space()='Nearby']"), "the new-game screen opens")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Nearby']")))
        wait(phone, lambda d: "Browser Test Nine (0.0 km)" in d.find_element(By.ID, "course-results").text,
             "Nearby at the first tee lists the course with no clubhouse point, 0.0 km away")

        print("Every screen at both sizes")
        screens = [("signin", "/signin", "Sign in with a link"), ("games", "/#/games", "Games in"),
                   ("new-game", "/#/new", "New game"), ("card", "/#/game/" + game, "Attest and finish"),
                   ("audit-log", "/#/game/%s/log" % game, "signature valid"), ("devices", "/#/sync", "Connected now"),
                   ("guide", "/#/guide", "Guidance")]
        screens.append(("standings", "/#/game/%s/standings" % game, "Settlement"))
        for driver, size in ((phone, "390"), (laptop, "1280")):
            for name, path, expect in screens:
                driver.get(origin + path)
                if not wait(driver, lambda d: expect in text(d), "the %s screen at %s px" % (name, size)):
                    continue
                time.sleep(0.2)
                shot(driver, "screen-%s-%s" % (name, size))
                axe(driver, "the %s screen at %s px" % (name, size))
                if size != "390":
                    continue
                targets(driver, "the %s screen at 390 px" % name)
                wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                check(wide <= 0, "the %s screen at 390 px does not scroll sideways (%d px too wide)" % (name, wide))
                if name != "signin":
                    bar = driver.execute_script(
                        "const n = document.querySelector('nav.tabs'); const r = n.getBoundingClientRect();"
                        "return {bottom: Math.round(r.bottom), height: window.innerHeight,"
                        " links: [...n.querySelectorAll('a')].map((a) => a.textContent)}")
                    check(abs(bar["bottom"] - bar["height"]) <= 1 and bar["links"] == ["Games", "Card", "Standings", "Guide", "Log", "Devices"],
                          "the %s screen has the bar of every screen at the bottom, within thumb reach: %s" % (name, bar))
        # The standings at 390 px: every column the group plays, the money among them, without a sideways scroll.
        phone.get(origin + "/#/game/%s/standings" % game)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "table.standings"), "the standings open at 390 px")
        fit = phone.execute_script(
            "const t = document.querySelector('table.standings'); const box = t.parentElement;"
            "return {over: box.scrollWidth - box.clientWidth, heads: [...t.querySelectorAll('thead th')]"
            ".filter((th) => th.getBoundingClientRect().width > 0).map((th) => th.textContent)}")
        check(fit["over"] <= 0 and "±" in fit["heads"] and "Pts" in fit["heads"] and "Skins" in fit["heads"],
              "at 390 px the standings fit with points, skins and money in view: %s" % fit)
        shot(phone, "standings-390")

        print("A partner's phone signed in from the Devices screen")
        phone.get(origin + "/#/sync")
        wait(phone, lambda d: d.find_elements(By.ID, "signin-code"), "the Devices screen offers a sign-in code")
        retry(lambda: tap(phone, phone.find_element(By.ID, "signin-code")))
        wait(phone, lambda d: d.find_elements(By.ID, "signin-url") and d.find_elements(By.CSS_SELECTOR, "#signin-qr img.qr"),
             "the Devices screen shows a sign-in QR code and its link")
        shot(phone, "devices-signin-code-390")
        partner_link = phone.find_element(By.ID, "signin-url").text
        check(partner_link.startswith(origin + "/signin?t="), "the code is this node's sign-in link: %s" % partner_link)
        partner = browser(390, 844)
        drivers.append(partner)
        partner.get(partner_link)
        wait(partner, lambda d: "Saturday foursome" in text(d) or d.find_elements(By.ID, "hole-title"),
             "the partner's phone opens the app signed in, from the code alone")
        partner.get(partner_link)
        wait(partner, lambda d: "Sign in with a link" in text(d) or "used" in text(d) or "expired" in text(d),
             "the same code does not sign in a second time")
        partner.quit()
        drivers.remove(partner)

        print("An 18-hole round, then the app's memory")
        for h in range(1, 19):
            for name in ("Ana", "Ben", "Cleo", "Dev"):
                node_a.request("POST", "/v1/spaces/%s/games/%s/scores" % (space, game),
                               {"player": players[name], "hole": h, "strokes": 4 + (h % 3)})
        phone.get(origin + "/#/game/" + game)
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title"), "the full card opens")
        time.sleep(1)
        memory = phone.execute_script("return performance.memory ? performance.memory.usedJSHeapSize : null")
        if memory:
            figures["appHeapBytesAfter18Holes"] = memory
        shot(phone, "card-18-holes-390")
        console_errors(phone, "the phone")
        console_errors(laptop, "the laptop")
        console_errors(phone_b, "Ben's phone")

        print("The Wolf and Bingo Bango Bongo from the new-game screen")
        phone.get(origin + "/#/new")
        wait(phone, lambda d: d.find_elements(By.ID, "f-wolf"), "the new-game screen lists the Wolf from GET /v1/formats")
        phone.find_element(By.ID, "course-q").send_keys("haagsche")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Search']")))
        wait(phone, lambda d: d.find_elements(By.XPATH, "//button[normalize-space()='Haagsche 18 holes']"), "course search")
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Haagsche 18 holes']")))
        wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tee option")) == 2, "its tees")
        for name in ("stableford", "wolf", "bbb"):
            retry(lambda: tap(phone, phone.find_element(By.ID, "f-" + name)))
        retry(lambda: tap(phone, phone.find_element(By.XPATH, "//button[normalize-space()='Start the game']")))
        wait(phone, lambda d: "/#/game/" in d.current_url and d.find_elements(By.ID, "choice-wolf-lone"),
             "the Wolf game's card asks for the Wolf's partner on the hole")
        scrolled = phone.execute_script("return window.scrollY")
        check(scrolled == 0, "the new game's card opens at its top, not where the new-game screen was scrolled (%s)" % scrolled)
        wolf_game = phone.current_url.split("/#/game/")[1]
        status, _, body = node_a.request("GET", "/v1/spaces/%s/games/%s" % (space, wolf_game))
        check(json.loads(body)["formats"] == ["stroke", "wolf", "bbb"], "the game plays stroke play, the Wolf and BBB")
        legend = retry(lambda: phone.find_element(By.ID, "choice-legend").text)
        check(legend.startswith("Ana is the Wolf on hole 1") and phone.find_elements(By.ID, "choice-wolf-lone")
              and not phone.find_elements(By.ID, "choice-wolf-" + players["Ana"]),
              "the card names the hole's Wolf, who may go alone but not partner herself: %r" % legend)
        pressed = lambda d, id: d.find_element(By.ID, id).get_attribute("aria-pressed") == "true"
        retry(lambda: tap(phone, phone.find_element(By.ID, "choice-wolf-" + players["Cleo"])))
        wait(phone, lambda d: pressed(d, "choice-wolf-" + players["Cleo"]),
             "the Wolf's choice is kept after the card is drawn again")
        wait(phone, lambda d: "not yet sent" not in phone_status(d), "the choice is sent")
        # Bingo is chosen in a dead zone: the phone keeps it, signed, and sends it when the node is back.
        node_a.stop()
        wait(phone, lambda d: "out of reach" in phone_status(d), "the phone sees the node go")
        retry(lambda: tap(phone, phone.find_element(By.ID, "choice-bingo-" + players["Ben"])))
        wait(phone, lambda d: pressed(d, "choice-bingo-" + players["Ben"])
             and "1 entry on this phone, not yet sent" in phone_status(d), "with no node, the bingo choice is kept on the phone")
        shot(phone, "card-wolf-choice-dead-zone-390")
        # A long outage (past the 10 s the stream once backed off to): the phone must still resend within 2 s.
        time.sleep(12)
        node_a.start()
        back = time.time()
        entries = {}
        while time.time() - back < 30:
            status_code, _, body = node_a.request("GET", "/v1/spaces/%s/games/%s" % (space, wolf_game))
            entries = {(e["hole"], e["key"]): e["player"] for e in json.loads(body)["entries"]} if status_code == 200 else {}
            if len(entries) == 2:
                break
            time.sleep(0.05)
        figures["longOutageBackToAppliedSeconds"] = round(time.time() - back, 2)
        print("  figure after a 12 s outage, node back to the kept choice applied: %.2f s (target 2 s: %s)"
              % (figures["longOutageBackToAppliedSeconds"], "met" if figures["longOutageBackToAppliedSeconds"] <= 2 else "missed"))
        check(entries == {(1, "wolf"): players["Cleo"], (1, "bingo"): players["Ben"]},
              "the choices, one made in a dead zone, are fields of the game on the node: %s" % entries)
        chosen = audit(node_a, space, "game %s: hole.1." % wolf_game[:8])
        check(len(chosen) == 2 and all(e["user"] == "Dev" and e["device"] == mine["device"] and e["verified"] for e in chosen)
              and {e["change"].split(": ", 1)[1] for e in chosen} == {"hole.1.wolf=Cleo", "hole.1.bingo=Ben"},
              "the audit names the phone's user and device for each choice, with the player chosen: %s"
              % [(e["user"], e["device"][:8], e["change"]) for e in chosen])
        shot(phone, "card-wolf-choices-390")
        # The Wolf's hole is taller than the screen: Save stays in view above the bar, and a tap there reaches it.
        phone.execute_script("window.scrollTo(0, 0)")
        above = phone.execute_script(
            "const b = document.getElementById('save-hole').getBoundingClientRect();"
            "const bar = document.querySelector('nav.tabs').getBoundingClientRect();"
            "const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);"
            "return {save: [Math.round(b.top), Math.round(b.bottom)], bar: Math.round(bar.top),"
            " tall: document.documentElement.scrollHeight > window.innerHeight, hit: hit ? hit.id : null}")
        check(above["tall"] and above["hit"] == "save-hole" and above["save"][1] <= above["bar"],
              "on a hole taller than the screen, Save is above the bottom bar and takes the tap: %s" % above)
        axe(phone, "the card with the hole's choices")
        for name, strokes in (("Ana", 4), ("Ben", 6), ("Cleo", 5), ("Dev", 7)):
            caddie(ana, "score", wolf_game, name, "1", str(strokes))
        caddie(ana, "game", "setup", wolf_game, "--stake", "1")
        phone.get(origin + "/#/game/%s/standings" % wolf_game)
        # Each score sends the standings again: the checks read the sections once the fourth score has been drawn.
        section = lambda d, label: d.find_element(By.CSS_SELECTOR, "section[aria-label='%s']" % label).text
        wait(phone, lambda d: "1: Ana & Cleo" in section(d, "Wolf"),
             "the Wolf's section says how hole 1 went, with Ana & Cleo against Ben & Dev")
        shown = retry(lambda: section(phone, "Wolf"))
        check(re.search(r"1: Ana & Cleo (won|lost|halved)", shown), "the Wolf's hole 1: %r" % shown)
        bbb = retry(lambda: section(phone, "Bingo Bango Bongo"))
        check("Ben leads with 1 point" in bbb, "Bingo Bango Bongo's section: %r" % bbb)
        heads = phone.execute_script("return [...document.querySelectorAll('table.standings thead th')].map((th) => th.textContent)")
        check("Wolf" in heads and "BBB" in heads, "the players' table has the Wolf's and BBB's columns: %s" % heads)
        wide = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(wide <= 0, "the Wolf's standings at 390 px do not scroll sideways (%d px too wide)" % wide)
        fit = phone.execute_script(
            "const t = document.querySelector('table.standings'); const box = t.parentElement;"
            "return {over: box.scrollWidth - box.clientWidth, heads: [...t.querySelectorAll('thead th')]"
            ".filter((th) => th.getBoundingClientRect().width > 0).map((th) => th.textContent)}")
        check(fit["over"] <= 0 and {"Wolf", "BBB", "±"} <= set(fit["heads"]),
              "at 390 px the Wolf's and BBB's columns and the money are all in view, nothing scrolled: %s" % fit)
        shot(phone, "standings-wolf-390")
        axe(phone, "the Wolf's standings")
        # A side-game hole for four on one screen: putts for each (par with two putts is one tap), the Wolf's
        # partner, Bingo, Bango and Bongo as one tap each in the players' rows, then Save; counted, nothing scrolled.
        # A phone's own viewport, as for the plain hole: 390 x 844 CSS pixels, touch, no browser frame.
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        phone.get(origin + "/#/game/" + wolf_game)
        wait(phone, lambda d: d.find_elements(By.ID, "hole-title") and d.find_elements(By.ID, "choice-wolf-lone"),
             "the Wolf game's card opens")
        to_hole(phone, 2)
        # Ana's fairway and green stay open from the first game's hole 1 ("More" holds across holes): folded first.
        for _ in range(4):
            folded = phone.find_elements(By.CSS_SELECTOR, "button.more[aria-expanded='true']")
            if not folded:
                break
            retry(lambda: tap(phone, phone.find_element(By.CSS_SELECTOR, "button.more[aria-expanded='true']")))
        phone.execute_script("window.scrollTo(0, 0)")
        check(phone.find_element(By.ID, "choice-legend").text.startswith("Ben is the Wolf on hole 2"), "Ben is hole 2's Wolf")
        side_taps = 0
        hidden = []

        def side(selector):
            nonlocal side_taps
            side_taps += 1
            # What a person taps is on the screen as it stands: below the header, above the save bar (Save itself
            # above the screens' bar), with nothing scrolled.
            seen = phone.execute_script(
                "const e = document.querySelector(arguments[0]); if (!e) return 'missing';"
                "const b = e.getBoundingClientRect(), head = document.querySelector('header').getBoundingClientRect();"
                "const bar = document.querySelector('nav.tabs').getBoundingClientRect();"
                "const save = document.querySelector('.savebar').getBoundingClientRect();"
                "const floor = e.closest('.savebar') ? bar.top : save.top;"
                "return scrollY === 0 && b.top >= head.bottom && b.bottom <= floor ? 'ok' :"
                " `top ${Math.round(b.top)}, bottom ${Math.round(b.bottom)}, floor ${Math.round(floor)}, scrolled ${scrollY}`", selector)
            if seen != "ok":
                hidden.append("%s (%s)" % (selector, seen))
            retry(lambda: phone.find_element(By.CSS_SELECTOR, selector).click())
        for who, putts in (("Ana", 2), ("Ben", 2), ("Cleo", 2), ("Dev", 1)):
            side("button[aria-label='%d putt%s for %s']" % (putts, "" if putts == 1 else "s", who))
        side("#choice-wolf-" + players["Cleo"])
        side("#choice-bingo-" + players["Ana"])
        side("#choice-bango-" + players["Dev"])
        side("#choice-bongo-" + players["Dev"])
        shot(phone, "card-side-game-hole-390")
        side("#save-hole")
        figures["tapsPerSideGameHole"] = side_taps
        check(side_taps <= 10 and not hidden,
              "a Wolf and Bingo Bango Bongo hole for four with putts took %d taps (target 10; 16-17 with selects), "
              "each on the screen as it stood, nothing scrolled: %s" % (side_taps, hidden or "all in view"))
        got = {}
        deadline = time.time() + 20
        while time.time() < deadline:
            status_code, _, body = node_a.request("GET", "/v1/spaces/%s/games/%s" % (space, wolf_game))
            got = {e["key"]: e["player"] for e in json.loads(body)["entries"] if e["hole"] == 2} if status_code == 200 else {}
            scored = [p["name"] for p in node_a.card(space, wolf_game)["players"] if any(c["hole"] == 2 for c in p["cells"])]
            if len(got) == 4 and len(scored) == 4:
                break
            time.sleep(0.2)
        check(got == {"wolf": players["Cleo"], "bingo": players["Ana"], "bango": players["Dev"], "bongo": players["Dev"]}
              and len(scored) == 4, "the node holds hole 2's four scores and four choices: %s, %s" % (got, scored))
        phone.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        # Finish and reopen on the phone: asked first, signed by the phone's device, audited as its user.
        phone.execute_script("window.scrollTo(0, 0)")
        retry(lambda: tap(phone, phone.find_element(By.ID, "finish")))
        retry(lambda: tap(phone, phone.find_element(By.ID, "finish-confirm")))
        deadline = time.time() + 20
        while time.time() < deadline and node_a.card(space, wolf_game)["finished"] is not True:
            time.sleep(0.2)
        finished = audit(node_a, space, "finished game %s" % wolf_game[:8])
        check(node_a.card(space, wolf_game)["finished"] is True and len(finished) == 1 and finished[0]["user"] == "Dev"
              and finished[0]["device"] == mine["device"],
              "the phone finished the game, signed as Dev by the phone's device: %s"
              % [(e["user"], e["device"][:8]) for e in finished])
        wait(phone, lambda d: d.find_element(By.ID, "finish").text == "Reopen the game", "the phone offers to reopen")
        retry(lambda: tap(phone, phone.find_element(By.ID, "finish")))
        deadline = time.time() + 20
        while time.time() < deadline and node_a.card(space, wolf_game)["finished"] is not False:
            time.sleep(0.2)
        check(node_a.card(space, wolf_game)["finished"] is False, "reopened from the phone (no question asked)")
        # A scramble in sides: the card says where each side's one score goes.
        caddie(ana, "game", "setup", wolf_game, "--formats", "scramble", "--teams", "Ana+Cleo,Ben+Dev")
        phone.get(origin + "/#/game/" + wolf_game)
        wait(phone, lambda d: d.find_elements(By.ID, "one-ball"), "the scramble's card says where a side's score goes")
        hint = retry(lambda: phone.find_element(By.ID, "one-ball").text)
        check(hint == "Scramble: one score a side, on Ana's card (Ana & Cleo) and Ben's card (Ben & Dev)",
              "the one-ball hint names each side's card: %r" % hint)
        shot(phone, "card-scramble-390")

        print("A space created while the node runs, and the app's space chooser")
        # Made by the running node itself (the command hands it over; no restart), then offered on the phone's open
        # Games screen, which reads the node's spaces again.
        sunday = caddie_json(ana, "space", "create", "Sunday four")["space"]
        phone.get(origin + "/#/games")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#space-choice option[value='%s']" % sunday),
             "the Games screen offers the space the node took up while the page was open")
        options = [o.text for o in phone.find_elements(By.CSS_SELECTOR, "#space-choice option")]
        check(sorted(options) == ["Saturday foursome", "Sunday four"], "the chooser names the node's two spaces: %s" % options)
        Select(phone.find_element(By.ID, "space-choice")).select_by_value(sunday)
        wait(phone, lambda d: "Games in Sunday four" in text(d) and "No game yet" in text(d),
             "choosing Sunday four shows its games: none yet")
        shot(phone, "space-chooser-390")
        axe(phone, "the Games screen with its space chooser")
        phone.refresh()
        wait(phone, lambda d: "Games in Sunday four" in text(d), "a reload keeps the space chosen on this phone")
        Select(phone.find_element(By.ID, "space-choice")).select_by_value(space)
        wait(phone, lambda d: "Games in Saturday foursome" in text(d) and d.find_elements(By.CSS_SELECTOR, "a.row-link"),
             "choosing the first space again shows its games")

        print("Refusals")
        status, headers, body = node_a.request("GET", "/signin?t=" + link.split("t=")[1], token=False)
        check(status == 401 and b"Sign in with a link" in body, "a used link is refused with the sign-in page")
        expired = caddie_json(ana, "web", "link")["url"]
        access = os.path.join(ana, "web-access.json")
        with open(access) as handle:
            stored = json.load(handle)
        for entry in stored["links"]:
            entry["expires"] = time.time() - 1
        with open(access, "w") as handle:
            json.dump(stored, handle)
        status, _, _ = node_a.request("GET", "/signin?t=" + expired.split("t=")[1], token=False)
        check(status == 401, "an expired link is refused")
        status, _, body = node_a.request("GET", "/v1/spaces", token=False)
        check(status == 401 and b"caddie web link" in body, "the API without a cookie or token is refused")
        status, _, body = node_a.request("GET", "/", token=False)
        check(status == 200 and b"Sign in with a link" in body and b"Ana" not in body, "/ without a cookie is the sign-in page")
        cookie = "caddie_session=" + session["value"]
        path = "/v1/spaces/%s/games/%s/scores" % (space, game)
        score = {"player": players["Ana"], "hole": 3, "strokes": 4}
        status, _, body = node_a.request("POST", path, score, {"Cookie": cookie, "Origin": "http://evil.example"}, token=False)
        check(status == 403, "a write with a foreign Origin is refused (%d)" % status)
        status, _, _ = node_a.request("POST", path, score, {"Cookie": cookie}, token=False)
        check(status == 403, "a cookie write without an Origin is refused")
        status, _, _ = node_a.request("POST", path, score, {"Cookie": cookie, "Origin": origin}, token=False)
        check(status == 201, "the same write from the app's own origin is accepted")
        status, headers, _ = node_a.request("GET", "/", headers={"Host": "evil.example:%d" % node_a.http}, token=False)
        check(status == 421, "a wrong Host (DNS rebinding) is refused (%d)" % status)
        status, headers, _ = node_a.request("GET", "/v1/whoami", headers={"Cookie": cookie, "Origin": "http://evil.example"},
                                            token=False)
        check(not any(k.lower().startswith("access-control") for k in headers), "no CORS header is ever sent")
        csp = node_a.request("GET", "/", token=False)[1].get("Content-Security-Policy", "")
        check("script-src 'self'" in csp and "unsafe-inline" not in csp, "a strict Content-Security-Policy is sent")
        revoked = caddie_json(ana, "web", "sessions")[-1]["id"]
        caddie(ana, "web", "revoke", revoked)
        status, _, _ = node_a.request("GET", "/v1/whoami", headers={"Cookie": cookie}, token=False)
        check(status == 401, "a revoked session is refused at once")
        check(caddie(ana, "web", "revoke", "ffffffff", check_ok=False).returncode != 0, "revoking an unknown session fails")

        print("caddie demo --keep leaves its nodes running with a sign-in link")
        demo = subprocess.run([CADDIE, "demo", "--keep"], capture_output=True, text=True, timeout=300)
        check(demo.returncode == 0, "caddie demo --keep succeeds")
        demo_link = re.search(r"(http://127\.0\.0\.1:\d+/signin\?t=\w+)", demo.stdout)
        demo_pids = re.search(r"stop the nodes: kill ([\d ]+)", demo.stdout)
        demo_folder = re.search(r"the four homes are kept in (\S+)", demo.stdout)
        try:
            check(demo_link is not None and demo_pids is not None, "the demo prints a sign-in link and how to stop its nodes")
            if demo_link:
                phone.get(demo_link.group(1))
                wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, ".hole-view"), "the demo's link opens the merged card")
                shown = text(phone)
                check(all(name in shown for name in ("Ana", "Ben", "Cleo", "Dev")) and "Caddie Demo Links" in shown,
                      "the demo's card shows the foursome on the demo course")
                shot(phone, "demo-card-390")
        finally:
            for pid in (demo_pids.group(1).split() if demo_pids else []):
                try:
                    os.kill(int(pid), signal.SIGTERM)
                except ProcessLookupError:
                    pass
            if demo_folder:
                time.sleep(1)
                shutil.rmtree(demo_folder.group(1), ignore_errors=True)
        https_phone(work, drivers, figures)
    finally:
        for driver in drivers:
            try:
                driver.quit()
            except Exception:
                pass
        for node in nodes:
            node.stop()
        shutil.rmtree(work, ignore_errors=True)

    print()
    print("figure                               value")
    for key, value in figures.items():
        print("%-36s %s" % (key, value))
    print(json.dumps({"web": figures}))
    print("web: %d passed, %d failed" % (len(CHECKED) - len(FAILURES), len(FAILURES)))
    if not CHECKED:
        print("web: FAILED: no check ran")
        sys.exit(1)
    if FAILURES:
        print("web: FAILED: " + "; ".join(FAILURES))
        sys.exit(1)


if __name__ == "__main__":
    main()
