"""Players' profiles and the leaderboards over HTTP and as pages: the web side of
:mod:`yatzy.app.profiles`, which decides everything; this module only translates. The
contract is in ``docs/web.md`` and at ``/docs``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from yatzy.app.profiles import (
    ACCURACY_MIN_GAMES,
    LEADERBOARD_SIZE,
    RECENT_GAMES,
    Leaderboard,
    PlayerHistory,
    ProfileService,
)
from yatzy.core.rulesets import ruleset
from yatzy.core.rulesets import rulesets as all_rulesets
from yatzy.i18n import N_, Translator, translator
from yatzy.i18n.words import option_texts, ruleset_title
from yatzy.web.api import PlayerKey, check_rate, rooms_of
from yatzy.web.errors import request_lang
from yatzy.web.pages import _common, _page, script_json
from yatzy.web.schemas import ERRORS

router = APIRouter()
pages = APIRouter(include_in_schema=False)

#: The texts of the profile and leaderboard pages (key -> English text, a catalog msgid).
PROFILE_TEXTS: dict[str, str] = {
    "leaderboards": N_("Leaderboards"),
    "rating_two": N_("Rating, two players (Glicko-2)"),
    "rating_multi": N_("Rating, 3 to 6 players (OpenSkill)"),
    "rated_count": N_("Rated games: {games}"),
    "provisional": N_("provisional"),
    "no_rating": N_("No rated game yet"),
    "rating_history": N_("Rating history"),
    "no_history": N_("No rated game has counted yet."),
    "chart_label": N_("The rating after each rated game"),
    "accuracy": N_("Accuracy"),
    "accuracy_help": N_("Points lost against optimal play per game: the lower, the better. "
                        "The dice's luck does not count."),
    "accuracy_recent": N_("Points lost per game, mean of the last {n}: {points}"),
    "accuracy_chart_label": N_("Points lost in each analysed game"),
    "no_accuracy": N_("No game analysed yet."),
    "recent_games": N_("Recent games"),
    "no_games": N_("No finished game yet."),
    "bests": N_("Best scores"),
    "daily_days": N_("Daily challenges played"),
    "streak": N_("Days in a row: {n}"),
    "replay": N_("Replay"),
    "date": N_("Date"),
    "rules": N_("Rules"),
    "score": N_("Score"),
    "place": N_("Place"),
    "games": N_("Games"),
    "player": N_("Player"),
    "rating": N_("Rating"),
    "by_accuracy": N_("By accuracy"),
    "by_daily": N_("Today's daily challenge"),
    "min_games": N_("Players with at least {n} analysed games, over their last {recent}."),
    "nobody": N_("Nobody here yet."),
}


def profiles_of(request: Request) -> ProfileService:
    profiles: ProfileService = rooms_of(request).service.profiles
    return profiles


# --- The JSON ------------------------------------------------------------------------

class KindRatingOut(BaseModel):
    kind: Literal["glicko", "openskill"] = Field(
        description="glicko: Glicko-2 of two-player rated games (quick match; 1500 ± 350 "
                    "at first); openskill: Plackett-Luce of rated tables of 3 to 6 "
                    "players (25 ± 8.33 at first)")
    rating: float | None = Field(description="null until a game of this kind counted")
    deviation: float | None = Field(description="The rating's uncertainty (one standard "
                                                "deviation)")
    games: int
    provisional: bool = Field(description="True until 10 games of this kind counted")


class RatingPointOut(BaseModel):
    game_id: str
    kind: Literal["glicko", "openskill"]
    rated_at: datetime
    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float


class PlayedGameOut(BaseModel):
    game_id: str
    rules: dict[str, Any]
    title: str = Field(description="The ruleset and its options, in the request's language")
    finished_at: datetime
    total: int
    place: int
    players: int
    points_lost: float | None = Field(description="null until analysed (in the background "
                                                  "once the game is over), or never")
    replay_url: str


class BestOut(BaseModel):
    rules: dict[str, Any]
    title: str
    best: int
    games: int


class AccuracyPointOut(BaseModel):
    game_id: str
    rules: str
    finished_at: datetime
    points_lost: float


class DailyDayOut(BaseModel):
    date: str
    rules: str
    total: int | None
    points_lost: float | None


class DailyOut(BaseModel):
    streak: int
    days: list[DailyDayOut] = Field(description="Ranked daily attempts that count, newest "
                                                "first")


class HistoryOut(BaseModel):
    """``GET /api/players/{name}/history``."""

    name: str
    ratings: list[KindRatingOut]
    history: list[RatingPointOut] = Field(description="Every settlement, oldest first (the "
                                                      "last 200)")
    games: list[PlayedGameOut] = Field(description="The last 20 finished games, newest first")
    bests: list[BestOut] = Field(description="The best total per ruleset and options")
    accuracy: list[AccuracyPointOut] = Field(description="Analysed games, oldest first "
                                                         "(the last 200)")
    points_lost_recent: float | None = Field(
        description="Mean points lost per game over the last recent_games analysed games: "
                    "the luck-free skill figure (lower is better)")
    recent_games: int
    daily: DailyOut


class LeaderRowOut(BaseModel):
    rank: int
    name: str | None = Field(description="null for a daily attempt of a player without "
                                         "a name")
    profile_url: str | None
    rating: float | None = None
    deviation: float | None = None
    provisional: bool | None = None
    games: int | None = None
    points_lost: float | None = None
    total: int | None = None


class LeaderboardOut(BaseModel):
    """``GET /api/leaderboards``."""

    by: Literal["rating", "accuracy", "daily"]
    kind: Literal["glicko", "openskill"] | None
    rules: str | None
    date: str | None
    min_games: int | None = Field(description="by=accuracy: the analysed games a player "
                                              "needs")
    rows: list[LeaderRowOut]


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def history_json(request: Request, t: Translator, found: PlayerHistory) -> dict[str, Any]:
    base, lang = _base(request), request_lang(request)
    return {
        "name": found.name,
        "ratings": [{"kind": r.kind,
                     "rating": None if r.rating is None else round(r.rating, 2),
                     "deviation": None if r.deviation is None else round(r.deviation, 2),
                     "games": r.games, "provisional": r.provisional} for r in found.ratings],
        "history": [{"game_id": h.game_id, "kind": h.kind, "rated_at": h.rated_at,
                     "rating_before": round(h.rating_before, 3),
                     "deviation_before": round(h.deviation_before, 3),
                     "rating_after": round(h.rating_after, 3),
                     "deviation_after": round(h.deviation_after, 3)} for h in found.history],
        "games": [{"game_id": g.game_id, "rules": g.rules.to_dict(),
                   "title": ruleset_title(t, g.rules), "finished_at": g.finished_at,
                   "total": g.total, "place": g.place, "players": g.players,
                   "points_lost": g.points_lost,
                   "replay_url": f"{base}/games/{g.game_id}/replay?lang={lang}"}
                  for g in found.games],
        "bests": [{"rules": b.rules.to_dict(),
                   "title": " · ".join([ruleset_title(t, b.rules), *option_texts(t, b.rules)]),
                   "best": b.best, "games": b.games} for b in found.bests],
        "accuracy": [{"game_id": a.game_id, "rules": a.rules, "finished_at": a.finished_at,
                      "points_lost": a.points_lost} for a in found.accuracy],
        "points_lost_recent": found.recent_points_lost, "recent_games": RECENT_GAMES,
        "daily": {"streak": found.streak,
                  "days": [{"date": day.isoformat(), "rules": rules, "total": total,
                            "points_lost": lost}
                           for day, rules, total, lost in found.daily_days]},
    }


@router.get("/api/players/{name}/history", response_model=HistoryOut, responses=ERRORS,
            tags=["players"])
async def player_history(name: Annotated[str, Path(max_length=200)],
                         request: Request) -> dict[str, Any]:
    """What a profile page shows: both ratings with their uncertainty, every settlement
    of a rated game (the rating before and after), the recent games (with links to
    replay them), the best total per ruleset, the points lost against optimal play in
    each analysed game and their recent mean (the luck-free skill figure), and the
    daily challenges played with the streak. 404 for a name nobody has."""
    await check_rate(request)
    found = await run_in_threadpool(profiles_of(request).history, name)
    return history_json(request, translator(request_lang(request)), found)


def leaderboard_json(request: Request, board: Leaderboard) -> dict[str, Any]:
    base, lang = _base(request), request_lang(request)

    def link(name: str | None) -> str | None:
        return None if name is None else f"{base}/players/{quote(name, safe='')}?lang={lang}"

    rows: list[dict[str, Any]]
    if board.by == "rating":
        rows = [{"rank": i, "name": r.name, "profile_url": link(r.name),
                 "rating": round(r.rating, 2), "deviation": round(r.deviation, 2),
                 "provisional": r.provisional, "games": r.games}
                for i, r in enumerate(board.ratings, 1)]
    elif board.by == "accuracy":
        rows = [{"rank": i, "name": r.name, "profile_url": link(r.name),
                 "points_lost": r.points_lost, "games": r.games}
                for i, r in enumerate(board.accuracy, 1)]
    else:
        assert board.daily is not None
        rows = [{"rank": r.rank, "name": r.entry.player, "profile_url": link(r.entry.player),
                 "total": r.entry.total, "points_lost": r.entry.points_lost}
                for r in board.daily.entries]
    return {"by": board.by, "kind": board.kind, "rules": board.rules,
            "date": None if board.day is None else board.day.isoformat(),
            "min_games": ACCURACY_MIN_GAMES if board.by == "accuracy" else None,
            "rows": rows}


class BestEntryOut(BaseModel):
    player: str
    total: int
    game_id: str
    finished_at: str


class BestBoardOut(BaseModel):
    """``GET /api/leaderboards`` without ``by``: a ruleset variant's best totals."""

    rules: dict[str, Any]
    title: str
    entries: list[BestEntryOut]


