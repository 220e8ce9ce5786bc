"""Devices benchmark: what linking a browser costs the server, through the service (the
work behind the HTTP endpoints, without HTTP).

    python bench/devices.py [--rounds 200] [--postgres [URL]]

Each round: a player asks for a link code (``DeviceService.new_code``) and a new browser
gives it (``DeviceService.link``); a passkey is registered once, and each round signs a
new browser in with it (``sign_in_options`` then ``sign_in``: the challenge stored and
taken, the ES256 signature checked by the ``webauthn`` package, the counter and the
browser's key written in one transaction). The peer in the same run is
``PlayerService.set_name`` (one write of a player), so the figures read as multiples of
the cheapest write there is. Prints the median and p99 of each, in milliseconds. On a
SQLite file by default; with ``--postgres`` on a scratch PostgreSQL database made on that
server and dropped after. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.authenticator import Authenticator

from yatzy.app import GameService
from yatzy.app.devices import RelyingParty
from yatzy.bootstrap import open_service

PARTY = RelyingParty("localhost", ("http://localhost:8000",))


def since(start: float) -> float:
    """Milliseconds since ``start`` (``time.perf_counter``)."""
    return (time.perf_counter() - start) * 1000


def report(name: str, times: list[float], peer: float) -> None:
    ordered = sorted(times)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(f"{name:<34} p50 {median:7.2f} ms  p99 {p99:7.2f} ms  ×{median / peer:5.1f} of a rename")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        db: str | Path = Path(tempfile.mkdtemp()) / "devices.sqlite3"
        if args.postgres:
            os.environ["YATZY_TEST_POSTGRES"] = args.postgres
            from tests.services import postgres_database

            db = stack.enter_context(postgres_database())
        run(stack.enter_context(open_service(db)), args.rounds, bool(args.postgres))


def run(service: GameService, rounds: int, postgres: bool) -> None:
    devices, players = service.devices, service.players
    owner = "bench-owner-" + "o" * 20
    players.set_name(owner, f"Bench {time.time_ns()}")
    passkey = Authenticator(PARTY.id, PARTY.origins[0])
    options = devices.registration_options(owner, PARTY)
    devices.add_passkey(owner, passkey.create(options), PARTY)
    renames: list[float] = []
    codes: list[float] = []
    links: list[float] = []
    sign_ins: list[float] = []
    for number in range(rounds):
        browser = f"bench-link-{number:012d}-{time.time_ns() % 10**6:06d}"
        signer = f"bench-sign-{number:012d}-{time.time_ns() % 10**6:06d}"
        start = time.perf_counter()
        players.set_name(owner, f"Bench {time.time_ns()}")
        renames.append(since(start))
        start = time.perf_counter()
        code = devices.new_code(owner).code
        codes.append(since(start))
        start = time.perf_counter()
        devices.link(browser, code, client="bench")
        links.append(since(start))
        start = time.perf_counter()
        challenge = devices.sign_in_options(PARTY)
        options_ms = since(start)
        answer = passkey.get(challenge)  # the authenticator's work (the device's), not timed
        start = time.perf_counter()
        devices.sign_in(signer, answer, PARTY)
        sign_ins.append(options_ms + since(start))
    peer = statistics.median(renames)
    print(f"{rounds} rounds on {'PostgreSQL' if postgres else 'SQLite'}")
    report("rename (PlayerService.set_name)", renames, peer)
    report("new link code", codes, peer)
    report("link a browser with the code", links, peer)
    report("passkey sign-in (options + answer)", sign_ins, peer)


if __name__ == "__main__":
    main()
