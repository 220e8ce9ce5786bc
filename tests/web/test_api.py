"""The JSON API's contract: creation, state, actions for a seat, every error code, the
record with its commit-reveal seed, and computer and manual-dice games."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import yatzy
from tests.web.conftest import act, bearer, new_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_health(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_creation_gives_each_person_a_link_and_commits_to_the_seed(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}, {"bot": "greedy"}, {"name": "Bo"}])
    assert [s["name"] for s in created["seats"]] == ["Ann", "Bo"]  # people only
    tokens = [s["token"] for s in created["seats"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 40 for t in tokens)
    for seat in created["seats"]:
        assert seat["url"].endswith(f"/games/{created['id']}#token={seat['token']}")
    assert created["watch_url"].endswith(f"/games/{created['id']}")
    assert len(created["seed_hash"]) == 64
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["players"] == ["Ann", "CPU greedy", "Bo"]
    assert state["current_player"] == "Ann" and state["dice"] is None
    assert state["rolls_left"] == 3 and state["round"] == 1 and state["is_over"] is False
    assert state["choices"] == {} and state["winners"] == []
    assert state["scorecards"]["Bo"]["chance"] is None
    assert state["scorecards"]["Bo"]["total"] == 0
    assert state["seed_hash"] == created["seed_hash"]


def test_the_state_holds_no_secret(client: TestClient, db: object) -> None:
    created = new_game(client)
    game_id = created["id"]
    act(client, game_id, created["seats"][0]["token"], type="roll")
    texts = [client.get(f"/api/games/{game_id}").text,
             client.get(f"/api/games/{game_id}/record").text]
    seed = yatzy.bootstrap.open_service(db).load(game_id).game.seed  # type: ignore[attr-defined]
    assert isinstance(seed, str)
    for text in texts:
        assert seed not in text
        assert all(s["token"] not in text for s in created["seats"])


@pytest.mark.parametrize("person", ["CPU greedy", "ＣＰＵ greedy", "cpu GREEDY",
                                    "ＣＰＵ　ＧＲＥＥＤＹ"])
def test_a_computer_is_not_named_as_a_person_in_any_form(client: TestClient,
                                                        person: str) -> None:
    created = new_game(client, seats=[{"name": person}, {"bot": "greedy"}])
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["players"] == [person, "CPU greedy 2"]


def test_a_seat_plays_its_turn_and_only_its_turn(client: TestClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    ann, bo = (s["token"] for s in created["seats"])
    state = act(client, game_id, ann, type="roll").json()
    assert state["dice"] and state["rolls_left"] == 2 and state["version"] == 2
    assert set(state["choices"]) == set(state["boxes"])
    state = act(client, game_id, ann, type="reroll", hold=[0, 1]).json()
    assert state["rolls_left"] == 1
    # Bo out of turn: the core refuses, in the player's language.
    response = act(client, game_id, bo, type="roll")
    assert response.status_code == 422
    assert response.json() == {"error": {"code": "not_your_turn",
                                         "message": "It is Ann's turn"}}
    sv = client.post(f"/api/games/{game_id}/actions?lang=sv", json={"type": "roll"},
                     headers=bearer(bo))
    assert sv.json()["error"]["message"] == "Det är Anns tur"
    state = act(client, game_id, ann, type="score", box="chance").json()
    assert state["current_player"] == "Bo" and state["last"]["box"] == "chance"
    assert state["scorecards"]["Ann"]["chance"] == state["last"]["points"]


@pytest.mark.parametrize(("token", "status"), [(None, 403), ("wrong-token", 403)])
def test_no_token_or_a_wrong_one_is_forbidden(client: TestClient, token: str | None,
                                              status: int) -> None:
    created = new_game(client)
    response = act(client, created["id"], token, type="roll")
    assert response.status_code == status
    assert response.json()["error"]["code"] == "forbidden"
    assert client.get(f"/api/games/{created['id']}").json()["version"] == 1


def test_error_codes(client: TestClient) -> None:
    created = new_game(client)
    game_id, ann = created["id"], created["seats"][0]["token"]
    cases = [
        (act(client, game_id, ann, type="score", box="chance"), 422, "no_roll"),
        (act(client, game_id, ann, type="roll", dice=[1, 2, 3, 4, 5]), 422,
         "dice_not_allowed"),
        (act(client, game_id, ann, type="jump"), 422, "invalid_request"),
        (act(client, game_id, ann, type="roll", expected_version=7), 409, "game_changed"),
        (act(client, "0" * 32, ann, type="roll"), 404, "game_not_found"),
        (client.get("/api/games/nope"), 404, "game_not_found"),
        (client.post(f"/api/games/{game_id}/actions", content=b"{not json",
                     headers={**bearer(ann), "Content-Type": "application/json"}), 422,
         "invalid_request"),
        (client.post("/api/games", json={"rules": "chess", "seats": [{"name": "A"}]}), 422,
         "unknown_ruleset"),
        # Found by schemathesis: an option called "name" (a TypeError in the core once).
        (client.post("/api/games", json={"rules": "yatzy", "options": {"name": False},
                                         "seats": [{"name": "A"}]}), 422, "unknown_option"),
        (client.post("/api/games", json={"rules": "yatzy", "seats": [{"bot": "god"}]}), 422,
         "unknown_bot"),
        (client.post("/api/games", json={"rules": "yatzy",
                                         "seats": [{"name": "A"}, {"name": "a"}]}), 422,
         "duplicate_player"),
        (client.post("/api/games", content=b"x" * 20_000,
                     headers={"Content-Type": "application/json"}), 413, "too_large"),
        (client.get("/nowhere"), 404, "not_found"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        body = response.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
        assert body["error"]["message"]
        if code is not None:
            assert body["error"]["code"] == code
    assert client.get(f"/api/games/{game_id}").json()["version"] == 1  # nothing changed


def test_a_stale_version_is_a_conflict_and_a_retry_is_applied_once(client: TestClient) -> None:
    created = new_game(client)
    game_id, ann = created["id"], created["seats"][0]["token"]
    first = act(client, game_id, ann, type="roll", expected_version=1)
    again = act(client, game_id, ann, type="roll", expected_version=1)  # a double click
    assert first.status_code == 200 and again.status_code == 409
    assert client.get(f"/api/games/{game_id}").json()["steps"] == 1


def test_the_record_reveals_the_seed_at_the_end(client: TestClient) -> None:
    created = new_game(client, rules="yatzy", options={"rolls": 1},
                       seats=[{"name": "Ann"}])
    game_id, ann = created["id"], created["seats"][0]["token"]
    state = client.get(f"/api/games/{game_id}").json()
    while not state["is_over"]:
        state = act(client, game_id, ann, type="roll").json()
        box = max(state["choices"], key=state["choices"].get)
        state = act(client, game_id, ann, type="score", box=box).json()
        if not state["is_over"]:
            hidden = client.get(f"/api/games/{game_id}/record").json()
            assert hidden["seed"] is None
    record = client.get(f"/api/games/{game_id}/record").json()
    assert hashlib.sha256(record["seed"].encode()).hexdigest() == created["seed_hash"]
    game = yatzy.audit_record(record)  # every die came from the revealed seed
    assert game.is_over and game.scorecard("Ann").total == state["scorecards"]["Ann"]["total"]
    assert state["winners"] == ["Ann"]


def test_a_game_against_the_computer(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}, {"bot": "greedy"}], options={"rolls": 1})
    game_id, ann = created["id"], created["seats"][0]["token"]
    state = client.get(f"/api/games/{game_id}").json()
    deadline = time.monotonic() + 60
    while not state["is_over"] and time.monotonic() < deadline:
        if state["current_player"] == "Ann":
            state = act(client, game_id, ann, type="roll").json()
            state = act(client, game_id, ann, type="score",
                        box=next(iter(state["choices"]))).json()
        else:  # the computer plays on its own, in the server
            time.sleep(0.01)
            state = client.get(f"/api/games/{game_id}").json()
    assert state["is_over"]
    assert all(v is not None for v in (state["scorecards"]["CPU greedy"][b]
                                       for b in state["boxes"]))


def test_a_manual_dice_game(client: TestClient) -> None:
    created = new_game(client, dice="manual", seats=[{"name": "Ann"}, {"bot": "greedy"}])
    game_id, ann = created["id"], created["seats"][0]["token"]
    assert created["seed_hash"] is None
    response = act(client, game_id, ann, type="roll")
    assert response.status_code == 422 and response.json()["error"]["code"] == "dice_needed"
    state = act(client, game_id, ann, type="roll", dice=[6, 6, 6, 6, 6]).json()
    assert state["dice"] == [6, 6, 6, 6, 6]
    state = act(client, game_id, ann, type="score", box="yatzy").json()
    assert state["scorecards"]["Ann"]["yatzy"] == 50
    # The computer's roll waits for the real dice; any seat types them in.
    deadline = time.monotonic() + 30
    while not state["waiting_for_dice"] and time.monotonic() < deadline:
        time.sleep(0.01)
        state = client.get(f"/api/games/{game_id}").json()
    assert state["pending"] == {"type": "roll"} and state["current_player"] == "CPU greedy"
    wrong = act(client, game_id, ann, type="reroll", hold=[0], dice=[1, 2, 3, 4])
    assert wrong.status_code == 422
    state = act(client, game_id, ann, type="roll", dice=[1, 2, 3, 4, 5]).json()
    assert state["dice"] == [1, 2, 3, 4, 5] and state["current_player"] == "CPU greedy"


def test_hints_only_when_on_and_for_the_player_to_move(client: TestClient) -> None:
    off = new_game(client)
    response = client.get(f"/api/games/{off['id']}/hint?lang=sv",
                          headers=bearer(off["seats"][0]["token"]))
    assert response.status_code == 403
    assert response.json()["error"]["message"] == "Tips är avstängda i det här spelet"
    on = new_game(client, hints=True)
    ann, bo = (s["token"] for s in on["seats"])
    act(client, on["id"], ann, type="roll")
    assert client.get(f"/api/games/{on['id']}/hint", headers=bearer(bo)).status_code == 422
    hint = client.get(f"/api/games/{on['id']}/hint?lang=fi", headers=bearer(ann)).json()
    values = [o["value"] for o in hint["options"]]
    assert values == sorted(values, reverse=True) and len(values) == 5
    assert "," in hint["options"][0]["points"]  # Finnish decimals


def test_maxi_yatzy_with_saved_rolls_hints_from_its_table_without_win_chances(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once ``yatzy solve`` has built the table of saved rolls, a game takes hints (the
    state says ``advice``), but its win chances are refused (``chances`` false)."""
    from yatzy import solver
    from yatzy.solver import artifacts, policy
    from yatzy.solver.saved import save_table, solve_saved

    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path / "cache"))
    held: set[object] = set()
    monkeypatch.setattr(solver, "_HELD", held)
    monkeypatch.setattr(policy, "_HELD", held)
    monkeypatch.setattr(policy, "_SAVED", {})
    body = {"rules": "maxi_yatzy", "options": {"order": "in_order"}, "hints": True}
    refused = client.post("/api/games", json={**body, "seats": [{"name": "Ann"}]})
    assert refused.json()["error"]["code"] == "table_not_built"
    rules = yatzy.ruleset("maxi_yatzy", order="in_order")
    save_table(solve_saved(rules, tmp_path / "layers"), {})
    created = new_game(client, **body)
    ann = created["seats"][0]["token"]
    state = act(client, created["id"], ann, type="roll").json()
    assert state["advice"] is True and state["chances"] is False
    hint = client.get(f"/api/games/{created['id']}/hint", headers=bearer(ann)).json()
    values = [o["value"] for o in hint["options"]]
    assert values == sorted(values, reverse=True) and len(values) > 1
    chances = client.get(f"/api/games/{created['id']}/chances")
    assert chances.status_code == 422
    assert chances.json()["error"]["code"] == "chances_unsupported"


