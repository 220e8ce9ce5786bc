"""A battery of hostile inputs for every ``yatzy`` command.

Each case runs the command in-process through :func:`yatzy.cli.main` (or as a real
process where one matters: raw bytes in the arguments) with bad arguments, bad files,
bad databases, a damaged solver cache or an odd environment. It fails on a traceback
(an exception escaping ``main``, or ``Traceback`` in the output) and on any exit
status but 0 and 2; a refusal must end in one line that starts with ``yatzy``.

Only the small ``in_order`` solver table is ever built (once, in the cache directory
the CLI tests share); the player's own cache and games are never touched. ``yatzy
serve`` never serves here: a server that would start counts as done (exit 0), each
case gets a free port, and host names other than localhost never reach a resolver.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import yatzy
from tests.app.playing import play_game, same_dice
from tests.web.server import free_port
from yatzy.bootstrap import DB_ENV, open_service
from yatzy.cli import main
from yatzy.solver import artifacts, policy

#: Exit statuses a command may end with here: done, or refused (2).
ALLOWED = (0, 2)

#: Values for any option: huge, negative, empty, odd Unicode, control characters,
#: binary garbage without NULs (as Python gets undecodable bytes: lone surrogates),
#: long, and words that mean something to the parser.
ODD = [
    "", " ", "0", "-1", "99999999999999999999", "1e9", "NaN", "3.5", "\u202e\u0663\u200b",
    "１２", "💥" * 3, "x" * 5000, "\x7f\x01\x1b[31m", "\udcff\udcfe\udc80", "--", "-",
    "[bold]", "{n}", "%s",
]

#: Every option of every command that takes a value, and the words around it that keep
#: the command cheap (only the in_order table; random games; no terminal).
SLOTS: list[tuple[list[str], str | None]] = [
    (["score"], None),                            # the dice
    (["score", "--rolls"], "12345"),
    (["score", "--rules", "yahtzee", "--joker"], "12345"),
    (["stats", "--player"], None),
    (["stats", "--db"], None),
    (["stats", "--histogram", "--rules"], None),
    (["games", "-n"], None),
    (["games", "--player"], None),
    (["games", "--export"], None),
    (["games", "--db"], None),
    (["advise", "--order", "in_order", "--card"], None),
    (["advise", "--order", "in_order", "--dice"], None),
    (["advise", "--order", "in_order", "--dice", "11111", "--rolls-left"], None),
    (["advise", "--order", "in_order", "--top"], None),
    (["advise", "--order", "in_order", "--rolls"], None),
    (["solve", "--order", "in_order", "--rolls"], None),
    (["simulate", "--bot", "random", "-n", "2", "--seed"], None),
    (["simulate", "--bot", "random", "-n"], None),
    (["simulate", "--order", "in_order", "-n", "2", "--bot"], None),
    (["simulate", "--bot", "random", "-n", "2", "--plot"], None),
    (["match", "random", "random", "-n"], None),
    (["match", "random", "random", "-n", "2", "--seed"], None),
    (["match", "-n", "2", "random"], None),       # a second level
    (["match", "--order", "in_order", "-n", "2", "optimal", "--rolls"], None),
    (["analyse"], None),                          # the record file
    (["analyse", "--game"], None),
    (["analyse", "--db", "games.sqlite3", "--game"], None),
    (["analyse", "record.json", "--player"], None),
    (["play", "--players"], None),
    (["play", "--seed"], None),
    (["play", "--db"], None),
    (["play", "--first"], None),
    (["play", "--lang"], None),
    (["games", "--delete"], None),
    (["solve", "--order", "in_order", "--distribution", "--at-least"], None),
    (["solve", "--order", "in_order", "--distribution", "--plot"], None),
    (["analyse", "record.json", "--win-chances", "--plot"], None),
    (["analyse", "--win-chances", "--game"], None),
    (["match", "random", "random", "-n", "2", "--json", "--rules"], None),
    (["serve", "--port", "{port}", "--host"], None),
    (["serve", "--port"], None),
    (["serve", "--port", "{port}", "--db"], None),
    (["serve", "--port", "{port}", "--pace"], None),
    (["serve", "--port", "{port}", "--rate"], None),
    (["serve", "--port", "{port}", "--lang"], None),
]


@dataclass
class Outcome:
    code: int
    out: str
    err: str


class ScreenOpened(Exception):
    """The game screen would open here: the command got through all its checks."""


@pytest.fixture(autouse=True)
def _sandbox(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
             monkeypatch: pytest.MonkeyPatch, good_db: Path, record: Path) -> Iterator[None]:
    """English, the shared CLI cache, a game database of one finished game as default,
    and a working directory holding games.sqlite3 and record.json (for the slots).
    The user's folders point into the test's folder too, so that a case that falls back
    to the default database (``YATZY_DB=""``) never reaches the player's own."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "home" / name.lower()))
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path_factory.getbasetemp() / "matplotlib"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path_factory.getbasetemp() / "cli-cache"))
    shutil.copy(good_db, tmp_path / "games.sqlite3")
    shutil.copy(record, tmp_path / "record.json")
    monkeypatch.setenv(DB_ENV, str(tmp_path / "games.sqlite3"))
    monkeypatch.chdir(tmp_path)
    yield


