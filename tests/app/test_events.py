"""Events: tagged, frozen, JSON-ready."""

from __future__ import annotations

import dataclasses
import json

import pytest

from yatzy.app import ActionApplied, GameCreated, GameDeleted, GameFinished, SeatTaken
from yatzy.app.events import event_from_dict


@pytest.mark.parametrize(
    ("event", "tag"),
    [
        (GameCreated("g", ("Ann", "Bo")), "game_created"),
        (ActionApplied("g", 3, "Ann", {"type": "score", "box": "chance"}, 23), "action_applied"),
        (GameFinished("g", (("Ann", 200), ("Bo", 180))), "game_finished"),
        (GameDeleted("g"), "game_deleted"),
        (SeatTaken("g", 1, "Bo", 0, version=2), "seat_taken"),
    ],
)
def test_tagged_and_json_ready(event: object, tag: str) -> None:
    data = event.to_dict()  # type: ignore[attr-defined]
    assert data["type"] == tag == event.type  # type: ignore[attr-defined]
    assert data["game_id"] == "g"
    assert json.loads(json.dumps(data))["type"] == tag
    assert event_from_dict(json.loads(json.dumps(data))) == event  # as another process reads it
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.game_id = "h"  # type: ignore[attr-defined]


def test_the_tag_cannot_be_forged() -> None:
    with pytest.raises(TypeError):
        GameDeleted("g", type="game_created")  # type: ignore[call-arg]
