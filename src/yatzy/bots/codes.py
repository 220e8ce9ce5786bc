"""The error codes of this layer and their texts (registered with the core's
registry, which every front end translates from)."""

from __future__ import annotations

from enum import StrEnum

from yatzy.core.errors import N_, register_error_texts


class BotCode(StrEnum):
    """The error codes of :mod:`yatzy.bots`."""

    UNKNOWN_BOT = "unknown_bot"


register_error_texts(BotCode, {
    BotCode.UNKNOWN_BOT: N_("Unknown computer player {level}; choose from {levels}"),
}, {
    BotCode.UNKNOWN_BOT: {"level": "bot", "levels": "known"},
})
