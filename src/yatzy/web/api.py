"""The JSON API: create a game, read its state and record, act for a seat, hints and
the analysis after the game. The contract is in ``docs/web.md`` and at ``/docs``."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from yatzy.app.access import new_token, token_hash
from yatzy.app.advice import AdviceService, check_hint
from yatzy.app.hints import describe_action, format_points, win_chances_text
from yatzy.app.review import review_data
from yatzy.app.saved import Seat
from yatzy.core.game import Game
from yatzy.core.names import free_name
from yatzy.core.rulesets import ruleset
from yatzy.core.rulesets import rulesets as all_rulesets
from yatzy.core.seeded import seed_hash
from yatzy.i18n import N_, translator
from yatzy.i18n.words import ruleset_description, ruleset_title
from yatzy.web.errors import WebCode, WebError, forbidden, request_lang
from yatzy.web.play import perform, seat_of
from yatzy.web.rooms import Room, Rooms, state_texts
from yatzy.web.schemas import (
    ERRORS,
    ActionIn,
    GameCreated,
    GameState,
    NewGame,
    QrIn,
    ReplayState,
    SeatOut,
    UndoIn,
)
from yatzy.web.security import RateLimiter, client_key
from yatzy.web.state import game_state
from yatzy.web.texts import seat_labels

router = APIRouter()
bearer = HTTPBearer(auto_error=False, description="A seat's token, from its invite link")
GameId = Annotated[str, Path(max_length=64, description="The game's id")]
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def rooms_of(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def advice_of(request: Request) -> AdviceService:
    advice: AdviceService = request.app.state.advice
    return advice


def client_of(request: Request) -> str:
    """Who ``request`` comes from, for the limits: its address (:func:`client_key`)."""
    return client_key(request.client.host if request.client else None)


async def check_rate(request: Request) -> None:
    """The per-client rate limit (429 when exceeded): awaited (the shared bucket is
    asked off the event loop), which a type checker holds every caller to."""
    limiter: RateLimiter = request.app.state.limiter
    if not await limiter.allow(client_of(request)):
        raise WebError(429, WebCode.RATE_LIMITED, N_("Too many requests: wait a moment"))


async def room_of(request: Request, game_id: str) -> Room:
    return await rooms_of(request).get(game_id)


async def check_unsealed(request: Request, game: Game) -> None:
    """Refuse (403) to show the moves of a game on today's daily challenge before the
    day is over: its dice are the ones everyone still to play will roll."""
    if await run_in_threadpool(rooms_of(request).service.players.sealed, game):
        raise forbidden(N_("The games of today's challenge can be watched again once "
                           "the day is over"))


def _seats(body: NewGame) -> list[Seat]:
    """The seats, computers named after their level when no name is given (a name no
    other seat has, as the core compares names)."""
    taken = [s.name for s in body.seats if s.name]
    seats = []
    for given in body.seats:
        name = given.name
        if given.bot is not None and not name and not given.open:
            name = free_name(f"CPU {given.bot}", taken)
            taken.append(name)
        seats.append(Seat(name or "", given.bot, open=given.open))
    return seats


@router.post("/api/games", status_code=201, response_model=GameCreated, responses=ERRORS,
             tags=["games"])
async def create_game(body: NewGame, request: Request) -> dict[str, Any]:
    """Start a game. Each person's seat gets a secret token and a link holding it; the
    answer is the only time the tokens are shown. With server dice, ``seed_hash``
    commits to the secret seed that the record reveals once the game is over."""
    await check_rate(request)
    rooms = rooms_of(request)
    rules = ruleset(body.rules, **body.options)
    seats = _seats(body)
    advice, policy = advice_of(request), request.app.state.policy

    def ready(level: str) -> bool:  # a costly level's table: prepared in the background
        if advice.ready(rules, winner=True):
            return True
        advice.prepare(rules, winner=True)
        return False

    policy.check_seats(seats, ready=ready, ruleset=rules)
    await request.app.state.games_started.admit_async(client_of(request))
    tokens = {i: new_token() for i, s in enumerate(seats) if s.bot is None and not s.open}
    seats = [Seat(s.name, s.bot, token_hash(tokens[i]) if i in tokens else None, open=s.open)
             for i, s in enumerate(seats)]

    room = await rooms.create(lambda: rooms.service.create(
        rules, seats, first_player=body.first_player, hints=body.hints,
        dice_mode="auto" if body.dice == "server" else "manual", public=body.public))
    table = room.table
    game = table.game
    base = str(request.base_url).rstrip("/")
    page = f"{base}/games/{table.saved.id}"
    return {
        "id": table.saved.id,
        "seats": [SeatOut(name=s.name, token=tokens[i], url=f"{page}#token={tokens[i]}")
                  for i, s in enumerate(table.saved.seats) if i in tokens],
        "watch_url": page,
        "seed_hash": seed_hash(game.seed) if isinstance(game.seed, str) else None,
    }


@router.get("/api/rulesets", tags=["games"])
async def rulesets(request: Request) -> list[dict[str, Any]]:
    """Every ruleset described once: boxes by section with their names, dice, rolls,
    bonuses, Joker values, and each option's kind, default, choices and label, in the
    request's language (``?lang=``). The home page's form is made from it."""
    t = translator(request_lang(request))
    return [ruleset_description(t, info) for info in all_rulesets()]


def state_response(room: Room, request: Request) -> Response:
    """The room's state in the request's language, as the JSON its broadcast to the
    game's websockets carries (rendered once for both; its shape is
    :class:`~yatzy.web.schemas.GameState`, which the tests hold it to)."""
    return Response(room.state_json(request_lang(request)), media_type="application/json")


@router.get("/api/games/{game_id}", response_model=GameState, responses=ERRORS,
            tags=["games"])
async def get_game(game_id: GameId, request: Request) -> Response:
    """The game's state as stored now (whichever server process answers); no secret
    (token, unrevealed seed) is ever in it."""
    await check_rate(request)
    room = await rooms_of(request).current(game_id)
    return state_response(room, request)


@router.post("/api/games/{game_id}/actions", response_model=GameState, responses=ERRORS,
             tags=["games"])
async def act(game_id: GameId, body: ActionIn, request: Request,
              credentials: Bearer) -> Response:
    """Roll, reroll or fill a box for the seat whose token is given
    (``Authorization: Bearer <token>``); answers the new state once it is stored."""
    started = time.perf_counter()
    token = credentials.credentials if credentials else None
    await check_rate(request)
    async with rooms_of(request).using(game_id) as room:
        seat = seat_of(room, token)
        await perform(room, seat, body)
        answer = state_response(room, request)
    request.app.state.metrics.action(body.type, time.perf_counter() - started)
    return answer


@router.post("/api/games/{game_id}/undo", response_model=GameState, responses=ERRORS,
             tags=["games"])
async def undo(game_id: GameId, body: UndoIn, request: Request,
               credentials: Bearer) -> Response:
    """Take back the box this seat just chose, as long as the next player has not acted
    (the turn is back as it was, with its dice); answers the new state."""
    started = time.perf_counter()
    token = credentials.credentials if credentials else None
    await check_rate(request)
    async with rooms_of(request).using(game_id) as room:
        seat = seat_of(room, token)
        await room.session.undo(player=seat.name, expected_version=body.expected_version)
        answer = state_response(room, request)
    request.app.state.metrics.action("undo", time.perf_counter() - started)
    return answer


@router.get("/api/games/{game_id}/record", responses=ERRORS, tags=["games"])
async def record(game_id: GameId, request: Request) -> dict[str, Any]:
    """The game record (``docs/records.md``); ``Game.from_record`` replays it. The
    secret seed is in it once the game is over (``yatzy.audit_record`` checks it); the
    seed of a daily challenge once its day is over."""
    await check_rate(request)
    room = await room_of(request, game_id)
    game = room.table.game
    await check_unsealed(request, game)
    return game.to_record(hide_seed=not game.is_over)


@router.get("/api/games/{game_id}/hint", responses=ERRORS, tags=["games"])
async def hint(game_id: GameId, request: Request, credentials: Bearer) -> dict[str, Any]:
    """The optimal strategy's options for the seat whose turn it is, best first, with
    the expected final score after each (games with hints on)."""
    token = credentials.credentials if credentials else None
    await check_rate(request)
    room = await room_of(request, game_id)
    seat = seat_of(room, token)
    game = room.table.game
    if not room.saved.hints:
        raise forbidden(N_("Hints are off in this game"))
    check_hint(game, seat.name)
    advice = advice_of(request)
    _, options = await advice.latest("hint", room.saved.id, advice.hint(
        room.saved.id, room.saved.version, game))
    t = translator(request_lang(request))
    return {"version": room.saved.version, "options": [
        {"action": o.action.to_dict(), "value": round(o.value, 4),
         "text": describe_action(t, game.dice, o.action),
         "points": format_points(t, o.value)} for o in options[:5]]}


@router.get("/api/games/{game_id}/chances", responses=ERRORS, tags=["games"])
async def chances(game_id: GameId, request: Request) -> dict[str, Any]:
    """Every player's chance of winning from now on, when everyone plays for the highest
    expected score (two players or more; anyone who can see the game may ask), for the
    game as it stands when the answer is worked out. Worked out once per version of the
    game and one version at a time (seconds in its first rounds, milliseconds later): a
    request that waited for another gets the game's latest version."""
    await check_rate(request)
    room = await room_of(request, game_id)
    # Worked out by the advice service once per version; a request that waited while
    # the game moved on gets the newest version's answer.
    advice = advice_of(request)
    version, found = await advice.latest("chances", room.saved.id, advice.chances(
        room.saved.id, room.saved.version, room.table.game))
    t = translator(request_lang(request))
    return {"version": version, "chances": {name: round(p, 6) for name, p in found.items()},
            "text": win_chances_text(t, {seat_labels(t, room.saved.seats).get(name, name): p
                                         for name, p in found.items()})}


