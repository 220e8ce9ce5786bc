"""``yatzy serve`` checks its address before it says where it listens: an address
that is none, a port in use or not allowed ends in one line ``yatzy: cannot listen on
HOST:PORT: reason`` and exit status 2, before any database is opened."""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.web.server import free_port
from yatzy.cli import main, serve


@pytest.fixture(autouse=True)
def _no_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("YATZY_DB", str(db))
    return db


@pytest.mark.parametrize(("host", "shown", "reason"), [
    ("-5", "-5:8000", "not an IP address or a host name"),
    ("256.256.256.256", "256.256.256.256:8000", "not an IP address or a host name"),
    ("::1::", "[::1::]:8000", "not an IP address or a host name"),
    ("", ":8000", "an address is needed, such as 127.0.0.1 or 0.0.0.0"),
    (" ", ":8000", "an address is needed, such as 127.0.0.1 or 0.0.0.0"),
    ("1" * 5000, "1" * 57 + "...:8000", "not an IP address or a host name"),
    ("a" * 63 + "x.example", "a" * 57 + "...:8000", "not an IP address or a host name"),
    ("bad_name.example", "bad_name.example:8000", "not an IP address or a host name"),
    ("x" * 300, "x" * 57 + "...:8000", "not an IP address or a host name"),
    ("host..example", "host..example:8000", "not an IP address or a host name"),
])
def test_an_address_that_is_none_is_refused_in_one_line(
        host: str, shown: str, reason: str, capsys: pytest.CaptureFixture[str],
        _no_database: Path) -> None:
    started = time.monotonic()
    assert main(["serve", "--host", host, "--lang", "en"]) == 2
    assert time.monotonic() - started < 5  # no resolver was asked
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"yatzy: cannot listen on {shown}: {reason}\n"
    assert not _no_database.exists()


def test_the_refusal_speaks_the_player_s_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "-5", "--lang", "sv"]) == 2
    assert capsys.readouterr().err == (
        "yatzy: kan inte lyssna på -5:8000: inte en IP-adress eller ett värdnamn\n")


def test_a_port_in_use_is_refused_in_one_line(capsys: pytest.CaptureFixture[str],
                                              _no_database: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        f"yatzy: cannot listen on 127.0.0.1:{port}: the port is in use by another program\n")
    assert not _no_database.exists()


def test_an_address_of_another_machine_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "192.0.2.123", "--port", "8000"]) == 2
    assert capsys.readouterr().err == (
        "yatzy: cannot listen on 192.0.2.123:8000: this machine has no such address\n")