def _best_totals(request: Request) -> list[dict[str, Any]]:
    service = rooms_of(request).service
    t = translator(request_lang(request))
    return [{"rules": rules.to_dict(), "title": ruleset_title(t, rules), "entries": [
        {"player": e.player, "total": e.total, "game_id": e.game_id,
         "finished_at": e.finished_at.isoformat()} for e in service.leaderboard(rules, 10)]}
        for rules in service.rulesets()]


@router.get("/api/leaderboards", response_model=list[BestBoardOut] | LeaderboardOut,
            responses=ERRORS, tags=["players"])
async def leaderboards(
    request: Request,
    by: Annotated[str | None, Query(
        max_length=16, description="rating, accuracy or daily; without it, the ten best "
                                   "totals of people for every ruleset variant with "
                                   "finished games (a list)")] = None,
    kind: Annotated[str | None, Query(
        max_length=16, description="by=rating: glicko (two players, the default) or "
                                   "openskill (3 to 6 players)")] = None,
    rules: Annotated[str | None, Query(
        max_length=32, description="by=accuracy or daily: a ruleset's name (yatzy by "
                                   "default)")] = None,
    date: Annotated[str | None, Query(
        max_length=32, description="by=daily: the UTC day, YYYY-MM-DD (today by "
                                   "default)")] = None,
    limit: Annotated[int, Query(ge=1, le=LEADERBOARD_SIZE)] = LEADERBOARD_SIZE,
    player_key: PlayerKey = None,
) -> list[dict[str, Any]] | dict[str, Any]:
    """A leaderboard. ``by=rating``: the players with a rating of ``kind``, those with
    10 rated games or more first, each group best first (OpenSkill by mu − 3 sigma).
    ``by=accuracy``: the players with 5 analysed games or more of ``rules``, by their
    mean points lost against optimal play over their last 20 (fewest first).
    ``by=daily``: the ranked attempts at the challenge of ``rules`` on ``date``, best
    total first. Every row is read from what was stored when its games ended. An
    unknown ``by``, ``kind`` or ruleset, or a parameter that does not go with ``by``, is
    422."""
    await check_rate(request)
    if by is None and kind is None and rules is None and date is None:
        return await run_in_threadpool(_best_totals, request)
    board = await run_in_threadpool(profiles_of(request).leaderboard, by, kind=kind,
                                    rules=rules, day=date, limit=limit,
                                    player_key=player_key)
    return leaderboard_json(request, board)


