"""``yatzy daily``: today's challenge in the terminal game, offline and unranked, on the
seed anyone can work out for the ruleset and the day."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from datetime import UTC, datetime
from pathlib import Path

from tests.cli.test_play import read_until
from yatzy.app.players import offline_seed
from yatzy.bootstrap import open_service


def test_today_s_offline_challenge_in_a_terminal(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
           "LANG": "sv_SE.UTF-8", "YATZY_DB": str(db), "USER": "ann"}
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    main_fd, child_fd = pty.openpty()
    os.set_blocking(main_fd, False)
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "yatzy.cli", "daily", "--rules", "yahtzee"],
                            stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env,
                            close_fds=True, start_new_session=True)
    os.close(child_fd)
    day = datetime.now(UTC).date()
    try:
        screen = read_until(main_fd, b"Ettor", 20)
        assert b"ej rankad" in screen and day.isoformat().encode() in screen
        os.write(main_fd, b"r")
        read_until(main_fd, b"sparad", 1)
        os.write(main_fd, b"q")
        tail = read_until(main_fd, b"ej rankad", 10)
        assert proc.wait(timeout=10) == 0
        assert b"ej rankad" in tail
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    with open_service(db) as service:
        [saved] = service.unfinished()
        assert saved.game.seed == offline_seed("yahtzee", day)
        assert saved.game.ruleset.name == "yahtzee" and saved.seats[0].name == "Ann"


def test_today_s_attempt_left_unfinished_goes_on(tmp_path: Path) -> None:
    """Quit after a roll, start `yatzy daily` again: the same game, its roll kept (two
    rolls left, not three), and no second game started."""
    db = tmp_path / "games.sqlite3"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
           "LANG": "en_GB.UTF-8", "YATZY_DB": str(db), "USER": "ann"}
    for name in ("LC_ALL", "LANGUAGE", "LC_MESSAGES"):
        env.pop(name, None)

    def session(keys: list[tuple[bytes, bytes]]) -> bytes:
        """Run `yatzy daily` in a terminal: wait for each text, then press its key."""
        main_fd, child_fd = pty.openpty()
        os.set_blocking(main_fd, False)
        fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        proc = subprocess.Popen([sys.executable, "-m", "yatzy.cli", "daily"], stdin=child_fd,
                                stdout=child_fd, stderr=child_fd, env=env, close_fds=True,
                                start_new_session=True)
        os.close(child_fd)
        seen = b""
        try:
            for text, key in keys:
                seen += read_until(main_fd, text, 20)
                os.write(main_fd, key)
            seen += read_until(main_fd, b"unranked", 10)
            assert proc.wait(timeout=10) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(main_fd)
        return seen

    first = session([(b"Ones", b"r"), (b"saved", b"q")])
    assert b"goes on where you left it" not in first
    with open_service(db) as service:
        [saved] = service.unfinished()
        assert saved.game.rolls_left == 2
    again = session([(b"Ones", b"q")])
    assert b"Your attempt of today goes on where you left it." in again
    with open_service(db) as service:
        [kept] = service.unfinished()
        assert kept.id == saved.id and kept.game.rolls_left == 2
        assert kept.game.dice == saved.game.dice


def test_without_a_terminal_it_says_so(tmp_path: Path) -> None:
    env = {**os.environ, "LANG": "C.UTF-8", "YATZY_DB": str(tmp_path / "x.sqlite3")}
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "yatzy.cli", "daily"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("yatzy: yatzy daily needs a terminal: its input and output cannot "
                           "be a file or a pipe\n")


def test_the_offline_seed_is_the_same_for_everyone_and_not_a_server_s() -> None:
    day = datetime(2026, 12, 2, tzinfo=UTC).date()
    assert offline_seed("yatzy", day) == offline_seed("yatzy", day)
    assert offline_seed("yatzy", day) != offline_seed("yahtzee", day)
    assert len(offline_seed("yatzy", day)) == 64
