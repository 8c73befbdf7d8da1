"""What a first visit costs a phone: every request and every byte the browser fetches for a
newcomer's first page, the service worker's installation included (what it keeps for offline
use), on the embedded site (`cardavia serve`, a fresh SQLite database) in Chromium at
360×740.

Printed: the requests and the bytes on the wire (the encoded bodies, as sent: compressed
where the server compresses) and decoded, by who asked (the page, the service worker) and by
kind (page, script, style, picture, other), and the total. Run it before and after a change
to what a first visit loads.

Run: ``uv run python bench/first_visit.py [--lang fr] [--page /fr/]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Request, sync_playwright

CARDAVIA = Path(sys.executable).parent / "cardavia"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SETTLE_SECONDS = 3.0
"""How long the network must stay quiet for the visit to count as over."""


@dataclass
class Fetched:
    """One request answered: who asked, its kind, and its sizes."""

    by: str
    kind: str
    wire: int
    decoded: int


def kind_of(url: str, resource: str) -> str:
    path = url.split("?", 1)[0]
    if path.endswith(".js"):
        return "script"
    if path.endswith(".css"):
        return "style"
    if path.endswith((".png", ".svg", ".webp", ".ico")):
        return "picture"
    if resource == "document" or path.endswith("/") or "/rules/" in path:
        return "page"
    return "other"


def chromium() -> str:
    for name in ("chromium-headless-shell", "chromium"):
        if found := shutil.which(name):
            return found
    return "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the site stopped")
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the site did not answer")


def visit(base: str, page: str) -> list[Fetched]:
    """Open ``page`` as a newcomer on a phone; everything fetched until the network rests."""
    fetched: list[Fetched] = []
    last = [time.monotonic()]

    def answered(request: Request) -> None:
        response = request.response()
        if response is None:
            return
        # -1: not from the network (the browser's own cache: a script the page fetched first).
        wire = max(0, request.sizes()["responseBodySize"])
        try:
            decoded = len(response.body())
        except Exception:  # a redirect, an opaque answer
            decoded = 0
        if not decoded:  # a service worker's answers keep their bodies to themselves
            length = response.headers.get("content-length")
            encoded = response.headers.get("content-encoding")
            decoded = int(length) if length and not encoded else wire
        by = "service worker" if request.service_worker else "page"
        fetched.append(Fetched(by, kind_of(request.url, request.resource_type), wire, decoded))
        last[0] = time.monotonic()

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
        context.on("requestfinished", answered)
        tab = context.new_page()
        tab.goto(base + page, wait_until="load")
        tab.evaluate("navigator.serviceWorker && navigator.serviceWorker.ready")
        while time.monotonic() - last[0] < SETTLE_SECONDS:
            tab.wait_for_timeout(250)
        browser.close()
    return fetched


def report(fetched: list[Fetched]) -> None:
    def line(label: str, items: list[Fetched]) -> str:
        wire = sum(f.wire for f in items)
        decoded = sum(f.decoded for f in items)
        return f"{label:<28} {len(items):4d} requests {wire / 1024:9.1f} KiB on the wire " \
               f"{decoded / 1024:9.1f} KiB decoded"  # fmt: skip

    for by in sorted({f.by for f in fetched}):
        mine = [f for f in fetched if f.by == by]
        print(line(f"{by}:", mine))
        for kind, _count in Counter(f.kind for f in mine).most_common():
            print(line(f"  {kind}", [f for f in mine if f.kind == kind]))
    print(line("the first visit in all", fetched))


@contextmanager
def embedded_site(prefix: str, **environment: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``cardavia serve`` on a fresh SQLite database in a folder of its own (``environment``
    added to its variables), once it answers: its address and its process. Stopped, and its
    folder removed, after."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    port = free_port()
    env = {**os.environ, "CARDAVIA_DATABASE_URL": f"sqlite:///{folder / 'cardavia.db'}"}
    command = [str(CARDAVIA), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, env=env | environment, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/healthz", server)
        yield base, server
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", default="/fr/", help="the page a newcomer opens first")
    options = parser.parse_args()
    # Service-worker requests reach the context's events (Chromium).
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    with embedded_site("cardavia-first-visit-") as (base, _server):
        report(visit(base, options.page))


if __name__ == "__main__":
    main()
