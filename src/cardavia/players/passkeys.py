"""The WebAuthn ceremonies of a player's passkeys, by the ``webauthn`` library: the options a
browser is given (``navigator.credentials.create`` to add a passkey, ``.get`` to sign in
with one) and the checks of its answer — the challenge this site gave, this site's origin
and name (the relying party), the signature, and for a sign-in the authenticator's counter
moved on (a cloned authenticator that keeps a counter does not move it; one that keeps none
signs with 0 every time, which WebAuthn accepts: docs/players.md, "What the counter can and
cannot detect").

Passkeys are discoverable (kept on the authenticator with the player's handle): signing in
names nobody first; the passkey chosen says who.

The library (and the cryptography under it) is imported by the ceremonies themselves, on
the first passkey added or used: most of the site's processes never need it, and it costs
nearly a second of each one's start."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

SITE_NAME: Final = "Cardavia"
TIMEOUT_MS: Final = 120_000


class PasskeyRefusedError(ValueError):
    """A browser's answer that does not hold: not this site's, not the challenge given, a
    wrong signature, a counter that did not move on, or not an answer at all."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """The site as passkeys know it: its name (``id``: the host name the page was served
    from) and the origin a browser's answer must come from (``https://cardavia.example``)."""

    id: str
    origin: str


@dataclass(frozen=True, slots=True)
class NewPasskey:
    """A passkey a registration made: its credential id (base64url), public key and
    counter."""

    id: str
    public_key: bytes
    sign_count: int


def registration_options(
    party: RelyingParty, *, user_id: str, user_name: str, existing: list[str]
) -> tuple[dict[str, Any], bytes]:
    """The options of ``navigator.credentials.create`` for a player (``user_id``: their
    handle on the authenticator; ``existing``: their passkeys' ids, not to be made twice),
    and the challenge to keep."""
    from webauthn import base64url_to_bytes, generate_registration_options, options_to_json
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    options = generate_registration_options(
        rp_id=party.id,
        rp_name=SITE_NAME,
        user_id=user_id.encode(),
        user_name=user_name,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey)) for passkey in existing
        ],
    )
    return json.loads(options_to_json(options)), options.challenge


def check_registration(party: RelyingParty, answer: object, challenge: bytes) -> NewPasskey:
    """The passkey a browser's answer to the registration made (:class:`PasskeyRefusedError`
    if it does not hold)."""
    from webauthn import verify_registration_response
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    if not isinstance(answer, dict):
        raise PasskeyRefusedError("not an answer")
    try:
        verified = verify_registration_response(
            credential=answer,
            expected_challenge=challenge,
            expected_rp_id=party.id,
            expected_origin=party.origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise PasskeyRefusedError(str(error)) from None
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
    )


def sign_in_options(party: RelyingParty) -> tuple[dict[str, Any], bytes]:
    """The options of ``navigator.credentials.get`` (any passkey of this site), and the
    challenge to keep."""
    from webauthn import generate_authentication_options, options_to_json
    from webauthn.helpers.structs import UserVerificationRequirement

    options = generate_authentication_options(
        rp_id=party.id,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return json.loads(options_to_json(options)), options.challenge


def answer_passkey(answer: object) -> str | None:
    """The credential id a sign-in answer names (to find its public key), if any."""
    if isinstance(answer, dict) and isinstance(answer.get("id"), str):
        return str(answer["id"])
    return None


def check_sign_in(
    party: RelyingParty, answer: object, challenge: bytes, *, public_key: bytes, sign_count: int
) -> int:
    """Check a browser's sign-in answer against the passkey it names (its public key, the
    counter last seen): answers the new counter (:class:`PasskeyRefusedError` if it does not
    hold, a counter that did not move on included)."""
    from webauthn import verify_authentication_response
    from webauthn.helpers.exceptions import WebAuthnException

    if not isinstance(answer, dict):
        raise PasskeyRefusedError("not an answer")
    try:
        verified = verify_authentication_response(
            credential=answer,
            expected_challenge=challenge,
            expected_rp_id=party.id,
            expected_origin=party.origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise PasskeyRefusedError(str(error)) from None
    return int(verified.new_sign_count)


__all__ = [
    "NewPasskey",
    "PasskeyRefusedError",
    "RelyingParty",
    "answer_passkey",
    "check_registration",
    "check_sign_in",
    "registration_options",
    "sign_in_options",
]
