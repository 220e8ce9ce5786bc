"""A player's devices over the API, on a clock the tests move: link codes (a second
browser becomes the player: name, rating, games, daily attempts), every way a code is
refused (wrong, malformed, used, expired, replaced, too many tries) changing nothing,
and passkeys registered and signed in with by a Python authenticator (the server's
WebAuthn checks run for real)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.services import fresh_sqlite
from tests.web.authenticator import Authenticator
from yatzy.app.access import player_key_hash
from yatzy.app.devices import CODE_ALPHABET, MAX_FAILURES, code_hash
from yatzy.bootstrap import open_service
from yatzy.storage.tables import players
from yatzy.web.app import Settings, create_app

ANN, BO, CY = "a" * 22, "b" * 22, "c" * 30
ORIGIN = "http://testserver"


class Clock:
    """A clock that stands still until a test moves it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def move(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 12, 2, 9, 30, tzinfo=UTC))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return fresh_sqlite(tmp_path / "devices.sqlite3")


@pytest.fixture
def client(db: Path, clock: Clock) -> Iterator[TestClient]:
    app = create_app(open_service(db, clock=clock), Settings(pace=0.0, rate=0.0))
    with TestClient(app) as test_client:
        yield test_client


def key(player: str) -> dict[str, str]:
    return {"X-Player-Key": player}


def named(client: TestClient, player: str, name: str) -> None:
    response = client.put("/api/me", json={"name": name}, headers=key(player))
    assert response.status_code == 200, response.text


def new_code(client: TestClient, player: str) -> dict[str, Any]:
    response = client.post("/api/me/link-codes?lang=en", headers=key(player))
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def link(client: TestClient, player: str, code: str) -> Any:
    return client.post("/api/me/link?lang=en", json={"code": code}, headers=key(player))


