"""Debian's nginx in front of two `yatzy serve` processes on PostgreSQL and Redis, with
the configuration of ``docs/deploy.md`` (its ``listen``, ``upstream`` and log file
changed to the test's): a whole game played through it, each move on whichever process
nginx chooses, both seats' websockets (through nginx too) seeing every move once, the
links the server makes naming nginx's address, and no seat token in nginx's log.

Skipped, with the reason, without ``/usr/sbin/nginx`` (``apt-get install nginx``) or
the services (``tests/services.py``); CI (``.ci/run``) has them all.
"""

from __future__ import annotations

import os
import pwd
import re
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.services import postgres_database, redis_url
from tests.web.server import free_port, start
from tests.web.test_scale_out import Player, Watcher, new_game

NGINX = Path("/usr/sbin/nginx")
DEPLOY = Path(__file__).parents[2] / "docs" / "deploy.md"


def documented_config() -> str:
    """The nginx configuration ``docs/deploy.md`` shows."""
    found = re.search(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.DOTALL)
    assert found is not None, "docs/deploy.md shows no nginx configuration"
    return found.group(1)


def nginx_config(folder: Path, port: int, upstreams: list[int]) -> str:
    """The documented configuration, listening on ``port`` of 127.0.0.1 in front of
    ``upstreams``, inside a whole ``nginx.conf`` whose files are all in ``folder`` (run
    in the foreground, by this user)."""
    site = documented_config()
    site, listens = re.subn(r"listen 443 ssl;", f"listen 127.0.0.1:{port};", site)
    site, servers = re.subn(
        r"upstream yatzy \{.*?\n\}",
        "upstream yatzy {\n" + "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
        + "}", site, flags=re.DOTALL)
    site, logs = re.subn(r"access_log \S+ yatzy;", f"access_log {folder}/access.log yatzy;",
                         site)
    assert (listens, servers, logs) == (1, 1, 1), "the documented configuration changed"
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    temp = "".join(f"{kind}_temp_path {folder}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"daemon off;\n{user}worker_processes 1;\npid {folder}/nginx.pid;\n"
            f"error_log {folder}/error.log warn;\nevents {{ worker_connections 512; }}\n"
            f"http {{\n{temp}{site}}}\n")


@contextmanager
def nginx(folder: Path, upstreams: list[int]) -> Iterator[str]:
    """nginx in front of ``upstreams``, until the block ends: its address."""
    if not NGINX.exists():
        pytest.skip(f"needs Debian's nginx at {NGINX} (apt-get install nginx)")
    port = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_config(folder, port, upstreams))
    command = [str(NGINX), "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()  # nginx's fast shutdown
        process.wait(timeout=10)


def actions_of(base: str) -> float:
    """The actions a server process applied (its ``/metrics``)."""
    text = httpx.get(f"{base}/metrics", timeout=5).text
    return sum(float(n) for n in re.findall(r"^yatzy_actions_total\{[^}]*\} (\S+)$", text, re.M))


def test_a_whole_game_through_nginx_in_front_of_two_servers(tmp_path: Path) -> None:
    if not NGINX.exists():
        pytest.skip(f"needs Debian's nginx at {NGINX} (apt-get install nginx)")
    url = redis_url()
    with postgres_database() as db:
        ports = [free_port(), free_port()]

        def start_one(port: int) -> subprocess.Popen[bytes]:
            # Behind nginx on this machine: its X-Forwarded-For and -Proto are believed.
            return start(db, port, "--redis", url, "--rate", "0",
                         log=tmp_path / f"server-{port}.log",
                         env={"FORWARDED_ALLOW_IPS": "127.0.0.1"})

        with ThreadPoolExecutor(2) as pool:  # both at once: seconds each on a busy machine
            starting = [pool.submit(start_one, port) for port in ports]
        servers = [f.result() for f in starting if f.exception() is None]
        try:
            for future in starting:
                future.result()  # a server that did not start: its error
            with nginx(tmp_path, ports) as base:
                created = new_game(base)
                game_id = created["id"]
                assert all(seat["url"].startswith(f"{base}/games/{game_id}#token=")
                           for seat in created["seats"])
                ws = base.replace("http", "ws")
                seats = [Watcher(f"{ws}/ws/games/{game_id}?token={seat['token']}")
                         for seat in created["seats"]]
                try:
                    player = Player(base, created)
                    while not player.over:
                        version, _ = player.move()
                        for seat in seats:  # each seat sees each move
                            seat.wait_for(version, 10)
                    final = player.state["version"]
                    time.sleep(0.3)  # anything late would come meanwhile
                    for seat in seats:  # every move, in order (a state is sent again
                        # unchanged when a seat comes or goes)
                        assert seat.versions == sorted(seat.versions)
                        assert set(seat.versions) == set(range(1, final + 1))
                finally:
                    for seat in seats:
                        seat.close()
                assert player.state["is_over"] and final == 61  # 15 rounds, 2 players
                # nginx sent moves to both processes.
                per_process = [actions_of(f"http://127.0.0.1:{port}") for port in ports]
                assert sum(per_process) == 60 and min(per_process) > 0, per_process
                assert httpx.get(f"{base}/metrics", timeout=5).status_code == 403
        finally:
            for server in servers:
                server.kill()
                server.wait(timeout=10)
    logged = (tmp_path / "access.log").read_text()
    assert f"/ws/games/{game_id}" in logged and "token" not in logged
    assert all(seat["token"] not in logged for seat in created["seats"])
