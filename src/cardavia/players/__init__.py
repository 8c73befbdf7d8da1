"""The players: a guest made on a person's first game, who keeps a display name, a language
and the table's settings across tabs and browsers (docs/players.md). Below the site (it
knows nothing of HTTP or cookies), above the store."""

from cardavia.players.passkeys import PasskeyRefusedError, RelyingParty
from cardavia.players.service import Ceremony, Guest, Passkey, Player, Players
from cardavia.players.settings import SETTINGS, SettingError, clean_settings

__all__ = [
    "SETTINGS",
    "Ceremony",
    "Guest",
    "Passkey",
    "PasskeyRefusedError",
    "Player",
    "Players",
    "RelyingParty",
    "SettingError",
    "clean_settings",
]
