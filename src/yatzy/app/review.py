"""After a game: what each player's decisions cost against optimal play, in words.

>>> import yatzy
>>> from yatzy.i18n import translator
>>> from yatzy.solver.analysis import analyse
>>> rules = yatzy.ruleset("yatzy", order="in_order")
>>> g = yatzy.new_game(rules, ["Ann"], seed=1).roll([1, 1, 1, 2, 3]).score("ones")
>>> print(review_text(translator("en"), analyse(g)))  # doctest: +NORMALIZE_WHITESPACE
Each decision against optimal play (expected final score):
<BLANKLINE>
Ann: 0.9 points lost · decisions 1 · mistakes 1
  Round 1, roll 1 (1 1 1 2 3): Ones; best: keep dice 1 2 3 (1 1 1) · −0.9
"""

from __future__ import annotations

from typing import Any

from yatzy.app.hints import describe_action, format_points
from yatzy.i18n import Translator
from yatzy.solver.analysis import Analysis, Decision

#: The costliest decisions listed for each player.
WORST_SHOWN = 3

#: Points lost below this count as an optimal decision (rounding noise).
NOISE = 1e-3


def worst_decisions(analysis: Analysis, player: str) -> list[Decision]:
    """``player``'s costliest decisions, worst first (at most :data:`WORST_SHOWN`)."""
    mine = [d for d in analysis.decisions if d.player == player and d.loss > NOISE]
    return sorted(mine, key=lambda d: -d.loss)[:WORST_SHOWN]


def review_data(t: Translator, analysis: Analysis) -> dict[str, Any]:
    """The review as JSON-ready data (what the web app shows), texts in ``t``'s
    language."""
    return {"expected_score": round(analysis.expected_score, 4), "players": [{
        "player": summary.player, "loss": round(summary.total_loss, 3),
        "decisions": summary.decisions, "mistakes": summary.mistakes,
        "worst": [{"round": d.round, "roll": d.roll, "dice": list(d.dice),
                   "chosen": describe_action(t, d.dice, d.chosen),
                   "best": describe_action(t, d.dice, d.best),
                   "loss": round(d.loss, 3)}
                  for d in worst_decisions(analysis, summary.player)],
    } for summary in analysis.players]}


def review_text(t: Translator, analysis: Analysis) -> str:
    """Each player's loss against optimal play and their costliest decisions."""
    lines = [t._("Each decision against optimal play (expected final score):")]
    for summary in analysis.players:
        lines.append("")
        lines.append(t._(
            "{player}: {loss} points lost · decisions {n} · mistakes {mistakes}",
            player=summary.player, loss=format_points(t, summary.total_loss),
            n=summary.decisions, mistakes=summary.mistakes,
        ))
        mine = worst_decisions(analysis, summary.player)
        for d in mine:
            lines.append("  " + t._(
                "Round {round}, roll {roll} ({dice}): {chosen}; best: {best} · −{loss}",
                round=d.round, roll=d.roll, dice=str(d.dice),
                chosen=describe_action(t, d.dice, d.chosen),
                best=describe_action(t, d.dice, d.best),
                loss=format_points(t, d.loss),
            ))
        if not mine and summary.decisions:
            lines.append("  " + t._("Every decision was optimal."))
    return "\n".join(lines)