def test_a_privileged_port_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0:  # root may listen on port 1: refuse it the way others are
        class Unprivileged(socket.socket):
            def bind(self, address: object) -> None:
                raise PermissionError(errno.EACCES, "Permission denied")

        monkeypatch.setattr(serve.socket, "socket", Unprivileged)
    assert main(["serve", "--port", "1", "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        "yatzy: cannot listen on 127.0.0.1:1: no permission (ports below 1024 need "
        "administrator rights)\n")


def test_another_reason_is_the_system_s(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    class Full(socket.socket):
        def bind(self, address: object) -> None:
            raise OSError(errno.ENOBUFS, os.strerror(errno.ENOBUFS))

    monkeypatch.setattr(serve.socket, "socket", Full)
    assert main(["serve", "--host", "::1", "--port", "8000"]) == 2
    assert capsys.readouterr().err == (
        f"yatzy: cannot listen on [::1]:8000: {os.strerror(errno.ENOBUFS)}\n")


def test_every_address_shows_the_ones_a_phone_can_open() -> None:
    urls = serve.urls_to_open("0.0.0.0", 8000)
    assert urls[-1] == "http://127.0.0.1:8000/"
    assert all("0.0.0.0" not in url for url in urls)
    assert serve.urls_to_open("::", 9) == serve.urls_to_open("0.0.0.0", 9)
    assert serve.urls_to_open("::1", 9) == ["http://[::1]:9/"]
    assert serve.urls_to_open("localhost", 9) == ["http://localhost:9/"]


def test_the_server_says_where_to_open_it_once_it_listens(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "yatzy.cli", "serve", "--host", "0.0.0.0", "--port", str(port),
         "--db", str(tmp_path / "g.sqlite3"), "--lang", "en"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert line.startswith("yatzy web app on http://")
        assert "0.0.0.0" not in line and f"http://127.0.0.1:{port}/" in line
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # it listens
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.mark.parametrize("given", ["nonsense", "http://127.0.0.1:6379", "redis:/x"])
def test_a_redis_url_that_is_none_is_refused_in_one_line(
        given: str, capsys: pytest.CaptureFixture[str], _no_database: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_REDIS_URL", "redis://127.0.0.1:6379/0")  # the option wins
    assert main(["serve", "--port", str(free_port()), "--redis", given, "--lang", "sv"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"yatzy: inte en Redis-URL (redis://host:6379/0): {given!r}\n"
    assert not _no_database.exists()


def test_the_redis_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("YATZY_REDIS_URL", raising=False)
    assert serve.redis_url(None) is None  # without it, no Redis: as before
    monkeypatch.setenv("YATZY_REDIS_URL", " redis://127.0.0.1:6379/0 ")
    assert serve.redis_url(None) == "redis://127.0.0.1:6379/0"
    assert serve.redis_url("redis://other:6379/1") == "redis://other:6379/1"


@pytest.mark.parametrize(("value", "believed"), [
    (None, False), ("", False), ("  ", False), ("127.0.0.1", True), ("10.0.0.2,10.0.0.3", True)])
def test_forwarded_addresses_are_believed_only_from_named_proxies(
        monkeypatch: pytest.MonkeyPatch, value: str | None, believed: bool) -> None:
    if value is None:
        monkeypatch.delenv(serve.PROXIES_ENV, raising=False)
    else:
        monkeypatch.setenv(serve.PROXIES_ENV, value)
    assert serve.behind_proxy() is believed


@pytest.mark.parametrize(("given", "said"), [
    ("0", "must be a whole number from 1 to 64, not 0"),
    ("-3", "must be a whole number from 1 to 64, not -3"),
    ("65", "must be a whole number from 1 to 64, not 65"),
    ("9" * 5000, "must be a whole number from 1 to 64, not " + "9" * 40 + "…"),
    ("two", "must be a whole number, not 'two'"),
    ("1.5", "must be a whole number, not '1.5'"),
])
def test_a_number_of_workers_that_is_none_is_refused_in_one_line(
        given: str, said: str, capsys: pytest.CaptureFixture[str], _no_database: Path) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", str(free_port()), "--workers", given, "--lang", "en"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith(f"argument --workers: {said}")
    assert "Traceback" not in err
    assert not _no_database.exists()


@pytest.mark.parametrize(("given", "said"), [
    ("1", "must be a whole number from 2 to 600, not 1"),
    ("601", "must be a whole number from 2 to 600, not 601"),
    ("2.5", "must be a whole number, not '2.5'"),
    ("long", "must be a whole number, not 'long'"),
])
def test_a_lease_that_is_none_is_refused_in_one_line(
        given: str, said: str, capsys: pytest.CaptureFixture[str], _no_database: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(serve.LEASE_ENV, "10")  # the option wins, and is checked
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", str(free_port()), "--lease-seconds", given, "--lang", "en"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith(f"argument --lease-seconds: {said}")
    assert not _no_database.exists()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "YATZY_LEASE_SECONDS in the environment must be a whole number from 2 to 600, "
           "not 0"),
    ("sv", "YATZY_LEASE_SECONDS i miljön "),
])
def test_a_lease_in_the_environment_that_is_none_is_refused_in_one_line(
        lang: str, said: str, capsys: pytest.CaptureFixture[str], _no_database: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(serve.LEASE_ENV, " 0 ")
    assert main(["serve", "--port", str(free_port()), "--lang", lang]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"yatzy: {said}") and err.count("\n") == 1, err
    assert not _no_database.exists()


def test_the_lease_comes_from_the_option_else_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.app.session import LEASE
    from yatzy.i18n import translator

    t = translator("en")
    monkeypatch.delenv(serve.LEASE_ENV, raising=False)
    assert serve.lease_seconds(None, t) == 3.0  # the default
    assert serve.ServeOptions(db=None, redis=None, pace=0, rate=0, access_log=False,
                              log_format="text").lease == LEASE == 3.0
    monkeypatch.setenv(serve.LEASE_ENV, "12")
    assert serve.lease_seconds(None, t) == 12.0
    assert serve.lease_seconds(5, t) == 5.0


def test_the_workers_options_travel_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    options = serve.ServeOptions(db="sqlite://", redis=None, pace=0.0, rate=5.0,
                                 access_log=True, log_format="json", lease=7.0)
    monkeypatch.setenv(serve.OPTIONS_ENV, json.dumps(dataclasses.asdict(options)))
    built: list[serve.ServeOptions] = []
    monkeypatch.setattr(serve, "build_app", lambda given: built.append(given))
    monkeypatch.setattr(serve, "_configure_logs", lambda given: True)
    serve.worker_app()
    assert built == [options]


def test_a_worker_s_json_logs_leave_uvicorn_s_access_log_off() -> None:
    root, access = logging.getLogger(), logging.getLogger("uvicorn.access")
    handlers, level, propagate = list(root.handlers), root.level, access.propagate
    try:
        assert serve._configure_logs(serve.ServeOptions(
            db=None, redis=None, pace=0, rate=0, access_log=True, log_format="json"))
        assert not access.propagate and not access.handlers
        assert logging.getLogger("uvicorn.error").propagate
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        access.propagate = propagate
