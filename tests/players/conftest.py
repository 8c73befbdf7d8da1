"""Fixtures of the players' tests: the PostgreSQL, Redis and web processes of the
multi-process tests (``tests/multi/conftest.py``, loaded from its file: its servers start and
stop as there), and a fresh database in that PostgreSQL for each test that needs one empty."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from cardavia.store.db import database_url

_spec = importlib.util.spec_from_file_location(
    "cardavia_tests_multi_fixtures", Path(__file__).parents[1] / "multi" / "conftest.py"
)
assert _spec is not None and _spec.loader is not None
multi = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = multi
_spec.loader.exec_module(multi)

session_postgres = multi.session_postgres
postgres_url = multi.postgres_url
session_redis = multi.session_redis
redis_url = multi.redis_url
web_process = multi.web_process


@pytest.fixture
def empty_postgres(postgres_url: str) -> Iterator[str]:
    """The URL of a new, empty database of the tests' PostgreSQL (dropped afterwards)."""
    server = create_engine(database_url(postgres_url), isolation_level="AUTOCOMMIT")
    name = f"players_{secrets.token_hex(6)}"
    with server.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    url = make_url(database_url(postgres_url)).set(database=name)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with server.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        server.dispose()


class SoftAuthenticator:
    """A passkey authenticator in Python (a P-256 key, ``none`` attestation), answering
    the site's ceremonies as a browser's would: for the tests that reach several processes,
    where no browser goes. Its counter moves on at each signature; ``count`` sets it."""

    def __init__(self, origin: str, rp_id: str) -> None:
        self.origin = origin
        self.rp_id = rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential = secrets.token_bytes(32)
        self.count = 0
        self.user_handle = b""

    def _client_data(self, kind: str, challenge: str) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def _auth_data(self, flags: int, attested: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256(self.rp_id.encode()).digest()
        return rp_hash + bytes([flags]) + self.count.to_bytes(4, "big") + attested

    def register(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer of ``navigator.credentials.create`` to ``options``."""
        self.user_handle = b64decode(options["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = {
            1: 2,
            3: -7,
            -1: 1,
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
        attested = bytes(16) + len(self.credential).to_bytes(2, "big") + self.credential
        attested += cbor2.dumps(cose)
        auth_data = self._auth_data(0x45, attested)  # user present and verified, key attested
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"])
        return {
            "id": b64encode(self.credential),
            "rawId": b64encode(self.credential),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64encode(client_data),
                "attestationObject": b64encode(attestation),
            },
            "clientExtensionResults": {},
        }

    def sign_in(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer of ``navigator.credentials.get`` to ``options`` (its counter moved on)."""
        self.count += 1
        auth_data = self._auth_data(0x05)
        client_data = self._client_data("webauthn.get", options["challenge"])
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64encode(self.credential),
            "rawId": b64encode(self.credential),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64encode(client_data),
                "authenticatorData": b64encode(auth_data),
                "signature": b64encode(signature),
                "userHandle": b64encode(self.user_handle),
            },
            "clientExtensionResults": {},
        }


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture
def soft_authenticator() -> type[SoftAuthenticator]:
    """:class:`SoftAuthenticator`, for the tests (a conftest is not imported by name)."""
    return SoftAuthenticator
