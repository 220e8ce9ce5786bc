"""The end of a game: the ranking (shared places for equal totals), every scorecard, and
for solitaire the player's best before this game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import Button, Static

from yatzy.app.table import Table
from yatzy.core.game import Game
from yatzy.i18n import Translator
from yatzy.i18n.words import ruleset_title
from yatzy.tui.screens.base import TranslatedScreen
from yatzy.tui.screens.review import ReviewScreen
from yatzy.tui.widgets.scorecard import ScorecardView, side_width


def ranking(game: Game) -> list[tuple[int, str, int]]:
    """``(place, player, total)`` best first; equal totals share a place."""
    standings = game.standings()
    return [(1 + sum(1 for _, other in standings if other > total), player, total)
            for player, total in standings]


def verdict(t: Translator, game: Game, best_before: int | None) -> str:
    """Who won (or shared the win); for solitaire, the score against the best."""
    if len(game.players) == 1:
        player = game.players[0]
        total = game.scorecard(player).total
        if best_before is None:
            return t._("{player} scored {total}: your first game of these rules.",
                       player=player, total=total)
        if total > best_before:
            return t._("{total}: a new best! Your best was {best}.", total=total,
                       best=best_before)
        return t._("{total}. Your best: {best}.", total=total, best=best_before)
    winners = game.winners()
    if len(winners) == 1:
        return t._("{player} wins!", player=winners[0])
    return t._("{players} share the win!", players=", ".join(winners))


class EndScreen(TranslatedScreen):
    """The final standings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "app.new_game", show=False),
        Binding("a", "review", show=False),
        Binding("q,escape", "app.quit", show=False),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__(id="end")
        self.table = table

    def compose(self) -> ComposeResult:
        game = self.table.game
        yield Static("", markup=False, id="title")
        with Horizontal(id="body"):
            yield ScorecardView(game.ruleset, game.players, id="scorecard")
            with Vertical(id="side"):
                yield Static("", markup=False, id="results")
                yield Button("", id="new", variant="primary")
                yield Button("", id="review")
                yield Button("", id="quit")
        yield Static("", markup=False, id="keys")

    def on_mount(self) -> None:
        self.fit_side(self.app.size.width)
        self.retranslate()

    def on_resize(self, event: Resize) -> None:
        self.fit_side(event.size.width)

    def fit_side(self, width: int) -> None:
        """Give the side panel the width the scorecard does not need."""
        self.query_one("#side").styles.width = side_width(width, self.table.game.players)

    def retranslate(self) -> None:
        t, game = self.t, self.table.game
        self.query_one("#title", Static).update(
            f"{ruleset_title(t, game.ruleset)}  ·  {t._('The game is over')}")
        self.query_one(ScorecardView).show(game, t)
        lines = [Text(verdict(t, game, self.table.best_before), style="bold"), Text()]
        for place, player, total in ranking(game):
            lines.append(Text(f"{place}. {player:<12} {total:>4}"))
        self.query_one("#results", Static).update(Text("\n").join(lines))
        self.query_one("#new", Button).label = t._("New game (n)")
        self.query_one("#review", Button).label = t._("Analysis (a)")
        self.query_one("#quit", Button).label = t._("Quit (q)")
        self.query_one("#keys", Static).update(t._("n new game · a analysis · l language · q quit"))

    @on(Button.Pressed, "#new")
    def new_pressed(self) -> None:
        self.app.action_new_game()

    @on(Button.Pressed, "#review")
    def action_review(self) -> None:
        """Show what every decision cost against optimal play."""
        self.app.push_screen(ReviewScreen(self.table.game))

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit()
