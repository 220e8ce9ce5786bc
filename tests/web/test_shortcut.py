"""The shortcut of a seat's action (``yatzy.web.shortcut``): a well-formed action is
served past FastAPI's routing, with what the route answers (the state, the error
shape, the secure headers, the request id, the metrics); anything else goes through
the route, which answers it as before."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import act, bearer, new_game
from yatzy.web import api, shortcut
from yatzy.web.security import HEADERS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the games whose actions the shortcut served."""
    seen: list[str] = []
    real = api.act_for

    async def spy(request: Any, game_id: str, token: str | None, body: Any) -> Any:
        seen.append(game_id)
        return await real(request, game_id, token, body)

    monkeypatch.setattr(shortcut, "act_for", spy)
    return seen


def test_a_well_formed_action_takes_the_shortcut_with_the_routes_answer(
        client: TestClient, served: list[str]) -> None:
    created = new_game(client)
    game_id, ann = created["id"], created["seats"][0]["token"]
    response = client.post(f"/api/games/{game_id}/actions", json={"type": "roll"},
                           headers={**bearer(ann), "X-Request-ID": "move-1"})
    assert served == [game_id]
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["x-request-id"] == "move-1"
    for name, value in HEADERS:
        assert response.headers[name.decode()] == value.decode()
    state = response.json()
    assert state["version"] == 2 and state["dice"] and state["rolls_left"] == 2
    assert state == client.get(f"/api/games/{game_id}").json()
    metrics = client.get("/metrics").text
    assert 'yatzy_actions_total{kind="roll"} 1.0' in metrics


@pytest.mark.parametrize(("token", "status", "code"), [
    (None, 403, "forbidden"), ("nobody", 403, "forbidden"), ("bo", 422, "not_your_turn")])
def test_its_refusals_are_the_apps_errors(client: TestClient, served: list[str],
                                          token: str | None, status: int,
                                          code: str) -> None:
    created = new_game(client)
    game_id = created["id"]
    tokens = {"bo": created["seats"][1]["token"], "nobody": "x" * 43}
    response = act(client, game_id, tokens.get(token or ""), type="roll")
    assert served == [game_id]
    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert response.headers["x-content-type-options"] == "nosniff"
    assert f'yatzy_errors_total{{code="{code}"}} 1.0' in client.get("/metrics").text


def test_a_stale_version_and_an_unknown_game_are_answered_as_by_the_route(
        client: TestClient, served: list[str]) -> None:
    created = new_game(client)
    game_id, ann = created["id"], created["seats"][0]["token"]
    act(client, game_id, ann, type="roll")
    stale = act(client, game_id, ann, type="score", box="chance", expected_version=1)
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "game_changed"
    missing = act(client, "no-such-game", ann, type="roll")
    assert missing.status_code == 404
    assert served == [game_id, game_id, "no-such-game"]


@pytest.mark.parametrize("body", [
    {"content": b'{"type": "fly"}'},  # not an action: the route's 422 says why
    {"content": b'{"type": "roll"'},  # not JSON
    {"content": b'{"type": "roll"}', "headers": {"Content-Type": "text/plain"}},
])
def test_anything_else_goes_through_the_route(client: TestClient, served: list[str],
                                              body: dict[str, Any]) -> None:
    created = new_game(client)
    game_id, ann = created["id"], created["seats"][0]["token"]
    headers = {"Content-Type": "application/json", **bearer(ann), **body.pop("headers", {})}
    response = client.post(f"/api/games/{game_id}/actions", headers=headers, **body)
    assert served == []
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_an_id_longer_than_the_route_takes_goes_through_the_route(
        client: TestClient, served: list[str]) -> None:
    response = client.post(f"/api/games/{'g' * 65}/actions", json={"type": "roll"})
    assert served == []
    assert response.status_code == 422
