"""Maxi Yatzy everywhere a ruleset goes: `yatzy score`, the computer levels that play
it (the simple ones; the solver's once its table is built: with saved rolls too, but
never ``winner``), the table policy, the game service, the terminal game and the web
app."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import yatzy
from yatzy import solver
from yatzy.bots import bot_names, check_level, make_bot, play_turn

MAXI = yatzy.ruleset("maxi_yatzy")


def test_yatzy_score(capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.cli import main

    assert main(["score", "--rules", "maxi_yatzy", "--lang", "en", "6", "6", "6", "5", "5",
                 "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Maxi Yatzy · dice 6 6 6 5 5 5")
    for label, points in (("Full house", 28), ("Villa", 33), ("Three pairs", 0),
                          ("Tower", 0), ("Chance", 33)):
        assert re.search(rf"^  {label}\s+{points}$", out, re.M), label
    assert main(["score", "--rules", "maxi_yatzy", "--lang", "sv", "666655"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Torn\s+34", out) and re.search(r"Kåk\s+28", out)
    assert main(["score", "--rules", "maxi_yatzy", "--json", "--no-saved-rolls",
                 "--bonus", "50_at_75", "123456"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"]["full_straight"] == 21 and data["scores"]["small_straight"] == 15
    assert data["ruleset"]["options"] == {"order": "free", "bonus": "50_at_75",
                                          "saved_rolls": False, "rolls": 3}
    assert main(["score", "--rules", "maxi_yatzy", "6", "6", "6", "5", "5"]) == 2
    assert "Dice must be 6 values" in capsys.readouterr().err


@pytest.mark.parametrize("saved", [True, False])
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_the_simple_levels_play_it(level: str, saved: bool) -> None:
    rules = yatzy.ruleset("maxi_yatzy", saved_rolls=saved)
    game = yatzy.new_game(rules, ["A", "B"], seed=3)
    bots = [make_bot(level, random.Random(seat)) for seat in range(2)]
    while not game.is_over:
        game = play_turn(game, bots[game.current_seat])
    assert all(card.is_complete for card in game.cards)
    assert yatzy.Game.from_record(game.to_record()) == game
    if level == "greedy":
        assert min(card.total for card in game.cards) > 150


def test_the_solver_levels_wait_for_the_table() -> None:
    """With saved rolls the solver's levels play from the table ``yatzy solve`` built
    (free order: 50 minutes), never built by a request; ``winner`` never plays it."""
    assert bot_names(MAXI) == ("random", "greedy")
    assert "hard" in bot_names(yatzy.ruleset("yatzy"))
    for level in ("easy", "medium", "hard", "optimal"):
        with pytest.raises(solver.TableNotBuilt):
            check_level(level, MAXI)
    with pytest.raises(solver.ChancesUnsupported):
        check_level("winner", MAXI)
    from yatzy.app.policy import TablePolicy
    from yatzy.app.saved import Seat

    policy = TablePolicy(costly=True)
    assert policy.levels(MAXI) == ("random", "greedy")
    with pytest.raises(solver.TableNotBuilt):
        policy.check_seats([Seat("Ann"), Seat("cpu", bot="hard")], ready=lambda _: True,
                           ruleset=MAXI)
    policy.check_seats([Seat("Ann"), Seat("cpu", bot="greedy")], ready=lambda _: True,
                       ruleset=MAXI)


def test_the_service_refuses_solver_levels_and_hints_without_the_table(
        tmp_path: Path) -> None:
    from yatzy.app.saved import Seat
    from yatzy.bootstrap import open_service

    with open_service(tmp_path / "games.sqlite3") as service:
        with pytest.raises(solver.TableNotBuilt):
            service.create(MAXI, ["Ann", Seat("Cpu", bot="optimal")])
        with pytest.raises(solver.TableNotBuilt):
            service.create(MAXI, ["Ann"], hints=True)
        saved = service.create(MAXI, ["Ann", Seat("Cpu", bot="greedy")])
        assert saved.game.ruleset == MAXI


def test_the_terminal_seats_and_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.cli import main
    from yatzy.tui.seats import parse_seats

    with pytest.raises(solver.TableNotBuilt):
        parse_seats("Ann, cpu:hard", bot_names(), MAXI)
    assert parse_seats("Ann, cpu:greedy", bot_names(), MAXI)[1].bot == "greedy"
    for argv in (["match", "hard", "greedy", "--rules", "maxi_yatzy", "-n", "2"],
                 ["play", "--rules", "maxi_yatzy", "--players", "Ann,cpu:easy"],
                 ["advise", "--rules", "maxi_yatzy", "--saved", "2"]):
        assert main([*argv, "--lang", "sv"]) == 2, argv
        assert "Lösarens tabell för Maxi Yatzy har inte byggts" in capsys.readouterr().err, argv
    # The optimal strategy with saved rolls is solved (yatzy solve builds its table, in
    # minutes), and simulated from that table: never built by a simulation.
    argv = ["simulate", "--rules", "maxi_yatzy", "--bot", "optimal", "-n", "2", "--lang", "sv"]
    assert main(argv) == 2
    assert "Lösarens tabell för Maxi Yatzy har inte byggts" in capsys.readouterr().err


def test_without_saved_rolls_the_solver_levels_wait_for_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver plays Maxi Yatzy without saved rolls, from a table ``yatzy solve``
    built (minutes): until then its levels and hints are refused at once, with the error
    that says how to build it, and no request starts the build."""
    from yatzy.app.policy import TablePolicy
    from yatzy.app.saved import Seat
    from yatzy.bootstrap import open_service
    from yatzy.solver import artifacts

    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path / "cache"))
    rules = yatzy.ruleset("maxi_yatzy", saved_rolls=False)
    assert solver.supports(rules) and not solver.table_ready(rules)
    assert bot_names(rules) == ("random", "greedy")
    assert TablePolicy(costly=True).levels(rules) == ("random", "greedy")
    with pytest.raises(solver.TableNotBuilt):
        check_level("optimal", rules)
    # winner says at once that it never plays it, not that a table is to be built.
    with pytest.raises(solver.WinnerUnsupported):
        check_level("winner", rules)
    with open_service(tmp_path / "games.sqlite3") as service:
        with pytest.raises(solver.TableNotBuilt):
            service.create(rules, ["Ann", Seat("Cpu", bot="optimal")])
        with pytest.raises(solver.TableNotBuilt):
            service.create(rules, ["Ann"], hints=True)
    assert not list(tmp_path.glob("cache/*.npz"))  # nothing was built
    # A table on the disk makes them ready (its content is checked when it is loaded).
    path = artifacts.table_path(rules)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    assert solver.table_ready(rules) and "optimal" in bot_names(rules)
    # But never winner: its table of the points still to come would take gigabytes.
    assert "winner" not in bot_names(rules)
    with pytest.raises(solver.WinnerUnsupported) as refused:
        check_level("winner", rules)
    from yatzy.i18n import LANGUAGES, translator
    from yatzy.i18n.words import error_text

    for lang in LANGUAGES:
        text = error_text(translator(lang), refused.value)
        assert "Maxi Yatzy" in text and "winner" in text and "{" not in text


