"""The pure parts of linking devices: link codes (made from an unambiguous alphabet, read
back loosely, anything else refused with one typed error) and reading a passkey answer's
challenge (any JSON at all: the challenge, or the typed error, never another)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yatzy.app.devices import (
    CODE_ALPHABET,
    CODE_LENGTH,
    BadLinkCode,
    BadPasskey,
    challenge_of,
    code_hash,
    new_code,
    normalize_code,
)

codes = st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_new_codes_are_codes() -> None:
    for _ in range(200):
        code = new_code()
        assert normalize_code(code) == code and len(code) == CODE_LENGTH
    assert not set("01OIL") & set(CODE_ALPHABET) and len(set(CODE_ALPHABET)) == 31


@given(codes, st.sampled_from(["", " ", "-", "  -  "]), st.booleans(), st.integers(0, 8))
def test_a_code_reads_back_loosely(code: str, gap: str, lower: bool, cut: int) -> None:
    typed = code.lower() if lower else code
    typed = f" {typed[:cut]}{gap}{typed[cut:]}\t"
    assert normalize_code(typed) == code


@given(st.one_of(st.text(max_size=40), st.integers(), st.none(), st.lists(st.text())))
def test_anything_else_is_bad_link_code(value: Any) -> None:
    try:
        code = normalize_code(value)
    except BadLinkCode as exc:
        assert exc.code == "bad_link_code" and exc.params == {"length": CODE_LENGTH}
    else:
        assert isinstance(value, str) and set(code) <= set(CODE_ALPHABET)
        assert len(code) == CODE_LENGTH


def test_a_code_s_hash_is_slow_and_its_own() -> None:
    import hashlib

    assert code_hash(" 2222-2222 ") == code_hash("22222222") != code_hash("22222223")
    assert len(code_hash("22222222")) == 64
    assert code_hash("22222222") != hashlib.sha256(b"22222222").hexdigest()


@given(st.binary(min_size=1, max_size=64))
def test_the_challenge_is_read_from_the_client_data(challenge: bytes) -> None:
    client_data = json.dumps({"type": "webauthn.get", "challenge": b64url(challenge)})
    answer = {"response": {"clientDataJSON": b64url(client_data.encode())}}
    assert challenge_of(answer) == challenge


@given(json_values, json_values)
def test_any_other_answer_is_bad_passkey(answer: Any, client_data: Any) -> None:
    for candidate in (answer, {"response": {"clientDataJSON": b64url(
            json.dumps(client_data).encode())}}):
        try:
            found = challenge_of(candidate)
        except BadPasskey:
            continue
        assert isinstance(found, bytes)


@pytest.mark.parametrize("text", ["!!!", "a", "é", "x" * 5000, b64url(b"[" * 3000)])
def test_client_data_that_is_no_base64url_is_bad_passkey(text: str) -> None:
    with pytest.raises(BadPasskey):
        challenge_of({"response": {"clientDataJSON": text}})
