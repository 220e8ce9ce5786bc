"""The ``yatzy`` command. Each sub-command lives in its own module with a
``register(subparsers)`` function; :data:`COMMAND_MODULES` lists them."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from yatzy import __version__
from yatzy.core.errors import YatzyError

#: Modules that each add one or more sub-commands, in the order of ``yatzy --help``.
COMMAND_MODULES = (
    "yatzy.cli.play",
    "yatzy.cli.score",
    "yatzy.cli.solve",
    "yatzy.cli.stats",
    "yatzy.cli.games",
    "yatzy.cli.serve",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="yatzy",
        description="Scandinavian Yatzy and Yahtzee: play, score and solve.",
    )
    parser.add_argument("--version", action="version", version=f"yatzy {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def _starts_without_command(words: list[str]) -> bool:
    if not words:
        return True
    first = words[0]
    return first.startswith("-") and first not in ("-h", "--help", "--version")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``yatzy`` command; returns the exit status."""
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if _starts_without_command(words):
        # `yatzy` and `yatzy --players Ann,Bo` play, as `yatzy play ...` does.
        words = ["play", *words]
    args = parser.parse_args(words)
    try:
        return int(args.handler(args) or 0)
    except YatzyError as exc:
        print(f"yatzy: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`yatzy games --json | head`): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
