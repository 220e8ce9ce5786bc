"""Whole games through the real app: set-up, play to the end, save and resume, the
roll-off, a language switch, quitting."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

import yatzy
from tests.tui.helpers import game_screen, play_best_box, settle, shown
from yatzy.app import GameService, SavedGame, Seat
from yatzy.bootstrap import open_service
from yatzy.tui.app import YatzyApp
from yatzy.tui.screens.dialogs import DiceEntryScreen, LanguageScreen, NoticeScreen
from yatzy.tui.screens.end import EndScreen
from yatzy.tui.screens.resume import ResumeScreen
from yatzy.tui.screens.setup import GameSetup, SetupScreen

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)


async def play_to_the_end(pilot, app: YatzyApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        if isinstance(app.screen, EndScreen):
            await pilot.pause()  # its on_mount fills it in
            return
        await play_best_box(pilot, app)
    raise AssertionError("the game did not end")


async def test_a_whole_game_with_a_computer(service: GameService) -> None:
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"), Seat("Greedy", "greedy")), seed=5)
    app = YatzyApp(service, setup=setup, fast=True, bot_seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        end = app.screen
        assert isinstance(end, EndScreen)
        game = end.table.game
        assert game.is_over and len(game.history) >= 30
        results = shown(end.query_one("#results"))
        totals = {p: game.scorecard(p).total for p in game.players}
        assert f"Ann {totals['Ann']:>4}".replace(" ", "") in results.replace(" ", "")
        assert "wins!" in results or "share the win" in results
        assert service.unfinished() == []
        assert service.best(game.ruleset, "Ann") == totals["Ann"]


def finish_a_game(service: GameService, rules: yatzy.Ruleset, seed: int) -> int:
    """Play a solitaire game for Ann through the service (first open box each turn)."""
    saved = service.create(rules, [Seat("Ann")], seed=seed)
    while not saved.finished:
        saved = service.apply(saved.id, yatzy.Roll())
        saved = service.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
    return saved.game.cards[0].total


async def test_solitaire_reports_the_first_game(service: GameService) -> None:
    rules = yatzy.ruleset("yatzy", rolls=1)
    app = YatzyApp(service, setup=GameSetup(rules, (Seat("Ann"),), seed=11), fast=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, EndScreen)
        assert "your first game" in shown(app.screen.query_one("#results"))


async def test_solitaire_reports_the_best_and_starts_again(service: GameService) -> None:
    rules = yatzy.ruleset("yatzy", rolls=1)
    best = finish_a_game(service, rules, seed=3)
    app = YatzyApp(service, setup=GameSetup(rules, (Seat("Ann"),), seed=11), fast=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        end = app.screen
        assert isinstance(end, EndScreen)
        total = end.table.game.cards[0].total
        verdict = shown(end.query_one("#results"))
        if total > best:
            assert f"{total}: a new best! Your best was {best}." in verdict
        else:
            assert f"{total}. Your best: {best}." in verdict
        await pilot.press("n")  # the same rules and players again, new dice
        again = game_screen(app)
        assert again.table.saved.id != end.table.saved.id
        assert again.table.game.turns_played == 0 and again.table.game.ruleset == rules


async def test_quit_and_resume(db: Path) -> None:
    setup = GameSetup(yatzy.ruleset("yahtzee"), (Seat("Ann"), Seat("Bo")), seed=9,
                      first_player="seat")
    with open_service(db) as service:
        app = YatzyApp(service, setup=setup, fast=True)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await play_best_box(pilot, app)  # Ann scores
            await pilot.press("r", "1")  # Bo rolls and holds a die
            dice = screen.table.game.dice
            await pilot.press("q")
        assert app.return_code == 0
    with open_service(db) as service:
        [saved] = service.unfinished()
        assert saved.game.dice == dice and saved.game.current_player == "Bo"
        app = YatzyApp(service, resume=True, fast=True)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, ResumeScreen)
            listed = app.screen.query_one("#saved-games", OptionList).get_option_at_index(0)
            assert "Ann, Bo" in str(listed.prompt)
            await pilot.press("enter")
            screen = game_screen(app)
            assert screen.table.game.dice == dice
            assert "Bo's turn" in shown(screen.query_one("#turn"))
            await pilot.press("r")
            assert screen.table.game.rolls_left == 1


async def test_the_dice_held_at_a_reroll_are_held_after_resume(db: Path) -> None:
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), seed=9)
    with open_service(db) as service:
        app = YatzyApp(service, setup=setup, fast=True)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r", "1", "3", "r")  # reroll keeping dice 1 and 3
            kept = screen.table.game.dice
            await pilot.press("q")
    with open_service(db) as service:
        app = YatzyApp(service, resume=True, fast=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            screen = game_screen(app)
            assert screen.holds == {0, 2}
            slots = screen.query_one("#dice").slots  # type: ignore[attr-defined]
            assert [shown(s.caption) for s in slots] == ["1 held", "2", "3 held", "4", "5"]
            await pilot.press("r")  # the next reroll keeps them again
            after = screen.table.game.dice
            assert kept is not None and after is not None
            assert (after[0], after[2]) == (kept[0], kept[2])


async def test_undo_shows_the_dice_held_at_the_last_reroll(service: GameService) -> None:
    app = YatzyApp(service, setup=GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), seed=9),
                   fast=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", "2", "r", "p")  # reroll keeping die 2, then Chance
        assert screen.holds == set()
        await pilot.press("u")
        assert screen.holds == {1}


async def test_resume_can_delete_a_game(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
    service.apply(saved.id, yatzy.Roll())
    app = YatzyApp(service, resume=True, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "y")
        assert service.unfinished() == []
        assert "No unfinished games" in shown(app.screen.query_one("#resume-empty"))
        await pilot.press("n")
        assert isinstance(app.screen, SetupScreen)


async def test_the_roll_off_is_shown(service: GameService) -> None:
    seats = (Seat("Ann"), Seat("Random", "random"), Seat("Bo"))
    setup = GameSetup(yatzy.ruleset("yahtzee"), seats, seed=4)
    assert setup.first == "roll"
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        notice = app.screen
        assert isinstance(notice, NoticeScreen)
        assert "Roll-off" in notice.text and "starts." in notice.text
        await pilot.press("enter")
        await settle(pilot)
        game = game_screen(app).table.game
        assert game.current_player in ("Ann", "Bo")
        assert f"{game.players[game.starter]} starts." in notice.text


async def test_switching_language_redraws_everything(service: GameService) -> None:
    app = YatzyApp(service, setup=GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), seed=1),
                   fast=True, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert "Ones" in shown(screen.query_one("#row-ones"))
        await pilot.press("l")
        assert isinstance(app.screen, LanguageScreen)
        await pilot.press("home", "enter")  # Svenska, the first
        assert app.t.lang == "sv"
        assert "Ettor" in shown(screen.query_one("#row-ones"))
        assert "Ann" in shown(screen.query_one("#turn"))
        assert "Slå (r)" in str(screen.query_one("#roll").label)  # type: ignore[attr-defined]
        await pilot.press("l", "down", "down", "down", "enter")  # from Svenska to Suomi
        assert "Ykköset" in shown(screen.query_one("#row-ones"))


async def test_setup_screen_starts_a_game(service: GameService) -> None:
    app = YatzyApp(service, fast=True, lang="da")
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert "Spillere" in shown(setup.query_one("#players-label"))
        await pilot.press(*"Ann,Ann", "enter")
        assert "To spillere hedder Ann" in shown(setup.query_one("#setup-error"))
        await pilot.press("backspace", "backspace", "backspace", *"cpu:greedy", "enter")
        await settle(pilot)
        screen = game_screen(app)
        assert [s.bot for s in screen.table.seats] == [None, "greedy"]
        assert screen.table.game.ruleset == yatzy.ruleset("yatzy")


async def test_quitting_mid_game_says_how_to_resume(
    service: GameService, capsys: pytest.CaptureFixture[str]
) -> None:
    app = YatzyApp(service, setup=GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), seed=1),
                   fast=True, lang="nb")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "ctrl+c")
    assert "Lagret. Fortsett med: yatzy play --resume" in capsys.readouterr().err
    assert service.unfinished()[0].game.dice is not None


async def test_a_roll_off_with_real_dice(service: GameService) -> None:
    setup = GameSetup(yatzy.ruleset("yahtzee"), (Seat("Ann"), Seat("Bo")), dice_mode="manual")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        for expected, dice in (("Ann", "66611"), ("Bo", "66611"), ("Ann", "12345"),
                               ("Bo", "66666")):
            prompt = app.screen
            assert isinstance(prompt, DiceEntryScreen), prompt
            assert f"{expected}: type the 5 dice" in prompt.prompt
            await pilot.press(*dice, "enter")
        notice = app.screen
        assert isinstance(notice, NoticeScreen) and "Bo starts." in notice.text
        await pilot.press("enter")
        screen = game_screen(app)
        assert screen.table.game.current_player == "Bo"
        assert [list(r.dice) for r in screen.table.game.roll_offs][-1] == [6, 6, 6, 6, 6]


async def test_cancelling_the_roll_off_goes_to_the_setup(service: GameService) -> None:
    setup = GameSetup(yatzy.ruleset("yahtzee"), (Seat("Ann"), Seat("Bo")), dice_mode="manual")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.query_one("#players", Input).value == "Ann, Bo"
        assert service.unfinished() == []


class BrokenService(GameService):
    """A service whose store breaks on the first move (fault injection)."""

    def apply(self, *args: object, **kwargs: object) -> SavedGame:  # type: ignore[override]
        raise RuntimeError("disk on fire")


async def test_an_unexpected_error_is_told_without_a_traceback(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("YATZY_DEBUG", raising=False)
    with open_service(db) as working:
        service = BrokenService(working._repo)
        app = YatzyApp(service, setup=GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), seed=1),
                       fast=True, lang="et")
        with pytest.raises(RuntimeError):
            async with app.run_test(size=SIZE) as pilot:
                await pilot.press("r")
    said = " ".join(capsys.readouterr().err.split())
    assert "yatzy peatus ootamatu vea tõttu (RuntimeError)" in said
    assert "Traceback" not in said
    log = tmp_path / "state" / "yatzy" / "log" / "crash.log"
    assert "disk on fire" in log.read_text()


async def test_resume_lists_a_damaged_game_marked_and_deletes_it(db: Path) -> None:
    """A game that no longer reads stopped `play --resume` for every other game."""
    import sqlite3

    with open_service(db) as service:
        damaged = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
        service.apply(damaged.id, yatzy.Roll())
        fine = service.create(yatzy.ruleset("yatzy"), [Seat("Bo")], seed=2)
        fine = service.apply(fine.id, yatzy.Roll())
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET record = '{}' WHERE id = ?", (damaged.id,))
    connection.close()
    with open_service(db) as service:
        app = YatzyApp(service, resume=True, fast=True)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, ResumeScreen)
            options = app.screen.query_one("#saved-games", OptionList)
            lines = [str(options.get_option_at_index(i).prompt) for i in range(2)]
            assert "Bo" in lines[0]
            assert "Damaged, cannot be continued (" in lines[1]
            await pilot.press("down", "enter")  # it cannot be continued
            assert isinstance(app.screen, ResumeScreen)
            await pilot.press("d", "y")
            assert [g.id for g in service.unfinished()] == [fine.id]
            await pilot.press("enter")
            assert game_screen(app).table.saved.id == fine.id


async def test_resume_does_not_offer_a_game_nobody_moved_in(service: GameService) -> None:
    """Every started game was offered, "Round 1 of 15" after "Round 1 of 15"."""
    service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
    moved = service.create(yatzy.ruleset("yatzy"), [Seat("Bo")], seed=2)
    service.apply(moved.id, yatzy.Roll())
    app = YatzyApp(service, resume=True, fast=True)
    async with app.run_test(size=SIZE):
        options = app.screen.query_one("#saved-games", OptionList)
        assert options.option_count == 1
        assert "Bo" in str(options.get_option_at_index(0).prompt)


#: Names a player may type that look like the terminal's markup (a closing tag alone
#: used to stop the game with an error), and a trailing backslash.
MARKUP_NAMES = ("[/b]", "[red]Bo\\")


async def test_names_that_look_like_markup_are_shown_as_typed(db: Path) -> None:
    seats = tuple(Seat(name) for name in MARKUP_NAMES)
    setup = GameSetup(yatzy.ruleset("yatzy", rolls=1), seats, seed=3, first_player="seat")
    with open_service(db) as service:
        app = YatzyApp(service, setup=setup, fast=True)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = game_screen(app)
            for name in MARKUP_NAMES:
                assert shown(screen.query_one("#turn")).startswith(f"{name}'s turn")
                await play_best_box(pilot, app)
                assert name in shown(screen.query_one("#message"))  # what they scored
            await pilot.press("q")
        app = YatzyApp(service, resume=True, fast=True)
        async with app.run_test(size=(100, 30)) as pilot:
            listed = app.screen.query_one("#saved-games", OptionList).get_option_at_index(0)
            assert ", ".join(MARKUP_NAMES) in str(listed.prompt)
            await pilot.press("enter")
            await play_to_the_end(pilot, app)
            results = shown(app.screen.query_one("#results"))
            for name in MARKUP_NAMES:
                assert f"{name} " in results, (name, results)
