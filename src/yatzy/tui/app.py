"""The terminal game: a Textual app over the game service.

>>> from yatzy.bootstrap import open_service
>>> app = YatzyApp(open_service("sqlite://"), lang="fi")
>>> app.t._("Roll (r)")
'Heitä (r)'
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import platformdirs
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from yatzy.app import GameService, SavedGame
from yatzy.app.advice import AdviceService
from yatzy.app.table import Table
from yatzy.core.dice import Dice
from yatzy.core.errors import YatzyError
from yatzy.core.game import Game, roll_off_next
from yatzy.i18n import Translator, translator
from yatzy.i18n.words import error_text
from yatzy.tui.screens.base import MIN_HEIGHT, MIN_WIDTH, Translated
from yatzy.tui.screens.dialogs import DiceEntryScreen, LanguageScreen
from yatzy.tui.screens.end import EndScreen
from yatzy.tui.screens.game import GameScreen
from yatzy.tui.screens.resume import ResumeScreen
from yatzy.tui.screens.setup import GameSetup, SetupScreen


def write_crash_log(error: BaseException | None) -> Path:
    """Append ``error``'s traceback to the crash log in the user's log folder; returns
    the log's path."""
    folder = Path(platformdirs.user_log_dir("yatzy"))
    path = folder / "crash.log"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write("".join(traceback.format_exception(error)) if error else "?\n")
    except OSError:
        pass
    return path


def roll_off_text(t: Translator, game: Game) -> str:
    """The roll-off for the first player, roll by roll, and who starts."""
    lines = [t._("Roll-off: the highest sum starts.")]
    for roll in game.roll_offs:
        lines.append(f"  {roll.player}: {roll.dice}  = {sum(roll.dice)}")
    lines.append(t._("{player} starts.", player=game.players[game.starter]))
    return "\n".join(lines)


class _Backdrop(Screen[None]):
    """An empty screen behind a dialog shown before any other screen."""

    def compose(self) -> ComposeResult:
        yield Static("", markup=False)


