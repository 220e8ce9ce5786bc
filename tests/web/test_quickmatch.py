"""Quick match over HTTP (POST/GET/DELETE /api/quick-match): two browsers are paired
into one rated game, each on its own seat; the errors; and a rated game played to the
end over the API moves both ratings as Glicko-2 computes for that one result."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import act
from yatzy.app.ratings import Rating, game_scores, rate_pair

ANN = "ann-player-key-0123456789abcdef"
BO = "bo-player-key-0123456789abcdefgh"
CY = "cy-player-key-0123456789abcdefgh"


def me(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


def named(client: TestClient, key: str, name: str) -> None:
    assert client.put("/api/me", json={"name": name}, headers=me(key)).status_code == 200


def ask(client: TestClient, key: str, rules: str = "yatzy") -> str:
    response = client.post("/api/quick-match", json={"rules": rules}, headers=me(key))
    assert response.status_code == 202, response.text
    ticket: str = response.json()["ticket"]
    return ticket


def status(client: TestClient, key: str, ticket: str) -> Any:
    return client.get(f"/api/quick-match/{ticket}", headers=me(key))


def token_of(seat_url: str) -> str:
    return seat_url.split("#token=")[1]


def paired(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    first = ask(client, ANN)
    waiting = status(client, ANN, first).json()
    assert waiting == {"status": "waiting", "game": None, "seat_url": None,
                       "waited": waiting["waited"], "offer": None}
    second = ask(client, BO)
    return status(client, ANN, first).json(), status(client, BO, second).json()


def test_two_players_land_in_one_game_on_their_own_seats(client: TestClient) -> None:
    a, b = paired(client)
    assert a["status"] == b["status"] == "matched" and a["game"] == b["game"]
    assert a["seat_url"].startswith(f"http://testserver/games/{a['game']}#token=")
    assert a["seat_url"] != b["seat_url"]
    state = client.get(f"/api/games/{a['game']}").json()
    assert sorted(state["players"]) == ["Ann", "Bo"]
    assert state["seed_hash"] is not None  # server dice
    # Each link's token acts for its own seat: the other's is a seat, not its turn.
    first = state["current_player"]
    mine, theirs = (a, b) if first == "Ann" else (b, a)
    refused = act(client, a["game"], token_of(theirs["seat_url"]), type="roll")
    assert refused.json()["error"]["code"] == "not_your_turn"
    assert act(client, a["game"], "x" * 43, type="roll").status_code == 403
    assert act(client, a["game"], token_of(mine["seat_url"]), type="roll").status_code == 200
    # The game is in both players' games.
    for key in (ANN, BO):
        games = client.get("/api/me", headers=me(key)).json()["games"]
        assert [g["id"] for g in games] == [a["game"]]


def test_errors(client: TestClient) -> None:
    missing = client.post("/api/quick-match", json={"rules": "yatzy"})
    assert missing.status_code == 403
    unnamed = client.post("/api/quick-match", json={"rules": "yatzy"}, headers=me(CY))
    assert unnamed.status_code == 422 and unnamed.json()["error"]["code"] == "display_name_needed"
    named(client, ANN, "Ann")
    unknown = client.post("/api/quick-match", json={"rules": "chess"}, headers=me(ANN))
    assert unknown.status_code == 422
    ticket = ask(client, ANN)
    again = client.post("/api/quick-match", json={"rules": "yatzy"}, headers=me(ANN))
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_waiting"
    assert status(client, ANN, "A" * 32).status_code == 404
    assert status(client, BO, ticket).status_code == 404  # another browser's ticket
    # As the contract has it: the ticket alone asks (no key sent).
    alone = client.get(f"/api/quick-match/{ticket}")
    assert alone.status_code == 200 and alone.json()["status"] == "waiting"
    assert client.delete(f"/api/quick-match/{ticket}", headers=me(ANN)).status_code == 204
    gone = client.delete(f"/api/quick-match/{ticket}", headers=me(ANN))
    assert gone.status_code == 409 and gone.json()["error"]["code"] == "ticket_closed"
    assert status(client, ANN, ticket).status_code == 409
    assert client.delete(f"/api/quick-match/{'B' * 32}", headers=me(ANN)).status_code == 404
    # In the player's language.
    sv = client.delete(f"/api/quick-match/{ticket}?lang=sv", headers=me(ANN)).json()
    assert sv["error"]["message"] != gone.json()["error"]["message"]


def test_a_matched_ticket_is_not_cancelled(client: TestClient) -> None:
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    first = ask(client, ANN)
    ask(client, BO)
    refused = client.delete(f"/api/quick-match/{first}", headers=me(ANN))
    assert refused.status_code == 409
    assert status(client, ANN, first).json()["status"] == "matched"


def test_a_rated_game_played_to_the_end_moves_both_ratings(client: TestClient) -> None:
    a, b = paired(client)
    before = client.get("/api/players/Ann").json()
    assert (before["rating"], before["rating_deviation"], before["rated_games"]) == (
        None, None, 0)
    game_id = a["game"]
    tokens = {"Ann": token_of(a["seat_url"]), "Bo": token_of(b["seat_url"])}
    state = client.get(f"/api/games/{game_id}").json()
    while not state["is_over"]:
        token = tokens[state["current_player"]]
        state = act(client, game_id, token, type="roll").json()
        box = max(state["choices"], key=state["choices"].get)
        state = act(client, game_id, token, type="score", box=box).json()
    players = state["players"]
    totals = [state["scorecards"][name]["total"] for name in players]
    expected = rate_pair(Rating(), Rating(), game_scores(totals))
    for name, rating in zip(players, expected, strict=True):
        profile = client.get(f"/api/players/{name}").json()
        assert profile["rating"] == round(rating.rating, 1)
        assert profile["rating_deviation"] == round(rating.deviation, 1)
        assert profile["rated_games"] == 1 and profile["provisional"] is True
        assert profile["games"] == 1
        assert profile["rating"] != 1500 or totals[0] == totals[1]


def test_the_contract_is_in_the_openapi(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"post"} <= paths["/api/quick-match"].keys()
    assert {"get", "delete"} <= paths["/api/quick-match/{ticket}"].keys()
    assert "202" in paths["/api/quick-match"]["post"]["responses"]


def test_after_twenty_seconds_a_computer_is_offered(client: TestClient) -> None:
    import sqlalchemy as sa

    from yatzy.storage.tables import match_tickets

    named(client, ANN, "Ann")
    ticket = ask(client, ANN)
    assert status(client, ANN, ticket).json()["offer"] is None
    service = client.app.state.rooms.service  # type: ignore[attr-defined]
    # The ticket made 25 s ago (and asked about meanwhile).
    with service.matches._repo.engine.begin() as connection:
        earlier = sa.func.datetime(match_tickets.c.created_at, "-25 seconds")
        connection.execute(sa.update(match_tickets).values(created_at=earlier))
    answer = status(client, ANN, ticket).json()
    assert answer["status"] == "waiting" and answer["waited"] >= 25
    assert answer["offer"] == "medium"  # a new player's 1500
    # The page then cancels and plays that computer: an ordinary, unrated game.
    assert client.delete(f"/api/quick-match/{ticket}", headers=me(ANN)).status_code == 204
    created = client.post("/api/games", json={"rules": "yatzy", "seats": [
        {"name": "Ann"}, {"bot": answer["offer"]}]})
    assert created.status_code == 201
    assert not service.load(created.json()["id"]).rated


def test_the_request_says_at_once_when_an_opponent_was_waiting(client: TestClient) -> None:
    """The first to ask waits; the second is matched by its own request, whose answer
    carries the game and its seat link (no question needed), the same as the question
    about that ticket then says."""
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    first = client.post("/api/quick-match", json={"rules": "yatzy"}, headers=me(ANN)).json()
    assert first == {"ticket": first["ticket"], "status": "waiting", "game": None,
                     "seat_url": None}
    second = client.post("/api/quick-match", json={"rules": "yatzy"}, headers=me(BO)).json()
    assert second["status"] == "matched" and second["game"]
    asked = status(client, BO, second["ticket"]).json()
    assert (asked["status"], asked["game"], asked["seat_url"]) == (
        "matched", second["game"], second["seat_url"])
    other = status(client, ANN, first["ticket"]).json()
    assert other["game"] == second["game"] and other["seat_url"] != second["seat_url"]
    state = client.get(f"/api/games/{second['game']}").json()
    token = token_of(second["seat_url"]) if state["current_player"] == "Bo" else \
        token_of(other["seat_url"])
    assert act(client, second["game"], token, type="roll").status_code == 200