@pytest.mark.asyncio
async def test_the_terminal_plays_it_at_80x24(tmp_path: Path) -> None:
    from textual.widgets import Select

    from tests.tui.helpers import game_screen, settle, shown
    from yatzy.bootstrap import open_service
    from yatzy.tui.app import YatzyApp
    from yatzy.tui.screens.dialogs import ConfirmScreen
    from yatzy.tui.screens.end import EndScreen
    from yatzy.tui.screens.setup import SetupScreen
    from yatzy.tui.widgets.scorecard import box_keys

    assert len(set(box_keys(MAXI))) == len(MAXI.boxes) == 20
    assert not set(box_keys(MAXI)) & set("hlqruw")  # the game's own keys
    service = open_service(tmp_path / "games.sqlite3")
    app = YatzyApp(service, fast=True, lang="sv")
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#rules", Select).value = "maxi_yatzy"
        await pilot.pause()
        assert setup.query_one("#opt-saved_rolls-field").display is True
        hint = shown(setup.query_one("#players-hint"))
        assert "greedy" in hint and "hard" not in hint
        await pilot.click("#players")
        await pilot.press(*"Ann,cpu:greedy", "enter")
        screen = game_screen(app)
        assert screen.table.game.ruleset == MAXI
        keys_line = screen.query_one("#keys").region
        assert keys_line.y == 23
        for box in (*MAXI.boxes, "total"):  # every box and the total above the keys
            row = screen.query_one(f"#row-{box}")
            assert row.region.height == 1 and row.region.bottom <= keys_line.y, box
        assert "Kåk" in shown(screen.query_one("#row-full_house"))
        assert "Torn" in shown(screen.query_one("#row-tower"))
        assert shown(screen.query_one("#keys")).startswith("1-6 spara")
        assert "3 slag kvar · 0 sparade slag" in shown(screen.query_one("#turn"))
        keys = {box: key for key, box in box_keys(MAXI).items()}

        async def fill_best() -> None:  # one roll, then the best box (a zero confirmed)
            await pilot.press("r")
            choices = screen.table.game.choices()
            box = max(choices, key=lambda b: choices[b])
            await pilot.press(keys[box])
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("j")  # Swedish for yes
            await settle(pilot)

        await fill_best()  # one roll of three: two saved
        assert screen.table.game.saved_rolls("Ann") == 2
        assert "5 slag kvar · 2 sparade slag" in shown(screen.query_one("#turn"))
        await pilot.press("r", "1", "2", "r", "r", "r")  # three own rolls, then a saved one
        assert screen.table.game.rolls_used == 4 and screen.table.game.dice is not None
        assert "1 slag kvar · 1 sparat slag" in shown(screen.query_one("#turn"))
        choices = screen.table.game.choices()
        await pilot.press(keys[max(choices, key=lambda b: choices[b])])
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("j")
        await settle(pilot)
        for _ in range(18):
            await fill_best()
        assert isinstance(app.screen, EndScreen)
    [saved] = service.recent(finished=True)
    assert saved.game.is_over and saved.game.turns_played == 40
    assert saved.game.saved_rolls("Ann") == 1 + 2 * 18
    service.close()


