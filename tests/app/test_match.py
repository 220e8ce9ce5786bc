"""Matches between computer players: seats, paired dice, tallies and their errors."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest

import yatzy
from yatzy import bots
from yatzy.app import match
from yatzy.app.codes import AppCode
from yatzy.app.errors import BadMatch, UnknownBot
from yatzy.app.match import (
    MOST_MATCH_GAMES,
    MatchResult,
    Tally,
    check_games,
    play_deal,
    play_game,
    play_match,
    seating,
    turn_dice,
    win_shares,
)
from yatzy.bots.codes import BotCode
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.errors import ErrorCode, IllegalMove
from yatzy.core.game import Game

#: Rules with a tiny solver table (745 states), so that the solver's levels start at once.
IN_ORDER = yatzy.ruleset("yatzy", order="in_order")


# --- Tallies ----------------------------------------------------------------------------


def test_a_shared_first_place_gives_each_sharer_1_over_k() -> None:
    half, third = Fraction(1, 2), Fraction(1, 3)
    assert win_shares([250, 231, 250]) == (half, 0, half)
    assert win_shares([99, 99, 99]) == (third, third, third)
    assert win_shares([180, 250, 249]) == (0, 1, 0)


#: Three deals of three entrants (each game's totals in entrant order), with first
#: places shared by two and by three.
DEALS = [
    [(200, 200, 100), (150, 250, 250), (300, 100, 100)],
    [(100, 200, 300), (100, 100, 100), (250, 240, 230)],
    [(180, 170, 160), (175, 240, 200), (120, 130, 130)],
]


def test_shares_scores_and_standard_errors_by_hand() -> None:
    tally = sum((Tally.of_deal(deal) for deal in DEALS), Tally.empty(3))
    result = MatchResult.of(IN_ORDER, ["a", "b", "a"], 5, tally)
    assert (result.games, result.deals, result.shared_firsts) == (9, 3, 4)
    assert result.fair_share == pytest.approx(1 / 3)
    for entrant, standing in enumerate(result.standings):
        # The per-deal means, straight from the definition.
        shares = [statistics.mean(win_shares(game)[entrant] for game in deal) for deal in DEALS]
        scores = [statistics.mean(game[entrant] for game in deal) for deal in DEALS]
        assert standing.level == "aba"[entrant] and standing.entrant == entrant
        assert standing.wins == pytest.approx(float(sum(shares) * 3))
        assert standing.share == pytest.approx(float(statistics.mean(shares)))
        assert standing.share_error == pytest.approx(
            statistics.stdev(float(s) for s in shares) / math.sqrt(3))
        assert standing.mean_score == pytest.approx(float(statistics.mean(scores)))
        assert standing.score_error == pytest.approx(
            statistics.stdev(float(s) for s in scores) / math.sqrt(3))
    # Entrant 0 by hand: per-deal shares 1/2, 4/9 and 1/3 (a win, a 3-way tie, a loss).
    first = result.standings[0]
    assert first.wins == pytest.approx(1.5 + 4 / 3 + 1)
    mean = (1 / 2 + 4 / 9 + 1 / 3) / 3
    sd = math.sqrt(((1 / 2 - mean) ** 2 + (4 / 9 - mean) ** 2 + (1 / 3 - mean) ** 2) / 2)
    assert first.share_error == pytest.approx(sd / math.sqrt(3))
    assert sum(s.share for s in result.standings) == pytest.approx(1)


def test_tallies_add_up_in_any_order() -> None:
    parts = [Tally.of_deal(deal) for deal in DEALS]
    forward = parts[0] + parts[1] + parts[2]
    assert parts[2] + (parts[0] + parts[1]) == forward
    assert forward.deals == 3 and forward.unit == 6


def test_one_deal_gives_no_standard_error() -> None:
    result = MatchResult.of(IN_ORDER, ["a", "b", "c"], 0, Tally.of_deal(DEALS[0]))
    assert all(s.share_error is None and s.score_error is None for s in result.standings)
    assert [s.share for s in result.standings] == pytest.approx([1 / 2, 1 / 3, 1 / 6])


# --- Seats and dice ---------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 4, 6])
def test_every_entrant_sits_once_in_every_seat_of_a_deal(k: int) -> None:
    assert seating(k, 0) == tuple(range(k))
    for seat in range(k):
        assert sorted(seating(k, r)[seat] for r in range(k)) == list(range(k))
    for entrant in range(k):
        assert sorted(seating(k, r).index(entrant) for r in range(k)) == list(range(k))


def _rolls(game: Game, player: str) -> list[tuple[int, ...]]:
    """The dice of each of ``player``'s first rolls, in turn order."""
    return [tuple(step.action.dice) for step in game.history
            if step.player == player and isinstance(step.action, Roll)
            and step.action.dice is not None]


