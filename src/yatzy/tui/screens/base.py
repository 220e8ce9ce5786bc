"""What every screen shares: the player's language, redrawn when it changes."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from textual.screen import ModalScreen, Screen

from yatzy.i18n import Translator

ResultType = TypeVar("ResultType")


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


class TranslatedScreen(Translated, Screen[None]):
    """A full screen with translated texts."""


class TranslatedModal(Translated, ModalScreen[ResultType], Generic[ResultType]):
    """A dialog with translated texts that returns a ``ResultType``."""
