"""``yatzy daily``: today's daily challenge in the terminal game, offline and unranked;
or, with ``--server URL``, that server's ranked challenge over its HTTP API
(:mod:`yatzy.cli.daily_online`).

Offline there is no server's secret: the game's seed is
:func:`yatzy.app.players.offline_seed` for the ruleset and the UTC day, the same for
everyone playing offline that day (so players can compare), and never ranked.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from yatzy.cli.errors import CommandError
from yatzy.cli.options import add_language_argument, command_translator
from yatzy.core.rulesets import ruleset_names
from yatzy.i18n import N_, Translator

if TYPE_CHECKING:
    from yatzy.app import GameService, SavedGame
    from yatzy.core.rulesets import Ruleset
    from yatzy.core.seeded import Seed


def register(subparsers: Any, t: Translator) -> None:
    parser = subparsers.add_parser(
        "daily",
        help="play today's daily challenge: offline (unranked), or on a server (ranked)",
        description=(
            "Play today's daily challenge (UTC) alone in the terminal: the ruleset's "
            "standard options and the day's dice, the same for everyone who plays it "
            "offline today. Offline attempts are not ranked. With --server, play that "
            "server's challenge instead: ranked, one attempt a day, as in the browser."
        ),
    )
    parser.add_argument("--rules", choices=ruleset_names(), default="yatzy",
                        help="the ruleset (default: yatzy, Scandinavian)")
    parser.add_argument("--db", metavar="PATH",
                        help="the game database (default: $YATZY_DB or the user data folder)")
    parser.add_argument("--server", metavar="URL",
                        help="play the day's ranked challenge of the yatzy server at URL "
                             "(http://host:port) over its HTTP API; the player key is kept "
                             "in your config folder")
    add_language_argument(parser)
    parser.set_defaults(handler=run)


#: The most unfinished games of the player on today's dice searched for today's attempt
#: (there is one: an attempt left unfinished is played on, not started again).
RESUME_LOOK = 20


def todays_attempt(service: GameService, rules: Ruleset, seed: Seed,
                   name: str) -> SavedGame | None:
    """The player's attempt of today's offline challenge (``seed``) left unfinished, to
    play on; ``None`` when there is none. Found by its seed, however many other games
    the player has left unfinished since."""
    from yatzy.app import SavedGame

    latest = service.recent(RESUME_LOOK, finished=False, player=name, seed=seed)
    return next((saved for saved in latest if isinstance(saved, SavedGame)
                 and saved.game.ruleset == rules
                 and [seat.name for seat in saved.seats] == [name]), None)


def run(args: argparse.Namespace) -> int:
    """Start today's offline challenge in the terminal game."""
    from yatzy.app.players import offline_seed
    from yatzy.bootstrap import open_service
    from yatzy.cli.play import default_name
    from yatzy.core.rulesets import ruleset
    from yatzy.tui.app import YatzyApp
    from yatzy.tui.screens.setup import GameSetup
    from yatzy.tui.seats import parse_seats

    t = command_translator(args)
    if args.server is not None:
        from yatzy.cli.daily_online import run_online

        return run_online(args.server, args.rules, t)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CommandError(N_("yatzy daily needs a terminal: its input and output cannot "
                              "be a file or a pipe"))
    rules = ruleset(args.rules)
    day = datetime.now(UTC).date()
    note = t._("The daily challenge of {day}, offline: unranked, the same dice for everyone"
               " who plays it offline today.", day=day.isoformat())
    print(note)
    seats = parse_seats(default_name(t, os.environ), ())
    seed = offline_seed(rules.name, day)
    setup = GameSetup(rules, seats, "auto", "seat", seed)
    service = open_service(args.db)
    try:
        # Today's attempt left unfinished is played on, not started again.
        kept = todays_attempt(service, rules, seed, seats[0].name)
        if kept is not None:
            print(t._("Your attempt of today goes on where you left it."))
        app = YatzyApp(service, lang=t.lang, setup=setup, game=kept)
        app.run()
    finally:
        service.close()
    print(note)
    return app.return_code or 0