def test_with_saved_rolls_the_solver_plays_from_the_built_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """In order, the table of saved rolls is built in seconds by ``yatzy solve``; then
    the solver's levels are offered and play (never ``winner``), hints are given by the
    advice service, ``yatzy advise`` ranks the options with the player's saved rolls,
    and ``yatzy simulate`` plays the optimal strategy in compiled code."""
    from yatzy.app.advice import AdviceService, check_chances
    from yatzy.app.saved import Seat
    from yatzy.bootstrap import open_service
    from yatzy.cli import main
    from yatzy.core.actions import Reroll, Score
    from yatzy.core.scorecard import Scorecard
    from yatzy.solver import artifacts, policy

    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setattr(policy, "_SAVED", {})
    held: set[object] = set()  # no strategy held from another test, none left to one
    monkeypatch.setattr(solver, "_HELD", held)
    monkeypatch.setattr(policy, "_HELD", held)
    rules = yatzy.ruleset("maxi_yatzy", order="in_order")
    assert not solver.table_ready(rules)
    with pytest.raises(solver.TableNotBuilt):
        solver.strategy(rules)
    assert not list(tmp_path.glob("cache/*.npz"))  # a request built nothing
    args = ["--rules", "maxi_yatzy", "--order", "in_order"]
    assert main(["solve", *args, "--json"]) == 0
    capsys.readouterr()
    assert solver.table_ready(rules) and not solver.offers_chances(rules)
    assert bot_names(rules)[-1] == "optimal" and "winner" not in bot_names(rules)
    s = solver.strategy(rules)
    assert s.expected_score == pytest.approx(286.691035, abs=1e-6)
    with open_service(tmp_path / "games.sqlite3") as service:
        saved = service.create(rules, ["Ann", Seat("Cpu", bot="optimal")], hints=True)
        game = saved.game.roll([1, 1, 1, 1, 2, 3])
        advice = AdviceService(workers=1)
        try:
            options = advice.hint(saved.id, 1, game).result()
        finally:
            advice.close()
        assert options == s.advise(game)
        assert {type(o.action) for o in options} == {Score, Reroll}
        with pytest.raises(solver.ChancesUnsupported):
            check_chances(game)
    # The computer plays a whole game, and saves rolls on the way.
    game = yatzy.new_game(rules, ["cpu"], seed=5)
    bot = make_bot("optimal")
    most = 0
    while not game.is_over:
        game = play_turn(game, bot)
        most = max(most, game.saved_rolls("cpu"))
    assert most > 0 and game.cards[0].total > 100
    assert main(["advise", *args, "--card", "ones=4", "--saved", "2", "--json"]) == 0
    [start] = json.loads(capsys.readouterr().out)["options"]
    card = Scorecard(rules, (4,) + (None,) * 19)
    assert start["value"] == s.advise_card(card, None, saved=2)[0].value
    assert start["value"] > s.advise_card(card, None, saved=0)[0].value  # worth rolls
    assert main(["advise", *args, "--saved", "1", "--dice", "1", "1", "1", "1", "2", "3",
                 "--rolls-left", "1"]) == 2
    assert "--saved is for rules with saved rolls, before the first roll" in (
        capsys.readouterr().err)
    assert main(["advise", *args, "--saved", "7"]) == 2
    assert "--saved must be from 0 to 0, not 7" in capsys.readouterr().err
    assert main(["simulate", *args, "-n", "20000", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["expected_score"] == s.expected_score
    assert abs(result["mean"] - result["expected_score"]) < 4 * result["standard_error"]
