"""Seat tokens and player keys: who may act for a seat in a game played over a network,
and which games a browser sat in.

A person's seat in an online game gets a secret token (256 random bits, URL-safe text).
Only its SHA-256 is stored with the seat, so a stolen database holds no working token;
a token is checked against that hash in constant time. Tokens are never logged.

>>> token = new_token()
>>> seat = Seat("Ann", token_hash=token_hash(token))
>>> seat_for_token([Seat("cpu", bot="greedy"), seat], token) == seat
True
>>> seat_for_token([seat], new_token()) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable

from yatzy.app.codes import AppCode
from yatzy.app.errors import AppError
from yatzy.app.saved import Seat
from yatzy.core.errors import BadInput

#: A player key: what a browser keeps (random, no password) so that "my games" and "my
#: best" follow that device. 22 to 64 URL-safe characters (128 bits and more).
PLAYER_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")


class BadPlayerKey(BadInput, AppError):
    """A player key that is not one (a browser makes them; see :data:`PLAYER_KEY`)."""

    code = AppCode.BAD_PLAYER_KEY

#: Random bytes in a token (256 bits).
TOKEN_BYTES = 32


def new_token() -> str:
    """A new seat token: 256 random bits, URL-safe base64 text (43 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256 in hexadecimal."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_for_token(seats: Iterable[Seat], token: str | None) -> Seat | None:
    """The seat whose token is ``token``, or ``None`` (no token, or a wrong one). Every
    seat is compared, each in constant time, so timing tells nothing about the token."""
    if not token:
        return None
    digest = token_hash(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat
    return found


def player_key_hash(key: object) -> str:
    """What is stored of a player key: its SHA-256. Raises :class:`BadPlayerKey` for
    anything that is not a player key."""
    if not isinstance(key, str) or PLAYER_KEY.fullmatch(key) is None:
        raise BadPlayerKey("A player key is 22 to 64 letters, digits, '-' or '_'")
    return token_hash(key)
