"""A player's devices: link another browser with a short code, or sign in with a passkey.

A player is known by the random keys of their browsers (:mod:`yatzy.app.access`; only
the keys' SHA-256 is stored). Two ways tie one more browser's key to a player, so that
the player's profile — display name, rating, games, daily attempts — is that browser's
too:

**Link codes.** A browser of the player asks for a code (:meth:`DeviceService.new_code`):
:data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET` (no ``0``/``O``, ``1``/``I``/``L``
to mix up: about 40 random bits), good once, for :data:`CODE_MINUTES` minutes. Only a
slow hash of it is stored (:func:`code_hash`: scrypt, so that a copy of the database
does not give the code away within its minutes). The other browser gives the code
(:meth:`DeviceService.link`): a wrong one is :class:`LinkCodeUnknown`, a used one
:class:`LinkCodeUsed`, an old one :class:`LinkCodeExpired`, and each of these counts as a
failure against the asking client (its address) and its key; past
:data:`MAX_FAILURES` in :data:`FAILURE_WINDOW` it is :class:`TooManyLinkAttempts` before
the code is even looked at. A refused code changes nothing. A player keeps one code at
a time: a new one replaces any unused one.

**Passkeys** (WebAuthn, with the ``webauthn`` package): a player with a display name
registers one (:meth:`DeviceService.registration_options`, then
:meth:`DeviceService.add_passkey`), a discoverable credential whose user handle is the
player's id; on a new device, :meth:`DeviceService.sign_in_options` and
:meth:`DeviceService.sign_in` tie that browser's key to the passkey's player. Every
challenge is 32 random bytes, stored (its SHA-256) with what it is for and who asked,
good once, for :data:`CHALLENGE_SECONDS` seconds. The relying party (its id, the
origins the browser may be on) is the caller's: the web app takes it from the request's
host unless a deployment sets it.

The browser's key leaves the player it had: that player (a profile of this browser
alone, say) stays as it was, without this browser.

>>> normalize_code(" abcd-efgh ")
'ABCDEFGH'
>>> len(new_code()), set(new_code()) <= set(CODE_ALPHABET)
(8, True)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from yatzy.app.access import player_key_hash
from yatzy.app.codes import AppCode
from yatzy.app.errors import AppError
from yatzy.app.saved import Player
from yatzy.core.errors import BadInput

if TYPE_CHECKING:
    from collections.abc import Callable

    from yatzy.app.ports import DeviceRepository

#: The characters of a link code: digits and capital letters without 0/O and 1/I/L,
#: which look alike (31 characters).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
#: Characters in a link code (31**8: about 40 bits).
CODE_LENGTH = 8
#: How long a link code is good for.
CODE_MINUTES = 10
#: Wrong, used or expired codes a client (or a key) may give within FAILURE_WINDOW.
MAX_FAILURES = 10
FAILURE_WINDOW = timedelta(minutes=10)
#: How long a passkey challenge is good for.
CHALLENGE_SECONDS = 300
#: What the relying party is called in a passkey's prompt.
RP_NAME = "Yatzy"
#: The challenges' purposes.
REGISTER, SIGN_IN = "register", "sign_in"


class BadLinkCode(BadInput, AppError):
    """Something that cannot be a link code (wrong length or characters)."""

    code = AppCode.BAD_LINK_CODE

    def __init__(self) -> None:
        super().__init__(f"A link code is {CODE_LENGTH} letters and digits, as the other"
                         " device shows it", length=CODE_LENGTH)


class LinkCodeUnknown(BadInput, AppError):
    """A link code that no device asked for (mistyped, or made up)."""

    code = AppCode.LINK_CODE_UNKNOWN

    def __init__(self) -> None:
        super().__init__("There is no such link code: check it on the other device")


class LinkCodeUsed(BadInput, AppError):
    """A link code that linked a device already (good once)."""

    code = AppCode.LINK_CODE_USED

    def __init__(self) -> None:
        super().__init__("This link code was used already: ask the other device for a new"
                         " one")


class LinkCodeExpired(BadInput, AppError):
    """A link code older than :data:`CODE_MINUTES` minutes, or replaced by a newer one."""

    code = AppCode.LINK_CODE_EXPIRED

    def __init__(self) -> None:
        super().__init__("This link code has expired: ask the other device for a new one")


class TooManyLinkAttempts(AppError):
    """Too many refused link codes from one client or key: ask again in
    ``retry_after`` seconds."""

    code = AppCode.TOO_MANY_LINK_ATTEMPTS

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many wrong link codes from here: wait {retry_after} seconds",
                         seconds=retry_after)
        self.retry_after = retry_after


class PasskeyNameNeeded(BadInput, AppError):
    """A passkey asked for by a player without a display name (the passkey is named
    after the player)."""

    code = AppCode.PASSKEY_NAME_NEEDED

    def __init__(self) -> None:
        super().__init__("Choose a display name before you add a passkey")


class BadPasskey(BadInput, AppError):
    """A browser's passkey answer that is not one (malformed JSON, fields missing)."""

    code = AppCode.BAD_PASSKEY

    def __init__(self, detail: str = "") -> None:
        super().__init__("The browser's passkey answer could not be read", detail=detail[:200])


