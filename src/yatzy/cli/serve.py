"""``yatzy serve``: the web app (FastAPI and uvicorn) on the game database the other
commands use."""

from __future__ import annotations

import argparse
import gc
import re
import sys
from collections.abc import Callable
from typing import Any

from yatzy.cli.options import add_language_argument, command_translator, whole_number
from yatzy.i18n import Translator

#: Games in play the server keeps in memory (each action on a game not kept reads and
#: replays it from the database).
GAMES_KEPT = 5000

_TENTHS = re.compile(r"[0-9]{1,5}(?:\.[0-9])?")


def register(subparsers: Any, t: Translator) -> None:
    """Add the ``serve`` sub-command."""
    parser = subparsers.add_parser(
        "serve",
        help="play in the browser: start the web app",
        description="Start the web app: games in the browser, alone, against the computer "
                    "or online with friends, on the same game database as `yatzy play`.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1; 0.0.0.0 for "
                             "phones on your network)")
    parser.add_argument("--port", type=whole_number(t, 1, 65535), default=8000,
                        help="default 8000")
    parser.add_argument("--db", help="the game database, a path or a URL (default: "
                                     "$YATZY_DB, else in your data folder)")
    parser.add_argument("--pace", type=tenths(t, 10), default=0.8,
                        help="seconds a computer takes for each step, 0 to 10 (default 0.8)")
    parser.add_argument("--rate", type=tenths(t, 10_000), default=20.0,
                        help="requests a second one client may make (0: no limit)")
    add_language_argument(parser)
    parser.set_defaults(handler=run)


def tenths(t: Translator, most: int) -> Callable[[str], float]:
    """An argparse ``type``: a number from 0 to ``most`` with at most one decimal
    (``0.8``)."""

    def convert(text: str) -> float:
        if _TENTHS.fullmatch(text.strip()) and float(text) <= most:
            return float(text)
        raise argparse.ArgumentTypeError(t._(
            "must be a number from 0 to {most} with at most one decimal, not {value}",
            most=most, value=repr(text[:40])))

    return convert


def run(args: argparse.Namespace) -> int:
    """Serve until stopped (Ctrl+C)."""
    import uvicorn

    from yatzy.bootstrap import describe_db, open_service
    from yatzy.web.app import Settings, create_app

    t = command_translator(args)
    service = open_service(args.db, cache_size=GAMES_KEPT, follow=True)
    app = create_app(service, Settings(pace=args.pace, rate=max(args.rate, 0.0)))
    # A server holds many games for long: move what exists at start out of the garbage
    # collector's way and collect the oldest objects less often (each full collection of
    # a large heap pauses every game; the benchmark saw 100-400 ms pauses without this).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(t._("yatzy web app on {url} (games in {db}); Ctrl+C stops it.",
              url=f"http://{host}:{args.port}/", db=describe_db(args.db)), file=sys.stderr,
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                access_log=False, ws_max_size=16 * 1024)
    return 0
