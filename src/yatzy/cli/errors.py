"""The command's refusals, in the player's language.

Typed errors of the inner layers (:class:`~yatzy.core.errors.YatzyError` and the app's)
are translated by their ``code``; a command's own refusals of its input (a file too
big, a folder where a file is wanted) are :class:`CommandError`\\ s, whose text is a
catalog message with ``{placeholders}``.
"""

from __future__ import annotations

from typing import Any

from yatzy.app.errors import AmbiguousGameId, GameNotFound
from yatzy.cli.codes import CliCode
from yatzy.core.errors import BadInput, YatzyError
from yatzy.i18n import Translator
from yatzy.i18n.words import error_text


class CommandError(BadInput):
    """A command's refusal of its input. ``text`` is an English catalog message (marked
    with ``N_`` where it is raised) that :func:`error_message` translates, filled with
    ``params``.

    >>> from yatzy.i18n import N_, translator
    >>> error = CommandError(N_("Cannot read {file}: {reason}"), file="x", reason="?")
    >>> str(error), error_message(translator("en"), error)
    ('Cannot read x: ?', 'Cannot read x: ?')
    """

    code = CliCode.COMMAND

    def __init__(self, text: str, **params: Any) -> None:
        super().__init__(text.format(**params), **params)
        self.text = text


def error_message(t: Translator, error: YatzyError) -> str:
    """``error`` in ``t``'s language (one line, for ``yatzy: …`` on standard error)."""
    if isinstance(error, CommandError):
        return t._(error.text, **error.params)
    if isinstance(error, GameNotFound):
        return t._("No saved game has an id starting with {id}", id=error.game_id)
    if isinstance(error, AmbiguousGameId):
        return t._("Several saved games have an id starting with {id}: {ids}. "
                   "Give more of the id.", id=error.game_id, ids=", ".join(error.matches))
    return error_text(t, error)