def run(words: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, *, stdin: bytes = b"",
        terminal: bool = False) -> Outcome:
    """``main(words)`` with ``stdin``; with ``terminal`` the game's screen counts as
    opened (the checks before it are what is tested). An exception escaping ``main``
    fails the test: it is a traceback for a player."""
    import uvicorn

    from yatzy.tui.app import YatzyApp

    def opened(self: object, *args: object, **kwargs: object) -> None:
        raise ScreenOpened
    monkeypatch.setattr(YatzyApp, "run", opened)
    # A server that would start counts as started; no name reaches a real resolver.
    monkeypatch.setattr(uvicorn.Server, "run", opened)
    monkeypatch.setattr(socket, "getaddrinfo", _resolver)
    words = [word.replace("{port}", str(free_port())) for word in words]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    if terminal:
        monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    try:
        code = main(words)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except ScreenOpened:
        code = 0
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err)


_GETADDRINFO = socket.getaddrinfo


def _resolver(host: str, port: object, family: int = 0, type: int = 0, proto: int = 0,
              flags: int = 0) -> Any:
    """getaddrinfo that knows numeric addresses and localhost, and no other name."""
    if host != "localhost":
        flags |= socket.AI_NUMERICHOST
    return _GETADDRINFO(host, port, family, type, proto, flags)


def check(outcome: Outcome) -> None:
    """No traceback, an allowed exit status, and a refusal that says one thing."""
    assert "Traceback" not in outcome.out + outcome.err, outcome
    assert outcome.code in ALLOWED, outcome
    if outcome.code == 2:
        lines = outcome.err.splitlines()
        assert lines and lines[-1].startswith("yatzy"), outcome
        if "usage:" not in outcome.err:
            assert len(lines) == 1, outcome  # one line: `yatzy: ...`


# --- Fixtures: a database with a finished game, a record, damaged copies ----------------


@pytest.fixture(scope="session")
def good_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("battery") / "good.sqlite3"
    with open_service(path) as service:
        saved = play_game(service, yatzy.ruleset("yatzy", order="in_order"), ["Ann", "Bo"],
                          same_dice([1, 2, 3, 4, 5]))
    assert saved.finished
    return path


@pytest.fixture(scope="session")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("battery") / "record.json"
    game = yatzy.new_game(yatzy.ruleset("yatzy", order="in_order"), ["Ann"], seed=5)
    path.write_text(game.roll([1, 1, 2, 3, 4]).score("ones").to_json())
    return path


def _game_id(db: Path) -> str:
    with sqlite3.connect(db) as connection:
        [(game_id,)] = connection.execute("SELECT id FROM games").fetchall()
    return str(game_id)


