"""The set-up screen: choosing rules, options, players and dice; continuing a game."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

import yatzy
from tests.tui.helpers import game_screen, shown
from yatzy.app import GameService, SavedGame, Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.screens.dialogs import DiceEntryScreen
from yatzy.tui.screens.resume import ResumeScreen
from yatzy.tui.screens.setup import GameSetup, SetupScreen

SIZE = (80, 24)


@pytest.mark.asyncio
async def test_yahtzee_with_options_and_real_dice(service: GameService) -> None:
    app = YatzyApp(service, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.query_one("#opt-joker-field").display is False
        setup.query_one("#rules", Select).value = "yahtzee"
        await pilot.pause()
        assert setup.query_one("#opt-yahtzee_bonus-field").display is True
        assert setup.query_one("#opt-order-field").display is False
        setup.query_one("#opt-joker", Select).value = "gated"
        setup.query_one("#dice", Select).value = "manual"
        await pilot.click("#players")
        await pilot.press(*"Ann", "enter")
        screen = game_screen(app)
        assert screen.table.game.ruleset == yatzy.ruleset("yahtzee", joker="gated")
        assert screen.table.manual
        assert "gated Joker" in shown(screen.query_one("#title"))
        await pilot.press("r")
        assert isinstance(app.screen, DiceEntryScreen)


@pytest.mark.asyncio
async def test_yahtzee_variants_and_first_player(service: GameService) -> None:
    app = YatzyApp(service, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        order: Select[str] = setup.query_one("#opt-order", Select)
        assert [v for _, v in order._options] == ["free", "upper_first", "in_order"]
        rolls: Select[str] = setup.query_one("#opt-rolls", Select)
        assert [v for _, v in rolls._options] == [str(n) for n in range(1, 11)]
        setup.query_one("#rules", Select).value = "yahtzee"
        await pilot.pause()
        assert setup.query_one("#first", Select).value == "rules"
        setup.query_one("#opt-upper_first", Select).value = "on"
        setup.query_one("#opt-yahtzee_bonus", Select).value = "off"
        setup.query_one("#first", Select).value = "seat"
        await pilot.click("#players")
        await pilot.press(*"Ann,Bo", "enter")
        game = game_screen(app).table.game
        assert game.ruleset == yatzy.ruleset("yahtzee", upper_first=True, yahtzee_bonus=False)
        assert game.roll_offs == () and game.current_player == "Ann"


@pytest.mark.asyncio
async def test_a_roll_off_chosen_on_the_set_up_screen(service: GameService) -> None:
    app = YatzyApp(service, fast=True)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#first", Select).value = "roll"
        await pilot.click("#players")
        await pilot.press(*"Ann,Bo", "enter")
        await pilot.pause()
        [saved] = service.recent(finished=False)
        assert isinstance(saved, SavedGame)
        game = saved.game
        assert game.ruleset == yatzy.ruleset("yatzy")
        assert len(game.roll_offs) >= 2


def test_the_default_first_player() -> None:
    two = (Seat("Ann"), Seat("Bo"))
    assert GameSetup(yatzy.ruleset("yahtzee"), two).first == "roll"
    assert GameSetup(yatzy.ruleset("yahtzee"), two[:1]).first == "seat"
    assert GameSetup(yatzy.ruleset("yatzy"), two).first == "seat"
    assert GameSetup(yatzy.ruleset("yatzy"), two, first_player="roll").first == "roll"


@pytest.mark.asyncio
async def test_an_unfinished_game_can_be_continued(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
    service.apply(saved.id, yatzy.Roll())
    service.create(yatzy.ruleset("yatzy"), [Seat("Bo")], seed=1)  # nobody moved: not counted
    app = YatzyApp(service, fast=True, lang="nb")
    async with app.run_test(size=SIZE) as pilot:
        hint = shown(app.screen.query_one("#resume-hint"))
        assert hint == "1 uferdig spill: ctrl+r for å fortsette det"
        await pilot.press("ctrl+r")
        assert isinstance(app.screen, ResumeScreen)


@pytest.mark.asyncio
async def test_the_set_up_screen_keeps_the_seed_and_first_player(service: GameService) -> None:
    app = YatzyApp(service, fast=True)
    app.last_setup = GameSetup(yatzy.ruleset("yahtzee"), (Seat("Ann"), Seat("Bo")),
                               first_player="seat", seed=42)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        await pilot.pause()
        assert setup.query_one("#first", Select).value == "seat"
        await pilot.click("#start")
        await pilot.pause()
        game = game_screen(app).table.game
        assert game.seed == 42 and game.roll_offs == ()
        assert app.last_setup is not None and app.last_setup.seed is None


@pytest.mark.asyncio
async def test_the_offered_name_is_the_languages_word_for_a_player(
    service: GameService,
) -> None:
    from yatzy.cli.play import default_name
    from yatzy.i18n import translator
    from yatzy.tui.seats import parse_seats

    app = YatzyApp(service, fast=True, lang="sv")
    name = default_name(translator("sv"), {})  # no $USER
    app.last_setup = GameSetup(yatzy.ruleset("yatzy"), parse_seats(name, ()))
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        players = setup.query_one("#players", Input)
        assert players.value == "Spelaren"
        app.set_language("en")  # a name never typed follows the language
        assert players.value == "Player"
        app.set_language("sv")
        await pilot.press("enter")
        assert "Spelarens tur" in shown(game_screen(app).query_one("#turn"))


@pytest.mark.asyncio
async def test_a_typed_name_stays_when_the_language_changes(service: GameService) -> None:
    app = YatzyApp(service, fast=True, lang="sv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"Spelare")
        app.set_language("da")
        assert app.screen.query_one("#players", Input).value == "Spelare"
