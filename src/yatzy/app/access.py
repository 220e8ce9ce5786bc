"""Seat tokens: who may act for a seat in a game played over a network.

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
import secrets
from collections.abc import Iterable

from yatzy.app.saved import Seat

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
