"""``yatzy play``: its options, its errors in the player's language, and a real run in a
pseudo-terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from yatzy.bootstrap import open_service
from yatzy.cli import main


def test_a_seed_with_real_dice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--dice", "manual", "--seed", "1", "--lang", "sv"]) == 2
    assert "riktiga tärningar tar inget frö" in capsys.readouterr().err


def test_an_unknown_computer_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "Ann,cpu:genius", "--lang", "fi"]) == 2
    assert "Tuntematon tietokonepelaaja genius" in capsys.readouterr().err


def test_bad_rules_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "Ann", "--rolls", "0"]) == 2
    assert "rolls" in capsys.readouterr().err


def test_the_language_comes_from_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "da_DK.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert main(["play", "--players", "Ann,Ann"]) == 2
    assert "To spillere hedder Ann" in capsys.readouterr().err


def read_until(fd: int, marker: bytes, seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def test_a_real_terminal_session(tmp_path: Path) -> None:
    """Start ``yatzy play`` in an 80x24 pseudo-terminal, roll, quit, and resume."""
    db = tmp_path / "games.sqlite3"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
           "LANG": "sv_SE.UTF-8", "YATZY_DB": str(db)}
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    command = [sys.executable, "-m", "yatzy.cli", "play", "--players", "Ann", "--seed", "4"]
    main_fd, child_fd = pty.openpty()
    os.set_blocking(main_fd, False)
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(command, stdin=child_fd, stdout=child_fd, stderr=child_fd,
                            env=env, close_fds=True, start_new_session=True)
    os.close(child_fd)
    try:
        screen = read_until(main_fd, b"Ettor", 20)
        assert b"Ettor" in screen, screen[-500:]
        os.write(main_fd, b"r")
        read_until(main_fd, b"sparad", 1)
        os.write(main_fd, b"q")
        tail = read_until(main_fd, b"--resume", 10)
        assert proc.wait(timeout=10) == 0
        assert b"yatzy play --resume" in tail
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    with open_service(db) as service:
        [saved] = service.unfinished()
        assert saved.game.dice is not None and saved.seats[0].name == "Ann"


@pytest.mark.parametrize("seed", ["-1", str(2**53), "99999999999999999999999999"])
def test_a_seed_out_of_range_is_refused_before_the_game(
        seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--seed", seed, "--lang", "sv"])
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"yatzy play: error: argument --seed: måste vara ett heltal från 0 till "
        f"9007199254740991, inte {seed}\n")


NO_TERMINAL = ("yatzy: yatzy play needs a terminal: its input and output cannot be a file "
               "or a pipe\n")


@pytest.mark.parametrize("words", [[], ["play", "--players", "Ann"], ["--resume"]])
def test_without_a_terminal_play_says_so_at_once(words: list[str], tmp_path: Path) -> None:
    """It opened the screen and waited for keys that never came."""
    db = tmp_path / "games.sqlite3"
    env = {**os.environ, "LANG": "C.UTF-8", "YATZY_DB": str(db)}
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "yatzy.cli", *words], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (2, NO_TERMINAL, "")
    assert not db.exists()


def test_output_to_a_pipe_is_no_terminal_either(tmp_path: Path) -> None:
    main_fd, child_fd = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "yatzy.cli", "play", "--lang", "sv"],
                              env={**os.environ, "YATZY_DB": str(tmp_path / "x.sqlite3")},
                              stdin=child_fd, capture_output=True, text=True, timeout=60)
    finally:
        os.close(child_fd)
        os.close(main_fd)
    assert done.returncode == 2
    assert done.stderr == ("yatzy: yatzy play behöver en terminal: in- och utdata kan inte "
                           "vara en fil eller ett rör\n")


def test_the_arguments_are_checked_before_the_terminal(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "Ann,Ann", "--lang", "en"]) == 2
    assert "Two players are called Ann" in capsys.readouterr().err
    assert main(["play", "--players", "Ann", "--lang", "en"]) == 2
    assert capsys.readouterr().err == NO_TERMINAL


def test_a_database_in_a_folder_that_is_not_there_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --db /nonexistent/dir/x.sqlite3` created the folders (stats refused it)."""
    from yatzy.tui.app import YatzyApp

    def no_screen(self: YatzyApp) -> None:
        raise AssertionError("the game screen opened")
    monkeypatch.setattr(YatzyApp, "run", no_screen)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    db = tmp_path / "nonexistent" / "dir" / "x.sqlite3"
    assert main(["play", "--db", str(db), "--lang", "da"]) == 2
    assert capsys.readouterr().err == (
        f"yatzy: Kan ikke åbne spildatabasen {db}: der er ingen mappe {db.parent}\n")
    assert not (tmp_path / "nonexistent").exists()
