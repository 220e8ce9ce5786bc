"""The pages keep the language a person chose."""

from __future__ import annotations

from fastapi.testclient import TestClient


def lang_of(client: TestClient, path: str, **headers: str) -> str:
    response = client.get(path, headers={"Accept": "text/html", **headers})
    assert response.status_code == 200
    return response.text.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_chosen_language_is_remembered(client: TestClient) -> None:
    assert lang_of(client, "/", **{"Accept-Language": "da"}) == "da"  # nothing chosen yet
    assert lang_of(client, "/?lang=sv") == "sv"
    cookie = client.cookies.get("yatzy_lang")
    assert cookie == "sv"
    # Later pages, without ?lang=, keep it, over the browser's own languages too.
    assert lang_of(client, "/history", **{"Accept-Language": "da"}) == "sv"
    assert lang_of(client, "/?lang=fi") == "fi"
    assert lang_of(client, "/") == "fi"
    # The API answers in it too (the page's own requests send the cookie).
    refused = client.post("/api/games", json={"rules": "poker", "seats": [{"name": "Ann"}]})
    assert refused.status_code in (400, 422) and "poker" in refused.text
    assert "Tuntemattomat säännöt" in refused.json()["error"]["message"]


def test_a_cookie_of_no_language_is_ignored(client: TestClient) -> None:
    client.cookies.set("yatzy_lang", "xx" * 500)
    assert lang_of(client, "/", **{"Accept-Language": "nb"}) == "nb"
    set_cookie = client.get("/", headers={"Accept": "text/html"}).headers.get("set-cookie")
    assert set_cookie is None  # only a page opened with ?lang= sets it


def test_name_fields_take_as_many_characters_as_the_core_allows(client: TestClient) -> None:
    from yatzy.core.names import MAX_NAME_LENGTH

    for path, field in (("/", '<input name="name" maxlength="'),
                        ("/daily", '<input id="my-name" name="name" maxlength="')):
        page = client.get(path).text
        assert page.count(field) == 1, path
        assert page.split(field, 1)[1].split('"', 1)[0] == str(MAX_NAME_LENGTH), path