def test_analysis_after_the_game(client: TestClient) -> None:
    created = new_game(client, options={"rolls": 1, "order": "in_order"}, seats=[{"name": "A"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    response = client.get(f"/api/games/{game_id}/analysis")
    assert response.status_code == 422 and response.json()["error"]["code"] == "game_not_over"
    state: dict[str, object] = {"is_over": False}
    while not state["is_over"]:
        act(client, game_id, token, type="roll")
        state = act(client, game_id, token, type="score",
                    box=next(iter(client.get(f"/api/games/{game_id}").json()["choices"]))).json()
    analysis = client.get(f"/api/games/{game_id}/analysis").json()
    assert analysis["players"][0]["player"] == "A"
    assert analysis["players"][0]["decisions"] == 15


def test_qr_code_and_secure_headers(client: TestClient) -> None:
    response = client.post("/api/qr", json={"text": "http://example.test/games/x#token=y"})
    assert response.status_code == 200 and response.text.startswith("<svg")
    page = client.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["x-frame-options"] == "DENY"
    assert "<script>" not in page.text  # no inline script: only src= and JSON data
    json.loads(page.text.split('id="texts">')[1].split("</script>")[0])


def test_names_are_escaped(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "<img src=x onerror=alert(1)>"}])
    page = client.get(created["watch_url"].replace("http://testserver", ""))
    assert "<img src=x" not in page.text
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["players"] == ["<img src=x onerror=alert(1)>"]  # data, drawn as text


def test_rate_limit(db: object) -> None:
    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    app = create_app(open_service(db), Settings(pace=0, rate=1, burst=3))  # type: ignore[arg-type]
    with TestClient(app) as limited:
        codes = [limited.get("/api/games/x").status_code for _ in range(6)]
    assert codes[:3] == [404, 404, 404] and 429 in codes[3:]


def test_the_rate_limit_holds_whatever_token_a_client_shows(db: object) -> None:
    import secrets

    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    settings = Settings(pace=0, rate=1, burst=3, prepare=())
    with TestClient(create_app(open_service(db), settings)) as limited:  # type: ignore[arg-type]
        game_id = new_game(limited)["id"]
        codes = [act(limited, game_id, secrets.token_urlsafe(32), type="roll").status_code
                 for _ in range(12)]
    assert codes.count(429) >= 6 and set(codes) == {403, 429}, codes


def test_win_chances_for_anyone_watching_a_game_of_two(client: TestClient) -> None:
    created = new_game(client, options={"order": "in_order"})
    game_id = created["id"]
    ann = created["seats"][0]["token"]
    start = client.get(f"/api/games/{game_id}/chances").json()
    assert start["chances"] == {"Ann": 0.5, "Bo": 0.5}
    assert start["text"] == "Win chances: Ann 50.0% · Bo 50.0%"
    act(client, game_id, ann, type="roll")
    response = client.get(f"/api/games/{game_id}/chances?lang=sv").json()
    assert response["version"] == start["version"] + 1
    assert sum(response["chances"].values()) == pytest.approx(1.0, abs=1e-5)
    assert response["text"].startswith("Vinstchanser: Ann ")
    assert client.get(f"/api/games/{game_id}/chances").json()["chances"] == response["chances"]
    solo = new_game(client, options={"order": "in_order"}, seats=[{"name": "A"}])
    refused = client.get(f"/api/games/{solo['id']}/chances")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "no_opponents"


def slow_win_chances(monkeypatch: pytest.MonkeyPatch, seconds: float,
                     fail_first: bool = False, first: float | None = None,
                     worked_out: bool = True) -> list[int]:
    """Make the solver's win chances take ``seconds`` (the first call ``first`` seconds
    when given, and fail with ``fail_first``); without ``worked_out``, the chances are
    even instead of the solver's (seconds saved where only the waiting matters); returns
    the list that receives the number of steps of every game they are worked out for."""
    from yatzy.solver.policy import Strategy

    asked: list[int] = []
    real = Strategy.win_chances

    def slow(self: Strategy, game: yatzy.Game) -> dict[str, float]:
        asked.append(len(game.history))
        time.sleep(first if first is not None and len(asked) == 1 else seconds)
        if fail_first and len(asked) == 1:
            raise RuntimeError("the solver failed")
        if not worked_out:
            return {player: 1 / len(game.players) for player in game.players}
        return real(self, game)

    monkeypatch.setattr(Strategy, "win_chances", slow)
    return asked


def test_win_chances_asked_at_once_are_worked_out_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    calls = slow_win_chances(monkeypatch, 0.5, fail_first=True)
    created = new_game(client, options={"order": "in_order"})
    url = f"/api/games/{created['id']}/chances"
    with pytest.raises(RuntimeError, match="solver failed"):
        client.get(url)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: client.get(url).json(), range(4)))
    assert len(calls) == 2  # the failure was not kept; then once for all four
    assert all(a == answers[0] for a in answers) and answers[0]["chances"]["Ann"] == 0.5


