"""The QR code of an invite link: text no code can hold is refused in the one error
shape, with the security headers."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from yatzy.web.api import QR_MOST_BYTES


def test_the_longest_text_a_code_holds_is_drawn(client: TestClient) -> None:
    response = client.post("/api/qr", json={"text": "€" * (QR_MOST_BYTES // 3)})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_text_too_long_for_a_code_is_refused(client: TestClient, lang: str) -> None:
    # 583 emoji: 2,332 bytes of UTF-8, under the limit of 1,000 characters.
    response = client.post(f"/api/qr?lang={lang}", json={"text": "😀" * 583})
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/json"
    assert response.headers["x-content-type-options"] == "nosniff"
    error = response.json()["error"]
    assert error["code"] == "qr_too_long"
    assert "2331" in error["message"]
    assert ("QR" in error["message"]) and (lang == "en") == ("too long" in error["message"])


def test_text_with_a_lone_surrogate_is_refused(client: TestClient) -> None:
    response = client.post("/api/qr", content=b'{"text": "a\\ud800b"}',
                           headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
