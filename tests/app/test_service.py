"""The game service on a real SQLite file: create, apply, load, resume, delete, events,
history, and the errors a caller can meet."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import time
import uuid
from datetime import UTC
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yatzy
from tests.app.playing import (
    TickingClock,
    per_player,
    play_game,
    play_turns,
    same_dice,
    upper_kind_then,
)
from yatzy.app import (
    ActionApplied,
    AmbiguousGameId,
    BadDiceMode,
    BadSeats,
    DiceNeeded,
    DiceNotAllowed,
    Event,
    GameChanged,
    GameCreated,
    GameDeleted,
    GameFinished,
    GameNotFound,
    GameService,
    Seat,
    UnknownBot,
)
from yatzy.bootstrap import open_service
from yatzy.bots import make_bot
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import ErrorCode, IllegalMove

YATZY = yatzy.ruleset("yatzy")
YAHTZEE = yatzy.ruleset("yahtzee")


def stored_row(db: Path, game_id: str) -> tuple[object, ...]:
    """The game's row as SQLite has it, read without the service."""
    with sqlite3.connect(db) as connection:
        row = connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    assert row is not None
    return tuple(row)


# --- Creating -------------------------------------------------------------------------


def test_create_stores_a_new_game(service: GameService) -> None:
    saved = service.create(YATZY, [Seat("Ann"), Seat("cpu", bot="greedy")], seed=7)
    assert isinstance(saved.id, str) and saved.id
    assert saved.seats == (Seat("Ann"), Seat("cpu", "greedy"))
    assert saved.game == yatzy.new_game(YATZY, ["Ann", "cpu"], seed=7)
    assert saved.dice_mode == "auto" and not saved.finished
    assert saved.created_at.tzinfo is not None and saved.created_at == saved.updated_at
    assert service.load(saved.id) == saved


