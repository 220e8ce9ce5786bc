"""``yatzy serve``: the web app (FastAPI and uvicorn) on the game database the other
commands use."""

from __future__ import annotations

import argparse
import errno
import gc
import ipaddress
import json
import logging
import os
import re
import socket
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from yatzy.cli.errors import CommandError
from yatzy.cli.options import add_language_argument, command_translator, whole_number
from yatzy.i18n import N_, Translator

if TYPE_CHECKING:
    from fastapi import FastAPI

#: The environment variable that chooses the log lines' format (``text`` or ``json``).
LOG_FORMAT_ENV = "YATZY_LOG_FORMAT"

#: The environment variable that sets ``--lease-seconds``.
LEASE_ENV = "YATZY_LEASE_SECONDS"

#: uvicorn's setting: the addresses of the reverse proxies to believe.
PROXIES_ENV = "FORWARDED_ALLOW_IPS"
#: Seconds a server that is told to stop (SIGTERM, Ctrl+C) waits for the requests under
#: way before it stops the rest (its computers then hand their turns over).
GRACEFUL = 10

#: Games in play the server keeps in memory (each action on a game not kept reads and
#: replays it from the database).
GAMES_KEPT = 5000
#: The most processes ``--workers`` starts (each holds its games, database connections
#: and solver tables: a machine with more cores runs several ``yatzy serve``).
MOST_WORKERS = 64
#: How the processes of ``--workers`` get their settings from the one that starts them
#: (a JSON object of :class:`ServeOptions`): set by ``yatzy serve`` for its workers,
#: not by people.
OPTIONS_ENV = "YATZY_SERVE_OPTIONS"
#: Seconds a worker of ``--workers`` may leave its supervisor's check unanswered before
#: it is killed and started again (uvicorn's 5 s: a busy machine starves one that long).
WORKER_CHECK = 30
#: uvicorn's HTTP protocol with the app's answer to a request it cannot read, by name
#: (each worker imports it).
HTTP_PROTOCOL = "yatzy.web.protocol:JsonErrorHTTPProtocol"

_TENTHS = re.compile(r"[0-9]{1,5}(?:\.[0-9])?")
#: One label of a host name (RFC 1123): letters, digits and inner hyphens, 1-63 long.
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
#: Addresses that mean "every address of this machine".
_EVERYWHERE = ("0.0.0.0", "::")
#: Why the system refused to listen, in words a player understands.
_REASONS = {
    errno.EADDRINUSE: N_("the port is in use by another program"),
    errno.EACCES: N_("no permission (ports below 1024 need administrator rights)"),
    errno.EADDRNOTAVAIL: N_("this machine has no such address"),
}


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
    parser.add_argument("--move-clock", type=whole_number(t, 0, 3600), default=60,
                        metavar="SECONDS",
                        help="seconds a person of a rated game has for each decision "
                             "before a computer plays their seat and the game counts as "
                             "lost for them, 0 to 3600 (default 60; 0: no clock)")
    parser.add_argument("--workers", type=whole_number(t, 1, MOST_WORKERS), default=1,
                        metavar="N",
                        help="server processes on the one port, 1 to 64 (default 1); "
                             "they share the game database, and Redis with --redis")
    parser.add_argument("--redis", metavar="URL",
                        help="a Redis server (redis://host:6379/0) that carries every "
                             "change to the other server processes on the same database "
                             "at once (default: $YATZY_REDIS_URL, else none: changes go "
                             "through the database, within a quarter of a second)")
    from yatzy.app.session import LEASE, LONGEST_LEASE, SHORTEST_LEASE

    parser.add_argument("--lease-seconds", metavar="S", default=None,
                        type=whole_number(t, SHORTEST_LEASE, LONGEST_LEASE),
                        help=f"seconds a process holds a game's computer turns unless it "
                             f"renews them, {SHORTEST_LEASE} to {LONGEST_LEASE}: how long "
                             f"the computers of a process killed wait for another to take "
                             f"them over (default: ${LEASE_ENV}, else {LEASE:g}); the same "
                             f"for every process of a site")
    parser.add_argument("--log-format", choices=("text", "json"), default=None,
                        help="log lines as text for a person, or one JSON object a line "
                             "for a log collector (default: $YATZY_LOG_FORMAT, else text)")
    parser.add_argument("--access-log", action="store_true",
                        help="log a line for every request: method, path (never its "
                             "query), status, milliseconds, request id")
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


@dataclass(frozen=True)
class ServeOptions:
    """What each server process is built from: the command's options that shape the
    app (the same in every process of ``--workers``)."""

    db: str | None
    redis: str | None
    pace: float
    rate: float
    access_log: bool
    log_format: str
    #: Seconds a lease on a game's computer turns lasts (``--lease-seconds``; the
    #: default is :data:`yatzy.app.session.LEASE`, which a test checks this is).
    lease: float = 3.0
    #: Seconds for each decision of a rated game (0: no clock).
    move_clock: int = 60