def test_win_chances_asked_while_others_are_worked_out_get_the_latest_version(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    versions = slow_win_chances(monkeypatch, 0.2, first=3.0)  # moves are made meanwhile
    created = new_game(client, options={"order": "in_order"})
    game_id, ann = created["id"], created["seats"][0]["token"]
    url = f"/api/games/{game_id}/chances"
    start = client.get(f"/api/games/{game_id}").json()["version"]
    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(client.get, url)
        time.sleep(0.3)
        later = []
        for move in ({"type": "roll"}, {"type": "reroll", "hold": [0]},
                     {"type": "reroll", "hold": [0]}):
            act(client, game_id, ann, **move)
            later.append(pool.submit(client.get, url))
        answers = [first.result().json()] + [f.result().json() for f in later]
    assert [a["version"] for a in answers] == [start, start + 3, start + 3, start + 3]
    assert len(versions) == 2  # the first and the latest, not the two in between


def test_the_policy_refuses_what_the_server_does_not_offer(client: TestClient) -> None:
    for seats, code in (([{"name": "Ann"}, {"bot": "winner"}], "level_not_offered"),
                        ([{"bot": "greedy"}, {"bot": "hard"}], "person_needed")):
        response = client.post("/api/games", json={"rules": "yatzy", "seats": seats})
        assert response.status_code == 403, response.text
        assert response.json()["error"]["code"] == code
    home = client.get("/").text
    assert 'value="hard"' in home and 'value="winner"' not in home


def test_games_per_client_are_limited(db: object) -> None:
    from yatzy.app.policy import TablePolicy
    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    settings = Settings(pace=0, rate=100, burst=100, prepare=(),
                        policy=TablePolicy(games_per_window=2))
    with TestClient(create_app(open_service(db), settings)) as client:  # type: ignore[arg-type]
        body = {"rules": "yatzy", "seats": [{"name": "Ann"}]}
        assert [client.post("/api/games", json=body).status_code for _ in range(2)] == [
            201, 201]
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_games"
        assert int(refused.headers["Retry-After"]) > 0


def test_games_are_counted_per_address_whatever_the_request_shows(db: object) -> None:
    from yatzy.app.policy import TablePolicy
    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    settings = Settings(pace=0, rate=100, burst=100, prepare=(),
                        policy=TablePolicy(games_per_window=2))
    app = create_app(open_service(db), settings)  # type: ignore[arg-type]
    body = {"rules": "yatzy", "seats": [{"name": "Ann"}]}
    with TestClient(app, client=("203.0.113.9", 1000)) as one, \
            TestClient(app, client=("2001:db8::1", 1000)) as other, \
            TestClient(app, client=("2001:db8::2", 2000)) as same_network:
        statuses = [one.post("/api/games", json=body, cookies={"k": str(i)}, headers={
            "Authorization": f"Bearer x{i}", "X-Forwarded-For": f"198.51.100.{i}",
            "X-Player-Key": str(i)}).status_code for i in range(4)]
        assert statuses == [201, 201, 429, 429]
        assert other.post("/api/games", json=body).status_code == 201  # another client
        assert same_network.post("/api/games", json=body).status_code == 201
        assert other.post("/api/games", json=body).status_code == 429  # one IPv6 /64


def test_busy_advice_is_a_503_with_retry_after(
        db: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    slow_win_chances(monkeypatch, 0.5, worked_out=False)  # only the queue matters here
    settings = Settings(pace=0, rate=0, prepare=(), advice_workers=1, advice_queue=1)
    with TestClient(create_app(open_service(db), settings)) as client:  # type: ignore[arg-type]
        ids = [new_game(client, seats=[{"name": "Ann"}, {"name": "Bo"}])["id"]
               for _ in range(4)]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(lambda g: client.get(f"/api/games/{g}/chances"), ids))
        statuses = sorted(a.status_code for a in answers)
        assert statuses.count(200) >= 1 and 503 in statuses, statuses
        busy = next(a for a in answers if a.status_code == 503)
        assert busy.json()["error"]["code"] == "advice_busy"
        assert int(busy.headers["Retry-After"]) > 0


def test_the_state_is_typed_and_every_websocket_message_is_in_the_schema(
        client: TestClient) -> None:
    from yatzy.web.schemas import GameState

    created = new_game(client, first_player="roll")
    ann = created["seats"][0]["token"]
    state = GameState.model_validate(client.get(f"/api/games/{created['id']}").json())
    assert state.phase == "person" and state.can_roll and state.held == []
    assert all(r.total == sum(r.dice) for r in state.roll_off) and state.roll_off
    player = state.current_player
    token = next(s["token"] for s in created["seats"] if s["name"] == player)
    act(client, created["id"], token, type="roll")
    after = GameState.model_validate(act(client, created["id"], token, type="reroll",
                                         hold=[0, 2]).json())
    assert after.held == [0, 2] and after.rolls_left == 1 and after.can_roll
    assert ann  # both seats had tokens
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for name in ("GameState", "ServerMessage", "WelcomeMessage", "StateMessage",
                 "ComputerMessage", "PresenceMessage", "ErrorMessage", "PongMessage"):
        assert name in schemas, name
    paths = client.get("/openapi.json").json()["paths"]
    answer = paths["/api/games/{game_id}"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/GameState")


@pytest.mark.parametrize("rules", ["yatzy", "yahtzee", "maxi_yatzy"])
def test_every_answered_state_is_exactly_the_typed_state(client: TestClient,
                                                         rules: str) -> None:
    """The state is answered as the JSON its broadcast carries, not passed through the
    model on the way out: each answer of a whole game, in two languages, is what the
    documented model makes of it (nothing missing, nothing extra, nothing changed)."""
    from yatzy.web.schemas import GameState

    created = new_game(client, rules=rules, seats=[{"name": "Ann"}, {"name": "Bo"}],
                       hints=rules != "maxi_yatzy")  # (Maxi's table is built by hand)
    game_id, tokens = created["id"], {s["name"]: s["token"] for s in created["seats"]}

    def exact(answer: dict[str, object]) -> dict[str, object]:
        assert GameState.model_validate(answer).model_dump(mode="json") == answer
        return answer

    state = exact(client.get(f"/api/games/{game_id}?lang=sv").json())
    assert state["texts"]["variant"] and state["names"]
    answers = 0
    while not state["is_over"]:
        token = tokens[str(state["current_player"])]
        if state["dice"] is None:
            state = exact(act(client, game_id, token, type="roll").json())
        else:
            box = max(state["choices"], key=lambda b: state["choices"][b])
            state = exact(act(client, game_id, token, type="score", box=box).json())
        answers += 1
    exact(client.get(f"/api/games/{game_id}").json())
    assert answers == 2 * 2 * len(state["boxes"]) and state["winners"]


def test_the_rulesets_are_described_in_the_asked_language(client: TestClient) -> None:
    described = client.get("/api/rulesets?lang=sv").json()
    assert [r["name"] for r in described] == ["yatzy", "yahtzee", "maxi_yatzy"]
    yahtzee = described[1]
    joker = next(o for o in yahtzee["options"] if o["name"] == "joker")
    assert joker["label"] == "Joker" and joker["default"] == "forced"
    assert set(joker["choice_labels"]) == set(joker["choices"])
    rolls = next(o for o in yahtzee["options"] if o["name"] == "rolls")
    assert rolls["kind"] == "int" and rolls["label"] == "Slag per tur"
    assert yahtzee["box_labels"]["ones"] == "Ettor" and yahtzee["title"] == "Yahtzee"
    assert yahtzee["joker_points"]["full_house"] == 25
    maxi = described[2]
    assert maxi["dice_count"] == 6 and maxi["saved_rolls"] is True
    assert (maxi["box_labels"]["full_house"], maxi["box_labels"]["villa"],
            maxi["box_labels"]["tower"]) == ("Kåk", "Hus", "Torn")


def test_a_seat_takes_back_its_box_until_the_next_player_acts(client: TestClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    ann, bo = (s["token"] for s in created["seats"])
    rolled = act(client, game_id, ann, type="roll").json()
    scored = act(client, game_id, ann, type="score", box="chance").json()
    assert scored["current_player"] == "Bo"
    refused = client.post(f"/api/games/{game_id}/undo", json={}, headers=bearer(bo))
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_your_move"
    stale = client.post(f"/api/games/{game_id}/undo", json={"expected_version": 2},
                        headers=bearer(ann))
    assert stale.status_code == 409
    undone = client.post(f"/api/games/{game_id}/undo",
                         json={"expected_version": scored["version"]}, headers=bearer(ann))
    assert undone.status_code == 200, undone.text
    state = undone.json()
    assert state["current_player"] == "Ann" and state["dice"] == rolled["dice"]
    assert state["scorecards"]["Ann"]["chance"] is None
    act(client, game_id, ann, type="score", box="sixes")
    act(client, game_id, bo, type="roll")
    late = client.post(f"/api/games/{game_id}/undo", json={}, headers=bearer(ann))
    assert late.status_code == 422 and late.json()["error"]["code"] == "nothing_to_undo"
    assert client.post(f"/api/games/{game_id}/undo", json={}).status_code == 403


def test_the_state_says_who_may_take_back_a_box(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}, {"bot": "greedy"}])
    game_id, ann = created["id"], created["seats"][0]["token"]
    assert client.get(f"/api/games/{game_id}").json()["undo_by"] is None
    act(client, game_id, ann, type="roll")
    scored = act(client, game_id, ann, type="score", box="chance").json()
    assert scored["undo_by"] == "Ann"  # until the computer acts


def test_a_game_opened_is_the_game_as_stored_though_this_process_never_heard_of_the_move(
        client: TestClient, db: Path) -> None:
    """A client that opens (or reopens) a game through a process that holds an older copy
    of it, and has not heard of the move made elsewhere (this app follows no feed), gets
    the game as stored: over HTTP and on its websocket's first state."""
    from yatzy.bootstrap import open_service
    from yatzy.core.actions import Roll, Score

    created = new_game(client)
    game_id = created["id"]
    assert client.get(f"/api/games/{game_id}").json()["version"] == 1  # held here now
    with open_service(db) as elsewhere:
        moved = elsewhere.apply(game_id, Roll())
    state = client.get(f"/api/games/{game_id}").json()
    assert state["version"] == moved.version == 2
    assert state["dice"] == list(moved.game.dice or ())
    with open_service(db) as elsewhere:
        moved = elsewhere.apply(game_id, Score("chance"))
    with client.websocket_connect(f"/ws/games/{game_id}") as socket:
        assert socket.receive_json()["type"] == "welcome"
        first = socket.receive_json()
        assert first["type"] == "state" and first["state"]["version"] == moved.version == 3
