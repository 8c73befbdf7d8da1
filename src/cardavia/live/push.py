"""Telling a player while Cardavia is closed (docs/players.md, "Told when the site is closed";
docs/deploy.md, "Push"): Web Push, where the deployment gives the site its key. A page
whose player switched it on subscribes its browser to the browser's push service with the
site's public key and hands the subscription over (:meth:`Push.subscribe`); the site then
posts each message to that service, which wakes the service worker even with every page
closed (``sw.js``'s ``push``: it shows the notification, and a click opens the message's
page).

Each message is encrypted for the browser alone (RFC 8291, ``aes128gcm``: ``http_ece``) and
signed with the site's key (VAPID, RFC 8292: ``py_vapid``), so that the push service reads
neither the text nor can another site send in Cardavia's name. Sent: a friend's invitation
to a room, and a tournament the player entered closing within the hour with deals of theirs
left (once, whichever process finds it: :meth:`~cardavia.store.push.PushStore.claim`).
A subscription whose service answers 404 or 410 (the browser unsubscribed) is forgotten.

Endpoints are the push services' own: a page may only hand over an endpoint of a service
that :attr:`~cardavia.live.settings.PushSettings.services` names (the four browsers' by
default), never an address of its choosing that the site would then post to.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02, VapidException

from cardavia.live.protocol import ClientError, check_fields
from cardavia.live.room import HIDDEN_NAME
from cardavia.live.settings import SERVICES, PushSettings
from cardavia.store.base import now
from cardavia.store.db import GameStore, StoreUnavailableError
from cardavia.store.push import ENDPOINT_LENGTH, Subscription
from cardavia.store.tournaments import StoredTournament
from cardavia.words import LANGUAGES, N_, Catalogs, Wording

log = logging.getLogger(__name__)

TTL: Final = 3600
"""Seconds a push service keeps a message for a browser that is offline (an invitation or a
reminder says nothing an hour later)."""
SEND_TIMEOUT: Final = 10.0
"""Seconds a push service has to take a message."""
REMIND_EVERY: Final = 300.0
"""Seconds between two looks for tournaments about to close."""
PUSH_THREADS: Final = 4
"""Messages posted at once, each in a thread of its own."""
SUBSCRIBE_FIELDS: Final = frozenset({"endpoint", "keys", "lang", "expirationTime"})
"""What ``POST /api/push`` says: the browser's ``PushSubscription`` and the page's language."""

INVITED: Final = N_("{name} invites you to their room.")
CLOSING: Final = N_("{name} closes within the hour: your deals are waiting.")

Note = dict[str, str]
"""What a notification says: its ``title``, ``body``, the ``url`` its click opens, its
``tag`` (a new one of the same tag replaces it) and its ``lang``."""
Names = Callable[[StoredTournament, Wording], dict[str, Any]]
"""A tournament's ``name`` and page (``url``) in a language
(:func:`~cardavia.live.friends.closing_entry`)."""


def b64(data: bytes) -> str:
    """Unpadded base64url, as the Push API writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    """The bytes of unpadded base64url ``text`` (``ValueError`` if it is not)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def allowed(endpoint: str, services: Iterable[str]) -> bool:
    """Whether ``endpoint`` is at one of ``services`` (origins, ``https://*.name``: any name
    under it).

    >>> allowed("https://fcm.googleapis.com/fcm/send/abc", SERVICES)
    True
    >>> allowed("https://wns2-par02p.notify.windows.com/w/?token=x", SERVICES)
    True
    >>> allowed("https://fcm.googleapis.com.evil.example/x", SERVICES)
    False
    >>> allowed("http://169.254.169.254/latest", SERVICES)
    False
    """
    parts = urlsplit(endpoint)
    if parts.username or parts.password or not parts.hostname:
        return False
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    for service in services:
        scheme, _, host = service.lower().partition("://")
        if host.startswith("*."):
            if parts.scheme == scheme and (parts.netloc.lower().endswith(host[1:])):
                return True
        elif origin == service.lower():
            return True
    return False


def encrypted(payload: bytes, subscription: Subscription) -> bytes:
    """``payload`` encrypted for ``subscription``'s browser alone (RFC 8291: a key of the
    moment agreed with the browser's, and its secret)."""
    return bytes(
        http_ece.encrypt(
            payload,
            salt=os.urandom(16),
            private_key=ec.generate_private_key(ec.SECP256R1()),
            dh=unb64(subscription.p256dh),
            auth_secret=unb64(subscription.auth),
            version="aes128gcm",
        )
    )


