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
from yatzy.cli.daily import RESUME_LOOK, todays_attempt
from yatzy.core.actions import Roll
from yatzy.core.rulesets import ruleset


def terminal_env(db: Path, lang: str) -> dict[str, str]:
    """A player's environment: an 80x24 terminal, ``lang``, the game database ``db``."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
           "LANG": lang, "YATZY_DB": str(db), "USER": "ann"}
    for name in ("LC_ALL", "LANGUAGE", "LC_MESSAGES"):
        env.pop(name, None)
    return env


def daily(env: dict[str, str], args: list[str], keys: list[tuple[bytes, bytes]],
          last: bytes) -> tuple[bytes, bytes]:
    """Run `yatzy daily ARGS` in a terminal: wait for each text of ``keys`` and press its
    key, then read until ``last`` and the command ends (exit 0). Returns what the screen
    showed up to the first text, and everything after it."""
    main_fd, child_fd = pty.openpty()
    os.set_blocking(main_fd, False)
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "yatzy.cli", "daily", *args],
                            stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env,
                            close_fds=True, start_new_session=True)
    os.close(child_fd)
    first, rest = b"", b""
    try:
        for n, (text, key) in enumerate(keys):
            seen = read_until(main_fd, text, 20)
            if n == 0:
                first = seen
            else:
                rest += seen
            os.write(main_fd, key)
        rest += read_until(main_fd, last, 10)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    return first, rest


def test_today_s_offline_challenge_in_a_terminal(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    day = datetime.now(UTC).date()
    screen, tail = daily(terminal_env(db, "sv_SE.UTF-8"), ["--rules", "yahtzee"],
                         [(b"Ettor", b"r"), (b"sparad", b"q")], b"ej rankad")
    assert b"ej rankad" in screen and day.isoformat().encode() in screen
    assert b"ej rankad" in tail
    with open_service(db) as service:
        [saved] = service.unfinished()
        assert saved.game.seed == offline_seed("yahtzee", day)
        assert saved.game.ruleset.name == "yahtzee" and saved.seats[0].name == "Ann"


def test_today_s_attempt_left_unfinished_goes_on(tmp_path: Path) -> None:
    """Quit after a roll, start `yatzy daily` again: the same game, its roll kept (two
    rolls left, not three), and no second game started."""
    db = tmp_path / "games.sqlite3"
    env = terminal_env(db, "en_GB.UTF-8")
    first = b"".join(daily(env, [], [(b"Ones", b"r"), (b"saved", b"q")], b"unranked"))
    assert b"goes on where you left it" not in first
    with open_service(db) as service:
        [saved] = service.unfinished()
        assert saved.game.rolls_left == 2
    again = b"".join(daily(env, [], [(b"Ones", b"q")], b"unranked"))
    assert b"Your attempt of today goes on where you left it." in again
    with open_service(db) as service:
        [kept] = service.unfinished()
        assert kept.id == saved.id and kept.game.rolls_left == 2
        assert kept.game.dice == saved.game.dice


def test_today_s_attempt_is_found_behind_many_other_unfinished_games(tmp_path: Path) -> None:
    """The attempt is looked up by its seed: more games left unfinished since than the
    lookup reads (RESUME_LOOK) do not hide it, so no second attempt starts on the same
    dice."""
    rules = ruleset("yatzy")
    seed = offline_seed("yatzy", datetime.now(UTC).date())
    with open_service(tmp_path / "games.sqlite3") as service:
        attempt = service.create(rules, ["Ann"], seed=seed)
        attempt = service.apply(attempt.id, Roll())
        later = [service.apply(service.create(rules, ["Ann"], seed=n).id, Roll())
                 for n in range(RESUME_LOOK + 5)]
        # Another player's attempt and one of another ruleset are not Ann's of today.
        service.apply(service.create(rules, ["Bo"], seed=seed).id, Roll())
        service.apply(service.create(ruleset("yahtzee"), ["Ann"], seed=seed).id, Roll())
        assert attempt.id not in [g.id for g in service.recent(RESUME_LOOK, finished=False,
                                                               player="Ann")]
        assert len(later) > RESUME_LOOK
        found = todays_attempt(service, rules, seed, "Ann")
        assert found is not None and found.id == attempt.id
        assert found.game.rolls_left == 2
        assert todays_attempt(service, rules, seed, "Cy") is None


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
