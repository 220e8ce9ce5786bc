"""Players' names: the one check of a name and of a table's list of names.

A name is text a person can read and every store can keep: no control characters, no
lone surrogates (they cannot be encoded, so the game could not be saved), no line
breaks, not empty, no spaces around it, at most :data:`MAX_NAME_LENGTH` characters.
Two names are the same name when they match ignoring case and Unicode compatibility
forms (``"Ann"``, ``"ANN"`` and ``"Ａｎｎ"`` are one name), so that the players of a game,
and their results, cannot be confused.

The terminal game and the game service call these functions and only translate their
errors; no other layer decides what a name may be.

>>> check_name("Ann")
'Ann'
>>> check_players(["Ann", "Bo"])
('Ann', 'Bo')
>>> check_players(["Ann", "ANN"])
Traceback (most recent call last):
...
yatzy.core.errors.InvalidName: Two players are called ANN: names must differ
>>> same_name("Straße", "STRASSE")
True
>>> free_name("CPU greedy", ["ＣＰＵ greedy"])
'CPU greedy 2'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from itertools import islice

from yatzy.core.errors import ErrorCode, IllegalMove, InvalidName, shown

#: The most players a game can have.
MAX_PLAYERS = 99
#: The longest name, in characters.
MAX_NAME_LENGTH = 40

#: Unicode categories a name may not contain: control characters (NUL included),
#: surrogates, and line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def name_key(name: str) -> str:
    """What two names are compared by: case folded, in Unicode NFKC form.

    >>> name_key("Ａnn") == name_key("aNN")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def same_name(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same name for a game (see :func:`name_key`)."""
    return name_key(a) == name_key(b)


def free_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base 2``, ``base 3``… the first that is not the same name
    (:func:`same_name`) as any of ``taken``: a name for a seat that has none (a
    computer named after its level)."""
    keys = {name_key(name) for name in taken}
    name, n = base, 1
    while name_key(name) in keys:
        n += 1
        name = f"{base} {n}"
    return name


def check_name(name: object) -> str:
    """Return ``name`` if it can be a player's name, else raise :class:`InvalidName`
    (``code`` says why; ``params["name"]`` shows the name)."""
    if not isinstance(name, str):
        raise InvalidName(
            f"A player's name must be a text, not {shown(name)}", name=shown(name)
        )
    if not name.strip():
        raise InvalidName(
            "A player's name must not be empty", code=ErrorCode.NAME_EMPTY, name=shown(name)
        )
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName(
            f"A player's name has at most {MAX_NAME_LENGTH} characters, not {len(name)}:"
            f" {shown(name)}",
            code=ErrorCode.NAME_TOO_LONG, name=shown(name), most=MAX_NAME_LENGTH,
        )
    if any(unicodedata.category(c) in _REFUSED_CATEGORIES for c in name):
        raise InvalidName(
            "A player's name must be printable text, without control characters, line"
            f" breaks or lone surrogates: {shown(name)}",
            code=ErrorCode.NAME_CONTROL, name=shown(name),
        )
    if name != name.strip():
        raise InvalidName(
            f"A player's name must not start or end with spaces: {shown(name)}",
            code=ErrorCode.NAME_SPACES, name=shown(name),
        )
    return name


def check_players(players: object) -> tuple[str, ...]:
    """The names of a game's players in seat order, each checked by :func:`check_name`
    and no two the same name (:func:`same_name`); at least one, at most
    :data:`MAX_PLAYERS`."""
    if isinstance(players, str | bytes) or not isinstance(players, Iterable):
        raise IllegalMove(
            f"Players must be a list of names, not {shown(players)}",
            code=ErrorCode.BAD_PLAYERS, players=shown(players),
        )
    names = tuple(islice(players, MAX_PLAYERS + 1))
    if not names:
        raise IllegalMove("A game needs at least one player", code=ErrorCode.NO_PLAYERS)
    if len(names) > MAX_PLAYERS:
        raise IllegalMove(
            f"A game has at most {MAX_PLAYERS} players", code=ErrorCode.TOO_MANY_PLAYERS,
            most=MAX_PLAYERS,
        )
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(check_name(name))
        if key in seen:
            raise InvalidName(
                f"Two players are called {name}: names must differ",
                code=ErrorCode.DUPLICATE_PLAYER, name=name, first=seen[key],
            )
        seen[key] = name
    return names
