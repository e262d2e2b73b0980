#!/usr/bin/env python3
"""Browser tests of `journal report` and of the dashboard `journal serve` answers at `GET /`.

Usage: python3 tests/browser/test_report.py /path/to/journal [unittest arguments]
       (or JOURNAL_BIN=/path/to/journal python3 tests/browser/test_report.py)

Builds nothing: it simulates a small journal with the given executable, writes the report, and
opens it in headless Chromium (Debian's `chromium` and `chromium-driver`) driven by Python's
`selenium`. It checks that every chart drew (an SVG with a non-zero size and shapes inside),
that every number on the page (`data-metric`, `data-value`) equals `journal query NAME --format
json` for the same window, and that the browser logged no error; it saves screenshots under
`.build/` (report.png, dashboard.png). Exits non-zero when a check fails.
"""
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".build"
JOURNAL = os.environ.get("JOURNAL_BIN", "")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def journal(*args, db=None):
    """Runs the journal; fails the test run with its stderr when it exits non-zero."""
    command = [JOURNAL, *args] + (["--db", db] if db else [])
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def make_driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1600", "--force-device-scale-factor=1", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The driver is Debian's: no driver or browser is looked up or downloaded.
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def lookup(document, path):
    current = document
    for key in path:
        if isinstance(current, dict) and key in current:
            current = current[key]
        elif isinstance(current, list) and key.isdigit() and int(key) < len(current):
            current = current[int(key)]
        else:
            raise KeyError(".".join(path))
    return current


