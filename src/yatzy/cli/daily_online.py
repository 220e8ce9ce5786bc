"""``yatzy daily --server URL``: today's ranked challenge of a yatzy server, played in
the terminal over the server's HTTP API.

The terminal is a player like a browser: a random *player key* kept in the user's
config folder (``player-key``, readable by the user alone) is its ``X-Player-Key``, so a
second attempt the same day is refused (409) as in the browser. The attempt is
``POST /api/daily/RULES/play``; each move is ``POST /api/games/ID/actions`` with the
seat's token; at the end ``GET /api/daily/RULES/DAY`` gives the result and the rank as
the web page shows them. The server decides everything (the dice, what a move is
worth, the rank); this module asks and prints. Every failure is one line (the server
away, a refusal in the server's words, an address that is no server), never a
traceback. HTTP goes through the standard library (``urllib``): no client package.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TextIO

from yatzy.cli.errors import CommandError
from yatzy.i18n import N_, Translator
from yatzy.i18n.words import box_label

#: Seconds one request may take.
TIMEOUT = 30.0
#: Times a request the server asks to wait for (429, 503 with ``Retry-After``) is sent
#: again, and the longest wait (seconds) before each.
RETRIES = 5
MOST_WAIT = 5.0
#: The file in the config folder that holds this terminal's player key.
KEY_FILE = "player-key"
#: What a player key is (as the server checks it).
_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")

Ask = Callable[[str], str]


def config_folder() -> Path:
    """The user's yatzy config folder (``$XDG_CONFIG_HOME/yatzy`` on Linux)."""
    import platformdirs

    return Path(platformdirs.user_config_dir("yatzy"))


def player_key(folder: Path | None = None) -> str:
    """This terminal's player key: read from the config folder, made (and kept, for
    the user alone) the first time."""
    folder = config_folder() if folder is None else folder
    path = folder / KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
        if _KEY.fullmatch(key):
            return key
    except (OSError, UnicodeError):
        pass
    key = secrets.token_urlsafe(32)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(key + "\n")
    except OSError as exc:
        raise CommandError(N_("Cannot keep the player key in {file}: {reason}"),
                           file=str(path), reason=exc.strerror or str(exc)) from None
    return key


def server_url(given: str) -> str:
    """``given`` as the server's base address (``http(s)://host[:port][/path]``), or
    :class:`CommandError`."""
    text = given.strip().rstrip("/")
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urllib.parse.urlsplit(text)
        parts.port  # noqa: B018 - a port that is no number raises here
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.query or parts.fragment):
        raise CommandError(N_("Not a server's address (http://host:port): {url}"),
                           url=given[:80])
    return text


