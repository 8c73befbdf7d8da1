"""Browser tests: the real server (uvicorn on ``cardavia.web.app:create_app``, a temporary
SQLite file, the computer players without a pause) driven through Debian's Chromium by
Playwright. Nothing is downloaded: the browser is Debian's ``chromium-headless-shell`` or
``/usr/bin/chromium`` (or
``CARDAVIA_CHROMIUM``); .ci/run installs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, Playwright, sync_playwright
from py_vapid import Vapid02

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # A page whose response a test rewrites (test_policy.py adds a CSP header) counts for
    # Chromium as from outside the machine, then barred from opening a socket to 127.0.0.1.
    "--disable-features=LocalNetworkAccessChecks",
]
LANGUAGES = ("fr", "en", "ar", "pl", "hi", "es")
TIMEOUT_MS = 15_000
STARTUP_SECONDS = 180
"""The most the site may take to answer after its start: generous, for a busy machine; the wait
ends as soon as it answers, or as soon as it exits."""

# axe-core from npm (tests/browser/package.json, installed by `npm ci --prefix tests/browser`
# in `make test`), injected into the page under test.
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
# Every WCAG A/AA rule and best practice, and the experimental check that an accessible name
# contains the visible label (what voice control users say).
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                           "wcag22aa", "best-practice"]},
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    # Only the violations come back whole (passes and the rest one node each): the same
    # checks, without carrying a megabyte of passing nodes out of a long rules page.
    "resultTypes": ["violations"],
}  # fmt: skip


# The page's system notifications counted in ``window.notes`` (the browser still shows each).
COUNTED_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  if (!Real) return;
  window.notes = [];
  class Counted extends Real {
    constructor(title, options) {
      super(title, options);
      window.notes.push({ title, body: options?.body ?? "", lang: options?.lang ?? "" });
    }
  }
  Object.defineProperty(Counted, "permission", { get: () => Real.permission });
  Counted.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Counted;
})();
"""

# A page hidden from its start, its notifications counted, the player letting the site notify
# ("notify" kept with their other settings).
HIDDEN_AND_COUNTED = (
    """
Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
"""
    + COUNTED_NOTIFICATIONS
    + """
(() => {
  const kept = JSON.parse(localStorage.getItem("cardavia.settings") || "{}");
  localStorage.setItem("cardavia.settings", JSON.stringify({ ...kept, notify: true }));
})();
"""
)


