"""``yatzy play``: the full-screen terminal game (the default command)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

from yatzy.bots import UnknownBot, bot_names, check_level
from yatzy.cli.errors import CommandError
from yatzy.cli.options import (
    add_language_argument,
    add_ruleset_arguments,
    command_translator,
    ruleset_from_args,
    whole_number,
)
from yatzy.core.seeded import MAX_SEED
from yatzy.i18n import N_, Translator
from yatzy.i18n.words import default_player_name


def register(subparsers: Any, t: Translator) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal (the default command)",
        description=(
            "Play Yatzy or Yahtzee in the terminal, alone or with up to 6 people and "
            "computer players. Without --players a set-up screen asks. Every move is "
            "saved at once: quit any time and continue with --resume."
        ),
    )
    add_ruleset_arguments(parser, t)
    parser.add_argument(
        "--players", metavar="LIST",
        help='players in seat order, e.g. "Ann,Bo,cpu:greedy" (cpu:LEVEL or NAME:LEVEL '
             "is a computer player)",
    )
    parser.add_argument("--dice", choices=("auto", "manual"), default="auto",
                        help="manual: type in the dice of real dice (scorepad mode)")
    parser.add_argument("--first", choices=("seat", "roll"),
                        help="who starts: the first seat, or a roll-off (default: roll-off"
                             " for multi-player Yahtzee)")
    parser.add_argument("--seed", type=whole_number(t, 0, MAX_SEED),
                        help="seed of the dice, to replay a game")
    parser.add_argument("--resume", action="store_true",
                        help="list the unfinished games and continue one")
    parser.add_argument("--db", metavar="PATH",
                        help="the game database (default: $YATZY_DB or the user data folder)")
    add_language_argument(parser)
    parser.add_argument("--fast", action="store_true",
                        help="computer players move at once instead of at a readable pace")
    parser.set_defaults(handler=run)


def default_name(t: Translator, environ: Mapping[str, str]) -> str:
    """The name the set-up screen offers: the login name (``$USER``, capitalised), else
    the language's word for a player.

    >>> from yatzy.i18n import translator
    >>> default_name(translator("da"), {"USER": "ann"}), default_name(translator("da"), {})
    ('Ann', 'Spilleren')
    """
    name = environ.get("USER", "").strip().capitalize()
    return name or default_player_name(t)


def run(args: argparse.Namespace) -> int:
    """Start the terminal game with the options in ``args``."""
    from yatzy.bootstrap import open_service
    from yatzy.tui.app import YatzyApp
    from yatzy.tui.screens.setup import GameSetup
    from yatzy.tui.seats import parse_seats

    t = command_translator(args)
    if args.dice == "manual" and args.seed is not None:
        raise CommandError(N_("A game with real dice takes no seed"))
    rules = ruleset_from_args(args)
    setup = None
    if args.players is not None:
        try:
            seats = parse_seats(args.players, bot_names(), rules)
        except UnknownBot as unknown:
            check_level(unknown.params.get("bot"))  # a level that cannot play here says so
            raise
        setup = GameSetup(rules, seats, args.dice, args.first, args.seed)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # The screen would wait for keys that never come (or draw into a pipe).
        raise CommandError(N_("yatzy play needs a terminal: its input and output cannot "
                              "be a file or a pipe"))
    service = open_service(args.db, follow=True)  # moves made elsewhere are shown
    app = YatzyApp(service, lang=t.lang, setup=setup, resume=args.resume, fast=args.fast,
                   bot_seed=args.seed)
    if setup is None and not args.resume:
        name = default_name(t, os.environ)
        app.last_setup = GameSetup(rules, parse_seats(name, ()), args.dice,
                                   args.first, args.seed)
    try:
        app.run()
    finally:
        service.close()
    return app.return_code or 0
