"""The daily challenge and players over HTTP: the web side of
:mod:`yatzy.app.players`, which decides everything; this module only translates. The
contract is in ``docs/web.md`` and at ``/docs``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from starlette.concurrency import run_in_threadpool

from yatzy.app.access import new_token, token_hash
from yatzy.app.players import DailyResults, PlayerService, Ranked, share_text
from yatzy.core.seeded import seed_hash
from yatzy.i18n import translator
from yatzy.i18n.words import default_player_name
from yatzy.web.api import PlayerKey, check_rate, client_of, need_key, rooms_of
from yatzy.web.errors import request_lang
from yatzy.web.schemas import (
    ERRORS,
    DailyOut,
    DailyResultsOut,
    GameCreated,
    MeOut,
    NameIn,
    PlayerOut,
    SeatOut,
)

router = APIRouter()
RulesName = Annotated[str, Path(max_length=32, description="A ruleset's name",
                                examples=["yatzy"])]
Day = Annotated[str, Path(max_length=32, description="A UTC day, YYYY-MM-DD")]


def players_of(request: Request) -> PlayerService:
    players: PlayerService = rooms_of(request).service.players
    return players


@router.get("/api/daily", response_model=list[DailyOut], responses=ERRORS, tags=["daily"])
async def daily(request: Request) -> list[dict[str, Any]]:
    """Today's challenges (UTC), one per ruleset at its standard options: the SHA-256
    of each day's secret seed (revealed once the day is over) and the number of ranked
    attempts so far."""
    await check_rate(request)
    found = await run_in_threadpool(players_of(request).today_challenges)
    return [{"rules": c.rules.name, "date": c.day.isoformat(), "seed_hash": c.seed_hash,
             "players": c.players} for c in found]


async def _play(request: Request, rules: str, day: str | None,
                player_key: str | None) -> dict[str, Any]:
    await check_rate(request)
    key = need_key(player_key)
    rooms = rooms_of(request)
    token = new_token()
    players = players_of(request)
    unnamed = default_player_name(translator(request_lang(request)))
    client = client_of(request)

    def admit() -> None:  # once the attempt may begin: a refused one counts no game
        request.app.state.games_started.admit(client)

    room = await rooms.create(lambda: players.play(rules, key, day=day, unnamed=unnamed,
                                                   token_hash=token_hash(token),
                                                   admit=admit))
    saved = room.table.saved
    base = str(request.base_url).rstrip("/")
    page = f"{base}/games/{saved.id}"
    seat = saved.seats[0]
    assert isinstance(saved.game.seed, str)
    return {"id": saved.id, "watch_url": page, "seed_hash": seed_hash(saved.game.seed),
            "seats": [SeatOut(name=seat.name, token=token, url=f"{page}#token={token}")]}


@router.post("/api/daily/{rules}/play", status_code=201, response_model=GameCreated,
             responses=ERRORS, tags=["daily"])
async def play_today(rules: RulesName, request: Request,
                     player_key: PlayerKey = None) -> dict[str, Any]:
    """This browser's ranked attempt at today's challenge of ``rules``: a solo game on
    the day's seed, answered as ``POST /api/games`` (its seat's token and link). One
    ranked attempt a day: a second is 409."""
    return await _play(request, rules, None, player_key)


@router.post("/api/daily/{rules}/{date}/play", status_code=201, response_model=GameCreated,
             responses=ERRORS, tags=["daily"])
async def play_day(rules: RulesName, date: Day, request: Request,
                   player_key: PlayerKey = None) -> dict[str, Any]:
    """An attempt at the challenge of an earlier day: unranked (today's is ranked, as
    ``POST /api/daily/{rules}/play``)."""
    return await _play(request, rules, date, player_key)


def _mine(request: Request, results: DailyResults, mine: Ranked) -> dict[str, Any]:
    entry = mine.entry
    base = str(request.base_url).rstrip("/")
    lang = request_lang(request)
    replay = f"{base}/games/{entry.game_id}/replay?lang={lang}"
    return {
        "game_id": entry.game_id, "total": entry.total, "points_lost": entry.points_lost,
        "rank": mine.rank, "accuracy_rank": mine.accuracy_rank, "of": mine.of,
        "share": (share_text(translator(lang), results.challenge.rules, mine)
                  if entry.finished else None),
        "replay_url": replay,
        "play_url": None if entry.finished else f"{base}/games/{entry.game_id}?lang={lang}",
    }


@router.get("/api/daily/{rules}/{date}", response_model=DailyResultsOut, responses=ERRORS,
            tags=["daily"])
async def daily_results(rules: RulesName, date: Day, request: Request,
                        player_key: PlayerKey = None) -> dict[str, Any]:
    """The challenge of ``rules`` on ``date``: the seed's hash, the seed once the day is
    over, the par (what optimal play scores on the day's dice) and the ranked attempts
    that count, best total first. With ``X-Player-Key``, this browser's own attempt
    (``me``, with the text to share) and its streak. A day not begun yet is 404."""
    await check_rate(request)
    players = players_of(request)

    def read() -> tuple[DailyResults, int | None]:
        results = players.results(rules, date, player_key)
        return results, None if player_key is None else players.streak_of(player_key)

    results, streak = await run_in_threadpool(read)
    challenge = results.challenge
    return {
        "rules": challenge.rules.name, "date": challenge.day.isoformat(),
        "seed_hash": challenge.seed_hash, "seed": challenge.seed,
        "players": challenge.players, "par": results.par,
        "entries": [{"player": r.entry.player, "total": r.entry.total,
                     "points_lost": r.entry.points_lost, "rank": r.rank,
                     "accuracy_rank": r.accuracy_rank,
                     # Another attempt's dice are not shown while the day is open.
                     "game_id": r.entry.game_id if challenge.seed is not None else None}
                    for r in results.entries],
        "me": None if results.mine is None else _mine(request, results, results.mine),
        "streak": streak,
    }


@router.put("/api/me", response_model=MeOut, responses=ERRORS, tags=["players"])
async def set_name(body: NameIn, request: Request,
                   player_key: PlayerKey = None) -> dict[str, Any]:
    """This browser's display name: the same check as every player's name, and unique
    ignoring case and compatibility forms (409 when another player has it)."""
    await check_rate(request)
    key = need_key(player_key)
    player = await run_in_threadpool(players_of(request).set_name, key, body.name)
    return {"name": player.name}


@router.get("/api/players/{name}", response_model=PlayerOut, responses=ERRORS,
            tags=["players"])
async def player(name: Annotated[str, Path(max_length=200)],
                 request: Request) -> dict[str, Any]:
    """A player's profile: games, points lost per game against optimal play, the daily
    streak, and the Glicko-2 rating of the rated games (quick match): ``rating`` and
    ``rating_deviation`` are null until one counted, ``provisional`` until 10 did."""
    await check_rate(request)
    profile = await run_in_threadpool(players_of(request).profile, name)
    return {"name": profile.name, "rating": profile.rating,
            "rating_deviation": profile.rating_deviation,
            "rated_games": profile.rated_games, "provisional": profile.provisional,
            "games": profile.games,
            "points_lost_per_game": profile.points_lost_per_game, "streak": profile.streak}
