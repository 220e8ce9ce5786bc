"""Quick match over HTTP: the web side of :mod:`yatzy.app.quickmatch`, which decides
everything (pairing, in the database every process shares); this module only
translates. The contract is in ``docs/web.md`` and at ``/docs``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from yatzy.app.policy import TablePolicy
from yatzy.app.quickmatch import MatchStatus, QuickMatch
from yatzy.web.api import PlayerKey, check_rate, need_key, rooms_of
from yatzy.web.schemas import ERRORS, QuickMatchIn, QuickMatchOut, TicketOut

router = APIRouter()
TicketPath = Annotated[str, Path(max_length=64, description="The ticket of POST /api/quick-match")]


def matches_of(request: Request) -> QuickMatch:
    matches: QuickMatch = rooms_of(request).service.matches
    return matches


@router.post("/api/quick-match", status_code=202, response_model=TicketOut, responses=ERRORS,
             tags=["quick match"])
async def request_match(body: QuickMatchIn, request: Request,
                        player_key: PlayerKey = None) -> dict[str, Any]:
    """Wait for an opponent for a rated two-player game of ``rules`` (its standard
    options): paired with the next player who asks for the same ruleset, the nearest
    rating first, into one game on server dice whose seats are named after the players.
    The player needs a display name (``PUT /api/me``; 422 without one) and waits with one
    ticket at most (409). The answer says at once whether an opponent was found (then
    with the game and this player's seat link, as ``GET /api/quick-match/{ticket}``
    gives them); while ``waiting``, ask about the ticket with that ``GET``."""
    await check_rate(request)
    key = need_key(player_key)
    ticket, found = await run_in_threadpool(matches_of(request).ask, key, body.rules)
    return {"ticket": ticket, **_where(request, found)}


def _where(request: Request, found: MatchStatus) -> dict[str, Any]:
    """``status``, ``game`` and ``seat_url`` of an answer about a ticket."""
    seat_url = None
    if found.game_id is not None:
        base = str(request.base_url).rstrip("/")
        seat_url = f"{base}/games/{found.game_id}#token={found.seat_token}"
    return {"status": found.status, "game": found.game_id, "seat_url": seat_url}


@router.get("/api/quick-match/{ticket}", response_model=QuickMatchOut, responses=ERRORS,
            tags=["quick match"])
async def match_status(ticket: TicketPath, request: Request,
                       player_key: PlayerKey = None) -> dict[str, Any]:
    """Where the ticket stands: ``waiting`` (ask again every second or so: a ticket not
    asked about for 30 s is not paired), or ``matched`` with the game and this player's
    own seat link. After 20 s without an opponent, ``offer`` names a computer level of
    about the player's strength (to play instead, unrated: ``POST /api/games``). The
    ticket is the secret that asks (the seat link comes from it); an ``X-Player-Key``,
    when given, must be the one that made it. An unknown ticket, or another browser's,
    is 404; a cancelled one 409."""
    await check_rate(request)
    key = player_key or None
    policy: TablePolicy = request.app.state.policy
    found = await run_in_threadpool(matches_of(request).status, key, ticket, policy.levels)
    return {**_where(request, found), "waited": round(found.waited, 1), "offer": found.offer}


@router.delete("/api/quick-match/{ticket}", status_code=204, responses=ERRORS,
               tags=["quick match"])
async def cancel_match(ticket: TicketPath, request: Request,
                       player_key: PlayerKey = None) -> Response:
    """Stop waiting. A ticket matched already is 409 and its game stands (a cancel
    that comes as the pairing is made changes nothing); an unknown one (or another
    browser's, when an ``X-Player-Key`` is given) 404."""
    await check_rate(request)
    key = player_key or None
    await run_in_threadpool(matches_of(request).cancel, key, ticket)
    return Response(status_code=204)