def axe_violations(page: Page) -> list[str]:
    """Run axe-core in the page; one line per violation and element, empty when clean."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: npm ci --prefix tests/browser")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    results: dict[str, Any] = page.evaluate("(o) => window.axe.run(document, o)", AXE_OPTIONS)
    return [
        f"{v['id']}: {node['target']} {node.get('failureSummary', '')[:160]}"
        for v in results["violations"]
        for node in v["nodes"]
    ]


# The page is ready for South's next move (or the deal has ended): every message drawn, no
# action of ours waiting for its answer.
READY = """() => {
  const c = window.cardavia, table = document.getElementById("table");
  if (!c || !c.view || c.pending > 0 || table.dataset.busy === "on") return false;
  const v = c.view;
  if (v.phase === "over" || v.phase === "cancelled") return true;
  return v.to_move === v.seat && v.legal.length > 0;
}"""

PLAYED = "(n) => window.cardavia.view.hand.length < n || window.cardavia.view.phase !== 'playing'"


def chromium_path() -> str:
    """Debian's Chromium: its headless shell where it is installed (Blink as the browser draws
    it, without the browser's own windows and services: the suite's Chromium took 307 CPU
    seconds instead of 486, every test the same), else the browser itself
    (``CARDAVIA_CHROMIUM`` chooses). The tests fail (never skip) without either."""
    path = (
        os.environ.get("CARDAVIA_CHROMIUM")
        or shutil.which("chromium-headless-shell")
        or shutil.which("chromium")
        or "/usr/bin/chromium"
    )
    if not Path(path).exists():
        pytest.fail(f"Chromium is not installed at {path}: apt-get install chromium")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """The site in a subprocess, on a fixed port and database so that it can be restarted."""

    def __init__(
        self,
        database: Path,
        port: int | None = None,
        *,
        keep: Callable[[int], None] | None = None,
        push_key: Path | None = None,
    ) -> None:
        self.database = database
        self.push_key = push_key
        """The site's key for pushes (``CARDAVIA_PUSH_KEY``), as a deployment gives it."""
        self.keep = keep
        """Gives each process started to the session's fixture (tests/conftest.py)."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(".log")

    def start(self) -> None:
        """Start the server and wait until it answers."""
        self.launch()
        self.wait()

    def launch(self) -> None:
        """Start the server process without waiting for it."""
        env = {
            **os.environ,
            "CARDAVIA_DATABASE_URL": f"sqlite:///{self.database}",
            "CARDAVIA_AI_DELAY": "0",
            "CARDAVIA_AI_DELAY_MS": "0",
            # Every test's games come from 127.0.0.1, faster than a person creates them.
            "CARDAVIA_GAMES_PER_MINUTE": "0",
        }
        if self.push_key is not None:
            env["CARDAVIA_PUSH_KEY"] = str(self.push_key)
        command = [
            sys.executable, "-m", "uvicorn", "--factory", "cardavia.web.app:create_app",
            "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
        ]  # fmt: skip
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        if self.keep is not None:
            self.keep(self.process.pid)

    def wait(self) -> None:
        """Until the server answers (it takes a few seconds to import)."""
        if self.process is None:
            self.launch()
        assert self.process is not None
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.log.read_text()[-3000:]}")
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response,
            ):
                if response.read() == b"ok":
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()[-3000:]}")

    def stop(self, *, crash: bool = False) -> None:
        """Stop the server: politely, or at once as in a crash (``crash``)."""
        if self.process is None:
            return
        if crash:
            self.process.kill()
            self.process.wait()
            self.process = None
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="session")
def launched(
    tmp_path_factory: pytest.TempPathFactory, keep_process: Callable[[int], None]
) -> Iterator[Server]:
    """The server of this worker's tests, launched (it starts while the browser does), with
    a key for pushes as a deployment that sends them has."""
    folder = tmp_path_factory.mktemp("site")
    vapid = Vapid02()
    vapid.generate_keys()
    vapid.save_key(str(folder / "push.pem"))
    site = Server(folder / "cardavia.db", keep=keep_process, push_key=folder / "push.pem")
    site.launch()
    yield site
    site.stop()


@pytest.fixture
def server(launched: Server, browser: Browser) -> Server:
    """The server, up (and up again after a test that stopped it)."""
    if launched.process is None or launched.process.poll() is not None:
        launched.process = None
        launched.launch()
    launched.wait()
    return launched


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


class SiteBrowser:
    """Chromium, whose contexts open the site without its service worker unless a test asks
    for it (``service_workers="allow"``: the tests of the installable app, offline reading
    and pushes). Installing the worker fetches and keeps some seventy files in every new
    context, for a third of a second of Chromium's CPU and as much of the server's: the
    suite's two hundred contexts paid it for tests that never read what it keeps."""

    def __init__(self, chromium: Browser) -> None:
        self._chromium = chromium

    def new_context(self, **options: Any) -> BrowserContext:
        options.setdefault("service_workers", "block")
        return self._chromium.new_context(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chromium, name)


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield cast(Browser, SiteBrowser(chromium))
    chromium.close()


ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "screenshots"


@pytest.fixture
def screenshots() -> Path:
    """Where screenshots go, kept for a person to look at: ``CARDAVIA_SCREENSHOTS`` if set,
    else ``artefacts/screenshots/`` at the repository root (ignored by git; CI keeps it)."""
    folder = Path(os.environ.get("CARDAVIA_SCREENSHOTS") or ARTEFACTS)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


SHOT_QUALITY = 80
"""The JPEG quality of the pictures kept for a person (a full page in PNG cost Chromium a
second of CPU, four times a JPEG's, and 150 are taken a run)."""


def shot(page: Page, path: Path | str, *, full_page: bool = False) -> None:
    """Keep a picture of ``page`` at ``path`` for a person to look at (a ``.jpg``: JPEG).

    The page is brought to the front first: headless Chromium may refuse to capture a tab
    that another tab of its context covers ("Unable to capture screenshot"), and a picture
    kept for a person is not what a test asserts, so a refused capture is tried again after
    the next frames rather than failing the test."""
    page.bring_to_front()
    for attempt in range(3):
        try:
            quality = SHOT_QUALITY if str(path).endswith(".jpg") else None
            page.screenshot(path=str(path), full_page=full_page, quality=quality)
            return
        except Error as error:
            if "Unable to capture screenshot" not in str(error) or attempt == 2:
                raise
            page.wait_for_timeout(200)


