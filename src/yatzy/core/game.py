"""The game: players, scorecards, whose turn it is, and the transitions of a turn.

A :class:`Game` is an immutable value. Every action returns a new game and an illegal
action raises :class:`~yatzy.core.errors.IllegalMove` leaving the game as it was.

>>> from yatzy.core.rulesets import ruleset
>>> g = Game.start(ruleset("yatzy"), ["Ann", "Bo"], seed=7)
>>> g = g.roll(dice=[3, 3, 3, 5, 5])
>>> g.choices()["full_house"]
19
>>> g = g.reroll(hold=[0, 1, 2], dice=[3, 3])
>>> g.dice, g.rolls_left
(Dice([3, 3, 3, 3, 3]), 1)
>>> g = g.score("yatzy")
>>> g.current_player, g.scorecard("Ann")["yatzy"]
('Bo', 50)
>>> g.score("chance")
Traceback (most recent call last):
...
yatzy.core.errors.IllegalMove: Roll the dice first
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from yatzy.core import rules
from yatzy.core.actions import Action, Reroll, Roll, Score, Undo
from yatzy.core.dice import Dice, DiceLike, check_dice
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.names import MAX_PLAYERS, check_players
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.core.seeded import Seed, check_seed, seeded_dice

FIRST_PLAYER_MODES = ("seat", "roll")

__all__ = ["FIRST_PLAYER_MODES", "MAX_PLAYERS", "Game", "RollOff", "Step", "check_game",
           "roll_off", "roll_off_next"]


@dataclass(frozen=True)
class Step:
    """One applied action in a game's history, with the dice it really used."""

    player: str
    action: Action
    #: Points put in the box (score actions only).
    points: int | None = None
    #: True when the score earned an extra-Yahtzee bonus.
    bonus: bool = False


@dataclass(frozen=True)
class RollOff:
    """One roll of the roll-off that decides who starts."""

    player: str
    dice: Dice


def _check_roll_off_dice(dice: object) -> list[DiceLike] | None:
    """The roll-off's dice as a list of rolls (each checked later), or ``None``."""
    if dice is None:
        return None
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise IllegalMove(
            f"Roll-off dice must be a list of rolls, not {shown(dice)}",
            code=ErrorCode.BAD_ROLL_OFF, dice=shown(dice),
        )
    return list(dice)


def _roll_off_rounds(count: int, sums: Sequence[int]) -> tuple[list[int], int]:
    """Walk the roll-off's complete rounds: the seats still in it and the rolls used."""
    contenders, used = list(range(count)), 0
    while len(contenders) > 1 and used + len(contenders) <= len(sums):
        this_round = sums[used : used + len(contenders)]
        best = max(this_round)
        contenders = [s for s, v in zip(contenders, this_round, strict=True) if v == best]
        used += len(this_round)
    return contenders, used


def roll_off_next(players: Sequence[str], sums: Sequence[int]) -> str | None:
    """Who rolls next in the roll-off, after rolls with these ``sums`` (in order), or
    ``None`` when they decide who starts.

    >>> roll_off_next(["Ann", "Bo", "Cy"], [20, 20])
    'Cy'
    >>> roll_off_next(["Ann", "Bo", "Cy"], [20, 20, 5])  # a tie: Ann and Bo roll again
    'Ann'
    >>> roll_off_next(["Ann", "Bo", "Cy"], [20, 20, 5, 9, 8]) is None
    True
    """
    contenders, used = _roll_off_rounds(len(players), sums)
    if len(contenders) == 1:
        if used != len(sums):
            raise IllegalMove(
                f"The roll-off was decided after {used} rolls, but {len(sums)} were given",
                code=ErrorCode.ROLL_OFF_OVERLONG, used=used, given=len(sums),
            )
        return None
    return players[contenders[len(sums) - used]]


