"""What every screen shares: the player's language, redrawn when it changes, and a
word when the terminal is too small."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from yatzy.i18n import Translator

ResultType = TypeVar("ResultType")

#: The smallest terminal the game fits (the classic 80x24).
MIN_WIDTH, MIN_HEIGHT = 80, 24


class Translated:
    """A screen whose texts come from the app's :class:`Translator`."""

    app: Any

    @property
    def t(self) -> Translator:
        """The player's language."""
        translator: Translator = self.app.t
        return translator

    def retranslate(self) -> None:
        """Redraw every text in the current language (after a language switch)."""


class TooSmall(Static):
    """Says that the terminal is smaller than the game needs (instead of rows vanishing
    without a word); shown by the stylesheet through the app's size breakpoints."""

    def __init__(self) -> None:
        super().__init__(id="too-small")

    def render(self) -> str:
        app: Any = self.app  # the YatzyApp, with the player's language
        t: Translator = app.t
        width, height = app.size
        return t._("The terminal is too small ({size}): the game needs {needed}. Make the "
                   "window larger, or press ctrl+c to quit.", size=f"{width}x{height}",
                   needed=f"{MIN_WIDTH}x{MIN_HEIGHT}")


class TranslatedScreen(Translated, Screen[None]):
    """A full screen with translated texts, and what it says in a terminal too small."""

    DEFAULT_CLASSES = "full-screen"

    def on_mount(self) -> None:  # Textual calls it after the subclass's own on_mount
        self.mount(TooSmall())


class TranslatedModal(Translated, ModalScreen[ResultType], Generic[ResultType]):
    """A dialog with translated texts that returns a ``ResultType``."""
