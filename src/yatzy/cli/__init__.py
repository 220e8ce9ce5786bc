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
    "yatzy.cli.score",
    "yatzy.cli.solve",
    "yatzy.cli.simulate",
    "yatzy.cli.analyse",
    "yatzy.cli.stats",
    "yatzy.cli.games",
)


def build_parser(t: Translator | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command; it refuses bad option values in
    ``t``'s language (English by default)."""
    t = t or translator("en")
    parser = argparse.ArgumentParser(
        prog="yatzy",
        description="Scandinavian Yatzy and Yahtzee: play, score and solve.",
    )
    parser.add_argument("--version", action="version", version=f"yatzy {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers, t)
    return parser


def _starts_without_command(words: list[str]) -> bool:
    if not words:
        return True
    first = words[0]
    return first.startswith("-") and first not in ("-h", "--help", "--version")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``yatzy`` command; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if _starts_without_command(words):
        # `yatzy` and `yatzy --players Ann,Bo` play, as `yatzy play ...` does.
        words = ["play", *words]
    parser = build_parser(translator(language_asked(words, os.environ)))
    args = parser.parse_args(words)
    try:
        return int(args.handler(args) or 0)
    except YatzyError as exc:
        print(f"yatzy: {error_message(command_translator(args), exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`yatzy games --json | head`): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
