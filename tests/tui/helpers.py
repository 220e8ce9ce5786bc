"""Helpers for the pilot tests: read what a widget shows, play a turn by keys."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widget import Widget

from yatzy.tui.app import YatzyApp
from yatzy.tui.screens.dialogs import ConfirmScreen
from yatzy.tui.screens.game import GameScreen
from yatzy.tui.widgets.scorecard import box_keys


def shown(widget: Widget) -> str:
    """The plain text a widget shows."""
    return str(widget.render())


def game_screen(app: YatzyApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), f"expected the game, not {screen!r}"
    return screen


async def settle(pilot: Pilot[None]) -> None:
    """Wait until computer players and pending callbacks are done."""
    for _ in range(200):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = pilot.app.screen
        if not isinstance(screen, GameScreen) or not screen.bot_busy:
            return
    raise AssertionError("the computer players never finished")


async def play_best_box(pilot: Pilot[None], app: YatzyApp) -> None:
    """Roll once and fill the box with the most points, by keys (confirming a zero)."""
    screen = game_screen(app)
    await pilot.press("r")
    choices = screen.table.game.choices()
    box = max(choices, key=lambda b: choices[b])
    key = {b: k for k, b in box_keys(screen.table.game.ruleset).items()}[box]
    await pilot.press(key)
    if choices[box] == 0:
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
    await settle(pilot)
