"""How the site runs (:class:`Settings`): its database and Redis, the computer players'
pause, the origins it trusts, its fair-use limits and where its files are; read from the
environment by :meth:`Settings.from_env`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cardavia.ai.environment import DEFAULT_DEADLINE, REDIS_URL_VARIABLE, deadline_from_env
from cardavia.live.limits import MAX_MESSAGE_BYTES, Limits

WEB_DIR: Final = Path(__file__).parents[1] / "web"
"""The site's face: its templates and static files (:mod:`cardavia.web`)."""
LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
"""The names a site answers to by default: its own machine's (``CARDAVIA_ALLOWED_HOSTS``
adds the site's public name)."""
DEFAULT_AI_DELAY: Final = (0.05, 0.1)
"""The computer players' pause before each action, in seconds (a range: it varies). Short:
the page shows each move at the player's chosen pace (table.js, at least 0.2 s a card), and
the move then waits for the process's next beat (:data:`cardavia.live.turns.BEAT`, 0.1 s), so
that the two together stay within the fastest pace and are never what a player waits for."""
BODY_TIMEOUT: Final = 10.0
"""Seconds a request body may take to arrive (a slow client holds no worker longer)."""
DEFAULT_LIMITS: Final = Limits()
SERVICES: Final = (
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://web.push.apple.com",
    "https://*.notify.windows.com",
)
"""The push services of Chrome, Firefox, Safari and Edge (``*.``: any name under it)."""
DEFAULT_CONTACT: Final = "mailto:admin@localhost"
"""Whom the push services write to when the deployment names nobody."""


@dataclass(frozen=True, slots=True)
class PushSettings:
    """Where the site's key is, whom the push services may write to, and which services a
    subscription may name."""

    key_file: Path | None = None
    """The site's private key (PEM, P-256: ``vapid --gen`` makes one) — ``CARDAVIA_PUSH_KEY``;
    ``None``: the site pushes nothing and its pages offer no subscription."""
    contact: str = DEFAULT_CONTACT
    """Whom a push service writes to about this site's messages (``CARDAVIA_PUSH_CONTACT``:
    a ``mailto:`` or an ``https:`` address)."""
    services: tuple[str, ...] = SERVICES
    """The push services' origins an endpoint may be at (``CARDAVIA_PUSH_SERVICES``)."""

    @classmethod
    def from_env(cls) -> PushSettings:
        """The settings of ``CARDAVIA_PUSH_KEY``, ``CARDAVIA_PUSH_CONTACT`` and
        ``CARDAVIA_PUSH_SERVICES`` (comma-separated)."""
        key = os.environ.get("CARDAVIA_PUSH_KEY")
        services = _listed("CARDAVIA_PUSH_SERVICES")
        return cls(
            key_file=Path(key) if key else None,
            contact=os.environ.get("CARDAVIA_PUSH_CONTACT") or DEFAULT_CONTACT,
            services=services or SERVICES,
        )