@router.get("/api/games/{game_id}/analysis", responses=ERRORS, tags=["games"])
async def analysis(game_id: GameId, request: Request) -> dict[str, Any]:
    """After the game: what each player's decisions cost against optimal play."""
    await check_rate(request)
    room = await room_of(request, game_id)
    game = room.table.game
    advice = advice_of(request)
    _, result = await advice.latest("analysis", room.saved.id, advice.analysis(
        room.saved.id, room.saved.version, game))
    return review_data(translator(request_lang(request)), result)


#: The most bytes a QR code holds (version 40, error correction M, byte mode).
QR_MOST_BYTES = 2331


@router.post("/api/qr", responses={**ERRORS, 200: {"content": {"image/svg+xml": {}}}},
             tags=["server"], response_class=Response)
async def qr(body: QrIn, request: Request) -> Response:
    """A QR code (SVG) of ``text``: an invite link to show a phone. The text is sent
    in the body, never in an address, so no log keeps a token."""
    await check_rate(request)
    import io

    import segno

    try:
        code = segno.make(body.text, error="m")
    except segno.DataOverflowError:
        # The largest code holds 2,331 bytes at this error correction: fewer characters
        # of a script whose characters take several bytes each.
        raise WebError(413, WebCode.QR_TOO_LONG, N_(
            "The text is too long for a QR code: at most {most} bytes of UTF-8"),
            most=QR_MOST_BYTES) from None
    buffer = io.BytesIO()
    code.save(buffer, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
    return Response(buffer.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


PlayerKey = Annotated[str | None, Header(alias="X-Player-Key", max_length=64,
                                         description="The browser's random player key")]


def need_key(player_key: str | None) -> str:
    if not player_key:
        raise forbidden(N_("This needs the browser's player key"))
    return player_key


@router.post("/api/games/{game_id}/claim", status_code=204, responses=ERRORS, tags=["history"])
async def claim(game_id: GameId, request: Request, credentials: Bearer,
                player_key: PlayerKey = None) -> Response:
    """Note that this browser (its ``X-Player-Key``) sits in the seat of the token, so
    the game shows in its "my games" and counts for its best scores."""
    token = credentials.credentials if credentials else None
    await check_rate(request)
    room = await room_of(request, game_id)
    seat = seat_of(room, token)
    key = need_key(player_key)
    await rooms_of(request).run(rooms_of(request).service.claim_seat, game_id, seat.name, key)
    return Response(status_code=204)


@router.get("/api/me", responses=ERRORS, tags=["history"])
async def me(request: Request, player_key: PlayerKey = None) -> dict[str, Any]:
    """This browser's display name (``null`` until it chooses one, ``PUT /api/me``), its
    games (newest first) and best scores per ruleset variant."""
    await check_rate(request)
    key = need_key(player_key)
    service = rooms_of(request).service
    name = await run_in_threadpool(service.players.name_of, key)
    seated = await run_in_threadpool(service.my_games, key, 50)
    bests = await run_in_threadpool(service.my_bests, key)
    t = translator(request_lang(request))
    return {
        "name": name,
        "games": [{
            "id": g.saved.id, "rules": g.saved.rules.to_dict(),
            "title": ruleset_title(t, g.saved.rules), "player": g.saved.seats[g.seat].name,
            "players": list(g.saved.game.players), "is_over": g.saved.finished,
            # The players as the page shows them (computers in its language).
            "names": list(seat_labels(t, g.saved.seats).values()),
            "round": g.saved.game.round, "rounds": len(g.saved.rules.boxes),
            "total": g.saved.game.cards[g.seat].total,
            "winners": g.saved.game.winners() if g.saved.finished else [],
            "updated_at": g.saved.updated_at.isoformat(),
        } for g in seated],
        "bests": [{"rules": b.rules.to_dict(), "title": ruleset_title(t, b.rules),
                   "best": b.best, "games": b.games} for b in bests],
    }


# GET /api/leaderboards is in yatzy.web.profiles (the best totals, and the boards by
# rating, accuracy and daily challenge).


@router.get("/api/games/{game_id}/replay", response_model=ReplayState, responses=ERRORS,
            tags=["history"])
async def replay(game_id: GameId, request: Request,
                 step: Annotated[int, Query(ge=0, le=10_000)] = 0) -> dict[str, Any]:
    """The game as it stood after its first ``step`` actions (a step past the end is
    the end), for watching a game again step by step."""
    await check_rate(request)
    room = await room_of(request, game_id)
    saved = room.saved
    game = saved.game
    await check_unsealed(request, game)
    actions = [step_.action for step_ in game.history]
    shown = game.at_start()
    for action in actions[:step]:
        shown = shown.apply(action)
    state = game_state(replace(saved, game=shown))
    state["texts"] = state_texts(shown, request_lang(request))
    state["names"] = seat_labels(translator(request_lang(request)), saved.seats)
    state["replay"] = {"step": min(step, len(actions)), "steps": len(actions)}
    return state