def roll_off(
    ruleset: Ruleset,
    players: Sequence[str],
    *,
    seed: Seed | None,
    dice: Iterable[DiceLike] | None = None,
) -> tuple[int, tuple[RollOff, ...]]:
    """Who starts: each player rolls all dice; the highest sum starts; those tied for the
    highest roll again, in seat order. Returns the starter's seat and the rolls in order.

    ``dice`` gives physical dice for the rolls in order; without it they come from the
    seed. Raises :class:`IllegalMove` when given dice run out before the tie is broken,
    or go on after it.
    """
    rolls_given = _check_roll_off_dice(dice)
    given = None if rolls_given is None else [ruleset.check_dice(d) for d in rolls_given]
    rolls: list[RollOff] = []
    while (player := roll_off_next(players, [sum(r.dice) for r in rolls])) is not None:
        k = len(rolls)
        if given is not None:
            if k >= len(given):
                contenders, _ = _roll_off_rounds(len(players), [sum(d) for d in given])
                again = ", ".join(players[s] for s in contenders)
                raise IllegalMove(
                    f"The roll-off needs more dice: {again} roll again",
                    code=ErrorCode.ROLL_OFF_INCOMPLETE, players=again,
                )
            d = given[k]
        elif seed is None:
            raise IllegalMove("A roll-off needs a seed or the dice", code=ErrorCode.DICE_NEEDED)
        else:
            d = seeded_dice(seed, "roll-off", k, ruleset.dice_count)
        rolls.append(RollOff(player, d))
    if given is not None:
        roll_off_next(players, [sum(d) for d in given])  # refuses rolls after the decision
    winners, _ = _roll_off_rounds(len(players), [sum(r.dice) for r in rolls])
    return winners[0], tuple(rolls)


