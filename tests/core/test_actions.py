"""Actions: text forms and dict forms round-trip."""

import pytest

from yatzy import Dice, IllegalMove, Reroll, Roll, Score
from yatzy.core.actions import action_from_dict, parse_action

ACTIONS = [Roll(), Roll(Dice([1, 2, 3, 4, 5])), Reroll(()), Reroll((0, 4)),
           Reroll((1,), Dice([6, 6, 6, 6])), Score("chance")]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_round_trips(action: object) -> None:
    assert parse_action(str(action)) == action
    assert action_from_dict(action.to_dict()) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text", ["", "jump", "roll x", "reroll a", "reroll 0 : z", "score", "score a b"],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(IllegalMove):
        parse_action(text)


@pytest.mark.parametrize(
    "data",
    [[], {"type": "roll", "dice": 5}, {"type": "reroll"}, {"type": "reroll", "hold": 1},
     {"type": "score"}, {"type": "score", "box": 3}, {"type": "pass"}],
)
def test_dict_errors(data: object) -> None:
    with pytest.raises(IllegalMove):
        action_from_dict(data)