@dataclass(frozen=True, slots=True)
class Settings:
    """How the site runs. The defaults are production's; tests set ``ai_delay=(0, 0)``, a
    ``seed`` and a temporary database."""

    database_url: str | None = None
    """SQLAlchemy URL; ``None``: ``CARDAVIA_DATABASE_URL``, else ``sqlite:///cardavia.db``."""
    redis_url: str | None = None
    """Redis, joining several web processes serving one site (``CARDAVIA_REDIS_URL``);
    ``None``: this process serves alone."""
    ai_delay: tuple[float, float] = DEFAULT_AI_DELAY
    """The computer players' pause before each action, seconds (low, high)."""
    ai_deadline: float = DEFAULT_DEADLINE
    """Seconds an AI worker has to answer a decision before this process makes it itself
    (``CARDAVIA_AI_DEADLINE``; :mod:`cardavia.ai.decisions`)."""
    seed: int | None = None
    """Seed the shuffles and the computer players (tests); ``None``: the system's randomness."""
    max_message_bytes: int = MAX_MESSAGE_BYTES
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://cardavia.example``) allowed besides the site's own host, for a
    ``POST`` or a WebSocket coming from a browser."""
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    """The names the site answers to (its ``Host``; a port is ignored): the loopback names
    and the site's own (``CARDAVIA_ALLOWED_HOSTS``); any other is refused, a socket included
    (DNS rebinding). ``*``: any (a proxy in front checks it)."""
    trusted_proxies: tuple[str, ...] = ()
    """The proxies (addresses or networks, ``10.0.0.0/8``) whose ``X-Forwarded-For`` says who
    the client is (``CARDAVIA_TRUSTED_PROXIES``); none by default: the header is ignored."""
    body_timeout: float = BODY_TIMEOUT
    limits: Limits = DEFAULT_LIMITS
    """Fair use: rate limits, queues, the computer players' budget per client, abandoned
    games (:class:`cardavia.live.limits.Limits`)."""
    quick_wait: float = 20.0
    """Seconds a person waits in quick play's queue before sitting down with computer
    players in the empty seats (``CARDAVIA_QUICK_WAIT``; docs/players.md, "Quick play")."""
    quick_clock: float = 30.0
    """Seconds for each action at a quick-play table (``CARDAVIA_QUICK_CLOCK``)."""
    quick_joins_per_minute: float = 30.0
    """Times one client may join quick play's queue per minute (``CARDAVIA_QUICK_JOINS``)."""
    push: PushSettings = PushSettings()
    """Telling players while the site is closed: the site's key, its contact, the push
    services (``CARDAVIA_PUSH_KEY``, ``CARDAVIA_PUSH_CONTACT``, ``CARDAVIA_PUSH_SERVICES``;
    :mod:`cardavia.live.push`); no key: nothing pushed."""
    web_dir: Path = WEB_DIR
    """Where ``templates/`` and ``static/`` are (the catalogs are :mod:`cardavia.words`'s)."""

    @classmethod
    def from_env(cls) -> Settings:
        """The settings of the environment: ``CARDAVIA_DATABASE_URL``, ``CARDAVIA_REDIS_URL``,
        ``CARDAVIA_AI_DELAY`` (``0.05-0.1``, seconds), ``CARDAVIA_AI_DEADLINE`` (seconds),
        ``CARDAVIA_ALLOWED_ORIGINS``, ``CARDAVIA_ALLOWED_HOSTS`` (added to the loopback names)
        and ``CARDAVIA_TRUSTED_PROXIES`` (each comma-separated), the limits', quick play's
        ``CARDAVIA_QUICK_WAIT``, ``CARDAVIA_QUICK_CLOCK``, ``CARDAVIA_QUICK_JOINS``, and the
        pushes' (:meth:`~cardavia.live.push.PushSettings.from_env`)."""
        delay = DEFAULT_AI_DELAY
        text = os.environ.get("CARDAVIA_AI_DELAY")
        if text:
            low, _, high = text.partition("-")
            delay = (float(low), float(high or low))
        return cls(
            database_url=os.environ.get("CARDAVIA_DATABASE_URL"),
            redis_url=os.environ.get(REDIS_URL_VARIABLE) or None,
            ai_delay=delay,
            ai_deadline=deadline_from_env(),
            allowed_origins=_listed("CARDAVIA_ALLOWED_ORIGINS"),
            allowed_hosts=(*LOOPBACK_HOSTS, *_listed("CARDAVIA_ALLOWED_HOSTS")),
            trusted_proxies=_listed("CARDAVIA_TRUSTED_PROXIES"),
            limits=Limits.from_env(),
            quick_wait=float(os.environ.get("CARDAVIA_QUICK_WAIT") or 20.0),
            quick_clock=float(os.environ.get("CARDAVIA_QUICK_CLOCK") or 30.0),
            quick_joins_per_minute=float(os.environ.get("CARDAVIA_QUICK_JOINS") or 30.0),
            push=PushSettings.from_env(),
        )

    @property
    def templates_dir(self) -> Path:
        """The Jinja2 templates."""
        return self.web_dir / "templates"

    @property
    def static_dir(self) -> Path:
        """CSS, JavaScript modules, card pictures."""
        return self.web_dir / "static"


def _listed(variable: str) -> tuple[str, ...]:
    """The comma-separated items of an environment variable (none when it is unset)."""
    return tuple(item.strip() for item in os.environ.get(variable, "").split(",") if item.strip())


__all__ = [
    "BODY_TIMEOUT",
    "DEFAULT_AI_DELAY",
    "LOOPBACK_HOSTS",
    "SERVICES",
    "WEB_DIR",
    "PushSettings",
    "Settings",
]