def run(args: argparse.Namespace) -> int:
    """Serve until stopped (Ctrl+C, or SIGTERM): one process, or ``--workers`` of them
    on the one port."""
    import uvicorn

    from yatzy.bootstrap import describe_db, open_service

    t = command_translator(args)
    sock = listening_socket(args.host, args.port, t)
    try:
        options = ServeOptions(
            db=None if args.db is None else str(args.db), redis=redis_url(args.redis),
            pace=args.pace, rate=max(args.rate, 0.0), access_log=args.access_log,
            log_format=args.log_format or os.environ.get(LOG_FORMAT_ENV) or "text",
            lease=lease_seconds(args.lease_seconds, t),
            move_clock=args.move_clock)
        structured = _configure_logs(options)
        workers: int = args.workers
        if workers > 1:
            # Each worker opens the database itself: open it here first, so that a
            # database that cannot be opened is said once, and migrated once.
            open_service(options.db).close()
            os.environ[OPTIONS_ENV] = json.dumps(asdict(options))
            target: Any = f"{__name__}:worker_app"
        else:
            target = build_app(options)
        urls = ", ".join(urls_to_open(args.host, sock.getsockname()[1]))
        print(t._("yatzy web app on {url} (games in {db}); Ctrl+C stops it.",
                  url=urls, db=describe_db(options.db)), file=sys.stderr, flush=True)
        # uvicorn's access log would show a websocket's address with its ?token=: the
        # app logs requests itself (--access-log), without the query. A client is its
        # address (the rate limit, games per client): the socket's peer, unless the
        # server runs behind a reverse proxy named in uvicorn's FORWARDED_ALLOW_IPS,
        # whose X-Forwarded-For it then believes. Without that setting no header is
        # believed (uvicorn would believe one from this machine).
        config = uvicorn.Config(target, factory=workers > 1, workers=workers,
                                timeout_worker_healthcheck=WORKER_CHECK,
                                log_level="info" if structured else "warning",
                                access_log=False, ws_max_size=16 * 1024,
                                log_config=None if structured else uvicorn.config.LOGGING_CONFIG,
                                proxy_headers=behind_proxy(), http=HTTP_PROTOCOL,
                                timeout_graceful_shutdown=GRACEFUL)
        if workers > 1:
            # uvicorn's supervisor: starts the workers on the socket, starts one again
            # when it dies, and on Ctrl+C or SIGTERM stops each (its games finished
            # as a single process finishes them) before it returns. The workers write
            # their numbers to one folder, so that /metrics says the whole server's.
            from yatzy.web.workers import Supervisor, shared_metrics

            with shared_metrics() as folder:
                Supervisor(config, [sock], folder).run()
        else:
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _configure_logs(options: ServeOptions) -> bool:
    """Set up this process's log lines as ``options`` say; True when they are the
    app's own (JSON, or text with request ids)."""
    structured = options.log_format == "json" or options.access_log
    if structured:
        from yatzy.web.logs import configure

        configure(json_lines=options.log_format == "json")
        # uvicorn's access log stays off (it would show a websocket's ?token=): the
        # app's is --access-log. (A worker configures its logs after uvicorn has.)
        access = logging.getLogger("uvicorn.access")
        access.handlers.clear()
        access.propagate = False
    return structured


def build_app(options: ServeOptions) -> FastAPI:
    """The web app of one server process, on its own game service."""
    from datetime import timedelta

    from yatzy.bootstrap import open_service, shared_limits
    from yatzy.web.app import Settings, create_app

    service = open_service(options.db, cache_size=GAMES_KEPT, follow=True,
                           redis=options.redis,
                           move_clock=timedelta(seconds=options.move_clock)
                           if options.move_clock else None)
    app = create_app(service, Settings(pace=options.pace, rate=options.rate,
                                       access_log=options.access_log, lease=options.lease),
                     shared=shared_limits(options.redis))
    settle_heap()
    return app