class PageChecks:
    """Checks shared by the written report and the served dashboard."""

    def check_charts(self, driver, minimum=9):
        charts = driver.execute_script("""
            return Array.from(document.querySelectorAll('svg.chart')).map(svg => {
              const box = svg.getBoundingClientRect();
              const figure = svg.closest('figure');
              return {id: svg.id, width: box.width, height: box.height,
                      shapes: svg.querySelectorAll('rect, path, circle').length,
                      role: svg.getAttribute('role'), labelledBy: svg.getAttribute('aria-labelledby'),
                      title: (svg.querySelector('title') || {}).textContent || '',
                      table: figure ? figure.querySelectorAll('table').length : 0};
            });""")
        self.assertGreaterEqual(len(charts), minimum, "charts on the page")
        for chart in charts:
            with self.subTest(chart=chart["id"]):
                self.assertGreater(chart["width"], 100, "drawn width")
                self.assertGreater(chart["height"], 20, "drawn height")
                self.assertGreater(chart["shapes"], 0, "rect, path or circle inside")
                self.assertEqual(chart["role"], "img")
                self.assertTrue(chart["labelledBy"])
                self.assertTrue(chart["title"])
                self.assertGreaterEqual(chart["table"], 1, "a data table beside the chart")
        return charts

    def check_numbers(self, driver, query_json):
        """query_json(source, every) -> the parsed JSON of `journal query`."""
        found = driver.execute_script("""
            return Array.from(document.querySelectorAll('[data-metric]')).map(e =>
              [e.getAttribute('data-metric'), e.getAttribute('data-value'), e.textContent.trim()]);""")
        self.assertGreater(len(found), 40, "numbers on the page")
        every = driver.execute_script("return document.getElementById('every').getAttribute('data-every')")
        documents = {}
        for metric, value, text in found:
            path = metric.split(".")
            source = path[0]
            if source not in documents:
                documents[source] = query_json(source, every)
            with self.subTest(metric=metric):
                self.assertEqual(json.loads(value), lookup(documents[source], path[1:]))
                self.assertTrue(text, "the number is shown")
        for metric in ("rates.threeDS.authenticationRate", "funnel.transactions", "ratesOverTime.buckets.0.threeDS.transactions"):
            self.assertIn(metric, [m for m, _, _ in found])
        return found

    def check_console(self, driver):
        logs = driver.get_log("browser")
        errors = [entry for entry in logs if entry.get("level") == "SEVERE"]
        self.assertEqual(errors, [], "browser console errors")

    def screenshot(self, driver, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        height = driver.execute_script("return Math.min(document.documentElement.scrollHeight, 12000)")
        driver.set_window_size(1280, max(800, height))
        driver.save_screenshot(str(SHOTS / name))
        driver.set_window_size(1280, 1600)


class ReportInBrowser(PageChecks, unittest.TestCase):
    """`journal report --out FILE`, opened from a file:// URL."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="journal-browser-")
        cls.db = os.path.join(cls.folder, "journal.db")
        journal("simulate", "--seed", "2026", "--transactions", "120", "--digitizations", "60", db=cls.db)
        cls.html = os.path.join(cls.folder, "report.html")
        journal("report", "--out", cls.html, db=cls.db)
        cls.driver = make_driver()
        cls.driver.get("file://" + cls.html)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def query_json(self, source, every):
        arguments = ["query", "rates", "--every", every] if source == "ratesOverTime" else ["query", source]
        return json.loads(journal(*arguments, "--format", "json", db=self.db))

    def test_every_chart_drew(self):
        self.check_charts(self.driver)

    def test_numbers_equal_the_query_json(self):
        self.check_numbers(self.driver, self.query_json)
        events = self.driver.find_element("id", "events").get_attribute("data-value")
        header = journal("query", "rates", db=self.db)
        self.assertIn(f"events  {events}\n", header)

    def test_nothing_is_fetched_and_the_console_is_clean(self):
        resources = self.driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        self.assertEqual(resources, [], "resources the page fetched")
        self.assertEqual(self.driver.execute_script("return document.scripts.length"), 0)
        self.check_console(self.driver)

    def test_screenshot(self):
        self.screenshot(self.driver, "report.png")
        self.assertTrue((SHOTS / "report.png").stat().st_size > 10_000)


class Server:
    """`journal serve` on a free loopback port, stopped with SIGTERM."""

    def __init__(self, db, *extra, command="serve"):
        self.process = subprocess.Popen([JOURNAL, command, "--db", db, "--listen", "127.0.0.1:0", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().strip()
        match = re.fullmatch(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            raise AssertionError(f"journal {command} printed {line!r}")
        self.url = match.group(1)

    def get_json(self, path, token=None):
        request = urllib.request.Request(self.url + path, headers={"Authorization": f"Bearer {token}"} if token else {})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


def wait_for(driver, script, timeout=60):
    """Polls a JavaScript expression until it is truthy; returns its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script("return " + script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {script}")
        time.sleep(0.1)


class DashboardInBrowser(PageChecks, unittest.TestCase):
    """`journal serve` at `GET /`: the dashboard, the stream browser, the proof checked in the page."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="journal-dashboard-")
        cls.db = os.path.join(cls.folder, "journal.db")
        journal("simulate", "--seed", "7", "--transactions", "120", "--digitizations", "60", db=cls.db)
        key = os.path.join(cls.folder, "signing.key")
        cls.verifier_key = journal("keygen", "dashboard.example/journal", "--out", key,
                                   db=cls.db).strip().splitlines()[-1]
        cls.other_key = journal("keygen", "dashboard.example/journal", "--out", os.path.join(cls.folder, "other.key"),
                                db=cls.db).strip().splitlines()[-1]
        journal("checkpoint", "--key", key, db=cls.db)
        # A witness cosigns the checkpoint: the page names it next to the proof.
        witness_key = os.path.join(cls.folder, "witness.key")
        witness_vkey = journal("keygen", "dashboard.example/w1", "--out", witness_key, "--witness").strip()
        logs = os.path.join(cls.folder, "logs.txt")
        Path(logs).write_text(cls.verifier_key + "\n")
        cls.witness = Server(cls.db, "--key", witness_key, "--logs", logs, "--state",
                             os.path.join(cls.folder, "witness.db"), command="witness")
        journal("cosign", "--witness", cls.witness.url, "--witness-key", witness_vkey, db=cls.db)
        cls.tokens = os.path.join(cls.folder, "tokens")
        cls.token = journal("token", "read", "viewer", "--tokens", cls.tokens).strip().split()[-1]
        # A copy whose kept checkpoint has one character of its signature changed.
        cls.altered_db = os.path.join(cls.folder, "altered.db")
        with sqlite3.connect(cls.db) as source, sqlite3.connect(cls.altered_db) as copy:
            source.backup(copy)
            (note,) = copy.execute("SELECT note FROM journal_checkpoints ORDER BY id DESC LIMIT 1").fetchone()
            signature_at = note.rindex(" ") + 30
            changed = "A" if note[signature_at] != "A" else "B"
            # The journal's triggers refuse the change; an attacker with the file drops them.
            triggers = copy.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                                    "AND tbl_name = 'journal_checkpoints'").fetchall()
            for name, _ in triggers:
                copy.execute(f'DROP TRIGGER "{name}"')
            copy.execute("UPDATE journal_checkpoints SET note = ? WHERE note = ?",
                         (note[:signature_at] + changed + note[signature_at + 1:], note))
            for _, sql in triggers:
                copy.execute(sql)
        cls.server = Server(cls.db)
        cls.driver = make_driver()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()
        cls.witness.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def give_key(self, driver, key):
        """Types the verifier key into the page's key form (kept in the browser's localStorage)."""
        field = driver.find_element("id", "verifier-key")
        field.clear()
        field.send_keys(key)
        driver.find_element("css selector", "#key-form button").click()

    def audit_first(self, driver, server, outcome="completedY"):
        """Finds the 3DS streams of an outcome and audits the first; returns it as /v1/find gives it."""
        driver.find_element("css selector", "#find-form select[name=category]").send_keys("3ds")
        driver.find_element("css selector", "#find-form input[name=outcome]").send_keys(outcome)
        driver.find_element("css selector", "#find-form button[type=submit]").click()
        wait_for(driver, "document.querySelectorAll('#find-results tbody tr').length")
        first = server.get_json(f"/v1/find?category=3ds&outcome={outcome}&limit=20")["streams"][0]
        driver.find_element("css selector", "#find-results .audit-button").click()
        wait_for(driver, "document.getElementById('proof-status').dataset.signature")
        return first

    def proof_verdict(self, driver):
        return driver.execute_script("""
            const status = document.getElementById('proof-status');
            return [status.dataset.proof, status.dataset.signature, status.textContent];""")

    def test_dashboard_search_audit_and_proof(self):
        driver = self.driver
        driver.get(self.server.url + "/")
        self.check_charts(driver)

        def query_json(source, every):
            if source == "ratesOverTime":
                return self.server.get_json(f"/v1/query/rates?every={every}")
            return self.server.get_json(f"/v1/query/{source}")
        self.check_numbers(driver, query_json)

        # Search as journal find: the challenged transactions that ended authenticated.
        driver.find_element("css selector", "#find-form select[name=category]").send_keys("3ds")
        driver.find_element("css selector", "#find-form input[name=outcome]").send_keys("completedY")
        driver.find_element("css selector", "#find-form button[type=submit]").click()
        rows = wait_for(driver, "document.querySelectorAll('#find-results tbody tr').length")
        expected = self.server.get_json("/v1/find?category=3ds&outcome=completedY&limit=20")
        self.assertEqual(rows, len(expected["streams"]))
        first = expected["streams"][0]
        self.assertEqual(driver.execute_script("return document.querySelector('#find-results tbody th').textContent"),
                         first["stream"])

        # The journal's verifier key, given in the page: the header's checkpoint line checks it.
        self.give_key(driver, self.verifier_key)
        self.assertEqual(wait_for(driver, "document.getElementById('checkpoint-signature').dataset.signature "
                                          "!== 'unchecked' && document.getElementById('checkpoint-signature')"
                                          ".dataset.signature"), "verified")

        # Its audit: every chain link recomputed in the page, the last event's proof and the
        # checkpoint's signature verified, each event's data and the state after it shown.
        driver.find_element("css selector", "#find-results .audit-button").click()
        wait_for(driver, "document.getElementById('proof-status').dataset.signature")
        proof, signature, text = self.proof_verdict(driver)
        self.assertEqual((proof, signature), ("verified", "verified"), text)
        self.assertTrue(text.startswith("verified: event "), text)
        self.assertIn("signed by dashboard.example/journal", text)
        self.assertIn("Ed25519 signature of dashboard.example/journal+", text)
        self.assertIn("cosigned by dashboard.example/w1", text)
        checks = driver.execute_script(
            "return Array.from(document.querySelectorAll('#audit-events [data-check]')).map(e => e.dataset.check)")
        self.assertEqual(checks, ["ok"] * first["events"])
        self.assertIn("every chain link checks", driver.find_element("id", "audit-status").text)
        rows = driver.execute_script("""
            return Array.from(document.querySelectorAll('#audit-events tbody tr')).map(row => ({
              data: row.cells[5].textContent, state: row.cells[6].dataset.state, stateText: row.cells[6].textContent,
              changed: Array.from(row.cells[6].querySelectorAll('[data-changed]')).map(e => e.dataset.changed),
              simulated: row.cells[3].dataset.simulated === 'true'}));""")
        events = [json.loads(line) for line in journal("export", "--stream", first["stream"], db=self.db).splitlines()]
        replay = self.server.get_json("/v1/replay/" + first["stream"])
        self.assertEqual(len(rows), len(events))
        for row, event, step in zip(rows, events, replay["steps"]):
            with self.subTest(version=event["version"]):
                for key, value in event["data"].items():
                    shown = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
                    self.assertIn(f"{key}: {shown}", row["data"])
                self.assertEqual(row["state"], "folded")
                for key, value in step["state"].items():
                    shown = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
                    self.assertIn(f"{key}: {shown}", row["stateText"])
                self.assertTrue(row["simulated"], "a simulated event is tagged")
        # The fields a step changed are marked: the last step's outcome, for one.
        self.assertTrue(any(row["changed"] for row in rows[1:]))
        self.assertEqual(driver.find_element("id", "replay-status").get_attribute("data-replay"), "ok")
        self.assertIn("simulated", driver.find_element("id", "simulated").text)
        self.check_console(driver)
        self.screenshot(driver, "dashboard.png")

    def test_without_a_key_the_page_says_the_signature_was_not_checked(self):
        driver = self.driver
        driver.get(self.server.url + "/")
        self.give_key(driver, "")
        self.audit_first(driver, self.server)
        proof, signature, text = self.proof_verdict(driver)
        self.assertEqual((proof, signature), ("verified", "unchecked"), text)
        self.assertTrue(text.startswith("partly checked: event "), text)
        self.assertIn("signature not checked: no verifier key given", text)
        self.assertNotIn("verified", text)
        line = driver.find_element("id", "checkpoint-signature")
        self.assertEqual(line.get_attribute("data-signature"), "unchecked")

    def test_another_key_does_not_verify_the_checkpoint(self):
        driver = self.driver
        driver.get(self.server.url + "/")
        self.give_key(driver, self.other_key)
        self.audit_first(driver, self.server)
        proof, signature, text = self.proof_verdict(driver)
        self.assertEqual((proof, signature), ("verified", "failed"), text)
        self.assertTrue(text.startswith("NOT verified: "), text)
        self.assertIn("has no signature by the key", text)
        self.give_key(driver, "")

    def test_a_checkpoint_whose_signature_was_altered_is_not_verified(self):
        server = Server(self.altered_db)
        try:
            driver = self.driver
            driver.get(server.url + "/")
            self.give_key(driver, self.verifier_key)
            self.assertEqual(wait_for(driver, "document.getElementById('checkpoint-signature').dataset.signature "
                                              "!== 'unchecked' && document.getElementById('checkpoint-signature')"
                                              ".dataset.signature"), "failed")
            self.audit_first(driver, server)
            proof, signature, text = self.proof_verdict(driver)
            self.assertEqual((proof, signature), ("verified", "failed"), text)
            self.assertTrue(text.startswith("NOT verified: "), text)
            self.assertIn("does not verify", text)
        finally:
            server.stop()

    def test_a_browser_without_webcrypto_ed25519_says_the_signature_was_not_checked(self):
        server = Server(self.db)
        driver = make_driver()
        try:
            # Chromium has had Ed25519 since version 137: take it away, as an older browser lacks it.
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                const importKey = crypto.subtle.importKey.bind(crypto.subtle);
                crypto.subtle.importKey = (format, key, algorithm, ...rest) =>
                  (algorithm && algorithm.name === 'Ed25519')
                    ? Promise.reject(new DOMException('Algorithm: Unrecognized name', 'NotSupportedError'))
                    : importKey(format, key, algorithm, ...rest);"""})
            driver.get(server.url + "/")
            self.give_key(driver, self.verifier_key)
            self.audit_first(driver, server)
            proof, signature, text = self.proof_verdict(driver)
            self.assertEqual((proof, signature), ("verified", "unchecked"), text)
            self.assertIn("inclusion proof checked in this page", text)
            self.assertIn("signature not checked in this browser: its WebCrypto has no Ed25519", text)
        finally:
            driver.quit()
            server.stop()

    def test_a_server_with_tokens_asks_for_one(self):
        server = Server(self.db, "--tokens", self.tokens)
        try:
            driver = self.driver
            driver.get(server.url + "/")
            self.assertEqual(driver.execute_script("return document.querySelectorAll('svg.chart').length"), 0)
            driver.find_element("id", "token").send_keys(self.token)
            driver.find_element("css selector", "#token-form button").click()
            wait_for(driver, "document.querySelectorAll('svg.chart').length >= 9")
            self.check_charts(driver)
            driver.find_element("css selector", "#find-form input[name=outcome]").send_keys("activated")
            driver.find_element("css selector", "#find-form button[type=submit]").click()
            self.assertGreater(wait_for(driver, "document.querySelectorAll('#find-results tbody tr').length"), 0)
            # The 401 of the page itself is the one console entry a locked page logs.
            errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE" and "401" not in e.get("message", "")]
            self.assertEqual(errors, [])
        finally:
            server.stop()


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        JOURNAL = sys.argv.pop(1)
    if not JOURNAL or not os.access(JOURNAL, os.X_OK):
        print("usage: test_report.py /path/to/journal [unittest arguments]", file=sys.stderr)
        sys.exit(2)
    JOURNAL = os.path.abspath(JOURNAL)
    unittest.main(verbosity=2)
