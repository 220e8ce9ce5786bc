"""Leaderboards and profiles benchmark: how long the boards and a profile take to read on
a site with many players and games, each one query over rows written when games ended.

    python bench/leaderboards.py [--players 2000] [--games 50] [--repeat 20] [--postgres [URL]]

Fills a scratch database (SQLite by default) straight through SQL, before the clock
starts: ``--players`` named players, each with both ratings, ``--games`` finished solo
games of Yatzy (a result, a claimed seat, the points lost of the game's analysis and a
settlement of the rating history each, and the player's recent mean as the analysis in
the background keeps it). Then times, ``--repeat`` times each, the work
behind ``GET /api/leaderboards?by=rating`` (both kinds), ``?by=accuracy`` (the means of
each player's last 20 games, kept when a game is analysed: an indexed read),
``GET /api/players/{name}/history``, and as a peer in the same run the best-totals
board that was there before (``GET /api/leaderboards`` without ``by``: the ten best
totals of one ruleset variant). Prints the median and the slowest of each, and each
median against the peer's. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

from yatzy.app.profiles import RECENT_GAMES
from yatzy.bootstrap import open_service
from yatzy.core.names import name_key
from yatzy.core.rulesets import ruleset
from yatzy.storage.repository import options_key
from yatzy.storage.tables import (
    game_accuracy,
    games,
    player_accuracy,
    player_keys,
    players,
    rating_history,
    results,
    seat_keys,
)

START = datetime(2026, 6, 1, tzinfo=UTC)


def fill(url: str, count: int, per_player: int) -> None:
    rules = ruleset("yatzy")
    key = options_key(rules)
    rng = random.Random(1)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(players.insert(), [
            {"id": f"p{i:08d}", "name": f"Player {i}", "name_key": name_key(f"Player {i}"),
             "created_at": START, "updated_at": START,
             "rating": rng.gauss(1500, 200), "rating_deviation": rng.uniform(40, 350),
             "rating_volatility": 0.06, "rated_games": rng.randrange(30),
             "skill_mu": rng.gauss(25, 3), "skill_sigma": rng.uniform(1, 8.3),
             "skill_games": rng.randrange(30)} for i in range(count)])
        connection.execute(player_keys.insert(), [
            {"key_hash": f"{i:064d}", "player_id": f"p{i:08d}", "created_at": START}
            for i in range(count)])
        for i in range(count):
            rows = []
            for g in range(per_player):
                when = START + timedelta(minutes=i * per_player + g)
                rows.append({"id": f"g{i:08d}{g:05d}", "when": when,
                             "total": rng.randrange(120, 330),
                             "lost": rng.uniform(0, 60)})
            connection.execute(games.insert(), [
                {"id": r["id"], "ruleset": "yatzy", "options_key": key, "seed": None,
                 "dice_mode": "auto", "status": "finished", "steps": 30, "version": 31,
                 "seats": [{"name": f"Player {i}"}], "settings": None,
                 "record": {"format": "bench"}, "created_at": r["when"],
                 "updated_at": r["when"], "finished_at": r["when"]} for r in rows])
            connection.execute(results.insert(), [
                {"game_id": r["id"], "seat": 0, "player": f"Player {i}", "is_bot": False,
                 "bot": None, "total": r["total"], "upper_bonus": 0, "yahtzee_points": 0,
                 "yahtzee_bonuses": 0, "place": 1} for r in rows])
            connection.execute(seat_keys.insert(), [
                {"game_id": r["id"], "seat": 0, "key_hash": f"{i:064d}",
                 "claimed_at": r["when"]} for r in rows])
            connection.execute(game_accuracy.insert(), [
                {"game_id": r["id"], "seat": 0, "player_id": f"p{i:08d}", "ruleset": "yatzy",
                 "points_lost": r["lost"], "finished_at": r["when"]} for r in rows])
            last = [r["lost"] for r in rows][-RECENT_GAMES:]
            connection.execute(player_accuracy.insert().values(
                player_id=f"p{i:08d}", ruleset="yatzy", games=len(last),
                points_lost=sum(last) / len(last)))
            connection.execute(rating_history.insert(), [
                {"game_id": r["id"], "player_id": f"p{i:08d}", "kind": "glicko",
                 "rated_at": r["when"], "rating_before": 1500.0, "deviation_before": 350.0,
                 "rating_after": 1500.0 + g, "deviation_after": 300.0}
                for g, r in enumerate(rows)])
    engine.dispose()


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    work()  # once before the clock: the statements prepared, the pages in the cache
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.postgres:
            from tests.services import postgres_database

            context = postgres_database()
            url = context.__enter__()
        else:
            url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        with open_service(url) as service:  # the schema, migrated
            pass
        started = time.perf_counter()
        fill(url, args.players, args.games)
        print(f"{'PostgreSQL' if args.postgres else 'SQLite'}: {args.players} players x "
              f"{args.games} games = {args.players * args.games} games filled in "
              f"{time.perf_counter() - started:.1f} s")
        with open_service(url) as service:
            profiles = service.profiles
            rules = ruleset("yatzy")
            cases: dict[str, Callable[[], object]] = {
                "best totals (peer)": lambda: service.leaderboard(rules, 10),
                "by=rating glicko": lambda: profiles.leaderboard("rating"),
                "by=rating openskill": lambda: profiles.leaderboard("rating", kind="openskill"),
                "by=accuracy": lambda: profiles.leaderboard("accuracy", rules="yatzy"),
                "player history": lambda: profiles.history(f"Player {args.players // 2}"),
            }
            figures = {name: timed(work, args.repeat) for name, work in cases.items()}
        if args.postgres:
            context.__exit__(None, None, None)
    peer = figures["best totals (peer)"][0]
    for name, (median, slowest) in figures.items():
        print(f"{name:22} median {median * 1000:8.2f} ms  slowest {slowest * 1000:8.2f} ms"
              f"  x{median / peer:6.2f} of the peer")
    json.dump({k: v[0] for k, v in figures.items()}, sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