class Server:
    """The server's HTTP API, as this terminal's player."""

    def __init__(self, base: str, key: str, lang: str) -> None:
        self.base = base
        self.key = key
        self.lang = lang

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, *,
             token: str | None = None) -> Any:
        """The JSON answer of ``method path``; a refusal is :class:`CommandError` in the
        server's words, the server away or not a yatzy server one too."""
        url = f"{self.base}{path}{'&' if '?' in path else '?'}lang={self.lang}"
        headers = {"X-Player-Key": self.key, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(RETRIES + 1):
            request = urllib.request.Request(url, data=data, headers=headers,
                                             method=method)
            try:
                return self._send(request)
            except urllib.error.HTTPError as exc:
                wait = _retry_after(exc)
                if wait is None or attempt == RETRIES:
                    self._refused(exc)
                exc.close()
                time.sleep(wait or 0)
        raise AssertionError("unreachable")  # pragma: no cover

    def _send(self, request: urllib.request.Request) -> Any:
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError:
            raise
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise CommandError(N_("Cannot reach the server at {url}: {reason}"),
                               url=self.base, reason=str(reason)) from None
        except ValueError:
            raise CommandError(N_("{url} answered {status}: is it a yatzy server?"),
                               url=self.base, status=200) from None

    def _refused(self, error: urllib.error.HTTPError) -> NoReturn:
        """The server's refusal as :class:`CommandError`, in its words."""
        message = _error_message(error)
        if message is None:
            raise CommandError(N_("{url} answered {status}: is it a yatzy server?"),
                               url=self.base, status=error.code) from None
        raise CommandError(N_("The server refused: {refusal}"), refusal=message) from None


def _retry_after(error: urllib.error.HTTPError) -> float | None:
    """Seconds the server asks to wait before asking again (too many requests, or its
    database away a moment), or ``None`` for a refusal that stands."""
    if error.code not in (429, 503):
        return None
    try:
        return min(max(float(error.headers.get("Retry-After", "1")), 0.0), MOST_WAIT)
    except ValueError:
        return 1.0


def _error_message(error: urllib.error.HTTPError) -> str | None:
    """The message of the server's error answer (``{"error": {"code", "message"}}``)."""
    try:
        body = json.loads(error.read())
        message = body["error"]["message"]
    except (ValueError, KeyError, TypeError, OSError):
        return None
    return message if isinstance(message, str) else None


# --- The game in the terminal ---------------------------------------------------------


def _show(t: Translator, state: dict[str, Any], out: TextIO) -> None:
    """The turn as it stands: the round, the dice, the rolls left and each box the
    dice would fill, numbered."""
    print(t._("Round {round} of {rounds}", round=min(state["round"], state["rounds"]),
              rounds=state["rounds"]), file=out)
    card = state["scorecards"][state["current_player"]]
    print(t._("Your score: {total}", total=card["total"]), file=out)
    if state["dice"] is None:
        return
    dice = "  ".join(f"{i + 1}:[{face}]" for i, face in enumerate(state["dice"]))
    rolls = state["rolls_left"]
    print(f"{dice}   " + t.ngettext("{n} roll left", "{n} rolls left", rolls, n=rolls),
          file=out)
    for number, (box, points) in enumerate(_choices(state), start=1):
        print(f"  {number:>2}. {box_label(t, box)}: {points}", file=out)


def _choices(state: dict[str, Any]) -> list[tuple[str, int]]:
    """The boxes the dice may fill, in the card's order, with their points."""
    choices: dict[str, int] = state["choices"]
    return [(box, choices[box]) for box in state["boxes"] if box in choices]


def read_move(t: Translator, text: str, state: dict[str, Any]) -> dict[str, Any] | None:
    """The action a line typed means (``None``: not understood): Enter or ``r`` rolls
    (rerolls every die), ``k 1 3`` keeps dice 1 and 3 and rerolls the others, a number
    of the list fills that box (or a box's name).

    >>> from yatzy.i18n import translator
    >>> state = {"dice": [1, 2, 3, 4, 5], "choices": {"chance": 15, "ones": 1},
    ...          "boxes": ["ones", "chance"]}
    >>> read_move(translator("en"), "k 1 3", state), read_move(translator("en"), "2", state)
    ({'type': 'reroll', 'hold': [0, 2]}, {'type': 'score', 'box': 'chance'})
    """
    words = text.strip().lower().split()
    if state["dice"] is None:
        return {"type": "roll"} if words in ([], ["r"]) else None
    if words in ([], ["r"]):
        return {"type": "reroll", "hold": []}
    if words[0] == "k":
        try:
            hold = sorted({int(word) - 1 for word in words[1:]})
        except ValueError:
            return None
        if not all(0 <= i < len(state["dice"]) for i in hold):
            return None
        return {"type": "reroll", "hold": hold}
    choices = _choices(state)
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        return ({"type": "score", "box": choices[number - 1][0]}
                if 1 <= number <= len(choices) else None)
    named = " ".join(words)
    for box, _ in choices:
        if named in (box, box_label(t, box).lower()):
            return {"type": "score", "box": box}
    return None


def play(server: Server, rules: str, t: Translator, ask: Ask, out: TextIO) -> int:
    """Play today's challenge of ``rules`` on ``server`` to its end and print the
    result; 0 once over."""
    today = server.call("GET", "/api/daily")
    if not isinstance(today, list):
        raise CommandError(N_("{url} answered {status}: is it a yatzy server?"),
                           url=server.base, status=200)
    day = next((c.get("date") for c in today if isinstance(c, dict)
                and c.get("rules") == rules), None) or _today()
    created = server.call("POST", f"/api/daily/{urllib.parse.quote(rules)}/play")
    game_id, token = created["id"], created["seats"][0]["token"]
    continue_url = created["seats"][0]["url"]
    print(t._("The daily challenge on {server}: ranked, one attempt a day.",
              server=server.base), file=out)
    print(t._("Enter or r: roll · k 1 3: keep dice 1 and 3, reroll the others · a "
              "number: fill that box"), file=out)
    state = server.call("GET", f"/api/games/{game_id}")
    while not state["is_over"]:
        _show(t, state, out)
        try:
            line = ask(t._("Your move: "))
        except (EOFError, KeyboardInterrupt):
            print(file=out)
            raise CommandError(N_("Stopped: the attempt stays open; continue it in the "
                                  "browser: {url}"), url=continue_url) from None
        action = read_move(t, line, state)
        if action is None:
            print(t._("Not understood: {text}", text=line.strip()[:40]), file=out)
            continue
        try:
            state = server.call("POST", f"/api/games/{game_id}/actions",
                                {**action, "expected_version": state["version"]},
                                token=token)
        except CommandError as refused:  # an illegal move: the server's words
            if "url" in refused.params:
                raise
            print(refused.params.get("refusal", str(refused)), file=out)
            state = server.call("GET", f"/api/games/{game_id}")
    results = server.call("GET", f"/api/daily/{urllib.parse.quote(rules)}/{day}")
    _result(t, results, out)
    return 0


def _today() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).date().isoformat()


def _result(t: Translator, results: dict[str, Any], out: TextIO) -> None:
    """The attempt's result as the daily page shows it."""
    me = results.get("me")
    if not me or me.get("total") is None:
        return
    print(t._("Your score: {total}", total=me["total"]), file=out)
    if me.get("points_lost") is not None:
        print(t._("{points} points lost against optimal play",
                  points=f"{me['points_lost']:.1f}"), file=out)
    if results.get("par") is not None:
        print(t._("Par (optimal play on these dice): {par}", par=results["par"]), file=out)
    if me.get("rank") is not None:
        line = t._("#{rank} of {players} by score", rank=me["rank"], players=me["of"])
        if me.get("accuracy_rank") is not None:
            line += " · " + t._("#{rank} by accuracy", rank=me["accuracy_rank"])
        print(line, file=out)
    if me.get("share"):
        print(f"\n{me['share']}\n{me['replay_url']}", file=out)


def run_online(server: str, rules: str, t: Translator, *, ask: Ask = input,
               out: TextIO = sys.stdout, folder: Path | None = None) -> int:
    """``yatzy daily --server URL``."""
    base = server_url(server)
    return play(Server(base, player_key(folder), t.lang), rules, t, ask, out)