class PasskeyChallenge(BadInput, AppError):
    """A passkey answer to a challenge that is not (or no longer) waiting: never given,
    used already, expired, or given for something else."""

    code = AppCode.PASSKEY_CHALLENGE

    def __init__(self) -> None:
        super().__init__("This passkey request has expired or was used: try again")


class PasskeyUnknown(BadInput, AppError):
    """A passkey that is not registered here (or, to remove, not this player's)."""

    code = AppCode.PASSKEY_UNKNOWN

    def __init__(self) -> None:
        super().__init__("This passkey is not known here")


class PasskeyRefused(BadInput, AppError):
    """A passkey answer that did not verify (signature, origin, relying party, counter)."""

    code = AppCode.PASSKEY_REFUSED

    def __init__(self, reason: str) -> None:
        super().__init__("The passkey was not accepted", reason=reason[:200])


@dataclass(frozen=True)
class LinkCode:
    """A new link code (shown once) and when it expires."""

    code: str
    expires_at: datetime


@dataclass(frozen=True)
class Passkey:
    """A registered passkey: its credential id (base64url), its player, its public key
    (COSE), the authenticator's signature counter, how it may be reached."""

    id: str
    player_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime | None = None


@dataclass(frozen=True)
class RelyingParty:
    """Who a passkey is for: the relying party's id (a domain) and the origins
    (``https://host[:port]``) its pages are on."""

    id: str
    origins: tuple[str, ...]


