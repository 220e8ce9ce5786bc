"""``yatzy daily --server URL``: a real ``yatzy serve``'s ranked challenge played in the
terminal over the HTTP API, the player key kept in the config folder; the result and the
rank as the daily page shows them; and every failure one line (a second attempt, the
server away, an address that is no server), never a traceback."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import free_port, start
from yatzy.cli.daily_online import KEY_FILE, player_key, run_online, server_url
from yatzy.cli.errors import CommandError, error_message
from yatzy.i18n import translator

EN = translator("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``yatzy serve`` on a fresh database (shared by the module's tests)."""
    port = free_port()
    process = start(tmp_path_factory.mktemp("serve") / "games.sqlite3", port)
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait(timeout=10)


class Typist:
    """What a person types at each prompt: a roll, three rerolls of everything (the
    third is refused: no rolls left), then the first box offered; again and again."""

    TURN = ("", "r", "r", "r", "1")

    def __init__(self) -> None:
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        assert prompt == "Your move: "
        self.prompts += 1
        return self.TURN[(self.prompts - 1) % len(self.TURN)]


def test_today_s_ranked_challenge_in_the_terminal(server: str, tmp_path: Path) -> None:
    out = io.StringIO()
    typist = Typist()
    assert run_online(server.removeprefix("http://"), "yatzy", EN, ask=typist, out=out,
                      folder=tmp_path) == 0
    shown = out.getvalue()
    assert "The daily challenge on http://127.0.0.1" in shown and "ranked" in shown
    assert "1:[" in shown and "2 rolls left" in shown and "1. " in shown
    assert "No rolls left" in shown or "no rolls left" in shown.lower()  # refused, went on
    assert typist.prompts == 15 * len(Typist.TURN)
    # The result as the page shows it: score, points lost, par, rank, the text to share.
    assert "Your score: " in shown and "points lost against optimal play" in shown
    assert "Par (optimal play on these dice): " in shown
    assert "#1 of 1 by score · #1 by accuracy" in shown
    share = [line for line in shown.splitlines() if line.startswith("Yatzy 20")]
    assert share and share[0].endswith("· #1 of 1")
    assert f"{server}/games/" in shown and "/replay?lang=en" in shown
    # The key is kept for the user alone, and is the one the server knows.
    key = (tmp_path / KEY_FILE).read_text().strip()
    assert stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode) == 0o600
    assert player_key(tmp_path) == key
    # A second attempt the same day is refused, in the server's words, and nothing begins.
    with pytest.raises(CommandError) as second:
        run_online(server, "yatzy", EN, ask=typist, out=io.StringIO(), folder=tmp_path)
    assert error_message(EN, second.value) == (
        "The server refused: You have played today's challenge already: one ranked "
        "attempt a day")


def test_an_unknown_ruleset_is_the_server_s_refusal(server: str, tmp_path: Path) -> None:
    with pytest.raises(CommandError) as refused:
        run_online(server, "nope", EN, ask=Typist(), out=io.StringIO(), folder=tmp_path)
    assert error_message(EN, refused.value).startswith("The server refused: ")


@pytest.mark.parametrize(("url", "said"), [
    ("ftp://example.org", "Not a server's address (http://host:port): ftp://example.org"),
    ("http://host:99999", "Not a server's address (http://host:port): http://host:99999"),
    ("http://x/?a=1", "Not a server's address (http://host:port): http://x/?a=1"),
])
def test_an_address_that_is_no_server_is_refused(url: str, said: str) -> None:
    with pytest.raises(CommandError) as refused:
        server_url(url)
    assert error_message(EN, refused.value) == said


def test_the_command_says_one_line_when_the_server_is_away(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nobody listens there
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "LANG": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "yatzy.cli", "daily", "--server", url],
                          input="", capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"yatzy: Cannot reach the server at {url}: ")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_request_the_server_asks_to_wait_for_is_sent_again(tmp_path: Path) -> None:
    """429 (too many requests) and 503 with Retry-After are waited out; a refusal that
    stands (409) is said at once."""
    import http.server
    import threading

    answers = [(429, b'{"error": {"code": "rate_limited", "message": "wait"}}'),
               (503, b'{"error": {"code": "storage", "message": "away"}}'),
               (200, b'[{"rules": "yatzy", "date": "2026-12-03"}]'),
               (409, b'{"error": {"code": "daily_played", "message": "Played already"}}')]
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self) -> None:
            asked.append(f"{self.command} {self.path.split('?')[0]}")
            status, body = answers.pop(0)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Retry-After", "0")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(CommandError) as refused:
            run_online(f"127.0.0.1:{server.server_address[1]}", "yatzy", EN,
                       ask=Typist(), out=io.StringIO(), folder=tmp_path)
    finally:
        server.shutdown()
    assert error_message(EN, refused.value) == "The server refused: Played already"
    assert asked == ["GET /api/daily"] * 3 + ["POST /api/daily/yatzy/play"]
