"""Game transitions, turn order, errors that change nothing, roll-off, winners."""

from dataclasses import replace

import pytest

import yatzy
import yatzy.core
from yatzy import Dice, IllegalMove, InvalidDice, Reroll, Roll, Score, UnknownBox, ruleset
from yatzy.core.actions import Undo
from yatzy.core.game import Game, Step

YATZY = ruleset("yatzy")
YAHTZEE = ruleset("yahtzee")


def game(rules: yatzy.Ruleset = YATZY, players: tuple[str, ...] = ("Ann", "Bo"),
         **kw: object) -> Game:
    return yatzy.new_game(rules, players, seed=kw.pop("seed", 5), **kw)  # type: ignore[arg-type]


def test_a_turn() -> None:
    g = game()
    assert (g.current_player, g.rolls_left, g.round, g.dice, g.choices()) == (
        "Ann", 3, 1, None, {},
    )
    g = g.roll([1, 2, 3, 4, 6])
    assert g.rolls_left == 2 and g.dice == (1, 2, 3, 4, 6)
    g = g.reroll([0, 1, 2, 3], [5])
    assert g.dice == Dice([1, 2, 3, 4, 5]) and g.rolls_left == 1
    assert g.choices()["small_straight"] == 15
    g = g.reroll([4, 0], [6, 6, 6])
    assert g.dice == (1, 6, 6, 6, 5) and g.rolls_left == 0
    with pytest.raises(IllegalMove, match="^No rolls left this turn$"):
        g.reroll([0])
    g = g.score("sixes")
    assert g.scorecard("Ann")["sixes"] == 18
    assert (g.current_player, g.round, g.rolls_left, g.dice) == ("Bo", 1, 3, None)
    g = g.roll([1, 1, 1, 1, 1]).score("ones")
    assert (g.current_player, g.round) == ("Ann", 2)


def test_may_stop_after_any_roll() -> None:
    g = game().roll([6, 6, 6, 6, 6]).score("yatzy")
    assert g.scorecard("Ann")["yatzy"] == 50


def test_seeded_dice_replay_exactly() -> None:
    a = game(seed=99).roll().reroll([0, 1])
    b = game(seed=99).roll().reroll([0, 1])
    assert a == b and a.dice == b.dice
    c = game(seed=100).roll().reroll([0, 1])
    assert c.history != a.history or c.dice != a.dice


def test_new_game_without_seed_picks_one() -> None:
    g = yatzy.new_game(YATZY, ["Ann"])
    assert isinstance(g.seed, int)
    assert g.roll().dice is not None


def test_game_without_seed_needs_physical_dice() -> None:
    g = Game.start(YATZY, ["Ann"], seed=None)
    with pytest.raises(IllegalMove, match="give the dice"):
        g.roll()
    assert g.roll([1, 2, 3, 4, 5]).dice == (1, 2, 3, 4, 5)


def test_other_rolls_per_turn() -> None:
    g = game(ruleset("yatzy", rolls=1)).roll()
    assert g.rolls_left == 0
    with pytest.raises(IllegalMove, match="No rolls left"):
        g.reroll([])


ERRORS = [
    ("score before roll", lambda g: g.score("chance"), "^Roll the dice first$"),
    ("reroll before roll", lambda g: g.reroll([0]), "^Roll the dice first$"),
    ("roll twice", lambda g: g.roll().roll(), "rolled already"),
    ("hold all", lambda g: g.roll().reroll([0, 1, 2, 3, 4]), "at least one die"),
    ("bad position", lambda g: g.roll().reroll([5]), "positions are 0 to 4"),
    ("negative position", lambda g: g.roll().reroll([-1]), "positions are 0 to 4"),
    ("held twice", lambda g: g.roll().reroll([1, 1]), "held only once"),
    ("too few dice", lambda g: g.roll([1, 2, 3]), "^Dice must be 5 values from 1 to 6$"),
    ("a seven", lambda g: g.roll([1, 2, 3, 4, 7]), "^Dice must be 5 values from 1 to 6$"),
    ("reroll dice count", lambda g: g.roll().reroll([0], [1]), "Dice must be 4 values"),
    ("wrong player", lambda g: g.roll(player="Bo"), "^It is Ann's turn$"),
    ("unknown player", lambda g: g.roll(player="Cy"), "No player called 'Cy'"),
    ("unknown box", lambda g: g.roll().score("yahtzee"), "Unknown box 'yahtzee'"),
    ("filled box", lambda g: _filled(g), "^Full house is already filled$"),
]


def _filled(g: Game) -> Game:
    g = g.roll([2, 2, 3, 3, 3]).score("full_house").roll([1, 1, 1, 1, 1]).score("ones")
    return g.roll([2, 2, 3, 3, 3]).score("full_house")


