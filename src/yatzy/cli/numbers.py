"""Numbers in a command's text output, written the player's language's way (decimal
comma, digit groups, percent sign); JSON output keeps plain numbers.

>>> from yatzy.i18n import translator
>>> en, sv = translator("en"), translator("sv")
>>> decimal(en, 248.43998936, 7), decimal(sv, 248.43998936, 7)
('248.4399894', '248,4399894')
>>> whole(en, 1430464), percent(en, 0.898)
('1,430,464', '89.8%')
"""

from __future__ import annotations

from babel.numbers import format_decimal, format_percent

from yatzy.i18n import Translator


def decimal(t: Translator, value: float, places: int) -> str:
    """``value`` with ``places`` decimals."""
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return str(format_decimal(float(value), format=pattern, locale=t.lang))


def whole(t: Translator, n: int) -> str:
    """A count, with digit groups."""
    return str(format_decimal(int(n), format="#,##0", locale=t.lang))


def percent(t: Translator, rate: float) -> str:
    """A rate from 0 to 1 as a percentage with one decimal."""
    return str(format_percent(float(rate), format="#,##0.0%", locale=t.lang))
