"""The random and greedy computer players."""

import random
import statistics

import pytest

import yatzy
from yatzy.bots import Bot, bot_names, make_bot, play_turn
from yatzy.bots.codes import BotCode
from yatzy.core.game import Game


def play(rules: yatzy.Ruleset, bot_name: str, seed: int) -> Game:
    g = yatzy.new_game(rules, ["cpu"], seed=seed)
    bot = make_bot(bot_name, random.Random(seed))
    while not g.is_over:
        g = play_turn(g, bot)
    return g


def test_registry() -> None:
    assert {"random", "greedy"} <= set(bot_names())
    assert isinstance(make_bot("greedy"), Bot)
    with pytest.raises(ValueError, match="Unknown computer player 'genius'"):
        make_bot("genius")


@pytest.mark.parametrize("rules", [yatzy.ruleset("yatzy", order="in_order"),
                                   yatzy.ruleset("yahtzee", joker="gated", upper_first=True)])
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_finish_legal_games(rules: yatzy.Ruleset, name: str) -> None:
    g = play(rules, name, seed=4)
    assert g.is_over
    assert Game.from_record(g.to_record()) == g


def test_greedy_beats_random_by_far() -> None:
    rules = yatzy.ruleset("yatzy")
    greedy = [play(rules, "greedy", s).scorecard("cpu").total for s in range(6)]
    rnd = [play(rules, "random", s).scorecard("cpu").total for s in range(6)]
    assert statistics.mean(greedy) > statistics.mean(rnd) + 60


def test_greedy_keeps_a_yatzy_and_rerolls_junk() -> None:
    bot = make_bot("greedy", random.Random(0))
    g = yatzy.new_game(yatzy.ruleset("yatzy"), ["cpu"], seed=1).roll([6, 6, 6, 6, 6])
    assert bot.choose(g) == yatzy.Score("yatzy")
    g = yatzy.new_game(yatzy.ruleset("yatzy"), ["cpu"], seed=1).roll([6, 6, 6, 1, 2])
    action = bot.choose(g)
    assert isinstance(action, yatzy.Reroll) and set(action.hold) == {0, 1, 2}


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "optimal", "winner"])
def test_a_bot_refuses_what_is_no_game_with_our_error(level: str) -> None:
    from yatzy.core.errors import ErrorCode, RulesError

    bot = make_bot(level, random.Random(1))
    for wrong in (None, "game", 5):
        with pytest.raises(RulesError) as refused:
            bot.choose(wrong)  # type: ignore[arg-type]
        assert refused.value.code is ErrorCode.NOT_A_GAME


@pytest.mark.parametrize("name", ["genius", None, 5, ["optimal"]])
def test_an_unknown_level_is_our_error(name: object) -> None:
    from yatzy.bots import UnknownBot, check_level
    from yatzy.core.errors import YatzyError

    for call in (make_bot, check_level):
        with pytest.raises(UnknownBot) as refused:
            call(name)  # type: ignore[operator]
        assert isinstance(refused.value, YatzyError)
        assert refused.value.code is BotCode.UNKNOWN_BOT
        assert "optimal" in refused.value.params["known"]