def _damaged_db(kind: str, good: Path, folder: Path) -> str:
    """A database (its path or URL) damaged as ``kind`` says."""
    path = folder / f"{kind}.sqlite3"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "garbage":
        path.write_bytes(bytes(range(1, 256)) * 40)
    elif kind == "text":
        path.write_text("not a database\n" * 100)
    elif kind == "truncated":
        path.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    elif kind == "folder":
        path.mkdir()
    else:
        shutil.copy(good, path)
        sql = {
            "newer": "UPDATE alembic_version SET version_num = 'f00d'",
            "no tables": "DROP TABLE results",
            "bad record": "UPDATE games SET record = '{\"format\": 1}'",
            "record not JSON": "UPDATE games SET record = 'not json'",
            "bad seats": "UPDATE games SET seats = '[1, 2]'",
            "bad ruleset": "UPDATE games SET ruleset = 'poker', options_key = '?'",
            "bad date": "UPDATE games SET updated_at = 'yesterday'",
            "huge numbers": "UPDATE games SET steps = 9223372036854775807, "
                            "seed = -9223372036854775808",
            "odd names": "UPDATE results SET player = char(27) || '[31m' || char(8238)",
            "readonly": None,
        }[kind]
        if sql:
            with sqlite3.connect(path) as connection:
                connection.execute(sql)
        if kind == "readonly":
            path.chmod(0o444)
            return f"sqlite:///file:{path}?mode=ro&uri=true"
    return str(path)


DB_KINDS = ["empty", "garbage", "text", "truncated", "folder", "newer", "no tables",
            "bad record", "record not JSON", "bad seats", "bad ruleset", "bad date",
            "huge numbers", "odd names", "readonly"]

DB_COMMANDS = [
    ["stats"], ["stats", "--histogram"], ["stats", "--json"], ["games"], ["games", "--json"],
    ["games", "--export", "{id}"], ["games", "--export", "{id}", "-o", "out.json"],
    ["analyse", "--game", "{id}"], ["play", "--resume"], ["play", "--players", "Ann"],
]


# --- The battery ----------------------------------------------------------------------