def site_key(path: Path) -> Vapid02:
    """The site's key, read from ``path`` (PEM, or DER in base64url); a clear error where
    there is none: a key is never made here (each process of the site would make its own,
    and the browsers' subscriptions hold one)."""
    if not path.is_file():
        raise ValueError(f"CARDAVIA_PUSH_KEY names no file: {path}")
    try:
        return Vapid02.from_file(str(path))
    except VapidException as error:
        raise ValueError(f"CARDAVIA_PUSH_KEY is not a private key ({path}): {error}") from None


class Push:
    """The site's pushes: its key, the subscriptions handed over, and the messages sent."""

    def __init__(self, store: GameStore, settings: PushSettings, catalogs: Catalogs) -> None:
        self.store = store
        self.settings = settings
        self.catalogs = catalogs
        self._threads = ThreadPoolExecutor(PUSH_THREADS, thread_name_prefix="push")
        """Where messages are posted: threads of their own, so that a slow push service never
        holds the threads the site reads its database in."""
        self._sending: set[asyncio.Task[Any]] = set()
        """Messages on their way (:meth:`later`), awaited at :meth:`close`."""
        self.vapid: Vapid02 | None = None
        """The site's key (``None``: not configured, nothing is pushed)."""
        if settings.key_file is not None:
            self.vapid = site_key(settings.key_file)

    @property
    def public_key(self) -> str | None:
        """The site's public key as a page subscribes with it (``None``: no push here)."""
        if self.vapid is None:
            return None
        point = self.vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return b64(point)

    async def subscribe(self, player_id: str, data: dict[str, Any]) -> None:
        """Keep the subscription a page of ``player_id`` handed over (``data``: the
        browser's ``PushSubscription`` as JSON, and the page's ``lang``)."""
        check_fields(data, SUBSCRIBE_FIELDS)
        if self.vapid is None:
            raise ClientError("push_unavailable")
        endpoint, keys, lang = data.get("endpoint"), data.get("keys"), data.get("lang")
        if not (
            isinstance(endpoint, str)
            and len(endpoint) <= ENDPOINT_LENGTH
            and allowed(endpoint, self.settings.services)
            and isinstance(keys, dict)
            and _key(keys.get("p256dh"), 65)
            and _key(keys.get("auth"), 16)
        ):
            raise ClientError("bad_subscription")
        language = lang if isinstance(lang, str) and lang in LANGUAGES else "en"
        await asyncio.to_thread(
            self.store.push.subscribe,
            player_id,
            endpoint,
            keys["p256dh"],
            keys["auth"],
            language,
        )

    async def unsubscribe(self, player_id: str, data: dict[str, Any]) -> None:
        """Forget the subscription a page of ``player_id`` ended (``data``'s ``endpoint``)."""
        check_fields(data, SUBSCRIBE_FIELDS)
        endpoint = data.get("endpoint")
        if not isinstance(endpoint, str) or not 0 < len(endpoint) <= ENDPOINT_LENGTH:
            raise ClientError("bad_subscription")
        await asyncio.to_thread(self.store.push.unsubscribe, player_id, endpoint)

    async def send(self, player_id: str, message: Callable[[Wording], Note]) -> int:
        """Push ``message`` to each browser of ``player_id``: a function of the browser's
        language's :class:`~cardavia.words.Wording` to what the notification says (``title``,
        ``body``, ``url``, ``tag``). Answers how many services took it."""
        if self.vapid is None:
            return 0
        subscriptions = await asyncio.to_thread(self.store.push.of, player_id)
        loop = asyncio.get_running_loop()
        sent = await asyncio.gather(
            *(
                loop.run_in_executor(
                    self._threads, self._post, s, message(self.catalogs.wording(s.lang))
                )
                for s in subscriptions
            )
        )
        return sum(sent)

    def _post(self, subscription: Subscription, note: Note) -> bool:
        """Post ``note`` to ``subscription``'s service (blocking: a worker thread); a
        subscription gone is forgotten, a service that fails is logged."""
        assert self.vapid is not None
        endpoint = subscription.endpoint
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.settings.contact}
        headers = {
            **self.vapid.sign(claims),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(TTL),
            "Urgency": "normal",
            "Topic": note["tag"],
        }
        body = encrypted(json.dumps(note).encode(), subscription)
        request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")
        try:
            with _OPENER.open(request, timeout=SEND_TIMEOUT) as answer:
                return bool(200 <= answer.status < 300)
        except urllib.error.HTTPError as error:
            if error.code in (404, 410):
                self.store.push.forget(endpoint)
            else:
                log.warning("a push service refused a message: %d", error.code)
        except (OSError, StoreUnavailableError) as error:
            log.warning("a push service could not be reached: %s", error)
        return False

    def later(self, sending: Coroutine[Any, Any, object]) -> None:
        """Send in the background: what the player did is answered without waiting for a
        push service."""
        task = asyncio.create_task(sending)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def close(self) -> None:
        """Wait for the messages on their way, then end the posting threads."""
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)
        self._threads.shutdown(wait=False)

    async def invited(self, player_id: str, name: str, room: str) -> None:
        """Tell ``player_id`` that ``name`` (a friend) invites them to the room ``room``."""

        def note(words: Wording) -> Note:
            hidden = words.gettext(HIDDEN_NAME)
            shown = name or hidden[:1].upper() + hidden[1:]
            return {
                "title": "Cardavia",
                "body": words.gettext(INVITED, name=shown),
                "url": f"/{words.lang}/room/{room}",
                "tag": "invite",
                "lang": words.lang,
            }

        await self.send(player_id, note)

    async def remind_closing(self, within: timedelta, names: Names) -> int:
        """Tell each player told while the site is closed who has deals left in a tournament
        closing within ``within`` — once each (``names``: a tournament's name and page for
        a :class:`~cardavia.words.Wording`). Answers how many were told."""
        pairs = await asyncio.to_thread(self.store.push.closing_entries, now(), within)
        told = 0
        for player_id, tournament_id in pairs:
            if not await asyncio.to_thread(
                self.store.push.claim, player_id, f"closing:{tournament_id}"
            ):
                continue
            tournament = await asyncio.to_thread(self.store.tournaments.load, tournament_id)
            if tournament is None:
                continue

            def note(words: Wording, tournament: StoredTournament = tournament) -> Note:
                entry = names(tournament, words)
                return {
                    "title": "Cardavia",
                    "body": words.gettext(CLOSING, name=entry["name"]),
                    "url": entry["url"],
                    "tag": "closing",
                    "lang": words.lang,
                }

            told += bool(await self.send(player_id, note))
        return told

    async def remind_forever(self, within: timedelta, names: Names) -> None:
        """:meth:`remind_closing` every :data:`REMIND_EVERY` seconds, for the process's life."""
        while self.vapid is not None:
            try:
                await self.remind_closing(within, names)
            except StoreUnavailableError as error:
                log.warning("the tournaments' reminders could not be read: %s", error)
            except Exception:
                log.warning("the tournaments' reminders could not be sent", exc_info=True)
            await asyncio.sleep(REMIND_EVERY)


class _Unredirected(urllib.request.HTTPRedirectHandler):
    """A push service's redirection is not followed (its answer is an error): the site posts
    only to the services it trusts."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER: Final = urllib.request.build_opener(_Unredirected)
"""How messages are posted: no redirection followed."""


def _key(value: object, size: int) -> bool:
    """Whether ``value`` is unpadded base64url of ``size`` bytes."""
    if not isinstance(value, str) or len(value) > 100:
        return False
    try:
        return len(unb64(value)) == size
    except ValueError:
        return False


__all__ = [
    "SERVICES",
    "Push",
    "PushSettings",
    "allowed",
    "b64",
    "encrypted",
    "site_key",
    "unb64",
]