def test_plain_names_are_people(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann", "Bo"])
    assert saved.seats == (Seat("Ann"), Seat("Bo"))
    assert not any(seat.is_bot for seat in saved.seats)


def test_auto_mode_without_seed_picks_and_keeps_one(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"])
    assert saved.game.seed is not None
    assert service.load(saved.id).game.seed == saved.game.seed


def test_manual_mode_has_no_seed(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"], dice_mode="manual")
    assert saved.game.seed is None and saved.dice_mode == "manual"
    assert service.load(saved.id).dice_mode == "manual"


def test_roll_off_from_the_seed(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann", "Bo", "Cy"], seed=3, first_player="roll")
    expected = yatzy.new_game(YATZY, ["Ann", "Bo", "Cy"], seed=3, first_player="roll")
    assert saved.game.roll_offs == expected.roll_offs
    assert service.load(saved.id).game.current_player == expected.current_player


def test_roll_off_with_real_dice(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann", "Bo"], first_player="roll", dice_mode="manual",
                           roll_off_dice=[[1, 1, 1, 1, 2], [6, 6, 6, 6, 5]])
    assert saved.game.current_player == "Bo"
    assert service.load(saved.id).game.current_player == "Bo"


def test_manual_roll_off_without_dice_is_rolled_by_the_program(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann", "Bo"], first_player="roll", dice_mode="manual")
    assert len(saved.game.roll_offs) >= 2 and saved.game.seed is None
    assert service.load(saved.id).game.roll_offs == saved.game.roll_offs


@pytest.mark.parametrize(
    ("seats", "kwargs", "error"),
    [
        (["Ann"], {"dice_mode": "dice"}, BadDiceMode),
        (["Ann"], {"dice_mode": "manual", "seed": 4}, BadDiceMode),
        ([Seat("cpu", bot="genius")], {}, UnknownBot),
        ("Ann", {}, BadSeats),
        ([42], {}, BadSeats),
        (["Ann", "Ann"], {}, BadSeats),
        (["Ann", "aNN"], {}, BadSeats),
        ([], {}, BadSeats),
        (None, {}, BadSeats),
        (["\ud800bad"], {}, BadSeats),
        (["Ann\x00"], {}, BadSeats),
        ([Seat(5)], {}, BadSeats),  # type: ignore[arg-type]
        (["Ann"], {"first_player": "youngest"}, IllegalMove),
        (["Ann"], {"seed": 10**5000}, IllegalMove),
        (["Ann", "Bo"], {"first_player": "roll", "roll_off_dice": 5}, IllegalMove),
    ],
)
def test_bad_games_are_refused_and_not_stored(
    service: GameService, seats: object, kwargs: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error) as caught:
        service.create(YATZY, seats, **kwargs)  # type: ignore[arg-type]
    assert str(caught.value)
    assert service.unfinished() == []


def test_unknown_bot_lists_the_levels(service: GameService) -> None:
    with pytest.raises(UnknownBot, match="greedy"):
        service.create(YATZY, [Seat("cpu", bot="genius")])


# --- Playing --------------------------------------------------------------------------


def test_apply_persists_before_returning(service: GameService, db: Path) -> None:
    saved = service.create(YATZY, ["Ann", "Bo"], seed=1)
    saved = service.apply(saved.id, Roll())
    saved = service.apply(saved.id, Reroll((0, 1)), player="Ann")
    with open_service(db) as other:  # another program on the same file
        seen = other.load(saved.id)
    assert seen.game == saved.game and seen.updated_at == saved.updated_at
    with sqlite3.connect(db) as connection:
        texts = connection.execute("SELECT action FROM moves ORDER BY step").fetchall()
    assert [json.loads(text)["type"] for (text,) in texts] == ["roll", "reroll"]


def test_seeded_dice_match_the_core(service: GameService) -> None:
    saved = service.create(YAHTZEE, ["Ann"], seed=99)
    saved = service.apply(saved.id, Roll())
    assert saved.game == yatzy.new_game(YAHTZEE, ["Ann"], seed=99).roll()


def test_illegal_action_raises_and_stores_nothing(service: GameService, db: Path) -> None:
    saved = service.create(YATZY, ["Ann", "Bo"], seed=1)
    saved = service.apply(saved.id, Roll())
    before = stored_row(db, saved.id)
    illegal: list[tuple[Action, str | None]] = [
        (Roll(), None),                # rolled already
        (Score("yahtzee"), None),      # not a Yatzy box
        (Reroll((0, 1, 2, 3, 4)), None),
        (Score("chance"), "Bo"),       # not Bo's turn
    ]
    for action, player in illegal:
        with pytest.raises(IllegalMove):
            service.apply(saved.id, action, player=player)
    assert stored_row(db, saved.id) == before
    assert service.load(saved.id) == saved


def test_manual_mode_needs_dice(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"], dice_mode="manual")
    with pytest.raises(DiceNeeded, match="real dice") as caught:
        service.apply(saved.id, Roll())
    assert caught.value.code == "dice_needed" and isinstance(caught.value, IllegalMove)
    saved = service.apply(saved.id, Roll(Dice([2, 2, 3, 3, 3])))
    with pytest.raises(DiceNeeded):
        service.apply(saved.id, Reroll((0, 1)))
    saved = service.apply(saved.id, Reroll((2, 3, 4), Dice([3, 3])))
    assert saved.game.dice == Dice([3, 3, 3, 3, 3])
    assert service.load(saved.id).game.dice == Dice([3, 3, 3, 3, 3])


def test_auto_mode_refuses_chosen_dice(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"], seed=5)
    with pytest.raises(DiceNotAllowed):
        service.apply(saved.id, Roll(Dice([6, 6, 6, 6, 6])))
    assert service.load(saved.id).game.history == ()


def test_unknown_game(service: GameService) -> None:
    with pytest.raises(GameNotFound, match="nope") as caught:
        service.load("nope")
    assert caught.value.code == "game_not_found" and caught.value.params["game_id"] == "nope"
    with pytest.raises(GameNotFound):
        service.apply("nope", Roll())
    with pytest.raises(GameNotFound):
        service.delete("nope")


def test_expected_steps_guards_against_a_stale_view(service: GameService, db: Path) -> None:
    saved = service.create(YATZY, ["Ann"], seed=2)
    with open_service(db) as other:
        other.apply(saved.id, Roll())
    with pytest.raises(GameChanged, match="changed elsewhere"):
        service.apply(saved.id, Reroll((0,)), expected_steps=saved.steps)
    # Without expected_steps the action applies to the game as stored now.
    now = service.apply(saved.id, Reroll((0,)))
    assert now.steps == 2


def test_two_services_take_turns_on_one_game(service: GameService, db: Path) -> None:
    """Each service keeps the games it played in memory; the store stays the judge."""
    saved = service.create(YATZY, ["Ann", "Bo"], seed=4)
    with open_service(db) as other:
        other.apply(saved.id, Roll())                       # the other window rolls
        with pytest.raises(IllegalMove, match="rolled already"):
            service.apply(saved.id, Roll())                 # stale here, refused by the store
        service.apply(saved.id, Reroll((0, 1)))             # applies to the stored game
        after = other.apply(saved.id, Score("chance"))
        assert after.steps == 3 and after.game.current_player == "Bo"
    expected = yatzy.new_game(YATZY, ["Ann", "Bo"], seed=4).roll().reroll([0, 1])
    assert service.load(saved.id).game == expected.score("chance")
    deleted = service.create(YATZY, ["Cy"], seed=5)
    with open_service(db) as other:
        other.delete(deleted.id)
    with pytest.raises(GameNotFound):
        service.apply(deleted.id, Roll())


def test_a_whole_game_with_bots_finishes(service: GameService, db: Path) -> None:
    saved = service.create(YATZY, [Seat("Ann", "greedy"), Seat("Bo", "random")], seed=11)
    bots = {s.name: make_bot(s.bot or "", random.Random(s.name)) for s in saved.seats}
    while not saved.finished:
        action = bots[saved.game.current_player].choose(saved.game)
        saved = service.apply(saved.id, action, expected_steps=saved.steps)
    loaded = service.load(saved.id)
    assert loaded.finished and loaded.game == saved.game
    with pytest.raises(IllegalMove, match="over"):
        service.apply(saved.id, Roll())
    assert service.unfinished() == []
    totals = dict(saved.game.standings())
    assert sorted(service.scores(YATZY)) == sorted(totals.values())


# --- Resume ---------------------------------------------------------------------------


def test_unfinished_lists_most_recently_played_first(service: GameService) -> None:
    a = service.create(YATZY, ["Ann"], seed=1)
    b = service.create(YATZY, ["Bo"], seed=2)
    c = service.create(YATZY, ["Cy"], dice_mode="manual")
    assert service.unfinished() == []  # nobody moved in them: nothing to resume
    for saved in (b, c, a):
        service.apply(saved.id, Roll([1, 2, 3, 4, 5]) if saved is c else Roll())
    assert [g.id for g in service.unfinished()] == [a.id, c.id, b.id]
    service.apply(b.id, Reroll((0,)))
    assert [g.id for g in service.unfinished()] == [b.id, a.id, c.id]
    play_game(service, YATZY, ["Di"], same_dice([1, 2, 3, 4, 5]))  # finished: not listed
    assert [g.id for g in service.unfinished()] == [b.id, a.id, c.id]


CRASHING_PLAYER = textwrap.dedent(
    """
    import os, sys
    from yatzy.bootstrap import open_service
    from yatzy.core.actions import Roll, Reroll
    service = open_service(sys.argv[1])
    game_id = sys.argv[2]
    service.apply(game_id, Roll())
    service.apply(game_id, Reroll((1, 2)))
    os._exit(9)  # dies on the spot: no close, no clean-up, no flush
    """
)


def test_resume_after_a_crash(service: GameService, db: Path) -> None:
    saved = service.create(YAHTZEE, ["Ann", "Bo"], seed=21)
    done = subprocess.run(
        [sys.executable, "-c", CRASHING_PLAYER, str(db), saved.id],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 9, done.stderr
    resumed = service.unfinished()
    assert [g.id for g in resumed] == [saved.id]
    expected = yatzy.new_game(YAHTZEE, ["Ann", "Bo"], seed=21).roll().reroll([1, 2])
    assert resumed[0].game == expected
    # And play goes on from there.
    assert service.apply(saved.id, Score("chance")).game.current_player == "Bo"


# --- Listing and finding games --------------------------------------------------------


def test_recent_lists_every_game_most_recently_played_first(service: GameService) -> None:
    a = service.create(YATZY, ["Ann"], seed=1)
    done = play_game(service, YAHTZEE, ["Bo", Seat("cpu", "greedy")],
                     same_dice([1, 2, 3, 4, 5]))
    c = service.create(YATZY, ["Cy", "Bo"], dice_mode="manual")
    assert [g.id for g in service.recent()] == [c.id, done.id, a.id]
    service.apply(a.id, Roll())
    assert [g.id for g in service.recent()] == [a.id, c.id, done.id]
    assert service.recent()[0] == service.load(a.id)
    assert [g.id for g in service.recent(finished=True)] == [done.id]
    assert [g.id for g in service.recent(finished=False)] == [a.id, c.id]
    assert [g.id for g in service.recent(player="Bo")] == [c.id, done.id]
    assert [g.id for g in service.recent(player="cpu")] == [done.id]
    assert [g.id for g in service.recent(1, player="Bo", finished=True)] == [done.id]
    assert [g.id for g in service.recent(1)] == [a.id]
    assert service.recent(player="Di") == []
    # By seed: the games dealt from it (c has none: its dice are entered by hand).
    again = service.create(YATZY, ["Bo"], seed=1)
    assert [g.id for g in service.recent(seed=1)] == [again.id, a.id]
    assert [g.id for g in service.recent(seed=1, player="Ann")] == [a.id]
    assert service.recent(seed=2) == []
    hexa = "ab" * 16
    secret = service.create(YATZY, ["Ann"], seed=hexa)
    assert [g.id for g in service.recent(seed=hexa, finished=False)] == [secret.id]


@pytest.mark.parametrize("seed", [-1, "1", "AB" * 16, 1.5, True, 10**40])
def test_recent_refuses_a_seed_no_game_can_have(service: GameService, seed: object) -> None:
    service.create(YATZY, ["Ann"], seed=1)
    with pytest.raises(IllegalMove) as refused:
        service.recent(seed=seed)  # type: ignore[arg-type]
    assert refused.value.code in (ErrorCode.BAD_SEED, ErrorCode.BAD_SECRET_SEED)


def test_find_takes_an_id_or_its_start(service: GameService,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    ids = iter(["abc" + "0" * 29, "abd" + "1" * 29, "abd" + "1" * 28, "f" * 32])
    monkeypatch.setattr(uuid, "uuid4", lambda: SimpleNamespace(hex=next(ids)))
    games = [service.create(YATZY, ["Ann"], seed=n) for n in range(4)]
    assert [g.id for g in games] == ["abc" + "0" * 29, "abd" + "1" * 29, "abd" + "1" * 28,
                                     "f" * 32]
    assert service.find(games[0].id) == games[0]
    assert service.find("abc") == games[0] and service.find("F") == games[3]
    assert service.find(games[2].id) == games[2]  # the whole id, though it starts another
    with pytest.raises(AmbiguousGameId) as caught:
        service.find("ab")
    assert caught.value.code == "ambiguous_game_id"
    assert caught.value.matches == (games[0].id, games[2].id, games[1].id)
    assert caught.value.params["count"] == 3
    for unknown in ("abe", "", games[3].id + "0"):
        with pytest.raises(GameNotFound):
            service.find(unknown)


# --- Deleting -------------------------------------------------------------------------


def test_delete(service: GameService) -> None:
    keep = service.create(YATZY, ["Ann"], seed=1)
    gone = play_game(service, YATZY, ["Ann"], same_dice([6, 6, 6, 6, 6]))
    assert service.best(YATZY, "Ann") == 164
    service.delete(gone.id)
    with pytest.raises(GameNotFound):
        service.load(gone.id)
    assert service.best(YATZY, "Ann") is None  # its result went with it
    assert [g.id for g in service.recent(finished=False)] == [keep.id]


# --- History --------------------------------------------------------------------------


def test_best_is_per_ruleset_with_options_and_player(service: GameService) -> None:
    in_order = yatzy.ruleset("yatzy", order="in_order")
    first = play_game(service, YATZY, ["Ann", "Bo"], per_player({
        "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
    play_game(service, in_order, ["Ann"], same_dice([1, 1, 1, 1, 1]))
    second = play_game(service, YATZY, ["Ann"], same_dice([6, 6, 6, 6, 6]))
    # Ann: 105 + 50 bonus + (12 + 0 + 18 + 24 + 0 + 0 + 0 + 30 + 50) = 289.
    assert service.best(YATZY, "Ann") == 289
    assert service.best(YATZY, "Ann", excluding=first.id) == 164
    assert service.best(YATZY, "Ann", excluding=second.id) == 289
    assert service.best(YATZY, "Bo") == 45
    assert service.best(in_order, "Ann") == 69
    assert service.best(YAHTZEE, "Ann") is None
    assert service.best(YATZY, "Nobody") is None


def test_scores_oldest_first(service: GameService) -> None:
    play_game(service, YATZY, ["Ann"], same_dice([1, 1, 1, 1, 1]))
    play_game(service, YATZY, ["Ann", "Bo"], same_dice([6, 6, 6, 6, 6]))
    assert service.scores(YATZY) == [69, 164, 164]
    assert service.scores(YATZY, "Bo") == [164]
    assert service.scores("yatzy", "Ann") == [69, 164]
    assert service.scores(YAHTZEE) == []


def test_timestamps_are_aware_utc(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"], seed=1)
    saved = service.apply(saved.id, Roll())
    loaded = service.load(saved.id)
    assert loaded.created_at.tzinfo == UTC and loaded.updated_at > loaded.created_at
    assert (loaded.created_at, loaded.updated_at) == (saved.created_at, saved.updated_at)


# --- Events ---------------------------------------------------------------------------


def test_events_follow_each_stored_change(service: GameService) -> None:
    events: list[Event] = []
    unsubscribe = service.subscribe(events.append)
    saved = service.create(YATZY, ["Ann"], dice_mode="manual")
    saved = play_turns(service, saved, same_dice([4, 4, 4, 4, 4]), 1)
    assert [e.type for e in events] == ["game_created", "action_applied", "action_applied"]
    assert events[0] == GameCreated(saved.id, ("Ann",), version=1)
    assert events[2] == ActionApplied(saved.id, 1, "Ann", {"type": "score", "box": "ones"},
                                      points=0, version=3)
    assert saved.version == 3
    unsubscribe()
    service.apply(saved.id, Roll(Dice([1, 1, 1, 1, 1])))
    assert len(events) == 3
    unsubscribe()  # twice is harmless


def test_finish_and_delete_events(service: GameService) -> None:
    events: list[Event] = []
    service.subscribe(events.append)
    saved = play_game(service, YATZY, ["Ann", "Bo"], same_dice([1, 1, 1, 1, 1]))
    assert isinstance(events[-2], ActionApplied) and events[-2].finished
    assert events[-1] == GameFinished(saved.id, (("Ann", 69), ("Bo", 69)),
                                      version=saved.version)
    service.delete(saved.id)
    assert events[-1:] == [GameDeleted(saved.id)]
    assert all(json.dumps(e.to_dict()) for e in events)


def test_a_failing_subscriber_does_not_undo_or_block(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[Event] = []

    def broken(event: Event) -> None:
        raise RuntimeError("listener down")

    service.subscribe(broken)
    service.subscribe(heard.append)
    saved = service.create(YATZY, ["Ann"], seed=1)
    saved = service.apply(saved.id, Roll())
    assert len(heard) == 2 and service.load(saved.id).steps == 1
    assert "subscriber failed" in caplog.text


def test_services_share_nothing_but_the_database(db: Path) -> None:
    heard: list[Event] = []
    with open_service(db) as one, open_service(db) as two:
        one.subscribe(heard.append)
        saved = two.create(YATZY, ["Ann"], seed=1)
        time.sleep(0.5)
        assert heard == []  # not following: events of the service that made the change
        assert one.load(saved.id) == saved


# --- Properties -----------------------------------------------------------------------


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**53 - 1),
    players=st.integers(1, 3),
    rules=st.sampled_from([YATZY, YAHTZEE, yatzy.ruleset("yatzy", order="in_order"),
                           yatzy.ruleset("yahtzee", joker="free", rolls=2)]),
    choices=st.lists(st.integers(0, 10**6), max_size=40),
)
def test_any_play_round_trips(
    db: Path, seed: int, players: int, rules: yatzy.Ruleset, choices: list[int]
) -> None:
    """Whatever legal actions are played, a new service on the file loads the same game."""
    with open_service(db, clock=TickingClock()) as service:
        saved = service.create(rules, [f"P{i}" for i in range(players)], seed=seed,
                               first_player="roll")
        for choice in choices:
            actions = saved.game.legal_actions()
            saved = service.apply(saved.id, actions[choice % len(actions)])
    with open_service(db) as fresh:
        assert fresh.load(saved.id) == saved
