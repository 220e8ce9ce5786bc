"""The error codes of this layer and their texts (registered with the core's
registry, which every front end translates from)."""

from __future__ import annotations

from enum import StrEnum

from yatzy.core.errors import N_, YatzyError, register_error_texts
from yatzy.i18n import Translator
from yatzy.i18n.words import register_error_formatter, ruleset_name


class CliCode(StrEnum):
    """The error codes of :mod:`yatzy.cli`."""

    FLAG_NOT_FOR_RULES = "flag_not_for_rules"
    COMMAND = "command"


register_error_texts(CliCode, {
    CliCode.FLAG_NOT_FOR_RULES: (_FLAG_TEXT := N_("{flag} is not an option of {rules}")),
    CliCode.COMMAND: N_("The command cannot do that: {detail}"),
})


def _flag_not_for_rules(t: Translator, error: YatzyError) -> str:
    """The flag's text with the ruleset's name in the player's language."""
    return t._(_FLAG_TEXT, flag=error.params.get("flag", "?"),
               rules=ruleset_name(t, str(error.params.get("rules", "?"))))


register_error_formatter(CliCode.FLAG_NOT_FOR_RULES, _flag_not_for_rules)
