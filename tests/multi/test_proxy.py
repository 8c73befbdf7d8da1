"""The production edge (issue 18): nginx with the site's own configuration (deploy/nginx.conf,
TLS included) in front of two web processes, PostgreSQL, Redis and an AI worker; a whole
deal of a strong table played through it over a WebSocket, the client's address passed on
(the limits count each client, whatever X-Forwarded-For it writes), another ``Host`` and a
huge head refused."""

from __future__ import annotations

import http.client
import json
import random
import shutil
import ssl
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.multi.conftest import WebProcess, free_port, missing, wait_for_port
from tests.multi.test_several_servers import settle, start_ai_worker
from websockets.exceptions import InvalidMessage
from websockets.sync.client import ClientConnection, connect

CONFIG = Path(__file__).parents[2] / "deploy" / "nginx.conf"
NAME = "cardavia.example"


class Proxy:
    """nginx on a port of its own, with deploy/nginx.conf pointed at the test's processes."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        self.port = free_port()
        self.plain_port = free_port()
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", f"/CN={NAME}", "-keyout", str(folder / "key.pem"),
                "-out", str(folder / "cert.pem"),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        site = CONFIG.read_text()
        servers = "".join(f"    server 127.0.0.1:{port};\n" for port in upstreams)
        site = site.replace("    server 127.0.0.1:8001;\n    server 127.0.0.1:8002;\n", servers)
        site = site.replace("listen 443 ssl", f"listen 127.0.0.1:{self.port} ssl")
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.plain_port};")
        site = site.replace("/etc/ssl/cardavia/fullchain.pem", str(folder / "cert.pem"))
        site = site.replace("/etc/ssl/cardavia/privkey.pem", str(folder / "key.pem"))
        (folder / "site.conf").write_text(site)
        temp = folder / "temp"
        temp.mkdir()
        (folder / "nginx.conf").write_text(
            f"daemon off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
            "events { worker_connections 1024; }\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {temp};\n"
            f"  proxy_temp_path {temp};\n  fastcgi_temp_path {temp};\n"
            f"  uwsgi_temp_path {temp};\n  scgi_temp_path {temp};\n"
            f"  include {folder}/site.conf;\n}}\n"
        )
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen(
            [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")]
        )
        wait_for_port(self.port, self.process, "nginx")
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, str] | None = None,
        *,
        source: str = "127.0.0.1",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.port, timeout=20, context=self.context, source_address=(source, 0)
        )
        sent = {"Host": NAME, "Content-Type": "application/json"} | (headers or {})
        conn.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = conn.getresponse()
        answer = response.status, response.read()
        conn.close()
        return answer

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[Callable[[list[int]], Proxy]]:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        missing("nginx was not found")
    if shutil.which("openssl") is None:
        missing("openssl was not found")
    started: list[Proxy] = []

    def start(upstreams: list[int]) -> Proxy:
        started.append(Proxy(tmp_path, upstreams))
        return started[-1]

    yield start
    for each in started:
        each.stop()


def open_socket(url: str, context: ssl.SSLContext) -> ClientConnection:
    """A table's socket through the proxy, opened as the page opens it: once more should the
    handshake be dropped before its answer (the page tries again, backing off). One full run
    in six saw it dropped under load, never a run of this test alone: left to find out."""
    try:
        return connect(url, ssl=context, open_timeout=20)
    except InvalidMessage:
        time.sleep(0.3)
        return connect(url, ssl=context, open_timeout=20)


def test_a_deal_played_through_the_proxy(
    web_process: Callable[..., WebProcess],
    proxy: Callable[[list[int]], Proxy],
    redis_url: str,
    tmp_path: Path,
) -> None:
    site = {
        "CARDAVIA_TRUSTED_PROXIES": "127.0.0.1",
        "CARDAVIA_ALLOWED_HOSTS": NAME,
        "CARDAVIA_GAMES_PER_MINUTE": "1",
        "CARDAVIA_GAMES_BURST": "3",
    }
    webs = [web_process(**site), web_process(**site)]
    front = proxy([web.port for web in webs])
    worker = start_ai_worker(redis_url, tmp_path / "worker.log")
    try:
        assert front.request("GET", "/healthz") == (200, b"ok")
        # Each client counted apart, through the proxy, whatever X-Forwarded-For it writes.
        game_body = {"rules": "coinche", "level": "strong", "lang": "en"}
        one = [
            front.request(
                "POST", "/api/games", game_body, source="127.0.0.2",
                headers={"X-Forwarded-For": f"198.51.100.{n}"},
            )
            for n in range(4)
        ]  # fmt: skip
        assert [status for status, _ in one] == [201, 201, 201, 429]
        assert front.request("POST", "/api/games", game_body, source="127.0.0.3")[0] == 201
        # Another name is refused by the site; a huge head by the proxy already.
        assert front.request("GET", "/healthz", headers={"Host": "evil.example"})[0] == 400
        big = front.request("GET", "/healthz", headers={"X-Big": "a" * 40_000})
        assert big[0] in (400, 431)
        # A whole deal, its computer seats thought on the AI worker, over a socket through it.
        game = json.loads(one[0][1])
        url = f"wss://127.0.0.1:{front.port}/ws/games/{game['game']}?token={game['token']}"
        rng = random.Random(5)
        start = time.monotonic()
        with open_socket(url, front.context) as player:
            view = settle(player)
            while view["phase"] not in ("over", "cancelled"):
                player.send(json.dumps({"type": "action", "action": rng.choice(view["legal"])}))
                view = settle(player)
        assert view["phase"] in ("over", "cancelled")
        assert time.monotonic() - start < 120
    finally:
        worker.terminate()
        worker.wait(timeout=20)
