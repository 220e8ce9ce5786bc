"""The ``yatzy`` command. Each sub-command lives in its own module with a
``register(subparsers, t)`` function; :data:`COMMAND_MODULES` lists them.

Every command speaks the player's language (``--lang``, else ``LANG``) and ends a
refusal with one line ``yatzy: …`` on standard error and exit status 2: a handler
raises a typed error (:class:`~yatzy.core.errors.YatzyError`) and :func:`main`
translates it.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Sequence

from yatzy import __version__
from yatzy.cli.errors import error_message
from yatzy.cli.options import command_translator, language_asked
from yatzy.core.errors import YatzyError
from yatzy.i18n import Translator, translator

#: Modules that each add one or more sub-commands, in the order of ``yatzy --help``.
COMMAND_MODULES = (
    "yatzy.cli.play",
    "yatzy.cli.daily",
    "yatzy.cli.score",
    "yatzy.cli.solve",
    "yatzy.cli.simulate",
    "yatzy.cli.match",
    "yatzy.cli.analyse",
    "yatzy.cli.stats",
    "yatzy.cli.games",
    "yatzy.cli.serve",
)


#: The module that adds each sub-command: running one imports only its own module (a
#: test holds this to what the modules add).
COMMAND_OF = {
    "play": "yatzy.cli.play",
    "daily": "yatzy.cli.daily",
    "score": "yatzy.cli.score",
    "solve": "yatzy.cli.solve",
    "advise": "yatzy.cli.solve",
    "simulate": "yatzy.cli.simulate",
    "match": "yatzy.cli.match",
    "analyse": "yatzy.cli.analyse",
    "analyze": "yatzy.cli.analyse",
    "stats": "yatzy.cli.stats",
    "games": "yatzy.cli.games",
    "serve": "yatzy.cli.serve",
}


def build_parser(t: Translator | None = None, command: str | None = None
                 ) -> argparse.ArgumentParser:
    """The argument parser with every sub-command, or with ``command``'s only when it is
    one (what running it needs: the other commands' modules are not imported); it
    refuses bad option values in ``t``'s language (English by default)."""
    t = t or translator("en")
    parser = argparse.ArgumentParser(
        prog="yatzy",
        description="Scandinavian Yatzy and Yahtzee: play, score and solve.",
    )
    parser.add_argument("--version", action="version", version=f"yatzy {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = (COMMAND_OF[command],) if command in COMMAND_OF else COMMAND_MODULES
    for name in modules:
        importlib.import_module(name).register(subparsers, t)
    return parser


def _starts_without_command(words: list[str]) -> bool:
    if not words:
        return True
    first = words[0]
    return first.startswith("-") and first not in ("-h", "--help", "--version")


def _not_text(word: str) -> bool:
    """True for an argument whose bytes were not text in the system's encoding: Python
    keeps them as lone surrogates, which can be neither printed nor stored."""
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _shown(word: str) -> str:
    """An argument that is not text, with its odd bytes written as ``\\xff``."""
    return word.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _fail(text: str) -> int:
    """Say ``text`` on one line of standard error; the exit status of a refusal."""
    print("yatzy: " + " ".join(text.split()), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``yatzy`` command; returns the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # Text from a record or a database may hold what the terminal cannot show.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    words = list(sys.argv[1:] if argv is None else argv)
    if _starts_without_command(words):
        # `yatzy` and `yatzy --players Ann,Bo` play, as `yatzy play ...` does.
        words = ["play", *words]
    t = translator(language_asked(words, os.environ))
    odd = [word for word in words if _not_text(word)]
    if odd:
        return _fail(t._("{word} is not text in the system's encoding", word=_shown(odd[0])))
    parser = build_parser(t, words[0])
    args = parser.parse_args(words)
    try:
        return int(args.handler(args) or 0)
    except YatzyError as exc:
        return _fail(error_message(command_translator(args), exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`yatzy games --json | head`): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
