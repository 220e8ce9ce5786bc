"""Who plays: seats from a list like ``"Ann, Bo, cpu:greedy"``.

An entry is a person's name, or ``NAME:LEVEL`` for a computer player (``cpu:LEVEL``
names it after its level).

>>> [(s.name, s.bot) for s in parse_seats("Ann, Bo, cpu:greedy", ("random", "greedy"))]
[('Ann', None), ('Bo', None), ('Greedy', 'greedy')]
>>> parse_seats("cpu:random, cpu:random", ("random",))[1].name
'Random 2'
"""

from __future__ import annotations

from collections.abc import Sequence

from yatzy.app import Seat, UnknownBot
from yatzy.bots import check_level
from yatzy.core.errors import BadInput, ErrorCode, IllegalMove
from yatzy.core.names import check_players, free_name
from yatzy.core.rulesets import Ruleset

#: The most players at one table.
MAX_SEATS = 6


class SeatsError(BadInput):
    """A list of players that cannot make a game. Names are checked by the core
    (:mod:`yatzy.core.names`); its refusal keeps its ``code`` and ``params`` here."""

    code = ErrorCode.BAD_PLAYERS


def parse_seats(text: str, levels: Sequence[str],
                ruleset: Ruleset | None = None) -> tuple[Seat, ...]:
    """The seats that ``text`` lists, in order; raises :class:`SeatsError`,
    :class:`~yatzy.app.UnknownBot`, or with ``ruleset`` the error of a level that does
    not play it (:class:`~yatzy.solver.UnsupportedRuleset`,
    :class:`~yatzy.solver.TableNotBuilt`, ...).

    >>> import yatzy
    >>> parse_seats("Ann, cpu:winner", ("greedy", "winner"), yatzy.ruleset("maxi_yatzy"))
    Traceback (most recent call last):
    ...
    yatzy.solver.ChancesUnsupported: Win chances and score distributions are not ...
    """
    entries = [part.strip() for part in text.split(",") if part.strip()]
    if not entries:
        raise SeatsError("Name at least one player", code=ErrorCode.NO_PLAYERS)
    if len(entries) > MAX_SEATS:
        raise SeatsError(f"At most {MAX_SEATS} players", code=ErrorCode.TOO_MANY_PLAYERS,
                         most=MAX_SEATS)
    parts = [tuple(p.strip() for p in entry.partition(":")) for entry in entries]
    # A computer named after its level takes a name that no other seat has.
    taken = [name for name, sep, _ in parts if not (sep and name.lower() in ("", "cpu"))]
    seats: list[Seat] = []
    for name, sep, level in parts:
        if sep:
            if level not in levels:
                raise UnknownBot(level, tuple(levels))
            if ruleset is not None:
                check_level(level, ruleset)
            if name.lower() in ("", "cpu"):
                name = free_name(level.capitalize(), taken)
                taken.append(name)
        seats.append(Seat(name, level if sep else None))
    try:
        check_players([seat.name for seat in seats])
    except IllegalMove as exc:
        raise SeatsError(exc.message, code=exc.code, **exc.params) from exc
    return tuple(seats)