@dataclass(frozen=True)
class Game:
    """A game of Yatzy or Yahtzee for one or more players, as an immutable value.

    Start one with :func:`yatzy.new_game` (or :meth:`Game.start`).
    """

    ruleset: Ruleset
    #: Names in seat order.
    players: tuple[str, ...]
    seed: Seed | None
    first_player: str
    roll_offs: tuple[RollOff, ...]
    #: Seat of the player who starts.
    starter: int
    cards: tuple[Scorecard, ...]
    #: The dice on the table, ``None`` before the turn's first roll.
    dice: Dice | None
    #: Rolls made this turn (0 before the first roll).
    rolls_used: int
    #: The actions in effect, in order (an action taken back is not among them).
    history: tuple[Step, ...]
    #: Each seat's saved rolls as its last turn left them (all 0 unless the ruleset
    #: saves rolls); :meth:`saved_rolls` also counts those the turn in play has used.
    saved: tuple[int, ...]
    #: Every action as it was made, in order: those of :attr:`history`, those taken
    #: back and the :class:`~yatzy.core.actions.Undo` steps that took them back. A
    #: record keeps this, so that it replays as the game was played.
    log: tuple[Step, ...]

    # --- Starting -------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        ruleset: Ruleset,
        players: Iterable[str],
        *,
        seed: Seed | None = None,
        first_player: str = "seat",
        roll_off_dice: Iterable[DiceLike] | None = None,
    ) -> Game:
        """A new game. With ``seed=None`` every roll needs its dice given (physical dice)."""
        if not isinstance(ruleset, Ruleset):
            raise IllegalMove(
                f"Expected a Ruleset, not {shown(ruleset)}; use yatzy.ruleset(name)",
                code=ErrorCode.NOT_A_RULESET, value=shown(ruleset),
            )
        names = check_players(players)
        checked_seed = check_seed(seed)
        if not isinstance(first_player, str) or first_player not in FIRST_PLAYER_MODES:
            raise IllegalMove(
                f"first_player must be 'seat' or 'roll', not {shown(first_player)}",
                code=ErrorCode.BAD_FIRST_PLAYER, value=shown(first_player),
            )
        rolls = _check_roll_off_dice(roll_off_dice)
        starter, offs = 0, tuple[RollOff, ...]()
        if first_player == "roll" and len(names) > 1:
            starter, offs = roll_off(ruleset, names, seed=checked_seed, dice=rolls)
        elif rolls:
            raise IllegalMove(
                "Roll-off dice are only for first_player='roll' with 2+ players",
                code=ErrorCode.BAD_ROLL_OFF,
            )
        return cls(
            ruleset=ruleset,
            players=names,
            seed=checked_seed,
            first_player=first_player,
            roll_offs=offs,
            starter=starter,
            cards=tuple(Scorecard.empty(ruleset) for _ in names),
            dice=None,
            rolls_used=0,
            history=(),
            saved=(0,) * len(names),
            log=(),
        )

    # --- Reading the state ----------------------------------------------------------

    # The game is immutable: what is read from it again and again (the state shown
    # after each move reads the turn many times over) is worked out once per game.
    @functools.cached_property
    def turns_played(self) -> int:
        """Turns finished so far, all players together: the filled boxes of every card."""
        # Counted without building the filled boxes' names: advice reads this per call.
        turns = 0
        for card in self.cards:
            entries = card.entries
            turns += len(entries) - entries.count(None)
        return turns

    @functools.cached_property
    def is_over(self) -> bool:
        """True when every player has filled every box."""
        for card in self.cards:  # noqa: SIM110 (a loop: no generator per call)
            if not card.is_complete:
                return False
        return True

    @functools.cached_property
    def current_seat(self) -> int:
        """Seat index of the player whose turn it is (after the game: the starter)."""
        return (self.starter + self.turns_played) % len(self.players)

    @property
    def current_player(self) -> str:
        """Name of the player whose turn it is."""
        return self.players[self.current_seat]

    @property
    def round(self) -> int:
        """The round, from 1 to the number of boxes."""
        return min(self.turns_played // len(self.players) + 1, len(self.ruleset.boxes))

    @property
    def rolls_left(self) -> int:
        """Rolls left this turn (the first roll counts: 3 before it), the player's saved
        rolls included where the ruleset saves them (see :meth:`saved_rolls`)."""
        if self.is_over:
            return 0
        return self.ruleset.rolls + self.saved[self.current_seat] - self.rolls_used

    def saved_rolls(self, player: str | None = None) -> int:
        """The saved rolls ``player`` (the current player when not given) has now: the
        rolls their earlier turns did not use, less those this turn has used after its
        own (always 0 unless the ruleset saves rolls).

        >>> from yatzy.core.rulesets import ruleset
        >>> g = Game.start(ruleset("maxi_yatzy"), ["Ann", "Bo"], seed=1)
        >>> g = g.roll([6, 6, 6, 6, 6, 6]).score("maxi_yatzy")  # Ann used 1 roll of 3
        >>> g.saved_rolls("Ann"), g.saved_rolls("Bo"), g.rolls_left
        (2, 0, 3)
        >>> g = g.roll([1, 2, 3, 4, 5, 6]).score("full_straight").roll([6] * 6)
        >>> g.rolls_left, g.reroll([0]).reroll([0]).reroll([0]).saved_rolls()
        (4, 1)
        """
        seat = self.current_seat if player is None else self._seat(player)
        saved = self.saved[seat]
        if seat == self.current_seat and not self.is_over:
            saved -= max(0, self.rolls_used - self.ruleset.rolls)
        return saved

    @property
    def seat_order(self) -> tuple[str, ...]:
        """The players in playing order, starter first."""
        n = len(self.players)
        return tuple(self.players[(self.starter + i) % n] for i in range(n))

    def scorecard(self, player: str) -> Scorecard:
        """The scorecard of the player called ``player``."""
        return self.cards[self._seat(player)]

    @property
    def card(self) -> Scorecard:
        """The scorecard of the current player."""
        return self.cards[self.current_seat]

    def _seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalMove(
                f"No player called {shown(player)}; the players are {', '.join(self.players)}",
                code=ErrorCode.UNKNOWN_PLAYER, player=shown(player),
                players=", ".join(self.players),
            ) from None

    def choices(self) -> dict[str, int]:
        """Every box the current player may fill now, with the points it gets.

        Play order and Joker mode are applied; empty before the turn's first roll and
        after the game. An extra-Yahtzee bonus comes on top: see :attr:`bonus_pending`.
        """
        if self.dice is None or self.is_over:
            return {}
        return rules.choices(self.ruleset, self.card, self.dice)

    @property
    def bonus_pending(self) -> bool:
        """True when scoring the current dice earns an extra-Yahtzee bonus (+100)."""
        return self.dice is not None and rules.earns_yahtzee_bonus(
            self.ruleset, self.card, self.dice
        )

    @property
    def joker(self) -> bool:
        """True when the current dice are a Joker (Yahtzee's five of a kind wild card)."""
        return self.dice is not None and rules.is_joker(self.ruleset, self.card, self.dice)

    def standings(self) -> list[tuple[str, int]]:
        """``(name, total)`` for every player, highest total first (seat order on ties)."""
        return sorted(
            ((p, c.total) for p, c in zip(self.players, self.cards, strict=True)),
            key=lambda pc: -pc[1],
        )

    def ranking(self) -> list[tuple[int, str, int]]:
        """``(place, name, total)`` for every player, highest total first (seat order on
        ties); tied players share their place, and the next place skips as many.

        >>> from yatzy.core.rulesets import ruleset
        >>> g = Game.start(ruleset("yatzy"), ["Ann", "Bo", "Cy"], seed=1)
        >>> g = g.roll([6, 6, 6, 6, 6]).score("sixes").roll([1, 1, 1, 1, 1]).score("ones")
        >>> g.roll([6, 6, 6, 6, 6]).score("sixes").ranking()
        [(1, 'Ann', 30), (1, 'Cy', 30), (3, 'Bo', 5)]
        """
        ranked: list[tuple[int, str, int]] = []
        for i, (name, total) in enumerate(self.standings()):
            place = ranked[-1][0] if ranked and ranked[-1][2] == total else i + 1
            ranked.append((place, name, total))
        return ranked

    def winners(self) -> list[str]:
        """The players with the highest total (all of them when tied), in seat order."""
        best = max(c.total for c in self.cards)
        return [p for p, c in zip(self.players, self.cards, strict=True) if c.total == best]

    # --- Transitions ----------------------------------------------------------------

    def _check_turn(self, player: str | None) -> None:
        if self.is_over:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        if player is not None and player != self.current_player:
            self._seat(player)
            raise IllegalMove(
                f"It is {self.current_player}'s turn", code=ErrorCode.NOT_YOUR_TURN,
                player=self.current_player,
            )

    def _draw(self, given: DiceLike | None, count: int) -> Dice:
        if given is not None:
            return check_dice(given, count)
        if self.seed is None:
            raise IllegalMove(
                "This game has no seed: give the dice that were rolled", code=ErrorCode.DICE_NEEDED
            )
        return seeded_dice(self.seed, "turn", len(self.history), count)

    def roll(self, dice: DiceLike | None = None, *, player: str | None = None) -> Game:
        """The turn's first roll of all dice (``dice`` = physical dice, in any form
        :func:`~yatzy.core.dice.check_dice` takes: ``[3, 3, 5, 6, 6]``, ``"33566"``)."""
        self._check_turn(player)
        if self.rolls_used:
            raise IllegalMove(
                "You have rolled already: reroll some dice or choose a box",
                code=ErrorCode.ALREADY_ROLLED,
            )
        d = self._draw(dice, self.ruleset.dice_count)
        step = Step(self.current_player, Roll(d))
        return replace(
            self,
            dice=d,
            rolls_used=1,
            history=(*self.history, step),
            log=(*self.log, step),
        )

    def reroll(
        self,
        hold: Iterable[int],
        dice: DiceLike | None = None,
        *,
        player: str | None = None,
    ) -> Game:
        """Keep the dice at positions ``hold`` (0-based) and reroll the rest.

        Kept dice keep their positions; ``dice`` = the new values of the rerolled
        positions in position order (physical dice).
        """
        self._check_turn(player)
        held = self.check_hold(hold)
        n = self.ruleset.dice_count
        rerolled = [i for i in range(n) if i not in held]
        new = self._draw(dice, len(rerolled))
        assert self.dice is not None  # check_hold refuses a turn not rolled yet
        faces = list(self.dice)
        for pos, value in zip(rerolled, new, strict=True):
            faces[pos] = value
        step = Step(self.current_player, Reroll(tuple(sorted(held)), new))
        return replace(
            self,
            dice=Dice(faces),
            rolls_used=self.rolls_used + 1,
            history=(*self.history, step),
            log=(*self.log, step),
        )

    def score(self, box: str, *, player: str | None = None) -> Game:
        """Fill ``box`` with the current dice and pass the turn on."""
        self._check_turn(player)
        seat = self.current_seat
        card = self.cards[seat]
        if self.dice is None:
            refused = rules.refusal(self.ruleset, card, None, box)
            if refused is not None:
                raise refused.error(self.ruleset)
            raise IllegalMove("Roll the dice first", code=ErrorCode.NO_ROLL)
        points = rules.check_choice(self.ruleset, card, self.dice, box)
        bonus = rules.earns_yahtzee_bonus(self.ruleset, card, self.dice)
        cards = list(self.cards)
        cards[seat] = card.fill(box, points, extra_yahtzee=bonus)
        step = Step(self.players[seat], Score(box), points, bonus)
        return replace(
            self,
            cards=tuple(cards),
            dice=None,
            rolls_used=0,
            history=(*self.history, step),
            saved=rules.saved_after_turn(self.ruleset, self.saved, seat, self.rolls_used),
            log=(*self.log, step),
        )

    def apply(self, action: Action, *, player: str | None = None) -> Game:
        """Apply a :class:`Roll`, :class:`Reroll`, :class:`Score` or :class:`Undo`
        action."""
        if isinstance(action, Undo):
            return self.undo(player=player)
        if isinstance(action, Roll):
            return self.roll(action.dice, player=player)
        if isinstance(action, Reroll):
            return self.reroll(action.hold, action.dice, player=player)
        if isinstance(action, Score):
            return self.score(action.box, player=player)
        raise IllegalMove(
            f"Unknown action {shown(action)}", code=ErrorCode.UNKNOWN_ACTION,
            action=shown(action),
        )

    def at_start(self) -> Game:
        """This game before its first action: the same players, seed and roll-off."""
        return replace(
            self,
            cards=tuple(Scorecard.empty(self.ruleset) for _ in self.players),
            dice=None,
            rolls_used=0,
            history=(),
            saved=(0,) * len(self.players),
            log=(),
        )

    def check_undo(self, player: str | None = None) -> Step:
        """The step :meth:`undo` would take back now, or the :class:`IllegalMove` that
        says why nothing can be taken back.

        The rules of undo: the last box chosen can be taken back until the next action
        is made (once another action has been made after it, even one taken back
        since, it stays), never once the game is over. In a game without a seed (real
        dice, typed in) the dice just typed can be taken back too: the turn's rolls and
        rerolls, last first. In a game with a seed a roll is never taken back, so that
        no one sees dice and then chooses again. ``player``, when given, must be the
        one who made the action.

        >>> from yatzy.core.rulesets import ruleset
        >>> g = Game.start(ruleset("yatzy"), ["Ann", "Bo"], seed=1).roll().score("chance")
        >>> g.check_undo("Ann").action
        Score(box='chance')
        >>> g.roll().undo()
        Traceback (most recent call last):
        ...
        yatzy.core.errors.IllegalMove: Only the last box chosen can be taken back
        """
        if player is not None:
            self._seat(player)
        if self.is_over:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        last = self.history[-1] if self.history else None
        typed = self.seed is None
        undoable = last is not None and (
            (isinstance(last.action, Score) and not isinstance(self.log[-1].action, Undo))
            or (typed and not isinstance(last.action, Score))
        )
        if not undoable:
            if typed:
                raise IllegalMove(
                    "Only the last box chosen or the dice just typed in can be taken back",
                    code=ErrorCode.NOTHING_TO_UNDO_TYPED,
                )
            raise IllegalMove("Only the last box chosen can be taken back",
                              code=ErrorCode.NOTHING_TO_UNDO)
        assert last is not None
        if player is not None and player != last.player:
            raise IllegalMove(f"Only {last.player} can take back their move",
                              code=ErrorCode.NOT_YOUR_MOVE, player=last.player)
        return last

    def undo(self, *, player: str | None = None) -> Game:
        """Take back the last action in effect, as :meth:`check_undo` allows: the game
        is as it was before that action, with its dice, and its :attr:`log` keeps the
        action and this :class:`~yatzy.core.actions.Undo` (made by the action's player).

        The dice of a roll depend only on the seed and the roll's place among the
        actions in effect, so every position has its dice whichever way it was reached:
        a box chosen again is chosen on the same dice, and the next roll draws the dice
        it would have drawn had there been no undo. An undo never buys new dice.

        >>> from yatzy.core.rulesets import ruleset
        >>> g = Game.start(ruleset("yatzy"), ["Ann"], seed=1).roll([2, 2, 3, 3, 3])
        >>> u = g.score("chance").undo()
        >>> u.dice, u.history == g.history, [str(s.action) for s in u.log]
        (Dice([2, 2, 3, 3, 3]), True, ['roll 2 2 3 3 3', 'score chance', 'undo'])
        """
        last = self.check_undo(player)
        game = self.at_start()
        for step in self.history[:-1]:
            game = game.apply(step.action, player=step.player)
        return replace(game, log=(*self.log, Step(last.player, Undo())))

    @property
    def can_roll(self) -> bool:
        """True when the player to move may roll now: the turn's first roll, or a reroll
        with rolls left."""
        return not self.is_over and (self.dice is None or self.rolls_left > 0)

    def check_hold(self, hold: Iterable[int]) -> tuple[int, ...]:
        """The positions ``hold`` (sorted) if a reroll keeping them is allowed now, else
        the :class:`IllegalMove` the reroll would raise: for an interface that asks for
        the rerolled dice only once the hold is known to be fine."""
        if self.is_over:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        if self.dice is None:
            raise IllegalMove("Roll the dice first", code=ErrorCode.NO_ROLL)
        if self.rolls_left <= 0:
            raise IllegalMove("No rolls left this turn", code=ErrorCode.NO_ROLLS_LEFT)
        n = self.ruleset.dice_count
        if isinstance(hold, str | bytes) or not isinstance(hold, Iterable):
            raise IllegalMove(
                f"Hold must be a list of dice positions, not {shown(hold)}",
                code=ErrorCode.BAD_HOLD, hold=shown(hold),
            )
        # One more than there are dice is enough to refuse (a repeat, or a bad position).
        held = tuple(islice(hold, n + 1))
        for pos in held:
            if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < n:
                raise IllegalMove(
                    f"Dice positions are 0 to {n - 1}, not {shown(pos)}",
                    code=ErrorCode.BAD_POSITION, position=shown(pos), last=n - 1,
                )
        if len(set(held)) != len(held):
            raise IllegalMove("Each die can be held only once", code=ErrorCode.BAD_POSITION)
        if len(held) == n:
            raise IllegalMove(
                "Reroll at least one die: you are holding all of them", code=ErrorCode.HOLD_ALL
            )
        return tuple(sorted(held))

    def legal_actions(self) -> list[Action]:
        """Every legal action now, with rerolls given by their held positions (the
        dice left to chance): ``[Roll()]`` at a turn's start, else every reroll (when
        rolls are left) followed by every allowed box."""
        if self.is_over:
            return []
        if self.dice is None:
            return [Roll()]
        actions: list[Action] = []
        n = self.ruleset.dice_count
        if self.rolls_left > 0:
            for mask in range((1 << n) - 1):
                actions.append(Reroll(tuple(i for i in range(n) if mask >> i & 1)))
        actions.extend(Score(box) for box in self.choices())
        return actions

    # --- Records --------------------------------------------------------------------

    def to_record(self, *, hide_seed: bool = False) -> dict[str, Any]:
        """This game as a JSON-serialisable record; see :mod:`yatzy.core.record`
        (``hide_seed`` leaves a secret seed out until it may be revealed)."""
        from yatzy.core.record import to_record

        return to_record(self, hide_seed=hide_seed)

    @classmethod
    def from_record(cls, record: Any) -> Game:
        """Replay a record made by :meth:`to_record`, validating every step."""
        from yatzy.core.record import from_record

        return from_record(record)

    def to_json(self, **kwargs: Any) -> str:
        """The record as JSON text."""
        from yatzy.core.record import to_json

        return to_json(self, **kwargs)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Replay a record given as JSON text."""
        from yatzy.core.record import from_json

        return from_json(text)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"round {self.round}, {self.current_player} to play"
        return (
            f"<Game {self.ruleset!r} players={list(self.players)!r} seed={self.seed!r} "
            f"{state}>"
        )


def check_game(game: object) -> Game:
    """Return ``game`` if it is a :class:`Game`, else raise :class:`RulesError`
    (``code`` ``not_a_game``): for functions that take a game, so that a wrong argument
    is told, not met as an ``AttributeError`` deep inside."""
    if not isinstance(game, Game):
        raise RulesError(f"Expected a Game, not {shown(game)}", code=ErrorCode.NOT_A_GAME,
                         value=shown(game))
    return game