def error(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


def me(client: TestClient, player: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get("/api/me", headers=key(player)).json()
    return found


# --- Link codes ---------------------------------------------------------------------


def test_a_code_is_short_unambiguous_and_comes_with_a_link_and_its_qr_code(
        client: TestClient, clock: Clock) -> None:
    found = new_code(client, ANN)
    assert len(found["code"]) == 8 and set(found["code"]) <= set(CODE_ALPHABET)
    assert not set("01OIL") & set(CODE_ALPHABET)
    assert datetime.fromisoformat(found["expires_at"]) == clock.now + timedelta(minutes=10)
    assert found["url"] == f"{ORIGIN}/devices?lang=en#code={found['code']}"
    assert found["qr_svg"].startswith("<svg") and "</svg>" in found["qr_svg"]
    assert len({new_code(client, ANN)["code"] for _ in range(20)}) == 20


def test_linking_moves_the_profile_to_the_second_browser(client: TestClient) -> None:
    named(client, ANN, "Ann")
    attempt = client.post("/api/daily/yatzy/play", headers=key(ANN))
    assert attempt.status_code == 201
    game_id = attempt.json()["id"]
    named(client, BO, "Bo")  # the second browser had a profile of its own
    response = link(client, BO, new_code(client, ANN)["code"])
    assert response.status_code == 200, response.text
    assert response.json() == {"name": "Ann"}
    mine = me(client, BO)
    assert mine["name"] == "Ann"
    assert [g["id"] for g in mine["games"]] == [game_id]  # Ann's games, on Bo's browser
    # The daily attempt is the player's: none more today from the second browser.
    again = client.post("/api/daily/yatzy/play", headers=key(BO))
    assert again.status_code == 409 and error(again) == "daily_played"
    results = client.get("/api/daily/yatzy/2026-12-02", headers=key(BO)).json()
    assert results["me"]["game_id"] == game_id
    # Both browsers are Ann's: a name given on one is the other's.
    named(client, BO, "Annie")
    assert me(client, ANN)["name"] == "Annie"
    assert client.get("/api/players/Annie").json()["name"] == "Annie"
    # Bo's old profile stays as it was (its name is still taken), with no browser.
    taken = client.put("/api/me", json={"name": "Bo"}, headers=key(CY))
    assert taken.status_code == 409


def test_the_rating_moves_too(client: TestClient, db: Path) -> None:
    named(client, ANN, "Ann")
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        connection.execute(players.update().where(players.c.name == "Ann").values(
            rating=1612.5, rating_deviation=80.0, rating_volatility=0.06, rated_games=12))
    engine.dispose()
    assert link(client, BO, new_code(client, ANN)["code"]).status_code == 200
    named(client, BO, "Ann B")
    profile = client.get("/api/players/Ann B").json()
    assert profile["rating"] == 1612.5 and profile["rated_games"] == 12


def test_a_code_is_typed_loosely(client: TestClient) -> None:
    code = new_code(client, ANN)["code"]
    loose = f" {code[:4].lower()}-{code[4:]} "
    assert link(client, BO, loose).status_code == 200


@pytest.mark.parametrize("code", ["", "ABC", "ABCDEFGH1", "ABCDEFG0", "ABCDEFGO", "ABCDEFGI",
                                  "ÅBCDEFGH", "A" * 40, "ABCD\nEFGH!"])
def test_a_malformed_code_is_422(client: TestClient, code: str) -> None:
    named(client, BO, "Bo")
    response = link(client, BO, code)
    assert response.status_code == 422 and error(response) in {"bad_link_code",
                                                               "invalid_request"}
    assert me(client, BO)["name"] == "Bo"


@pytest.mark.parametrize("body", [{}, {"code": 12345678}, {"code": None},
                                  {"code": "ABCDEFGH", "more": 1}, []])
def test_a_malformed_body_is_422(client: TestClient, body: Any) -> None:
    response = client.post("/api/me/link", json=body, headers=key(BO))
    assert response.status_code == 422


def test_the_key_is_needed_and_checked(client: TestClient) -> None:
    code = new_code(client, ANN)["code"]
    assert client.post("/api/me/link", json={"code": code}).status_code == 403
    assert client.post("/api/me/link-codes").status_code == 403
    bad = client.post("/api/me/link", json={"code": code}, headers=key("short"))
    assert bad.status_code == 422 and error(bad) == "bad_player_key"
    assert link(client, BO, code).status_code == 200  # the code was not used up


def test_a_wrong_code_is_404_and_changes_nothing(client: TestClient) -> None:
    named(client, BO, "Bo")
    new_code(client, ANN)
    response = link(client, BO, "22222222")
    assert response.status_code == 404 and error(response) == "link_code_unknown"
    assert response.json()["error"]["message"].startswith("There is no such link code")
    assert me(client, BO)["name"] == "Bo"


def test_a_code_works_once(client: TestClient) -> None:
    named(client, ANN, "Ann")
    named(client, CY, "Cy")
    code = new_code(client, ANN)["code"]
    assert link(client, BO, code).status_code == 200
    replay = link(client, CY, code)
    assert replay.status_code == 409 and error(replay) == "link_code_used"
    assert me(client, CY)["name"] == "Cy"
    again = link(client, BO, code)  # the same browser again: used is used
    assert again.status_code == 409 and error(again) == "link_code_used"


def test_a_code_expires_after_ten_minutes(client: TestClient, clock: Clock) -> None:
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    early = new_code(client, ANN)["code"]
    clock.move(minutes=9, seconds=59)
    assert link(client, CY, early).status_code == 200
    late = new_code(client, ANN)["code"]
    clock.move(minutes=10)
    response = link(client, BO, late)
    assert response.status_code == 409 and error(response) == "link_code_expired"
    assert me(client, BO)["name"] == "Bo"


def test_a_new_code_replaces_the_unused_one(client: TestClient) -> None:
    first = new_code(client, ANN)["code"]
    second = new_code(client, ANN)["code"]
    response = link(client, BO, first)
    assert response.status_code == 409 and error(response) == "link_code_expired"
    assert link(client, BO, second).status_code == 200


def test_too_many_wrong_codes_stop_even_the_right_one(client: TestClient,
                                                      clock: Clock) -> None:
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    code = new_code(client, ANN)["code"]
    wrong = "".join(reversed(code)) if code != code[::-1] else "23456789"
    for _ in range(MAX_FAILURES):
        assert link(client, BO, wrong).status_code == 404
    clock.move(minutes=1)
    refused = link(client, BO, code)
    assert refused.status_code == 429 and error(refused) == "too_many_link_attempts"
    assert int(refused.headers["Retry-After"]) == 9 * 60
    assert me(client, BO)["name"] == "Bo"
    # Another browser from the same address is held up too (the address counts).
    other = link(client, CY, code)
    assert other.status_code == 429
    clock.move(minutes=9)
    expired = link(client, BO, code)  # the limit is over, and so is the code
    assert expired.status_code == 409 and error(expired) == "link_code_expired"
    assert link(client, BO, new_code(client, ANN)["code"]).status_code == 200


def test_the_database_holds_no_code_and_no_key(client: TestClient, db: Path) -> None:
    code = new_code(client, ANN)["code"]
    assert link(client, BO, "22222222").status_code == 404
    assert link(client, BO, code).status_code == 200
    client.get("/api/me", headers=key(CY))
    dump = "\n".join(sqlite3.connect(db).iterdump())
    for secret in (code, ANN, BO, CY):
        assert secret not in dump
    assert code_hash(code) in dump and player_key_hash(BO) in dump


def test_the_contract_names_the_operations(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/me/link-codes", "/api/me/link", "/api/me/passkeys",
                 "/api/me/passkeys/options", "/api/me/passkeys/{passkey_id}",
                 "/api/passkeys/sign-in/options", "/api/passkeys/sign-in"):
        assert path in paths
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"LinkCodeOut", "LinkIn", "LinkedOut", "CredentialIn", "PasskeyOut"} <= set(schemas)


def test_the_page_is_served_in_every_language(client: TestClient) -> None:
    for lang, title in (("en", "Your devices"), ("sv", "Dina enheter")):
        page = client.get(f"/devices?lang={lang}")
        assert page.status_code == 200 and title in page.text


# --- Passkeys -----------------------------------------------------------------------


def register(client: TestClient, player: str, authenticator: Authenticator) -> Any:
    options = client.post("/api/me/passkeys/options", headers=key(player)).json()["options"]
    return client.post("/api/me/passkeys", json={"credential": authenticator.create(options)},
                       headers=key(player))


def sign_in_options(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/passkeys/sign-in/options")
    assert response.status_code == 200, response.text
    options: dict[str, Any] = response.json()["options"]
    return options


def sign_in(client: TestClient, player: str, credential: dict[str, Any]) -> Any:
    return client.post("/api/passkeys/sign-in", json={"credential": credential},
                       headers=key(player))


@pytest.fixture
def passkey() -> Authenticator:
    return Authenticator("testserver", ORIGIN)


def test_a_passkey_signs_in_a_new_browser(client: TestClient, passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
    assert options["rp"]["id"] == "testserver"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["user"]["name"] == "Ann"
    created = client.post("/api/me/passkeys", json={"credential": passkey.create(options)},
                          headers=key(ANN))
    assert created.status_code == 201, created.text
    listed = client.get("/api/me/passkeys", headers=key(ANN)).json()
    assert [p["id"] for p in listed] == [created.json()["id"]]
    assert listed[0]["last_used_at"] is None
    options = sign_in_options(client)
    assert options["allowCredentials"] == [] and options["rpId"] == "testserver"
    response = sign_in(client, BO, passkey.get(options))
    assert response.status_code == 200, response.text
    assert response.json() == {"name": "Ann"} and me(client, BO)["name"] == "Ann"
    assert client.get("/api/me/passkeys", headers=key(BO)).json()[0]["last_used_at"]
    # The passkey is excluded when the player asks for another (one per authenticator).
    again = client.post("/api/me/passkeys/options", headers=key(BO)).json()["options"]
    assert [c["id"] for c in again["excludeCredentials"]] == [created.json()["id"]]


def test_a_passkey_needs_a_display_name(client: TestClient) -> None:
    response = client.post("/api/me/passkeys/options", headers=key(ANN))
    assert response.status_code == 422 and error(response) == "passkey_name_needed"


def test_a_sign_in_answer_works_once(client: TestClient, passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    named(client, CY, "Cy")
    assert register(client, ANN, passkey).status_code == 201
    answer = passkey.get(sign_in_options(client))
    assert sign_in(client, BO, answer).status_code == 200
    replay = sign_in(client, CY, answer)
    assert replay.status_code == 409 and error(replay) == "passkey_challenge"
    assert me(client, CY)["name"] == "Cy"


def test_a_challenge_expires(client: TestClient, passkey: Authenticator,
                             clock: Clock) -> None:
    named(client, ANN, "Ann")
    options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
    clock.move(minutes=5)
    late = client.post("/api/me/passkeys", json={"credential": passkey.create(options)},
                       headers=key(ANN))
    assert late.status_code == 409 and error(late) == "passkey_challenge"
    assert client.get("/api/me/passkeys", headers=key(ANN)).json() == []
    assert register(client, ANN, passkey).status_code == 201
    options = sign_in_options(client)
    clock.move(minutes=5)
    response = sign_in(client, BO, passkey.get(options))
    assert response.status_code == 409 and error(response) == "passkey_challenge"


def test_a_challenge_is_for_one_purpose_and_one_player(client: TestClient,
                                                       passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
    # Bo answers Ann's challenge: refused, and Ann's challenge is gone with it.
    stolen = client.post("/api/me/passkeys", json={"credential": passkey.create(options)},
                         headers=key(BO))
    assert stolen.status_code == 409
    assert register(client, ANN, passkey).status_code == 201
    # A registration's challenge does not sign in.
    options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
    response = sign_in(client, CY, passkey.get(options))
    assert response.status_code == 409 and error(response) == "passkey_challenge"


def test_a_wrong_origin_or_key_is_refused(client: TestClient, passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    named(client, BO, "Bo")
    assert register(client, ANN, passkey).status_code == 201
    other = sign_in(client, BO, passkey.get(sign_in_options(client),
                                            origin="https://evil.example"))
    assert other.status_code == 403 and error(other) == "passkey_refused"
    forged = Authenticator("testserver", ORIGIN, credential_id=passkey.credential_id,
                           sign_count=passkey.sign_count)
    response = sign_in(client, BO, forged.get(sign_in_options(client)))
    assert response.status_code == 403 and error(response) == "passkey_refused"
    handle, passkey.user_handle = passkey.user_handle, b"someone else"
    other_user = sign_in(client, BO, passkey.get(sign_in_options(client)))
    assert other_user.status_code == 403 and error(other_user) == "passkey_refused"
    passkey.user_handle = handle
    assert sign_in(client, ANN, passkey.get(sign_in_options(client))).status_code == 200
    stale = sign_in(client, BO, passkey.get(sign_in_options(client), count=False))
    assert stale.status_code == 403  # the counter must grow (a copied authenticator)
    assert me(client, BO)["name"] == "Bo"


def test_an_unknown_or_removed_passkey_is_404(client: TestClient,
                                              passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    stranger = Authenticator("testserver", ORIGIN)
    unknown = sign_in(client, BO, stranger.get(sign_in_options(client)))
    assert unknown.status_code == 404 and error(unknown) == "passkey_unknown"
    passkey_id = register(client, ANN, passkey).json()["id"]
    assert client.delete(f"/api/me/passkeys/{passkey_id}", headers=key(BO)).status_code == 404
    assert client.delete(f"/api/me/passkeys/{passkey_id}", headers=key(ANN)).status_code == 204
    assert client.delete(f"/api/me/passkeys/{passkey_id}", headers=key(ANN)).status_code == 404
    gone = sign_in(client, BO, passkey.get(sign_in_options(client)))
    assert gone.status_code == 404


def test_a_passkey_registers_once(client: TestClient, passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    assert register(client, ANN, passkey).status_code == 201
    twice = register(client, ANN, passkey)
    assert twice.status_code == 403 and error(twice) == "passkey_refused"


@pytest.mark.parametrize("credential", [
    {}, {"response": 3}, {"response": {}}, {"response": {"clientDataJSON": "!!"}},
    {"response": {"clientDataJSON": "e30"}},  # {}
    {"response": {"clientDataJSON": "WzFd"}},  # [1]
    {"id": "x", "response": {"clientDataJSON": "eyJjaGFsbGVuZ2UiOiAxfQ"}},  # challenge 1
])
def test_a_malformed_answer_is_422(client: TestClient, credential: dict[str, Any]) -> None:
    named(client, ANN, "Ann")
    for path in ("/api/me/passkeys", "/api/passkeys/sign-in"):
        response = client.post(path, json={"credential": credential}, headers=key(ANN))
        assert response.status_code == 422 and error(response) == "bad_passkey", path


def test_a_garbled_answer_to_a_real_challenge_is_refused(client: TestClient,
                                                         passkey: Authenticator) -> None:
    named(client, ANN, "Ann")
    options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
    answer = passkey.create(options)
    answer["response"]["attestationObject"] = "AAAA"
    response = client.post("/api/me/passkeys", json={"credential": answer}, headers=key(ANN))
    assert response.status_code in {403, 422}
    assert client.get("/api/me/passkeys", headers=key(ANN)).json() == []


def test_the_relying_party_can_be_set(client: TestClient, passkey: Authenticator,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_RP_ID", "yatzy.example.org")
    monkeypatch.setenv("YATZY_ORIGINS", "https://yatzy.example.org, https://play.example.org")
    named(client, ANN, "Ann")
    site = Authenticator("yatzy.example.org", "https://play.example.org")
    options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
    assert options["rp"]["id"] == "yatzy.example.org"
    created = client.post("/api/me/passkeys", json={"credential": site.create(options)},
                          headers=key(ANN))
    assert created.status_code == 201, created.text
    wrong_rp = register(client, ANN, passkey)  # made for "testserver"
    assert wrong_rp.status_code == 403
    assert sign_in(client, BO, site.get(sign_in_options(client))).status_code == 200


def test_no_key_code_or_passkey_reaches_the_log(tmp_path: Path, clock: Clock,
                                                 passkey: Authenticator,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(open_service(tmp_path / "log.sqlite3", clock=clock),
                     Settings(pace=0.0, rate=0.0, access_log=True))
    caplog.set_level("DEBUG")
    with TestClient(app) as client:
        named(client, ANN, "Ann")
        code = new_code(client, ANN)["code"]
        assert link(client, BO, "22222222").status_code == 404
        assert link(client, BO, code).status_code == 200
        assert link(client, CY, code).status_code == 409
        assert register(client, ANN, passkey).status_code == 201
        answer = passkey.get(sign_in_options(client))
        assert sign_in(client, CY, answer).status_code == 200
    text = caplog.text
    assert "/api/me/link" in text  # the access log was on
    for secret in (ANN, BO, CY, code, player_key_hash(ANN), answer["response"]["signature"],
                   answer["response"]["clientDataJSON"]):
        assert secret not in text


JUNK: list[Any] = [None, 5, "", "!!", "AAAA", [], {}, "A" * 3000, True]


@pytest.mark.parametrize("field", ["id", "rawId", "type", "response.attestationObject",
                                   "response.transports", "clientExtensionResults"])
def test_a_registration_answer_with_junk_is_refused(client: TestClient,
                                                    passkey: Authenticator, field: str) -> None:
    named(client, ANN, "Ann")
    for junk in JUNK:
        options = client.post("/api/me/passkeys/options", headers=key(ANN)).json()["options"]
        answer = passkey.create(options)
        holder = answer["response"] if field.startswith("response.") else answer
        holder[field.removeprefix("response.")] = junk
        response = client.post("/api/me/passkeys", json={"credential": answer},
                               headers=key(ANN))
        assert response.status_code in {201, 403, 422}, (junk, response.text)
        if response.status_code == 201:  # a junk field the check does not need
            assert field in {"response.transports", "clientExtensionResults"}, junk
            client.delete(f"/api/me/passkeys/{response.json()['id']}", headers=key(ANN))


@pytest.mark.parametrize("field", ["id", "rawId", "type", "response.authenticatorData",
                                   "response.signature", "response.userHandle"])
def test_a_sign_in_answer_with_junk_is_refused(client: TestClient, passkey: Authenticator,
                                               field: str) -> None:
    named(client, ANN, "Ann")
    assert register(client, ANN, passkey).status_code == 201
    for number, junk in enumerate(JUNK):
        fresh = f"fresh{number:017d}"  # a browser of its own each time
        answer = passkey.get(sign_in_options(client))
        holder = answer["response"] if field.startswith("response.") else answer
        holder[field.removeprefix("response.")] = junk
        response = sign_in(client, fresh, answer)
        assert response.status_code in {200, 403, 404, 422}, (junk, response.text)
        if response.status_code == 200:  # the user handle is not needed: the id says
            assert field == "response.userHandle", junk
        else:
            assert me(client, fresh)["name"] is None