def settle_heap() -> None:
    """Ready the garbage collector of a process that holds many objects for long (a
    server's games, a load generator's sockets): what exists now is collected once and
    moved out of the collector's way, and the young objects are collected less often,
    so the oldest seldom (each full collection of a large heap pauses every game; the
    benchmark saw 100-400 ms pauses without this)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


def worker_app() -> FastAPI:
    """The app of one process of ``yatzy serve --workers N`` (uvicorn's factory, called
    in each worker): built from the options the starting process left in
    :data:`OPTIONS_ENV`."""
    options = ServeOptions(**json.loads(os.environ[OPTIONS_ENV]))
    _configure_logs(options)
    return build_app(options)


def redis_url(given: str | None) -> str | None:
    """The Redis URL to use: ``given`` (``--redis``), else ``$YATZY_REDIS_URL``, else
    none; :class:`CommandError` when it is not a Redis URL."""
    from yatzy.bootstrap import REDIS_ENV

    url = given if given is not None else os.environ.get(REDIS_ENV) or None
    if url is None:
        return None
    from yatzy.storage.redis_feed import check_redis_url

    try:
        return check_redis_url(url.strip())
    except ValueError:
        raise CommandError(N_("not a Redis URL (redis://host:6379/0): {url}"),
                           url=repr(url[:60])) from None


def lease_seconds(given: int | None, t: Translator) -> float:
    """The lease's seconds: ``given`` (``--lease-seconds``, checked by argparse), else
    ``$YATZY_LEASE_SECONDS``, else the default; :class:`CommandError` naming the
    variable when it holds no whole number within the bounds."""
    from yatzy.app.session import LEASE, LONGEST_LEASE, SHORTEST_LEASE

    if given is not None:
        return float(given)
    text = os.environ.get(LEASE_ENV, "").strip()
    if not text:
        return LEASE
    try:
        return float(whole_number(t, SHORTEST_LEASE, LONGEST_LEASE)(text))
    except argparse.ArgumentTypeError as exc:
        raise CommandError(N_("{name} in the environment {problem}"), name=LEASE_ENV,
                           problem=str(exc)) from None


def behind_proxy() -> bool:
    """True when ``FORWARDED_ALLOW_IPS`` names the reverse proxies whose
    ``X-Forwarded-For`` gives a client's address."""
    return bool(os.environ.get(PROXIES_ENV, "").strip())


def _address(host: str, port: int) -> str:
    """``host:port`` as a person reads it (an IPv6 address in brackets, a long host
    cut short)."""
    shown = host if len(host) <= 60 else host[:57] + "..."
    return f"[{shown}]:{port}" if ":" in host else f"{shown}:{port}"


def _refused(host: str, port: int, reason: str) -> CommandError:
    """``cannot listen on HOST:PORT: reason``; ``reason`` is in the player's language."""
    return CommandError(N_("cannot listen on {address}: {reason}"),
                        address=_address(host, port), reason=reason)


def _socket_address(host: str, port: int, t: Translator) -> tuple[socket.AddressFamily, Any]:
    """The family and socket address to listen on at ``host``: an IP address, or a host
    name that resolves. The text is checked first, so that nothing odd reaches the
    resolver (a label too long, 5,000 digits, a lone hyphen)."""
    text = host.strip()
    if not text:
        raise _refused(host, port, t._(N_("an address is needed, such as 127.0.0.1 or 0.0.0.0")))
    try:
        ipaddress.ip_address(text)
        numeric = True
    except ValueError:
        numeric = False
        name = text.removesuffix(".")
        looks_numeric = ":" in text or all(c in "0123456789." for c in text)
        if (looks_numeric or not text.isascii() or len(name) > 253
                or not all(_LABEL.fullmatch(label) for label in name.split("."))):
            raise _refused(host, port, t._(N_("not an IP address or a host name"))) from None
    flags = socket.AI_PASSIVE | (socket.AI_NUMERICHOST if numeric else 0)
    try:
        found = socket.getaddrinfo(text, port, type=socket.SOCK_STREAM, flags=flags)
    except (OSError, UnicodeError):
        raise _refused(host, port, t._(N_("no such host"))) from None
    family, _, _, _, address = found[0]
    return family, address


def listening_socket(host: str, port: int, t: Translator) -> socket.socket:
    """A socket that listens at ``host:port``; :class:`CommandError` ``cannot listen on
    HOST:PORT: reason`` (in ``t``'s language) when the address is not one, the port is
    taken, or listening there is not allowed."""
    family, address = _socket_address(host, port, t)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        known = _REASONS.get(exc.errno or 0)
        reason = t._(known) if known else exc.strerror or str(exc)
        raise _refused(host, port, reason) from None
    sock.set_inheritable(True)
    return sock


def urls_to_open(host: str, port: int) -> list[str]:
    """The addresses to open the app at: for every address of the machine (0.0.0.0,
    ``::``), the ones a phone on the same network can reach, else this one."""
    if host.strip() not in _EVERYWHERE:
        text = host.strip()
        return [f"http://[{text}]:{port}/" if ":" in text else f"http://{text}:{port}/"]
    return [f"http://{ip}:{port}/" for ip in network_addresses()]


def network_addresses() -> list[str]:
    """This machine's IPv4 address on its network (the one its default route leaves
    from), then 127.0.0.1; only 127.0.0.1 when it has no network."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # chooses a route; sends nothing
            ip = probe.getsockname()[0]
        if not ipaddress.ip_address(ip).is_loopback and not ipaddress.ip_address(
                ip).is_unspecified:
            found.append(ip)
    except OSError:
        pass
    return [*found, "127.0.0.1"]