@pytest.mark.parametrize("value", ODD, ids=range(len(ODD)))
@pytest.mark.parametrize(("words", "after"), SLOTS, ids=[" ".join(w) for w, _ in SLOTS])
def test_odd_option_values(words: list[str], after: str | None, value: str,
                           capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [*words, value, *([after] if after else [])]
    check(run(argv, capsys, monkeypatch, terminal=words[0] == "play"))


@pytest.mark.parametrize("words", [
    [], ["--"], ["-"], ["nonsense"], ["play", "--rules"], ["score"], ["score", "--", "-6"],
    ["score", "-6", "-6", "-6", "-6", "-6"], ["analyse", "a.json", "b.json"],
    ["games", "-o", "x.json"], ["analyse", "record.json", "--db", "games.sqlite3"],
    ["analyse", "record.json", "--game", "x"], ["--lang", "sv"], ["--version"],
    ["advise", "--order", "in_order", "--card", "ones=3 ones=2"],
    ["advise", "--order", "in_order", "--card", "ones=3=4"],
    ["advise", "--order", "in_order", "--card", "yatzy=50, Tvåor=4, Ett par=2"],
    ["advise", "--order", "in_order", "--card",
     "ones=1 twos=2 threes=3 fours=4 fives=5 sixes=6 one_pair=2 two_pairs=6 "
     "three_of_a_kind=3 four_of_a_kind=4 small_straight=15 large_straight=20 "
     "full_house=7 chance=5 yatzy=50"],
    ["simulate", "--rules", "yahtzee", "--order", "free", "--bot", "random"],
    ["simulate", "--bot", "random", "-n", "1", "--plot", "."],
    ["simulate", "--bot", "random", "-n", "1", "--plot", "plot."],
    ["simulate", "--bot", "random", "-n", "1", "--plot", "x.png", "--json"],
    ["match"], ["match", "random"], ["match", "random", "wizard"],
    ["match", "random", "random", "-n", "3"], ["match", "random", "random", "--joker", "free"],
    ["match", "random", "random", "random", "-n", "1000"],
    ["match", "random", "greedy", "-n", "2", "--json"],
    ["match", *["random"] * 100, "-n", "100"],
    ["games", "--export", "a", "-o", "/"],
    ["games", "--export", "", "-o", "nonexistent/dir/x.json"],
    ["stats", "--db", "postgresql://127.0.0.1:1/none"],
    ["stats", "--db", "nodriver+nothing://x/y"],
    ["stats", "--db", "sqlite:///:memory:"],
    ["games", "--db", "sqlite://"],
    ["play", "--db", "nonexistent/dir/x.sqlite3"],
    ["play", "--dice", "manual", "--seed", "4"],
    ["play", "--players", ",,,"], ["play", "--players", "a,b,c,d,e,f,g"],
    ["play", "--players", "cpu:" + "x" * 300], ["play", "--players", " Ann "],
    ["serve", "--host", "-5"], ["serve", "--host", "256.256.256.256"],
    ["serve", "--host", "::1::"], ["serve", "--host", ""], ["serve", "--host", "1" * 5000],
    ["serve", "--host", "a" * 64 + ".example"], ["serve", "--host", "no-such-host.invalid"],
    ["serve", "--host", "192.0.2.123", "--port", "{port}"],
    ["serve", "--host", "0.0.0.0", "--port", "{port}"],
    ["serve", "--host", "::", "--port", "{port}"],
    ["serve", "--host", "localhost", "--port", "{port}"],
    ["serve", "--port", "1"], ["serve", "--port", "65536"], ["serve", "--pace", "11"],
    ["serve", "--rate", "-1"], ["serve", "--db", "nonexistent/dir/x.sqlite3"],
    ["analyse", "record.json", "--win-chances"],
    ["analyse", "record.json", "--plot", "x.png"],
    ["solve", "--order", "in_order", "--at-least", "100"],
    ["match", "random", "random", "-n", "2", "--seed", "-1"],
])
def test_odd_command_lines(words: list[str], capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    check(run(words, capsys, monkeypatch, terminal=not words or words[0] == "play"))


def test_a_card_with_a_superscript_digit(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    check(run(["advise", "--order", "in_order", "--card", "ones=²"], capsys, monkeypatch))


#: Record files (bytes) that are not the record of a game, or barely one.
def _record_variants(record: Path) -> dict[str, bytes]:
    good = record.read_text()
    return {
        "empty": b"",
        "binary": bytes(range(1, 256)) * 10,
        "NULs": b"\x00" * 1000,
        "latin-1": '{"players": ["Åsa"]}'.encode("latin-1"),
        "UTF-16": good.encode("utf-16"),
        "deep": b"[" * 200_000,
        "deep object": b'{"a":' * 100_000,
        "list": b"[]", "null": b"null", "number": b"1e999", "string": b'"record"',
        "object": b"{}",
        "wrong version": good.replace('"version": 1', '"version": 99').encode(),
        "huge seed": good.replace('"seed": 5', '"seed": ' + "9" * 5000).encode(),
        "negative seed": good.replace('"seed": 5', '"seed": -5').encode(),
        "float seed": good.replace('"seed": 5', '"seed": 5.5').encode(),
        "surrogate name": good.replace('"Ann"', '"\\ud800"').encode(),
        "control name": good.replace('"Ann"', '"\\u001b[2J"').encode(),
        "bad dice": good.replace("[1, 1, 2, 3, 4]", "[1, 1, 2, 3, 99]").encode(),
        "bad ruleset": good.replace('"in_order"', '"sideways"').encode(),
        "yahtzee record": good.replace('"yatzy"', '"yahtzee"', 1).encode(),
        "truncated": good[: len(good) // 2].encode(),
        "BOM": b"\xef\xbb\xbf" + good.encode(),
    }


RECORD_KINDS = [
    "empty", "binary", "NULs", "latin-1", "UTF-16", "deep", "deep object", "list", "null",
    "number", "string", "object", "wrong version", "huge seed", "negative seed",
    "float seed", "surrogate name", "control name", "bad dice", "bad ruleset",
    "yahtzee record", "truncated", "BOM",
]


def test_every_record_variant_is_tried(record: Path) -> None:
    assert list(_record_variants(record)) == RECORD_KINDS


@pytest.mark.parametrize("kind", RECORD_KINDS)
@pytest.mark.parametrize("how", ["file", "stdin"])
def test_odd_record_files(kind: str, how: str, record: Path, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    content = _record_variants(record)[kind]
    if how == "file":
        path = tmp_path / "odd.json"
        path.write_bytes(content)
        check(run(["analyse", str(path)], capsys, monkeypatch))
    else:
        check(run(["analyse", "-", "--json"], capsys, monkeypatch, stdin=content))


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/", ".", "/proc/self/mem",
                                  "missing/dir/x.json", "\udcff.json"])
def test_odd_paths_to_read(path: str, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    check(run(["analyse", path], capsys, monkeypatch))
    if not path.startswith(("/dev/", "/proc/")):  # SQLite would put a journal beside it
        check(run(["stats", "--db", path], capsys, monkeypatch))
        check(run(["games", "--db", path, "--json"], capsys, monkeypatch))


# Only places where a write is refused or harmless (never outside the test's folder).
@pytest.mark.parametrize("path", ["/", ".", "missing/dir/x.json", "\udcff.json", "x" * 5000,
                                  "x.txt"])
def test_odd_paths_to_write(path: str, good_db: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    check(run(["games", "--export", _game_id(good_db), "-o", path], capsys, monkeypatch))
    check(run(["simulate", "--bot", "random", "-n", "1", "--plot", path], capsys,
              monkeypatch))


@pytest.mark.parametrize("kind", DB_KINDS)
@pytest.mark.parametrize("words", DB_COMMANDS, ids=[" ".join(w) for w in DB_COMMANDS])
def test_odd_databases(kind: str, words: list[str], good_db: Path, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = _damaged_db(kind, good_db, tmp_path)
    game_id = _game_id(good_db)[:6]
    argv = [word.replace("{id}", game_id) for word in words] + ["--db", db]
    check(run(argv, capsys, monkeypatch, terminal=words[0] == "play"))


@pytest.mark.parametrize(("name", "value"), [
    ("LANG", "xx_YY.UTF-8"), ("LANG", ""), ("LANG", "sv_SE.ISO-8859-1"),
    ("LANGUAGE", ":::"), ("LC_ALL", "fi_FI@euro"), ("COLUMNS", "0"), ("COLUMNS", "-5"),
    ("COLUMNS", "abc"), ("TERM", "dumb"), ("NO_COLOR", "1"), ("USER", ",,,"),
    ("USER", "a,b,c,d,e,f,g"), ("USER", "cpu:wizard"), ("USER", " "),
    (DB_ENV, ""), (DB_ENV, "nonexistent/dir/x.sqlite3"), (DB_ENV, "nodriver+x://y"),
    (artifacts.ENV_VAR, "record.json"),  # a file, not a folder
])
@pytest.mark.parametrize("words", [
    ["stats", "--histogram"], ["games"], ["score", "12345"], ["play"],
    ["analyse", "record.json"], ["advise", "--order", "in_order"],
])
def test_odd_environments(name: str, value: str, words: list[str],
                          capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(name, value)
    if name == artifacts.ENV_VAR and words[0] in ("advise", "analyse"):
        # A cache that cannot be written only warns: the table is built in memory.
        monkeypatch.setattr(policy, "_STRATEGIES", {})
        with pytest.warns(RuntimeWarning):
            check(run(words, capsys, monkeypatch, terminal=words[0] == "play"))
        return
    check(run(words, capsys, monkeypatch, terminal=words[0] == "play"))


def test_an_empty_table_file_in_the_cache_is_rebuilt(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`: > $YATZY_CACHE_DIR/<table>.npz` raised EOFError and nothing was rebuilt."""
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    table = artifacts.table_path(yatzy.ruleset("yatzy", order="in_order"))
    table.parent.mkdir()
    table.write_bytes(b"")
    outcome = run(["solve", "--order", "in_order"], capsys, monkeypatch)
    check(outcome)
    assert outcome.code == 0 and "built in" in outcome.out and table.stat().st_size > 0


@pytest.mark.parametrize("argv", [
    [b"stats", b"--player", b"\xff\xfe"],
    [b"score", b"\xff\xfe"],
    [b"games", b"--export", b"\xc3("],
    [b"advise", b"--order", b"in_order", b"--card", b"\xe4\xf6=3"],
    [b"analyse", b"\xff.json"],
])
def test_bytes_that_are_no_text_in_a_real_process(argv: list[bytes], tmp_path: Path,
                                                  good_db: Path) -> None:
    """Arguments that are not UTF-8 reach Python as lone surrogates, which cannot be
    printed or stored: a real process, so that the real standard streams are used."""
    env = {**os.environ, "LANG": "C.UTF-8", DB_ENV: str(good_db)}
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    done = subprocess.run([sys.executable.encode(), b"-m", b"yatzy.cli", *argv], env=env,
                          cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=60)
    outcome = Outcome(done.returncode, done.stdout.decode(errors="replace"),
                      done.stderr.decode(errors="replace"))
    check(outcome)


# --- What the battery found, pinned down ------------------------------------------------


def test_an_argument_that_is_no_text_is_refused(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Lone surrogates (bytes that were no UTF-8) raised UnicodeEncodeError when printed
    or sent to SQLite."""
    outcome = run(["stats", "--player", "A\udcff\udcfe"], capsys, monkeypatch)
    assert (outcome.code, outcome.out) == (2, "")
    assert outcome.err == "yatzy: A\\xff\\xfe is not text in the system's encoding\n"
    outcome = run(["games", "--lang", "fi", "--export", "\udcc3("], capsys, monkeypatch)
    assert outcome.err == "yatzy: \\xc3( ei ole tekstiä järjestelmän merkistökoodauksessa\n"


def test_a_name_the_terminal_cannot_show_is_escaped(record: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A record may name a player "\\ud800" (a JSON escape): printing it raised
    UnicodeEncodeError. The core now refuses such a name; the refusal shows it escaped."""
    odd = tmp_path / "odd.json"
    odd.write_text(record.read_text().replace('"Ann"', '"\\ud800"'))
    outcome = run(["analyse", str(odd)], capsys, monkeypatch)
    assert outcome.code == 2 and "\\ud800" in outcome.err and "printable" in outcome.err
    assert "Traceback" not in outcome.err


def test_a_refusal_with_a_reason_of_several_lines_is_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """psycopg's reason for a server that is not there has two lines."""
    outcome = run(["stats", "--db", "postgresql://127.0.0.1:1/none"], capsys, monkeypatch)
    assert outcome.code == 2 and outcome.err.count("\n") == 1
    assert outcome.err.startswith("yatzy: Cannot open the game database ")
    assert "Is the server running" in outcome.err and "\t" not in outcome.err


def test_a_path_too_long_for_the_system_is_no_database(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """pathlib's exists() raised OSError (File name too long)."""
    outcome = run(["stats", "--db", "x" * 5000], capsys, monkeypatch)
    assert outcome.code == 0 and outcome.out.startswith("No games yet: there is no game ")


@pytest.mark.parametrize("words", [
    ["games"], ["games", "--json"], ["stats"], ["stats", "--histogram"],
    ["analyse", "--game", "x"], ["play", "--players", "Ann"], ["serve", "--port", "{port}"],
    ["games", "--export", "{id}", "-o", "~no-such-user-here/x.json"],
])
def test_a_home_folder_of_nobody(words: list[str], good_db: Path,
                                 capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``~nouser/x`` raised "Could not determine home directory" in a traceback."""
    words = [w.replace("{id}", _game_id(good_db)).replace("{port}", str(free_port()))
             for w in words]
    db = ["--db", "~no-such-user-here/x.sqlite3"] if "-o" not in words else []
    outcome = run([*words, *db], capsys, monkeypatch, terminal=words[0] == "play")
    check(outcome)
    if not db:
        assert outcome.err == ("yatzy: Cannot write ~no-such-user-here/x.json: No such "
                               "file or directory\n")
        return
    assert outcome.code == 2
    assert outcome.err == ("yatzy: Cannot open the game database "
                           "~no-such-user-here/x.sqlite3: there is no folder "
                           "~no-such-user-here\n")
    monkeypatch.setenv(DB_ENV, "~no-such-user-here/y.sqlite3")
    check(run(words, capsys, monkeypatch, terminal=words[0] == "play"))


def test_a_plot_in_a_home_folder_of_nobody(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = run(["simulate", "--bot", "random", "-n", "1", "--plot",
                   "~no-such-user-here/x.png"], capsys, monkeypatch)
    check(outcome)
    assert outcome.err == ("yatzy: Cannot save the histogram to ~no-such-user-here/x.png: "
                           "there is no folder ~no-such-user-here\n")


def test_a_fifo_with_no_writer(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """analyse waited for a writer for good."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    outcome = run(["analyse", str(fifo)], capsys, monkeypatch)
    check(outcome)
    assert outcome.code == 2 and "is not a file" in outcome.err


def test_serve_says_where_it_listens_only_once_it_does(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for host in ("-5", "", "::1::"):
        outcome = run(["serve", "--host", host], capsys, monkeypatch)
        assert outcome.code == 2 and "yatzy web app on" not in outcome.err
    outcome = run(["serve", "--host", "0.0.0.0", "--port", "{port}"], capsys, monkeypatch)
    assert outcome.code == 0
    assert "yatzy web app on http://" in outcome.err and "0.0.0.0" not in outcome.err