class Table:
    """A browser tab on the table page, with the steps a player takes."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.context = context
        self.base = base
        self.page: Page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def open(self, lang: str) -> Page:
        self.page.goto(f"{self.base}/{lang}/")
        return self.page

    def new_game(self, rules: str = "cardavia") -> None:
        page = self.page
        page.select_option("#ng-rules", rules)
        page.click("#deal-button")
        self.wait_ready()

    def wait_ready(self) -> dict[str, Any]:
        self.page.wait_for_function(READY, timeout=TIMEOUT_MS)
        return self.view()

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.page.evaluate("window.cardavia.view")
        return view

    def strings(self) -> dict[str, Any]:
        text = self.page.text_content("#strings") or "{}"
        strings: dict[str, Any] = json.loads(text)
        return strings

    def bid(self) -> None:
        """Take (or bid) when South may, else pass."""
        offers = self.page.locator("#controls .bid-button.take, #controls .bid-button.bid")
        if offers.count():
            offers.first.click()
        else:
            self.page.click("#controls .bid-button.pass")

    def bid_until_play(self) -> dict[str, Any]:
        """Bid (take at once) until the cards are played; a cancelled deal is dealt again."""
        for _ in range(40):
            view = self.wait_ready()
            if view["phase"] == "cancelled":
                self.page.click("#controls [data-action=next-deal]")
                self.page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
            elif view["phase"] == "bidding":
                self.bid()
            else:
                return view
        raise AssertionError("the bidding did not end")

    def play_deal(self, *, keyboard: bool = False, confirm: bool = True) -> dict[str, Any]:
        """Play South's cards until the deal is over; report what happened on the way."""
        page = self.page
        seen: dict[str, Any] = {"bids": 0, "cards": 0, "refusal": None}
        for _ in range(60):
            view = self.wait_ready()
            if view["phase"] == "over":
                return seen
            if view["phase"] == "cancelled":
                page.click("#controls [data-action=next-deal]")
                page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
                continue
            if view["phase"] == "bidding":
                seen["bids"] += 1
                self.bid()
                continue
            refused = page.locator("#hand .card.refused")
            if seen["refusal"] is None and refused.count():
                seen["refusal"] = self.try_refused(refused.first.get_attribute("data-card") or "")
            legal = [a["card"] for a in view["legal"] if a["kind"] == "play"]
            if keyboard:
                self.play_with_keys(legal[0])
            else:
                page.click(f'#hand .card[data-card="{legal[0]}"]')
                if confirm:
                    page.click("#controls [data-action=confirm]")
            seen["cards"] += 1
            page.wait_for_function(PLAYED, arg=len(view["hand"]))
        raise AssertionError("the deal did not end")

    def try_refused(self, card: str) -> dict[str, Any]:
        """Press a greyed card: nothing is sent, the reason is shown."""
        page = self.page
        view = self.view()
        button = page.locator(f'#hand .card[data-card="{card}"]')
        assert button.get_attribute("aria-disabled") == "true"
        reason = view["refusals"][card]["message"]
        assert button.get_attribute("title") == reason
        button.click(force=True)  # aria-disabled, but a person may still press it
        # The reason is said in one place, the status line, as a sentence of its own.
        lines = page.locator("#status .status-line").all_text_contents()
        assert lines[-1] == reason
        assert page.locator("#tip").count() == 0
        assert self.view()["hand"] == view["hand"]  # nothing was played
        assert page.locator("#controls [data-action=confirm]").count() == 0
        return {"card": card, "reason": reason}

    def play_with_keys(self, card: str) -> None:
        """Move to ``card`` with the arrow keys, pick it with Enter, confirm with Enter."""
        page = self.page
        page.locator("#hand .card[tabindex='0']").focus()
        rtl = page.evaluate("getComputedStyle(document.getElementById('hand')).direction") == "rtl"
        order = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")
        index = order.index(
            page.evaluate("document.activeElement.dataset.card"),
        )
        target = order.index(card)
        forward, backward = ("ArrowLeft", "ArrowRight") if rtl else ("ArrowRight", "ArrowLeft")
        for _ in range(abs(target - index)):
            page.keyboard.press(forward if target > index else backward)
        assert page.evaluate("document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")
        if (
            page.evaluate("window.cardavia.view.hand.length")
            and page.locator("#controls [data-action=confirm]").count()
        ):
            page.wait_for_function(
                "(c) => document.activeElement && document.activeElement.dataset.card === c",
                arg=card,
            )
            page.keyboard.press("Enter")


@pytest.fixture
def table(browser: Browser, server: Server) -> Iterator[Table]:
    """A fresh tab (its own storage) on the shared server, the AI's moves drawn at once."""
    context = browser.new_context(
        bypass_csp=True, viewport={"width": 1280, "height": 860}, reduced_motion="reduce"
    )
    context.add_init_script(
        "if (!localStorage.getItem('cardavia.settings'))"
        " localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));"
    )
    tab = Table(context, server.url)
    yield tab
    context.close()


@pytest.fixture
def make_table() -> type[Table]:
    """The :class:`Table` helper, for tests that open their own browser context."""
    return Table


@pytest.fixture
def axe() -> Any:
    """:func:`axe_violations`, for the tests (conftest is not importable as a module)."""
    return axe_violations