def new_code() -> str:
    """A new link code: :data:`CODE_LENGTH` random characters of :data:`CODE_ALPHABET`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(value: object) -> str:
    """``value`` as a link code: upper case, without spaces or dashes; else
    :class:`BadLinkCode`."""
    if not isinstance(value, str) or len(value) > 4 * CODE_LENGTH:
        raise BadLinkCode
    code = "".join(value.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise BadLinkCode
    return code


#: scrypt's cost for a link code's hash: 2**12 rounds of 4 MiB (some 10-30 ms here).
SCRYPT_N = 2**12


def code_hash(code: str) -> str:
    """What is stored of a link code: a slow hash (scrypt) of its normalized form. A code
    has only about 40 bits, which a plain SHA-256 would give up to a graphics card
    within the code's 10 minutes; scrypt makes each guess cost milliseconds and
    megabytes. The salt is fixed, so that a code is looked up by its hash (a code is
    random and short-lived: there is nothing to precompute)."""
    digest = hashlib.scrypt(normalize_code(code).encode(), salt=b"yatzy link code",
                            n=SCRYPT_N, r=8, p=1, dklen=32)
    return digest.hex()


def subject_hash(kind: str, value: str) -> str:
    """What the failures of a client (its address) or a key are counted under: a
    SHA-256, so no address is stored."""
    return hashlib.sha256(f"{kind}|{value}".encode("utf-8", "surrogatepass")).hexdigest()


def _b64url_decode(text: object) -> bytes:
    if not isinstance(text, str) or len(text) > 4096:
        raise BadPasskey("not base64url text")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise BadPasskey(str(exc)) from None


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def challenge_of(credential: object) -> bytes:
    """The challenge a browser's passkey answer (its JSON form) answers, read from its
    ``clientDataJSON`` (checked by the signature afterwards); else :class:`BadPasskey`."""
    if not isinstance(credential, dict):
        raise BadPasskey("not an object")
    response = credential.get("response")
    if not isinstance(response, dict):
        raise BadPasskey("no response")
    try:
        client_data = json.loads(_b64url_decode(response.get("clientDataJSON")))
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
        raise BadPasskey(str(exc)) from None
    if not isinstance(client_data, dict):
        raise BadPasskey("clientDataJSON is not an object")
    return _b64url_decode(client_data.get("challenge"))


def challenge_hash(challenge: bytes) -> str:
    """What is stored of a passkey challenge: its SHA-256."""
    return hashlib.sha256(challenge).hexdigest()


class DeviceService:
    """Link codes and passkeys over a :class:`~yatzy.app.ports.DeviceRepository` (see the
    module)."""

    def __init__(self, repository: DeviceRepository, clock: Callable[[], datetime]) -> None:
        self._repo = repository
        self._clock = clock

    def _me(self, player_key: str) -> Player:
        """The player of ``player_key`` (a new one for a key seen the first time)."""
        player = self._repo.player_of_key(player_key_hash(player_key),
                                          create_at=self._clock())
        assert player is not None
        return player

    def _known(self, player_key: str) -> Player | None:
        return self._repo.player_of_key(player_key_hash(player_key))

    def _now_of(self, key_hash: str) -> Player:
        """The player ``key_hash`` belongs to now (just tied to it)."""
        player = self._repo.player_of_key(key_hash)
        assert player is not None
        return player

    # --- Link codes -------------------------------------------------------------------

    def new_code(self, player_key: str) -> LinkCode:
        """A new link code for the player of ``player_key`` (which replaces the player's
        unused one)."""
        player = self._me(player_key)
        now = self._clock()
        code = new_code()
        expires = now + timedelta(minutes=CODE_MINUTES)
        self._repo.add_link_code(code_hash(code), player.id, now, expires)
        return LinkCode(code, expires)

    def link(self, player_key: str, code: object, *, client: str) -> Player:
        """Tie ``player_key``'s browser to the player who asked for ``code`` (see the
        module); its profile is the browser's from now on. ``client`` (an address) is
        whom refused codes count against, with the key."""
        key_hash = player_key_hash(player_key)
        checked = normalize_code(code)
        now = self._clock()
        subjects = [subject_hash("client", client), subject_hash("key", key_hash)]
        since = now - FAILURE_WINDOW
        oldest = self._repo.link_failures(subjects, since=since, limit=MAX_FAILURES)
        if oldest is not None:
            wait = (oldest + FAILURE_WINDOW - now).total_seconds()
            raise TooManyLinkAttempts(max(1, math.ceil(wait)))
        try:
            self._repo.use_link_code(code_hash(checked), key_hash, now)
        except (LinkCodeUnknown, LinkCodeUsed, LinkCodeExpired):
            self._repo.add_link_failure(subjects, now)
            raise
        return self._now_of(key_hash)

    # --- Passkeys ---------------------------------------------------------------------

    def registration_options(self, player_key: str, party: RelyingParty) -> dict[str, Any]:
        """The options (the JSON the browser's ``navigator.credentials.create`` takes)
        of a new passkey for the player of ``player_key``, who needs a display name
        (:class:`PasskeyNameNeeded`); the challenge is stored for one use."""
        from webauthn import generate_registration_options, options_to_json
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        player = self._me(player_key)
        if player.name is None:
            raise PasskeyNameNeeded
        challenge = secrets.token_bytes(32)
        options = generate_registration_options(
            rp_id=party.id, rp_name=RP_NAME, user_name=player.name,
            user_display_name=player.name, user_id=player.id.encode(), challenge=challenge,
            timeout=CHALLENGE_SECONDS * 1000,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=_b64url_decode(p.id))
                for p in self._repo.passkeys_of(player.id)])
        self._store_challenge(challenge, REGISTER, player.id)
        found: dict[str, Any] = json.loads(options_to_json(options))
        return found

    def add_passkey(self, player_key: str, credential: object, party: RelyingParty
                    ) -> Passkey:
        """Register the passkey the browser made (``credential``: its JSON form) for
        the player of ``player_key``, who asked for the options it answers."""
        from webauthn import verify_registration_response
        from webauthn.helpers.exceptions import WebAuthnException

        player = self._me(player_key)
        challenge = challenge_of(credential)
        self._take_challenge(challenge, REGISTER, player.id)
        try:
            verified = verify_registration_response(
                credential=credential,  # type: ignore[arg-type]  # checked: a dict
                expected_challenge=challenge, expected_rp_id=party.id,
                expected_origin=list(party.origins))
        except WebAuthnException as exc:
            raise PasskeyRefused(str(exc)) from None
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise BadPasskey(str(exc)) from None
        response = credential.get("response") if isinstance(credential, dict) else None
        transports = response.get("transports") if isinstance(response, dict) else None
        passkey = Passkey(
            id=_b64url(verified.credential_id), player_id=player.id,
            public_key=verified.credential_public_key, sign_count=verified.sign_count,
            transports=tuple(t for t in transports if isinstance(t, str))[:8]
            if isinstance(transports, list) else (),
            created_at=self._clock())
        self._repo.add_passkey(passkey)
        return passkey

    def passkeys(self, player_key: str) -> list[Passkey]:
        """The passkeys of the player of ``player_key``, oldest first."""
        player = self._known(player_key)
        return [] if player is None else self._repo.passkeys_of(player.id)

    def remove_passkey(self, player_key: str, passkey_id: str) -> None:
        """Forget one of the player's passkeys (:class:`PasskeyUnknown` for any other)."""
        player = self._known(player_key)
        if player is None or not self._repo.delete_passkey(passkey_id, player.id):
            raise PasskeyUnknown

    def sign_in_options(self, party: RelyingParty) -> dict[str, Any]:
        """The options of a sign-in with any passkey of this site (a discoverable
        credential: the browser lists the passkeys it has)."""
        from webauthn import generate_authentication_options, options_to_json
        from webauthn.helpers.structs import UserVerificationRequirement

        challenge = secrets.token_bytes(32)
        options = generate_authentication_options(
            rp_id=party.id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
            user_verification=UserVerificationRequirement.PREFERRED)
        self._store_challenge(challenge, SIGN_IN, None)
        found: dict[str, Any] = json.loads(options_to_json(options))
        return found

    def sign_in(self, player_key: str, credential: object, party: RelyingParty) -> Player:
        """Tie ``player_key``'s browser to the player whose passkey signed the
        challenge (``credential``: the browser's answer, its JSON form)."""
        from webauthn import verify_authentication_response
        from webauthn.helpers.exceptions import WebAuthnException

        key_hash = player_key_hash(player_key)
        challenge = challenge_of(credential)
        assert isinstance(credential, dict)
        credential_id = credential.get("id")
        if not isinstance(credential_id, str) or not 0 < len(credential_id) <= 1400:
            raise BadPasskey("no credential id")
        self._take_challenge(challenge, SIGN_IN, None)
        passkey = self._repo.passkey(credential_id)
        if passkey is None:
            raise PasskeyUnknown
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=party.id, expected_origin=list(party.origins),
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count)
        except WebAuthnException as exc:
            raise PasskeyRefused(str(exc)) from None
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise BadPasskey(str(exc)) from None
        # The user handle, when the authenticator gives one, must be the passkey's player.
        response = credential.get("response")
        handle = response.get("userHandle") if isinstance(response, dict) else None
        if handle and _b64url_decode(handle) != passkey.player_id.encode():
            raise PasskeyRefused("the user handle is not the passkey's player")
        self._repo.use_passkey(passkey.id, verified.new_sign_count, key_hash, self._clock())
        return self._now_of(key_hash)

    def _store_challenge(self, challenge: bytes, purpose: str, player_id: str | None) -> None:
        now = self._clock()
        self._repo.add_challenge(challenge_hash(challenge), purpose, player_id,
                                 now + timedelta(seconds=CHALLENGE_SECONDS), now)

    def _take_challenge(self, challenge: bytes, purpose: str, player_id: str | None) -> None:
        if not self._repo.take_challenge(challenge_hash(challenge), purpose, player_id,
                                         self._clock()):
            raise PasskeyChallenge


__all__ = [
    "CHALLENGE_SECONDS", "CODE_ALPHABET", "CODE_LENGTH", "CODE_MINUTES", "FAILURE_WINDOW",
    "MAX_FAILURES", "BadLinkCode", "BadPasskey", "DeviceService", "LinkCode",
    "LinkCodeExpired", "LinkCodeUnknown", "LinkCodeUsed", "Passkey", "PasskeyChallenge",
    "PasskeyNameNeeded", "PasskeyRefused", "PasskeyUnknown", "RelyingParty",
    "TooManyLinkAttempts", "challenge_hash", "challenge_of", "code_hash", "new_code",
    "normalize_code", "subject_hash"]
