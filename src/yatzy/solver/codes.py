"""The error codes of this layer and their texts (registered with the core's
registry, which every front end translates from)."""

from __future__ import annotations

from enum import StrEnum

from yatzy.core.errors import N_, register_error_texts


class SolverCode(StrEnum):
    """The error codes of :mod:`yatzy.solver`."""

    UNREACHABLE_CARD = "unreachable_card"
    BAD_ROLLS_LEFT = "bad_rolls_left"
    BAD_PERCENTILE = "bad_percentile"
    BAD_SCORE = "bad_score"
    SOLVER_MISSING = "solver_missing"
    UNSUPPORTED_RULESET = "unsupported_ruleset"
    TABLE_NOT_BUILT = "table_not_built"
    DISTRIBUTION_TOO_LARGE = "distribution_too_large"
    WINNER_UNSUPPORTED = "winner_unsupported"
    REMAINING_DAMAGED = "remaining_damaged"
    CHANCES_UNSUPPORTED = "chances_unsupported"


register_error_texts(SolverCode, {
    SolverCode.UNREACHABLE_CARD: N_("No game reaches this scorecard"),
    SolverCode.BAD_ROLLS_LEFT: N_("Rolls left after a roll must be 0 to {most}"),
    SolverCode.BAD_PERCENTILE: N_("A percentile is a number from 0 to 100, not {value}"),
    SolverCode.BAD_SCORE: N_("A score is a whole number, not {value}"),
    SolverCode.SOLVER_MISSING: N_(
            "The solver is not installed (its compiled part was not built): install yatzy from"
            " a wheel, or install a C compiler and reinstall yatzy"),
    SolverCode.UNSUPPORTED_RULESET: N_(
            "The solver does not play {rules}: hints, win chances and the computer levels"
            " that need it are not offered for it"),
    SolverCode.TABLE_NOT_BUILT: N_(
            "The solver's table of {rules} has not been built on this machine: build it once"
            " with the command yatzy solve"),
    SolverCode.DISTRIBUTION_TOO_LARGE: N_(
            "The score distribution of {rules} is worked out with at most {most} open boxes,"
            " not {open}"),
    SolverCode.WINNER_UNSUPPORTED: N_(
            "The winner level does not play {rules}: its table of the points still to come"
            " would not fit in memory"),
    SolverCode.REMAINING_DAMAGED: N_(
            "The table of the points still to come in {path} cannot be used ({reason}): it"
            " is built again"),
    SolverCode.CHANCES_UNSUPPORTED: N_(
            "Win chances and score distributions are not worked out for {rules}"),
})
