"""A stateful fuzz of the HTTP API (hypothesis): games created, then random sequences of
rolls with random holds, scores of random boxes (real and not), undos, stale versions,
wrong turns, other seats' tokens, watchers' and made-up tokens, and games played out.

Throughout: no answer is a 5xx; every 4xx is the one error shape with a code; a game's
version only grows; an action refused changes nothing; an action is applied only for the
seat whose turn it is; and a game played out ends with totals that the record, replayed
by the core, confirms.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
)

from yatzy.bootstrap import open_service
from yatzy.core.game import Game
from yatzy.web.app import Settings, create_app

#: Sequences tried, and the most steps in each (a step is a rule: one request or more).
EXAMPLES = 15
STEPS = 30

#: What the run saw, for its closing line (and the report).
TALLY: dict[str, int] = {}

BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
         "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
         "full_house", "chance", "yatzy", "yahtzee", "three_kind", "four_kind",
         "", "CHANCE", "bonus", "total", "ｃｈａｎｃｅ", "chance\x00", "🎲" * 5]


#: Stands for a box open for the player to move.
OPEN = "<open>"


@dataclass
class Played:
    """What the test knows of one game."""

    id: str
    tokens: dict[str, str]  # player -> token
    manual: bool
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)


def _count(what: str) -> None:
    TALLY[what] = TALLY.get(what, 0) + 1


class ApiMachine(RuleBasedStateMachine):
    """One app on a fresh database per sequence; its games in a bundle."""

    games = Bundle("games")
    #: Where each sequence's database goes (the test's temporary folder).
    folder: Path

    def __init__(self) -> None:
        super().__init__()
        app = create_app(open_service(self.folder / f"{time.monotonic_ns()}.sqlite3"),
                         Settings(pace=0, rate=0, prepare=()))
        self.client = TestClient(app)
        self.client.__enter__()
        self.known: list[Played] = []
        self.played_out = False

    def teardown(self) -> None:
        try:
            for game in self.known:
                self.check_totals(game)
        finally:
            self.client.__exit__(None, None, None)

    # --- Requests, each checked --------------------------------------------------------

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.client.request(method, path, **kwargs)
        _count("requests")
        _count(f"status {response.status_code}")
        assert response.status_code < 500, (method, path, kwargs, response.text)
        if response.status_code >= 400:
            body = response.json()
            assert set(body) == {"error"}, body
            assert isinstance(body["error"]["code"], str) and body["error"]["code"]
            assert isinstance(body["error"]["message"], str) and body["error"]["message"]
        return response

    def read(self, game: Played) -> dict[str, Any]:
        state: dict[str, Any] = self.request("GET", f"/api/games/{game.id}").json()
        assert state["version"] >= game.version, "a version went back"
        game.version, game.state = state["version"], state
        return state

    def act(self, game: Played, token: str | None, body: dict[str, Any],
            path: str = "actions") -> None:
        """Send an action; a refusal changes nothing, and one applied was the turn of
        the seat that sent it."""
        before = game.state  # as read after the last request: only this test changes it
        mover = before["current_player"]
        headers = ({"Authorization": f"Bearer {token}".encode()} if token is not None
                   else {})
        response = self.request("POST", f"/api/games/{game.id}/{path}", json=body,
                                headers=headers)
        after = self.read(game)
        if response.status_code == 200:
            _count(f"applied {path}")
            assert after["version"] > before["version"]
            assert response.json()["version"] == after["version"]
            seat = next((p for p, t in game.tokens.items() if t == token), None)
            if path == "actions":
                assert seat == mover, f"{seat} acted on {mover}'s turn"
            else:
                assert before["last"] and before["last"]["player"] == seat, "undo by another"
        else:
            _count(f"refused {response.json()['error']['code']}")
            for key in ("version", "steps", "dice", "rolls_left", "scorecards",
                        "current_player"):
                assert after[key] == before[key], f"a refused action changed {key}"

    # --- Rules --------------------------------------------------------------------------

    @initialize(target=games)
    def first_game(self) -> Played:
        return self._create("yatzy", ["Ann", "Bo"], "server")

    @precondition(lambda self: len(self.known) < 3)
    @rule(target=games, rules=st.sampled_from(["yatzy", "yahtzee"]),
          people=st.lists(st.sampled_from(["Ann", "Bo", "Cy", "ＡＮＮ", "李", "Zoë"]),
                          min_size=1, max_size=3),
          dice=st.sampled_from(["server", "manual"]))
    def create(self, rules: str, people: list[str], dice: str) -> Played:
        return self._create(rules, people, dice)

    def _create(self, rules: str, people: list[str], dice: str) -> Played:
        response = self.request("POST", "/api/games", json={
            "rules": rules, "seats": [{"name": n} for n in people], "dice": dice})
        if response.status_code != 201:  # two names that are one name: refused
            assert response.json()["error"]["code"] == "duplicate_player"
            people, response = ["Ann"], self.request("POST", "/api/games", json={
                "rules": rules, "seats": [{"name": "Ann"}], "dice": dice})
        created = response.json()
        game = Played(created["id"], {s["name"]: s["token"] for s in created["seats"]},
                      manual=dice == "manual")
        self.read(game)
        self.known.append(game)
        return game

    def _token(self, game: Played, who: str) -> str | None:
        """A token: the player to move's, another seat's, a made-up one, or none."""
        mover = game.state.get("current_player")
        if who == "mover":
            return game.tokens.get(mover or "")
        if who == "other":
            return next((t for p, t in game.tokens.items() if p != mover), "x" * 43)
        if who == "none":
            return None
        return who

    #: Mostly the player to move, as a person would; else another seat, a watcher (no
    #: token) or a made-up token.
    who = st.sampled_from(["mover"] * 8 + ["other", "none", "x" * 43, "Bearer", "ä"])
    #: Mostly no dice (the program's dice), else dice of any count and value.
    dice = st.one_of(st.none(), st.none(), st.none(), st.lists(st.integers(-1, 7), max_size=6))
    version = st.one_of(st.none(), st.none(), st.none(), st.integers(0, 200))
    hold = st.lists(st.integers(0, 4), max_size=4, unique=True) | st.lists(
        st.integers(-2, 7), max_size=7)

    @rule(game=games, who=who, dice=dice, version=version)
    def roll(self, game: Played, who: str, dice: list[int] | None, version: int | None) -> None:
        body: dict[str, Any] = {"type": "roll"}
        if game.manual and dice is None:
            dice = [1, 2, 3, 4, 5]
        if dice is not None:
            body["dice"] = dice
        if version is not None:
            body["expected_version"] = version
        self.act(game, self._token(game, who), body)

    @rule(game=games, who=who, hold=hold, dice=dice)
    def reroll(self, game: Played, who: str, hold: list[int], dice: list[int] | None) -> None:
        body: dict[str, Any] = {"type": "reroll", "hold": hold}
        if dice is not None:
            body["dice"] = dice
        self.act(game, self._token(game, who), body)

    #: Mostly a box open now (``OPEN``), else any box name, or any text.
    box = st.one_of(st.just(OPEN), st.just(OPEN), st.sampled_from(BOXES), st.text(max_size=40))

    @rule(game=games, who=who, box=box, version=version)
    def score(self, game: Played, who: str, box: str, version: int | None) -> None:
        if box == OPEN:
            box = next(iter(game.state["choices"] or {"chance": 0}))
        body: dict[str, Any] = {"type": "score", "box": box}
        if version is not None:
            body["expected_version"] = version if version < 200 else game.version
        self.act(game, self._token(game, who), body)

    @rule(game=games, who=st.sampled_from(["last", "mover", "other", "none", "bad"]))
    def undo(self, game: Played, who: str) -> None:
        last = (game.state.get("last") or {}).get("player")
        token = (game.tokens.get(last or "") if who == "last"
                 else "bad-token" if who == "bad" else self._token(game, who))
        self.act(game, token, {}, path="undo")

    @rule(game=games, body=st.dictionaries(st.text(max_size=10),
                                           st.none() | st.integers() | st.text(max_size=10),
                                           max_size=4))
    def nonsense(self, game: Played, body: dict[str, Any]) -> None:
        self.act(game, self._token(game, "mover"), body)

    @rule(game=games, reroll=st.booleans())
    def move(self, game: Played, reroll: bool) -> None:
        """The move a player would make: roll, roll again, or fill an open box."""
        state = game.state
        body: dict[str, Any]
        if state["dice"] is None:
            body = {"type": "roll"}
        elif reroll and state["rolls_left"]:
            body = {"type": "reroll", "hold": [2]}
        else:
            body = {"type": "score", "box": next(iter(state["choices"] or {"chance": 0}))}
        if game.manual and body["type"] != "score":
            body["dice"] = [6] * (state["dice_count"] - len(body.get("hold", [])))
        self.act(game, self._token(game, "mover"), body)

    @precondition(lambda self: not self.played_out)
    @rule(data=st.data())
    def play_out(self, data: st.DataObject) -> None:
        """Play a game to its end, as its players would (some roll again first)."""
        self.played_out = True
        game = data.draw(st.sampled_from(self.known))
        state = self.read(game)
        for _ in range(400):
            if state["is_over"]:
                break
            token = game.tokens[state["current_player"]]
            if state["dice"] is None:
                body: dict[str, Any] = {"type": "roll"}
            elif state["rolls_left"] and data.draw(st.booleans(), label="reroll"):
                body = {"type": "reroll", "hold": [0, 1]}
            else:
                body = {"type": "score", "box": next(iter(state["choices"]))}
            if game.manual and body["type"] != "score":  # the dice thrown
                thrown = state["dice_count"] - len(body.get("hold", []))
                body["dice"] = data.draw(st.lists(st.integers(1, 6), min_size=thrown,
                                                  max_size=thrown), label="dice")
            response = self.request("POST", f"/api/games/{game.id}/actions", json=body,
                                    headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 200, response.text
            state = response.json()
            _count("applied playing out")
            assert state["version"] > game.version
            game.version, game.state = state["version"], state
        assert state["is_over"]
        self.check_totals(game)
        _count("games played out")

    def check_totals(self, game: Played) -> None:
        """The totals are the boxes and bonuses, as the record replayed by the core
        says; a game over has every box filled and a winner."""
        state = self.read(game)
        record = self.request("GET", f"/api/games/{game.id}/record").json()
        replayed = Game.from_record(record)
        assert replayed.is_over == state["is_over"]
        for name in state["players"]:
            card = state["scorecards"][name]
            boxes = sum(card[b] or 0 for b in state["boxes"])
            assert card["total"] == boxes + card["upper_bonus"] + card["yahtzee_bonus"]
            assert card["total"] == replayed.scorecard(name).total
        if state["is_over"]:
            assert all(card[b] is not None for card in state["scorecards"].values()
                       for b in state["boxes"])
            assert state["winners"]


def test_the_api_holds_under_random_sequences(tmp_path: Path) -> None:
    TALLY.clear()
    ApiMachine.folder = tmp_path
    started = time.monotonic()
    run = ApiMachine.TestCase
    # The same sequences every run (the tallies below count what they did).
    run.settings = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                            database=None, derandomize=True,
                            suppress_health_check=list(HealthCheck))
    run().runTest()
    seconds = time.monotonic() - started
    print(f"stateful API fuzz: {EXAMPLES} sequences, {TALLY.get('requests', 0)} requests in "
          f"{seconds:.1f} s;", dict(sorted(TALLY.items())))
    assert TALLY.get("games played out", 0) >= 1
    assert TALLY.get("applied actions", 0) >= 10
    assert sum(n for key, n in TALLY.items() if key.startswith("refused ")) >= 50
    assert not any(key.startswith("status 5") for key in TALLY)
