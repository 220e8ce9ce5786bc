"""The game screen driven by keys and clicks: holds, rerolls, scoring, a zero's
confirmation, errors, a computer's turn, scorepad dice and the Joker."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from textual.widgets import Button

import yatzy
from tests.tui.helpers import game_screen, settle, shown
from yatzy.app import GameService, Seat
from yatzy.i18n import LANGUAGES, translator
from yatzy.tui.app import YatzyApp
from yatzy.tui.screens.dialogs import ConfirmScreen, DiceEntryScreen, answer_keys
from yatzy.tui.screens.setup import GameSetup
from yatzy.tui.widgets.scorecard import box_keys

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)


def key(box: str, rules: str = "yatzy") -> str:
    """The key that fills ``box``."""
    return {b: k for k, b in box_keys(yatzy.ruleset(rules)).items()}[box]


def solo(service: GameService, rules: yatzy.Ruleset | None = None, **kwargs: object) -> YatzyApp:
    setup = GameSetup(rules or yatzy.ruleset("yatzy"), (Seat("Ann"),), seed=7)
    return YatzyApp(service, setup=setup, fast=True, **kwargs)  # type: ignore[arg-type]


async def test_holds_survive_a_reroll(service: GameService) -> None:
    app = solo(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        first = screen.table.game.dice
        assert first is not None and screen.table.game.rolls_left == 2
        await pilot.press("1", "3", "5", "5")  # 5 twice: held, then let go
        assert screen.holds == {0, 2}
        assert "held" in shown(screen.query_one("#dice").slots[0].caption)  # type: ignore[attr-defined]
        await pilot.press("r")
        after = screen.table.game.dice
        assert after is not None
        assert (after[0], after[2]) == (first[0], first[2])
        assert screen.table.game.rolls_left == 1
        assert service.load(screen.table.saved.id).game.dice == after


async def test_click_on_a_die_holds_it_and_click_on_a_row_scores(service: GameService) -> None:
    app = solo(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.click("#roll")
        assert screen.table.game.dice is not None
        await pilot.click("#die-1")
        assert screen.holds == {1}
        await pilot.click("#row-chance")
        card = screen.table.game.cards[0]
        assert card["chance"] is not None
        assert "Ann put" in shown(screen.query_one("#message"))


async def test_a_zero_needs_confirmation(service: GameService) -> None:
    app = solo(service, yatzy.ruleset("yatzy"))
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        choices = screen.table.game.choices()
        assert choices["yatzy"] == 0  # seed 7 does not open with five of a kind
        await pilot.press(key("yatzy"))
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert screen.table.game.card["yatzy"] is None
        await pilot.press(key("yatzy"))
        await pilot.press("y")
        assert screen.table.game.card["yatzy"] == 0


@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_the_zero_dialog_answers_to_the_keys_it_shows(
    service: GameService, lang: str
) -> None:
    yes, no = answer_keys(translator(lang))
    assert len(yes) == len(no) == 1 and yes != no and yes.isalpha() and no.isalpha()
    app = solo(service, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", key("yatzy"))  # seed 7: not five of a kind, so a zero
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert f"({yes})" in str(dialog.query_one("#yes", Button).label)
        assert f"({no})" in str(dialog.query_one("#no", Button).label)
        await pilot.press(no)
        assert app.screen is screen and screen.table.game.card["yatzy"] is None
        await pilot.press(key("yatzy"), yes)
        assert screen.table.game.card["yatzy"] == 0


async def test_in_swedish_j_says_yes_and_y_does_nothing(service: GameService) -> None:
    app = solo(service, lang="sv")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", key("yatzy"))
        assert str(app.screen.query_one("#yes", Button).label) == "Ja (j)"
        await pilot.press("y")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("j")
        assert screen.table.game.card["yatzy"] == 0


async def test_enter_in_the_zero_dialog_says_no(service: GameService) -> None:
    app = solo(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", key("yatzy"))
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        assert app.screen is screen and screen.table.game.card["yatzy"] is None


async def test_the_zero_dialog_follows_a_language_switch(service: GameService) -> None:
    app = solo(service, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", key("yatzy"))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        app.set_language("fi")
        await pilot.pause()
        assert shown(dialog.query_one("#question")) == "Merkitäänkö 0 kohtaan Yatzy?"
        assert str(dialog.query_one("#yes", Button).label) == "Kyllä (k)"
        await pilot.press("k")
        assert screen.table.game.card["yatzy"] == 0


async def test_the_turn_panel_says_how_the_bonus_stands(service: GameService) -> None:
    app = solo(service, lang="sv")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert "Övre delen: i takt med bonusen" in shown(screen.query_one("#turn"))
        await pilot.press("r")
        assert list(screen.table.game.dice or ()) == [4, 3, 1, 1, 1]  # seed 7
        await pilot.press(key("fours"))  # 4 where par is 12
        turn = " ".join(shown(screen.query_one("#turn")).split())
        assert "Övre delen: 8 poäng efter bonustakten" in turn
        assert "över par" not in turn


async def test_errors_are_shown_not_raised(service: GameService) -> None:
    app = solo(service, yatzy.ruleset("yatzy", order="in_order"), lang="sv")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("a")
        assert shown(screen.query_one("#message")) == "Slå tärningarna först"
        await pilot.press("r", "r", "r", "r")
        assert screen.table.game.rolls_left == 0
        assert "Inga slag kvar" in shown(screen.query_one("#message"))
        await pilot.press(key("chance"))  # the play order says Ones first
        assert "nästa är Ettor" in shown(screen.query_one("#message"))
        assert "–" in shown(screen.query_one("#row-chance"))


async def test_a_computer_plays_its_turn_which_cannot_be_taken_back(
    service: GameService,
) -> None:
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"), Seat("Greedy", "greedy")), seed=3)
    app = YatzyApp(service, setup=setup, fast=True, bot_seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", key("chance"))
        await settle(pilot)
        game = screen.table.game
        assert game.current_player == "Ann" and game.round == 2
        bot_steps = [s for s in game.history if s.player == "Greedy"]
        assert bot_steps[0].action == yatzy.Roll(bot_steps[0].action.dice)  # type: ignore[union-attr]
        assert isinstance(bot_steps[-1].action, yatzy.Score)
        assert "Greedy put" in shown(screen.query_one("#message"))
        await pilot.press("ctrl+z")
        assert "computer player's move cannot be taken back" in shown(
            screen.query_one("#message"))
        assert screen.table.game == game


async def test_scorepad_asks_for_the_dice(service: GameService) -> None:
    setup = GameSetup(yatzy.ruleset("yahtzee"), (Seat("Ann"),), dice_mode="manual")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        assert isinstance(app.screen, DiceEntryScreen)
        await pilot.press(*"3335", "enter")  # too few: refused, asked again
        assert isinstance(app.screen, DiceEntryScreen)
        assert "5 dice" in shown(app.screen.query_one("#dice-error"))
        await pilot.press("backspace", *"55", "enter")
        assert screen.table.game.dice == (3, 3, 3, 5, 5)
        await pilot.press("1", "2", "3", "r")
        assert isinstance(app.screen, DiceEntryScreen)
        assert "(dice 4, 5)" in app.screen.prompt
        await pilot.press(*"33", "enter")
        assert screen.table.game.dice == (3, 3, 3, 3, 3)
        await pilot.press(key("yahtzee", "yahtzee"))
        assert screen.table.game.card["yahtzee"] == 50
        # A second Yahtzee: the Joker and the bonus are explained, then scored.
        await pilot.press("r", *"55555", "enter")
        message = shown(screen.query_one("#message"))
        assert "Joker: five 5s must go in Fives" in message
        assert "Yahtzee bonus" in message
        await pilot.press(key("chance", "yahtzee"))  # refused by the forced Joker
        assert "Joker rule" in shown(screen.query_one("#message"))
        await pilot.press(key("fives", "yahtzee"))
        card = screen.table.game.card
        assert card["fives"] == 25 and card.yahtzee_bonus == 100
        assert "Yahtzee bonus +100!" in shown(screen.query_one("#message"))


async def test_scorepad_asks_for_a_computers_dice(service: GameService) -> None:
    seats = (Seat("Ann"), Seat("cpu", bot="greedy"))
    setup = GameSetup(yatzy.ruleset("yatzy"), seats, dice_mode="manual")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", *"12346", "enter", key("chance"))
        await settle(pilot)
        # The computer's roll waits for its real dice: the question is on screen.
        assert isinstance(app.screen, DiceEntryScreen)
        assert "cpu" in app.screen.prompt
        await pilot.press("escape")  # not thrown yet: r asks again
        await settle(pilot)
        assert app.screen is screen and screen.table.waiting_for_dice
        assert "Press r" in shown(screen.query_one("#message"))
        await pilot.press("r")
        assert isinstance(app.screen, DiceEntryScreen)
        await pilot.press(*"66666", "enter")
        await settle(pilot)
        card = screen.table.game.scorecard("cpu")
        assert card["yatzy"] == 50  # five sixes: the greedy computer takes Yatzy
        assert screen.table.game.current_player == "Ann"
        assert "cpu put 50 in Yatzy." in shown(screen.query_one("#message"))
        assert service.load(screen.table.saved.id).game == screen.table.game


async def test_scorepad_dice_typed_are_taken_back(service: GameService) -> None:
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), dice_mode="manual")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", *"12344", "enter")
        assert screen.table.game.dice == (1, 2, 3, 4, 4)
        await pilot.press("u")  # a slip: the dice go back, to be typed again
        assert screen.table.game.dice is None
        assert "Ann takes back the dice typed in: type them again." in shown(
            screen.query_one("#message"))
        await pilot.press("r", *"66666", "enter")
        assert screen.table.game.dice == (6, 6, 6, 6, 6)
        assert [str(s.action) for s in screen.table.game.log] == [
            "roll 1 2 3 4 4", "undo", "roll 6 6 6 6 6"]


async def test_scorepad_dice_entry_can_be_cancelled(service: GameService) -> None:
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"),), dice_mode="manual")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", "escape")
        assert app.screen is screen and screen.table.game.dice is None


async def test_everything_fits_80_by_24(service: GameService) -> None:
    seats = tuple(Seat(n) for n in ("Ann", "Bo", "Cecilia", "Dag", "Eero", "Fia"))
    setup = GameSetup(yatzy.ruleset("yatzy"), seats, seed=1)
    app = YatzyApp(service, setup=setup, fast=True, lang="pt")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        for selector in ("#row-total", "#row-yatzy", "#roll", "#die-4", "#message", "#keys"):
            region = screen.query_one(selector).region
            assert region.height > 0 and region.right <= 80 and region.bottom <= 24, selector
        header = shown(screen.query_one("#row-header")) + shown(
            screen.query_one("#row-header-2"))
        assert all(name in header for name in ("Ann", "Cecilia", "Eero", "Fia"))
        assert screen.query_one("#row-total").region.right <= \
            screen.query_one("#side").region.x
        assert not screen.query_one("#too-small").display


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_six_names_are_shown_whole(service: GameService, size: tuple[int, int]) -> None:
    seats = (Seat("Ann"), Seat("Medium", "random"), Seat("Optimal", "random"),
             Seat("Cecilia"), Seat("Greedy 2", "greedy"), Seat("Random 2", "random"))
    setup = GameSetup(yatzy.ruleset("yatzy"), seats, seed=1, first_player="seat")
    app = YatzyApp(service, setup=setup, fast=True)
    async with app.run_test(size=size) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        rows = [screen.query_one(f"#row-header{n}") for n in ("", "-2")]
        header = " ".join(shown(row) for row in rows if row.display)
        for seat in seats:
            assert seat.name in header, (seat.name, header)
        for row in rows:
            assert row.region.right <= screen.query_one("#side").region.x
        total = screen.query_one("#row-total").region
        assert total.height == 1 and total.bottom <= size[1] - 1  # above the keys
        if size == (100, 30):  # room for every name on one line
            assert not rows[1].display


async def test_a_small_terminal_says_so_until_it_is_large_enough(
    service: GameService,
) -> None:
    app = solo(service, lang="sv")
    async with app.run_test(size=(70, 20)) as pilot:
        screen = game_screen(app)
        note = screen.query_one("#too-small")
        assert note.display and note.region.height > 0
        said = " ".join(shown(note).split())
        assert "Terminalen är för liten (70x20): spelet behöver 80x24" in said
        assert screen.query_one("#body").region.height == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not note.display
        assert screen.query_one("#row-total").region.bottom <= 23
        await pilot.resize_terminal(80, 23)  # one row short
        await pilot.pause()
        assert note.display


async def test_hint_shows_the_best_move_then_more(
    service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    rules = yatzy.ruleset("yatzy", order="in_order")
    app = solo(service, rules)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", "h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        best = yatzy.strategy(rules).advise(screen.table.game)[0]
        message = shown(screen.query_one("#message"))
        assert message.startswith("Hint: ") and f"{best.value:.1f}" in message
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        lines = shown(screen.query_one("#message")).splitlines()
        assert lines[0] == "Best moves (expected final score):" and lines[3].startswith("3. ")
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        message = screen.query_one("#message")
        lines = shown(message).splitlines()
        assert len(lines) == 6 and lines[-1].startswith("5. ")
        # Five options, each on one line of the (widened) side panel, all in sight.
        assert all(len(line) <= message.content_region.width for line in lines), lines
        assert len(lines) <= message.content_region.height


async def test_a_computer_at_a_readable_pace(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("yatzy.tui.screens.game.PACE", 0.02)
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Greedy", "greedy"), Seat("Ann")), seed=8)
    app = YatzyApp(service, setup=setup, fast=False, bot_seed=3)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")  # not Ann's turn: ignored
        for _ in range(100):
            if screen.table.game.current_player == "Ann":
                break
            await pilot.pause(0.02)
        game = screen.table.game
        assert game.current_player == "Ann" and game.history[0].player == "Greedy"
        assert game.history[0].action.dice is not None  # type: ignore[union-attr]


@pytest.mark.parametrize(("lang", "caption"), [("en", "1 held"), ("sv", "1 ✓")])
async def test_a_held_die_says_so_in_its_caption(
    service: GameService, lang: str, caption: str
) -> None:
    app = solo(service, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", "1")
        slot = screen.query_one("#dice").slots[0]  # type: ignore[attr-defined]
        assert shown(slot.caption) == caption
        assert slot.caption.region.width >= len(caption)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_held_captions_never_run_together(
    service: GameService, lang: str, size: tuple[int, int]
) -> None:
    app = solo(service, lang=lang)
    async with app.run_test(size=size) as pilot:
        screen = game_screen(app)
        await pilot.press("r", "1", "2", "3")
        slots = screen.query_one("#dice").slots  # type: ignore[attr-defined]
        captions = [slot.caption for slot in slots[:3]]
        for left, right in pairwise(captions):
            assert left.region.right < right.region.x, (lang, shown(left))
        for caption in captions:
            assert len(shown(caption)) <= caption.region.width


async def test_undo_takes_back_a_box(service: GameService) -> None:
    app = solo(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        rolled = screen.table.game
        points = rolled.choices()["chance"]
        await pilot.press(key("chance"))
        assert screen.table.game.scorecard("Ann")["chance"] == points
        await pilot.press("u")
        undone = screen.table.game
        assert undone.history == rolled.history and undone.dice == rolled.dice
        assert service.load(screen.table.saved.id).game == undone  # the undo is recorded
        assert "Ann takes back Chance: choose again." in shown(screen.query_one("#message"))
        await pilot.press("u")
        assert "Only the last box chosen can be taken back" in shown(
            screen.query_one("#message"))
        assert screen.table.game == undone



async def test_a_game_moved_on_in_another_window_is_shown_as_it_stands(
    service: GameService, db: Path,
) -> None:
    from yatzy.bootstrap import open_service

    app = solo(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        with open_service(db) as other:  # the same game in another window
            other.apply(screen.table.saved.id, yatzy.Score("sixes"))
            stored = other.load(screen.table.saved.id).game
        await pilot.press(key("chance"))  # on this screen's stale copy
        assert screen.table.game == stored
        assert screen.table.game.scorecard("Ann")["chance"] is None
        assert "changed elsewhere" in shown(screen.query_one("#message"))


async def test_w_shows_and_hides_the_win_chances(
    service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    rules = yatzy.ruleset("yatzy", order="in_order")
    setup = GameSetup(rules, (Seat("Ann"), Seat("Bo")), seed=7)
    app = YatzyApp(service, setup=setup, fast=True)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert "Win chances" not in shown(screen.query_one("#message"))  # off at first
        await pilot.press("r", "a")  # Ann fills Ones
        await settle(pilot)
        await pilot.press("w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        expected = yatzy.strategy(rules).win_chances(screen.table.game)
        line = shown(screen.query_one("#message")).splitlines()[0]
        assert line == "Win chances: " + " · ".join(
            f"{name} {100 * p:.1f}%" for name, p in expected.items())
        await pilot.press("r")  # the chances follow the game
        await app.workers.wait_for_complete()
        await pilot.pause()
        after = yatzy.strategy(rules).win_chances(screen.table.game)
        assert shown(screen.query_one("#message")).splitlines()[0].endswith(
            f"Bo {100 * after['Bo']:.1f}%")
        await pilot.press("w")
        await pilot.pause()
        assert "Win chances" not in shown(screen.query_one("#message"))


async def test_win_chances_are_worked_out_for_the_latest_move_only(
    service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves made while the chances are worked out do not each start a computation (a
    thread cannot be stopped): the one for the latest game follows the running one."""
    import time

    from yatzy.solver.policy import Strategy

    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    asked: list[int] = []
    real = Strategy.win_chances

    def slow(self: Strategy, game: yatzy.Game) -> dict[str, float]:
        asked.append(len(game.history))
        time.sleep(2.0 if len(asked) == 1 else 0.1)  # the moves come while the first works
        return real(self, game)

    monkeypatch.setattr(Strategy, "win_chances", slow)
    rules = yatzy.ruleset("yatzy", order="in_order")
    setup = GameSetup(rules, (Seat("Ann"), Seat("Bo")), seed=7)
    app = YatzyApp(service, setup=setup, fast=True)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("w")  # the start of the game: at work for two seconds
        await pilot.press("r", "1", "r", "1", "r")  # three moves meanwhile
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if not shown(screen.query_one("#message")).startswith("Win chances: working"):
                break
        game = screen.table.game
        # The first, then the latest; one in between at most, on a machine so slow that
        # a move came after the first was done (each move's own would give [0, 1, 2, 3]).
        assert asked[0] == 0 and asked[-1] == len(game.history) == 3
        assert asked == sorted(set(asked)) and len(asked) <= 3
        expected = real(yatzy.strategy(rules), game)
        assert shown(screen.query_one("#message")).splitlines()[0] == "Win chances: " + (
            " · ".join(f"{name} {100 * p:.1f}%" for name, p in expected.items()))


async def test_win_chances_need_two_players(service: GameService) -> None:
    app = solo(service, yatzy.ruleset("yatzy", order="in_order"))
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("w")
        await pilot.pause()
        assert shown(screen.query_one("#message")) == (
            "Win chances are for games of two players or more")