# --- The pages -----------------------------------------------------------------------

def _texts(t: Translator) -> dict[str, str]:
    return {key: t._(message) for key, message in PROFILE_TEXTS.items()}


@pages.get("/players/{name}", response_class=HTMLResponse)
async def profile_page(request: Request,
                       name: Annotated[str, Path(max_length=200)]) -> HTMLResponse:
    """A player's profile: ratings with their history drawn by the page, recent games,
    bests, accuracy over time, the daily streak and calendar (from
    ``GET /api/players/{name}/history``)."""
    t = translator(request_lang(request))
    texts = _texts(t)
    return _page(request, "profile.html", _common(request) | {
        "player": name, "ptexts": texts, "ptexts_json": script_json(texts),
        "player_json": script_json(name)})


@pages.get("/leaderboards", response_class=HTMLResponse)
async def leaderboards_page(request: Request) -> HTMLResponse:
    """The leaderboards: by rating (both kinds), by accuracy and today's daily
    challenge, per ruleset (from ``GET /api/leaderboards``)."""
    t = translator(request_lang(request))
    texts = _texts(t)
    titles = {info.name: ruleset_title(t, ruleset(info.name)) for info in all_rulesets()}
    return _page(request, "leaderboards.html", _common(request) | {
        "ptexts": texts, "ptexts_json": script_json(texts), "titles": titles,
        "titles_json": script_json(titles)})