@pytest.mark.parametrize(("what", "act", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_illegal_actions_raise_and_change_nothing(what: str, act: object, message: str) -> None:
    g = game()
    before = (g, g.to_record())
    with pytest.raises(IllegalMove, match=message) as info:
        act(g)  # type: ignore[operator]
    assert isinstance(info.value, ValueError)
    assert (g, g.to_record()) == before


def test_unknown_box_is_both_rules_and_move_error() -> None:
    with pytest.raises(UnknownBox) as info:
        game().roll().score("nonsense")
    assert isinstance(info.value, yatzy.RulesError)
    assert isinstance(info.value, IllegalMove)


def test_bad_dice_type() -> None:
    with pytest.raises(InvalidDice):
        game().roll(["a", 1, 1, 1, 1])  # type: ignore[list-item]
    assert game().roll("3 3 3 5 5").dice == (3, 3, 3, 5, 5)  # type: ignore[arg-type]


def test_player_keyword_accepts_the_right_player() -> None:
    g = game().roll(player="Ann").score("chance", player="Ann")
    assert g.current_player == "Bo"


@pytest.mark.parametrize(
    ("players", "message"),
    [([], "at least one player"), (["Ann", "Ann"], "Two players are called Ann"),
     ([""], "must not be empty"), ([" Ann"], "spaces"), ("Ann", "list of names")],
)
def test_bad_players(players: object, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        yatzy.new_game(YATZY, players, seed=1)  # type: ignore[arg-type]


def test_bad_seed_and_mode() -> None:
    with pytest.raises(IllegalMove, match="seed"):
        yatzy.new_game(YATZY, ["A"], seed=-1)
    with pytest.raises(IllegalMove, match="first_player"):
        yatzy.new_game(YATZY, ["A"], seed=1, first_player="age")
    with pytest.raises(IllegalMove, match="Ruleset"):
        yatzy.new_game("yatzy", ["A"], seed=1)  # type: ignore[arg-type]


def test_whole_game_and_game_over() -> None:
    g = game(players=("Solo",))
    for box in YATZY.boxes:
        g = g.roll().score(box)
    assert g.is_over and g.rolls_left == 0 and g.round == 15 and g.choices() == {}
    assert g.legal_actions() == []
    card = g.scorecard("Solo")
    assert card.total == card.upper_sum + card.upper_bonus + card.lower_sum
    with pytest.raises(IllegalMove, match="^The game is over$"):
        g.roll()
    assert g.winners() == ["Solo"]


def test_legal_actions() -> None:
    g = game()
    assert g.legal_actions() == [Roll()]
    g = g.roll()
    actions = g.legal_actions()
    assert sum(isinstance(a, Reroll) for a in actions) == 31
    assert {a.box for a in actions if isinstance(a, Score)} == set(YATZY.boxes)
    for action in actions[:3] + actions[-3:]:
        g.apply(action)


def test_apply() -> None:
    g = game().apply(Roll(Dice([1, 1, 2, 2, 3]))).apply(Reroll((0, 1), Dice([1, 1, 1])))
    g = g.apply(Score("ones"))
    assert g.scorecard("Ann")["ones"] == 5
    with pytest.raises(IllegalMove, match="Unknown action"):
        g.apply("roll")  # type: ignore[arg-type]


def test_shared_win() -> None:
    g = game()
    for box in YATZY.boxes:
        g = g.roll([1, 2, 3, 4, 5]).score(box).roll([5, 4, 3, 2, 1]).score(box)
    assert g.is_over
    assert g.winners() == ["Ann", "Bo"]
    assert [t for _, t in g.standings()] == [g.scorecard("Ann").total] * 2


# --- Roll-off --------------------------------------------------------------------------


def test_roll_off_highest_sum_starts() -> None:
    g = yatzy.new_game(
        YAHTZEE, ["Ann", "Bo", "Cy"], seed=1, first_player="roll",
        roll_off_dice=[[6, 6, 6, 1, 1], [6, 6, 6, 2, 1], [1, 1, 1, 1, 1]],
    )
    assert [sum(r.dice) for r in g.roll_offs] == [20, 21, 5]
    assert g.current_player == "Bo"
    assert g.seat_order == ("Bo", "Cy", "Ann")


def test_roll_off_tie_rolls_again_among_the_tied() -> None:
    g = yatzy.new_game(
        YAHTZEE, ["Ann", "Bo", "Cy"], seed=1, first_player="roll",
        roll_off_dice=[[6, 6, 6, 1, 1], [1, 1, 1, 1, 1], [6, 6, 6, 1, 1],
                       [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]],
    )
    assert [r.player for r in g.roll_offs] == ["Ann", "Bo", "Cy", "Ann", "Cy"]
    assert g.current_player == "Cy"
    assert g.seat_order == ("Cy", "Ann", "Bo")
    g = g.roll().score("chance").roll().score("chance")
    assert g.current_player == "Bo"
    g = g.roll().score("chance")
    assert (g.current_player, g.round) == ("Cy", 2)


def test_roll_off_needs_enough_dice() -> None:
    with pytest.raises(IllegalMove, match="needs more dice: Ann, Bo roll again"):
        yatzy.new_game(YAHTZEE, ["Ann", "Bo"], seed=1, first_player="roll",
                       roll_off_dice=[[1, 1, 1, 1, 1], [1, 1, 1, 1, 1]])
    with pytest.raises(IllegalMove, match="decided after 2 rolls, but 3 were given"):
        yatzy.new_game(YAHTZEE, ["Ann", "Bo"], seed=1, first_player="roll",
                       roll_off_dice=[[1, 1, 1, 1, 1], [2, 1, 1, 1, 1], [3, 3, 3, 3, 3]])


def test_seeded_roll_off_is_reproducible_and_fair() -> None:
    starters = set()
    for seed in range(40):
        a = yatzy.new_game(YAHTZEE, ["A", "B", "C"], seed=seed, first_player="roll")
        b = yatzy.new_game(YAHTZEE, ["A", "B", "C"], seed=seed, first_player="roll")
        assert a == b
        physical = yatzy.new_game(
            YAHTZEE, ["A", "B", "C"], seed=None, first_player="roll",
            roll_off_dice=[list(r.dice) for r in a.roll_offs],
        )
        assert physical.current_player == a.current_player
        assert physical.roll_offs == a.roll_offs
        assert a.current_player == _resolve_roll_off(["A", "B", "C"], a.roll_offs)
        starters.add(a.current_player)
    assert starters == {"A", "B", "C"}


def _resolve_roll_off(players: list[str], rolls: tuple[yatzy.core.RollOff, ...]) -> str:
    """An independent reading of the roll-off: rounds among the tied, highest sum wins."""
    contenders, i = players, 0
    while len(contenders) > 1:
        round_rolls = rolls[i : i + len(contenders)]
        assert [r.player for r in round_rolls] == contenders
        i += len(contenders)
        best = max(sum(r.dice) for r in round_rolls)
        contenders = [r.player for r in round_rolls if sum(r.dice) == best]
    assert i == len(rolls)
    return contenders[0]


def test_solitaire_has_no_roll_off() -> None:
    g = yatzy.new_game(YAHTZEE, ["Solo"], seed=3, first_player="roll")
    assert g.roll_offs == () and g.current_player == "Solo"


# --- A Yahtzee game through Joker and bonus ------------------------------------------


def test_forced_joker_and_bonus_in_a_game() -> None:
    g = yatzy.new_game(YAHTZEE, ["Ann"], seed=1)
    g = g.roll([5, 5, 5, 5, 5]).score("yahtzee")
    g = g.roll([5, 5, 5, 5, 5])
    assert g.joker and g.bonus_pending
    assert g.choices() == {"fives": 25}
    with pytest.raises(IllegalMove, match="must go in Fives"):
        g.score("chance")
    g = g.score("fives")
    card = g.scorecard("Ann")
    assert (card["fives"], card.yahtzee_bonus_count, card.yahtzee_bonus) == (25, 1, 100)
    g = g.roll([5, 5, 5, 5, 5])
    assert g.choices()["large_straight"] == 40
    g = g.score("large_straight")
    card = g.scorecard("Ann")
    assert card.yahtzee_bonus == 200
    assert card.total == 25 + 50 + 40 + 200
    assert g.history[-1].bonus and g.history[-1].points == 40


def test_no_bonus_after_a_zero_in_yahtzee() -> None:
    g = yatzy.new_game(YAHTZEE, ["Ann"], seed=1)
    g = g.roll([1, 2, 3, 4, 6]).score("yahtzee")
    g = g.roll([6, 6, 6, 6, 6])
    assert g.joker and not g.bonus_pending
    assert g.choices() == {"sixes": 30}
    g = g.score("sixes")
    assert g.scorecard("Ann").yahtzee_bonus == 0


def test_upper_bonus_in_a_game() -> None:
    g = yatzy.new_game(YAHTZEE, ["Ann"], seed=1)
    for face, box in enumerate(YAHTZEE.upper_boxes, start=1):
        g = g.roll([face, face, face, 1 if face != 1 else 2, 2 if face != 2 else 3])
        g = g.score(box)
    card = g.scorecard("Ann")
    # 3 of each face is exactly 63, plus the extra ones and twos
    assert card.upper_sum >= 63 and card.upper_bonus == 35
    assert card.upper_par_delta == card.upper_sum - 63


def test_repr_mentions_the_state() -> None:
    assert "Ann to play" in repr(game())


def test_more_bad_set_ups() -> None:
    with pytest.raises(IllegalMove, match="at most 99 players"):
        yatzy.new_game(YATZY, [f"P{i}" for i in range(100)], seed=1)
    with pytest.raises(IllegalMove, match="needs a seed or the dice"):
        Game.start(YATZY, ["A", "B"], seed=None, first_player="roll")
    with pytest.raises(IllegalMove, match="only for first_player='roll'"):
        yatzy.new_game(YATZY, ["A", "B"], seed=1, roll_off_dice=[[1, 1, 1, 1, 1]])


def test_dice_and_holds_that_are_not_lists() -> None:
    with pytest.raises(InvalidDice, match="Dice must be 5 values"):
        game().roll(5)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="Hold must be a list"):
        game().roll().reroll(3)  # type: ignore[arg-type]


def in_effect(g: Game) -> Game:
    """``g`` without its log: the state of play alone."""
    return replace(g, log=())


def test_undo_takes_back_the_last_box_and_logs_both() -> None:
    g = game().roll().reroll([0, 1, 2, 3])
    scored = g.score("chance")
    undone = scored.undo()
    assert in_effect(undone) == in_effect(g)
    assert undone.log == (*scored.log, Step("Ann", Undo()))
    assert undone.score("chance").scorecard("Ann")["chance"] == scored.scorecard(
        "Ann")["chance"]


def test_an_undo_never_buys_new_dice() -> None:
    scored = game().roll().score("chance")
    again = scored.undo().score("sixes").roll()
    assert again.dice == scored.roll().dice  # the next roll draws the same dice
    assert scored.undo().dice == scored.history[0].action.dice  # type: ignore[union-attr]


def test_what_cannot_be_taken_back() -> None:
    with pytest.raises(IllegalMove, match="^Only the last box chosen can be taken back$"):
        game().undo()
    with pytest.raises(IllegalMove, match="^Only the last box chosen"):
        game().roll().undo()  # a roll from the seed: its dice were seen
    with pytest.raises(IllegalMove, match="^Only the last box chosen"):
        game().roll().score("chance").undo().undo()
    with pytest.raises(IllegalMove, match="^Only the last box chosen"):
        game().roll().score("chance").roll().score("chance").undo(player="Bo").undo()
    with pytest.raises(IllegalMove, match="^Only Ann can take back their move$") as refused:
        game().roll().score("chance").undo(player="Bo")
    assert refused.value.code == "not_your_move"
    with pytest.raises(IllegalMove, match="^No player called 'Cy'"):
        game().roll().score("chance").undo(player="Cy")
    solo = yatzy.new_game(ruleset("yatzy", rolls=1), ["Ann"], seed=2)
    while not solo.is_over:
        solo = solo.roll()
        solo = solo.score(next(iter(solo.choices())))
    with pytest.raises(IllegalMove, match="^The game is over$"):
        solo.undo()


def test_a_box_stays_once_the_next_roll_was_made() -> None:
    typed = Game.start(YATZY, ["Ann", "Bo"]).roll([1, 2, 3, 4, 5]).score("chance")
    typed = typed.roll([6, 6, 6, 6, 6])
    with pytest.raises(IllegalMove, match="^Only the last box chosen or the dice just typed"):
        typed.undo().undo()  # Bo's roll is taken back, Ann's box stays


def test_dice_typed_in_are_taken_back_last_first() -> None:
    start = Game.start(YATZY, ["Ann", "Bo"])
    typed = start.roll([1, 2, 3, 4, 5]).reroll([0], [6, 6, 6, 6]).score("chance")
    back = typed.undo(player="Ann").undo().undo()
    assert in_effect(back) == in_effect(start)
    assert [str(s.action) for s in back.log[-3:]] == ["undo"] * 3
    assert in_effect(back.roll([2, 2, 2, 2, 2])) == in_effect(start.roll([2, 2, 2, 2, 2]))


def test_undo_keeps_the_roll_off() -> None:
    g = yatzy.new_game(YAHTZEE, ["Ann", "Bo"], seed=8, first_player="roll")
    g2 = g.roll().score("chance")
    assert in_effect(g2.undo()) == in_effect(g.roll())
    assert g2.at_start() == g


def test_undo_is_an_action() -> None:
    g = game().roll().score("chance")
    assert g.apply(Undo(), player="Ann") == g.undo()


def test_refusals_come_before_the_roll_reminder() -> None:
    ordered = yatzy.new_game(ruleset("yatzy", order="in_order"), ["Ann"], seed=1)
    with pytest.raises(IllegalMove, match="next is Ones"):
        ordered.score("chance")
    with pytest.raises(IllegalMove, match="^Roll the dice first$"):
        ordered.score("ones")
    filled = game(players=("Ann",)).roll([1, 1, 1, 2, 2]).score("chance")
    with pytest.raises(IllegalMove, match="^Chance is already filled$"):
        filled.score("chance")
