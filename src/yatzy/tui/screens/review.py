"""The review of a finished game: each player's decisions priced by the optimal strategy."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message as TextualMessage
from textual.widgets import Static

from yatzy.app.review import review_text
from yatzy.core.errors import YatzyError
from yatzy.core.game import Game
from yatzy.i18n.words import error_text, ruleset_title
from yatzy.solver.analysis import Analysis
from yatzy.tui.screens.base import TranslatedScreen


class ReviewScreen(TranslatedScreen):
    """What every decision of ``game`` cost; Escape goes back."""

    class Analysed(TextualMessage):
        """The analysis is ready (posted from its thread)."""

        def __init__(self, analysis: Analysis | None, error: YatzyError | None) -> None:
            super().__init__()
            self.analysis = analysis
            self.error = error

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,a,b", "app.pop_screen", show=False),
        Binding("q", "app.quit", show=False),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__(id="review")
        self.game = game
        self.analysis: Analysis | None = None
        self.error: YatzyError | None = None

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, id="title")
        with VerticalScroll(id="body"):
            yield Static("", markup=False, id="review-text")
        yield Static("", markup=False, id="keys")

    def on_mount(self) -> None:
        self.retranslate()
        self.analyse()

    @work(thread=True, exclusive=True, group="review")
    def analyse(self) -> None:
        """Price every decision, off the screen's thread (it may build a table)."""
        from yatzy.solver.analysis import analyse

        try:
            self.post_message(self.Analysed(analyse(self.game), None))
        except YatzyError as error:
            self.post_message(self.Analysed(None, error))

    @on(Analysed)
    def analysed(self, event: Analysed) -> None:
        self.analysis, self.error = event.analysis, event.error
        self.retranslate()

    def retranslate(self) -> None:
        t = self.t
        heading = t._("Analysis")
        self.query_one("#title", Static).update(
            f"{ruleset_title(t, self.game.ruleset)}  ·  {heading}")
        if self.error is not None:
            text = error_text(t, self.error)
        elif self.analysis is None:
            text = t._("Analysing the game…")
        else:
            text = review_text(t, self.analysis)
        self.query_one("#review-text", Static).update(text)
        self.query_one("#keys", Static).update(t._("Escape back · q quit"))