class YatzyApp(App[None]):
    """``yatzy play``: set up or resume a game, play it, see who won."""

    CSS_PATH = "styles.tcss"
    TITLE = "Yatzy"
    ENABLE_COMMAND_PALETTE = False
    #: Below 80x24 the screens say the terminal is too small (styles.tcss). (Textual
    #: types these as instance variables, so a ClassVar annotation would not match.)
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-wide-enough")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-tall-enough")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l,ctrl+l", "language", show=False),
        Binding("ctrl+c", "save_and_quit", show=False, priority=True),
        Binding("ctrl+q", "save_and_quit", show=False, priority=True),
    ]

    def __init__(
        self,
        service: GameService,
        *,
        lang: str = "en",
        setup: GameSetup | None = None,
        resume: bool = False,
        fast: bool = False,
        bot_seed: int | None = None,
        game: SavedGame | None = None,
    ) -> None:
        """``setup`` starts a new game (the set-up screen without it), ``resume`` lists
        the unfinished ones, ``game`` plays that saved game on."""
        super().__init__()
        self.service = service
        self.game = game
        self.t = translator(lang)
        self.setup = setup
        self.resume = resume
        self.fast = fast
        self.bot_seed = bot_seed
        self.last_setup: GameSetup | None = setup
        #: Hints and win chances, worked out on a thread of their own.
        self.advice = AdviceService(workers=1)

    def on_unmount(self) -> None:
        self.advice.close()

    # --- Screens ---------------------------------------------------------------------

    def on_mount(self) -> None:
        if self.game is not None:
            self.resume_game(self.game)
        elif self.resume:
            self.show_resume()
        elif self.setup is not None:
            self.start_game(self.setup)
        else:
            self.show_setup()

    def _show(self, screen: Screen[None]) -> None:
        if len(self.screen_stack) <= 1:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def show_setup(self, previous: GameSetup | None = None) -> None:
        """The set-up screen (filled in from ``previous``)."""
        self._show(SetupScreen(previous or self.last_setup))

    def action_show_resume(self) -> None:
        """The list of unfinished games (a key on the set-up screen)."""
        self.show_resume()

    def show_resume(self) -> None:
        """The list of unfinished games."""
        self._show(ResumeScreen(self.service.unfinished()))

    def start_game(self, setup: GameSetup) -> None:
        """Create the game ``setup`` describes and play it (after a roll-off with real
        dice when the first player is rolled for in scorepad mode)."""
        if setup.dice_mode == "manual" and setup.first == "roll" and len(setup.seats) > 1:
            self._roll_off_by_hand(setup, [])
        else:
            self._create(setup, None)

    def _roll_off_by_hand(self, setup: GameSetup, given: list[list[int]]) -> None:
        names = [seat.name for seat in setup.seats]
        player = roll_off_next(names, [sum(d) for d in given])
        if player is None:
            self._create(setup, given)
            return
        count = setup.rules.dice_count
        prompt = "\n".join([
            self.t._("Roll-off: the highest sum starts."),
            *(f"  {name}: {' '.join(map(str, dice))} = {sum(dice)}"
              for name, dice in zip(self._roll_order(setup, given), given, strict=True)),
            self.t._("{player}: type the {n} dice you rolled", player=player, n=count),
        ])

        def typed(dice: Dice | None) -> None:
            if dice is None:
                self.show_setup(setup)
            else:
                self._roll_off_by_hand(setup, [*given, list(dice)])

        self._show_dialog(DiceEntryScreen(prompt, count), typed)

    @staticmethod
    def _roll_order(setup: GameSetup, given: list[list[int]]) -> list[str]:
        names = [seat.name for seat in setup.seats]
        sums = [sum(d) for d in given]
        return [str(roll_off_next(names, sums[:i])) for i in range(len(given))]

    def _show_dialog(
        self, dialog: DiceEntryScreen, callback: Callable[[Dice | None], None]
    ) -> None:
        if len(self.screen_stack) <= 1:
            self.push_screen(_Backdrop())
        self.push_screen(dialog, callback)

    def _create(self, setup: GameSetup, roll_off_dice: list[list[int]] | None) -> None:
        try:
            saved = self.service.create(
                setup.rules, setup.seats, seed=setup.seed, first_player=setup.first,
                roll_off_dice=roll_off_dice, dice_mode=setup.dice_mode,
            )
        except YatzyError as error:
            self.exit(return_code=2, message=error_text(self.t, error))
            return
        # A seed replays one game: the games after it get new dice.
        self.last_setup = replace(setup, seed=None)
        game = saved.game
        notice = roll_off_text(self.t, game) if game.roll_offs else None
        self._play(saved, notice)

    def resume_game(self, saved: SavedGame) -> None:
        """Continue a saved game."""
        self.last_setup = GameSetup(saved.game.ruleset, saved.seats, saved.dice_mode)
        self._play(saved, None)

    def _play(self, saved: SavedGame, notice: str | None) -> None:
        table = Table.open(self.service, saved, seed=self.bot_seed)
        self._show(GameScreen(table, fast=self.fast, notice=notice))

    def show_end(self, table: Table) -> None:
        """The final standings of the game at ``table``."""
        self._show(EndScreen(table))

    # --- Actions ---------------------------------------------------------------------

    def action_new_game(self) -> None:
        """Another game with the same rules and players (or the set-up screen)."""
        if self.last_setup is None:
            self.show_setup()
        else:
            self.start_game(self.last_setup)

    def action_language(self) -> None:
        """Choose the language."""
        if isinstance(self.screen, LanguageScreen):
            return

        def chosen(lang: str | None) -> None:
            if lang:
                self.set_language(lang)

        self.push_screen(LanguageScreen(self.t.lang), chosen)

    def set_language(self, lang: str) -> None:
        """Switch every text to ``lang`` at once."""
        self.t = translator(lang)
        for screen in self.screen_stack:
            if isinstance(screen, Translated):
                screen.retranslate()

    def _fatal_error(self) -> None:
        """An unexpected error: tell the player in their words, without a traceback
        (which goes to the crash log; ``YATZY_DEBUG=1`` shows it instead). Every move
        played is already saved.

        Textual has no public hook for an unhandled error, so this overrides its private
        ``_fatal_error`` (and reads ``_exception``); ``pyproject.toml`` pins Textual's
        major version for that, and ``tests/tui/test_app.py`` checks the message.
        The message itself leaves through the public :meth:`panic`."""
        if os.environ.get("YATZY_DEBUG"):
            super()._fatal_error()
            return
        error = self._exception
        where = write_crash_log(error)
        self.bell()
        self.panic(Text(self.t._(
            "yatzy stopped on an unexpected error ({error}). Every move is saved: "
            "continue with yatzy play --resume. Details: {log}",
            error=type(error).__name__ if error else "?", log=where)))

    def action_save_and_quit(self) -> None:
        """Quit; a game in progress is already saved, so say how to continue it."""
        playing = any(isinstance(s, GameScreen) and not s.table.game.is_over
                      for s in self.screen_stack)
        if playing:
            self.exit(message=self.t._("Saved. Continue with: yatzy play --resume"))
        else:
            self.exit()
