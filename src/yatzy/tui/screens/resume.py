"""The list of unfinished games, to continue one (``yatzy play --resume``). A game that
can no longer be read is listed, marked, to be deleted; it cannot be continued."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from yatzy.app import DamagedGame, ListedGame, SavedGame
from yatzy.i18n import Translator
from yatzy.i18n.words import ruleset_title
from yatzy.tui.screens.base import TranslatedScreen
from yatzy.tui.screens.dialogs import ConfirmScreen


def describe(t: Translator, saved: ListedGame) -> str:
    """One line about a saved game: rules, players, round, when last played (or, for a
    damaged game, that it is and why)."""
    if isinstance(saved, DamagedGame):
        when = ("?" if saved.updated_at is None
                else saved.updated_at.astimezone().strftime("%Y-%m-%d %H:%M"))
        return f"{when}  " + t._("Damaged, cannot be continued ({reason}): d deletes it",
                                 reason=saved.reason)
    game = saved.game
    when = saved.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")
    rounds = len(game.ruleset.boxes)
    return (f"{when}  {ruleset_title(t, game.ruleset)} · {', '.join(game.players)} · "
            + t._("Round {round} of {rounds}", round=game.round, rounds=rounds))


class ResumeScreen(TranslatedScreen):
    """Pick a saved game; Enter continues it, ``d`` deletes it, ``n`` starts a new one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d,delete", "delete", show=False),
        Binding("n", "new", show=False),
        Binding("escape,q", "app.quit", show=False),
    ]

    def __init__(self, games: list[ListedGame]) -> None:
        super().__init__(id="resume")
        self.games = games

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, id="title")
        with Vertical(id="form"):
            yield OptionList(id="saved-games")
            yield Static("", markup=False, id="resume-empty", classes="hint")
        yield Static("", markup=False, id="keys")

    def on_mount(self) -> None:
        self.retranslate()
        self.query_one(OptionList).focus()

    def retranslate(self) -> None:
        t = self.t
        self.query_one("#title", Static).update(t._("Unfinished games"))
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options([Option(Text(describe(t, g)), id=g.id) for g in self.games])
        if self.games:
            options.highlighted = min(highlighted or 0, len(self.games) - 1)
        self.query_one("#resume-empty", Static).update(
            "" if self.games else t._("No unfinished games."))
        self.query_one("#keys", Static).update(
            t._("Enter continue · d delete · n new game · l language · q quit"))

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        saved = next(g for g in self.games if g.id == event.option.id)
        if isinstance(saved, SavedGame):
            self.app.resume_game(saved)
        else:
            self.app.bell()  # a damaged game cannot be continued (its line says so)

    def action_new(self) -> None:
        self.app.show_setup()

    def action_delete(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or not self.games:
            return
        saved = self.games[index]

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.service.delete(saved.id)
                self.games = [g for g in self.games if g.id != saved.id]
                self.retranslate()

        if isinstance(saved, DamagedGame):
            self.app.push_screen(ConfirmScreen(
                lambda t: t._("Delete the damaged game {id}?", id=saved.id[:8])), answered)
            return
        players = ", ".join(saved.game.players)
        self.app.push_screen(ConfirmScreen(
            lambda t: t._("Delete the game of {players}?", players=players)), answered)