def test_the_seats_keep_their_dice_when_the_levels_change_seats() -> None:
    seed, deal = 11, 4
    names = ("1 optimal", "2 random")
    first = play_game(IN_ORDER, ["optimal", "random"], seed=seed, deal=deal, players=names)
    second = play_game(IN_ORDER, ["random", "optimal"], seed=seed, deal=deal,
                       players=names[::-1])
    assert first.players == names and second.players == names[::-1]
    for seat in (0, 1):
        expected = [tuple(turn_dice(IN_ORDER, seat=seat, seed=seed, deal=deal, turn=t)[:5])
                    for t in range(15)]
        assert _rolls(first, first.players[seat]) == expected
        assert _rolls(second, second.players[seat]) == expected
    # A reroll takes the first faces it needs of its turn's next row of dice.
    rerolls = 0
    for game in (first, second):
        turn = {name: -1 for name in game.players}
        rolled = 0
        for step in game.history:
            seat = game.players.index(step.player)
            if isinstance(step.action, Roll):
                turn[step.player] += 1
                rolled = 1
            elif isinstance(step.action, Reroll):
                row = turn_dice(IN_ORDER, seed, deal, seat, turn[step.player])
                start = 5 * rolled
                assert step.action.dice == row[start : start + 5 - len(step.action.hold)]
                rolled += 1
                rerolls += 1
    assert rerolls > 10
    # The deal's totals, in entrant order: the levels as they sat in each game.
    assert play_deal(IN_ORDER, ["optimal", "random"], seed=seed, deal=deal) == (
        (first.cards[0].total, first.cards[1].total),
        (second.cards[1].total, second.cards[0].total))


def test_a_level_against_itself_ties_every_deal_exactly() -> None:
    """Its games in a deal are one game with the entrants in other seats."""
    for levels in (["optimal", "optimal"], ["random", "random", "random"]):
        result = play_match(levels, 6 * len(levels), IN_ORDER, seed=2, workers=1)
        for standing in result.standings:
            assert standing.share == pytest.approx(1 / len(levels))
            assert standing.share_error == 0
        assert len({s.mean_score for s in result.standings}) == 1
        totals = play_deal(IN_ORDER, levels, seed=2, deal=0)
        assert sorted(totals[0]) == sorted(totals[1]) and totals[0] != totals[1]


def test_a_bot_cannot_choose_its_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    class Cheat:
        """Brings five sixes to every roll, rerolls one die once a turn."""

        name = "cheat"

        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def choose(self, game: Game) -> Action:
            if game.dice is None:
                return Roll(yatzy.Dice([6] * 5))
            if game.rolls_used == 1:
                return Reroll((0, 1, 2, 3), yatzy.Dice([6]))
            return Score(next(iter(game.choices())))

    monkeypatch.setitem(bots._REGISTRY, "cheat", Cheat)
    game = play_game(IN_ORDER, ["cheat"], seed=1, deal=0)
    rolls = [s.action for s in game.history if isinstance(s.action, Roll)]
    rerolls = [s.action for s in game.history if isinstance(s.action, Reroll)]
    assert len(rolls) == len(rerolls) == 15
    for turn, (roll, reroll) in enumerate(zip(rolls, rerolls, strict=True)):
        row = turn_dice(IN_ORDER, 1, 0, 0, turn)
        assert roll.dice == row[:5] and reroll.dice == row[5:6]
    assert any(roll.dice != (6,) * 5 for roll in rolls)


def test_an_illegal_action_of_a_bot_is_the_core_s_refusal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Stubborn:
        name = "stubborn"

        def __init__(self, rng: random.Random) -> None:
            pass

        def choose(self, game: Game) -> Action:
            return Roll() if game.dice is None else Score("chance")  # out of order

    monkeypatch.setitem(bots._REGISTRY, "stubborn", Stubborn)
    with pytest.raises(IllegalMove) as refused:
        play_game(IN_ORDER, ["stubborn", "random"], seed=1, deal=0)
    assert refused.value.code == ErrorCode.BOX_NOT_ALLOWED


# --- Matches ----------------------------------------------------------------------------


def test_a_match_is_fixed_by_its_seed_whatever_the_number_of_workers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    levels = ["hard", "random", "medium"]
    one = play_match(levels, 24, IN_ORDER, seed=7, workers=1)
    assert play_match(levels, 24, IN_ORDER, seed=7, workers=1) == one
    assert play_match(levels, 24, IN_ORDER, seed=8, workers=1) != one
    monkeypatch.setattr(match, "GAMES_PER_CHUNK", 6)  # four pieces of work: three to share
    seen: list[tuple[int, int]] = []
    shared = play_match(levels, 24, IN_ORDER, seed=7, workers=2,
                        progress=lambda done, total: seen.append((done, total)))
    assert shared == one
    assert [done for done, _ in seen] == [6, 12, 18, 24] and {t for _, t in seen} == {24}
    assert one.to_dict()["standings"][1]["level"] == "random" and one.to_dict()["deals"] == 8


@pytest.mark.parametrize("levels", [("winner", "optimal"), ("optimal", "optimal"),
                                    ("optimal", "winner", "optimal")])
def test_the_compiled_games_are_the_real_games(levels: tuple[str, ...]) -> None:
    """The solver's levels play a match by the compiled loops: the very games the bots
    play through the core, deal by deal (the same totals in every game)."""
    compiled = match.compiled_deals(IN_ORDER, levels, seed=4, start=3, stop=33)
    assert compiled == [play_deal(IN_ORDER, levels, seed=4, deal=d) for d in range(3, 33)]


def test_a_match_of_the_solver_s_levels_is_the_match_of_real_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = play_match(["winner", "optimal"], 40, IN_ORDER, seed=2, workers=1)
    monkeypatch.setattr(match, "compiled_deals", lambda *args, **kwargs: None)
    assert play_match(["winner", "optimal"], 40, IN_ORDER, seed=2, workers=1) == compiled


@pytest.mark.parametrize("levels", [("winner", "winner"), ("optimal", "hard"),
                                    ("random", "optimal"), ("winner", "greedy")])
def test_other_levels_play_real_games(levels: tuple[str, ...]) -> None:
    assert match.compiled_deals(IN_ORDER, levels, seed=1, start=0, stop=2) is None


def test_optimal_beats_random_by_far() -> None:
    result = play_match(["random", "optimal"], 40, IN_ORDER, seed=3, workers=1)
    worse, best = result.standings
    assert best.share > 0.95 and worse.share < 0.05
    assert best.share_error is not None and best.share - 0.5 > 10 * best.share_error
    assert best.mean_score > worse.mean_score + 40


def test_a_secret_seed_plays_too() -> None:
    result = play_match(["greedy", "random"], 2, IN_ORDER, seed="ab" * 16, workers=1)
    assert result.seed == "ab" * 16 and result.games == 2


@pytest.mark.parametrize(("levels", "error", "code"), [
    (["optimal"], BadMatch, AppCode.MATCH_LEVELS),
    ([], BadMatch, AppCode.MATCH_LEVELS),
    ("optimal", BadMatch, AppCode.MATCH_LEVELS),
    (None, BadMatch, AppCode.MATCH_LEVELS),
    (["optimal", "wizard"], UnknownBot, BotCode.UNKNOWN_BOT),
    (["optimal", 3], UnknownBot, BotCode.UNKNOWN_BOT),
    (["random"] * 100, IllegalMove, ErrorCode.TOO_MANY_PLAYERS),
])
def test_levels_that_cannot_play_a_match(levels: object, error: type[Exception],
                                         code: ErrorCode) -> None:
    with pytest.raises(error) as refused:
        play_match(levels, 200, IN_ORDER)  # type: ignore[arg-type]
    assert refused.value.code == code  # type: ignore[attr-defined]


@pytest.mark.parametrize("games", [0, 1, 3, -2, MOST_MATCH_GAMES + 2, True, 2.0, "4", None])
def test_games_that_are_no_whole_number_of_deals(games: object) -> None:
    with pytest.raises(BadMatch) as refused:
        play_match(["random", "greedy"], games, IN_ORDER)  # type: ignore[arg-type]
    assert refused.value.code == AppCode.MATCH_GAMES
    assert refused.value.params["levels"] == 2
    assert check_games(MOST_MATCH_GAMES, 2) == MOST_MATCH_GAMES
    with pytest.raises(BadMatch) as refused:
        check_games(MOST_MATCH_GAMES, 3)  # 1,000,000 is no multiple of 3
    assert refused.value.params["most"] == 999_999


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"seed": -1}, IllegalMove), ({"seed": None}, IllegalMove), ({"seed": "x"}, IllegalMove),
    ({"ruleset": "yatzy"}, IllegalMove), ({"workers": 0}, BadMatch),
    ({"workers": True}, BadMatch),
])
def test_other_arguments_that_cannot_play(kwargs: dict[str, object],
                                          error: type[Exception]) -> None:
    args: dict[str, object] = {"levels": ["random", "greedy"], "games": 2,
                               "ruleset": IN_ORDER, **kwargs}
    with pytest.raises(error):
        play_match(**args)  # type: ignore[arg-type]
