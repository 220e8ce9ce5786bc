"""Every player's scorecard side by side, with the points each open box would give now.

A row per box (its key letter, its name, each player's points) and rows for the upper
sum, the upper bonus with the progress toward it ("+3" over par), the Yahtzee bonus and
the grand total. Clicking a box's row (or pressing its letter) chooses it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from yatzy.core import rules
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.i18n import Translator
from yatzy.i18n.words import box_label

#: The keys of the boxes, in card order: every letter but the game's own keys (h hint,
#: l language, q quit, r roll, u undo, w win chances); twenty, for Maxi Yatzy's boxes.
BOX_KEYS = "abcdefgijkmnopstvxyz"
LABEL_WIDTH = 18
#: The side panel beside the scorecard: the dice need 26 cells; it takes up to 40 when
#: the scorecard does not need them (a hint's lines then fit on one line each).
SIDE_MIN, SIDE_MAX = 26, 40
#: The narrowest and the widest column of a player, a space between columns included
#: (a total has at most 4 digits; wider columns only show longer names).
MIN_COLUMN, MAX_COLUMN = 5, 12


def box_keys(ruleset: Ruleset) -> dict[str, str]:
    """The key of every box of ``ruleset``: ``{"a": "ones", ...}``."""
    return dict(zip(BOX_KEYS, ruleset.boxes, strict=False))


def side_width(width: int, names: Sequence[str]) -> int:
    """The side panel's width in a terminal ``width`` cells wide: what the scorecard
    does not need to show every name whole over its own column (26 to 40 cells).

    >>> side_width(80, ["Ann"]), side_width(80, ["Ann", "Cecilia", "Bo"])
    (40, 37)
    >>> side_width(80, ["Ann", "Bo", "Cy", "Dag", "Eero", "Fia"]), side_width(120, ["Greedy 2"] * 6)
    (26, 40)
    """
    need = max(6, min(MAX_COLUMN, max(len(name) for name in names) + 1))
    # The scorecard's left padding is 1 cell.
    return max(SIDE_MIN, min(SIDE_MAX, width - 1 - LABEL_WIDTH - need * len(names)))


def column_width(available: int, players: int) -> int:
    """The width of each player's column when the scorecard has ``available`` cells.

    >>> column_width(53, 1), column_width(53, 4), column_width(53, 6), column_width(73, 6)
    (12, 8, 5, 9)
    """
    return max(MIN_COLUMN, min(MAX_COLUMN, (available - LABEL_WIDTH) // max(players, 1)))


def header_lines(names: Sequence[str], column: int, current: int | None) -> list[Text]:
    """The players' names over their columns, each ending where its numbers end: one
    line when every name fits its column, else two, the seats taking turns, so that a
    name can use its neighbour's width too (``Greedy 2`` over a 5-cell column). A name
    longer still ends in ``…``. The current player's name is shown reversed.

    Each line's names, and the cell where the line ends (where the last name's numbers
    end: after the label's 18 cells, a column's last cell is before its space):

    >>> [(line.plain.strip(), line.cell_len) for line in header_lines(["Ann", "Bo"], 6, None)]
    [('Ann    Bo', 29)]
    >>> lines = header_lines(["Ann", "Greedy 2", "Cecilia"], 5, 0)
    >>> [(line.plain.strip(), line.cell_len) for line in lines]
    [('Ann   Cecilia', 32), ('Greedy 2', 27)]
    >>> header_lines(["Bo", "Bartholomew the Third"], 5, None)[1].plain.strip()
    'Bartholo…'
    """
    fits = all(len(name) < column for name in names)
    rows = 1 if fits or len(names) == 1 else 2
    lines = []
    for row in range(rows):
        line = Text()
        for seat in range(row, len(names), rows):
            end = LABEL_WIDTH + (seat + 1) * column - 1
            room = column - 1 if rows == 1 else (
                2 * column - 1 if seat > 0 else LABEL_WIDTH + column - 1)
            if len(names) == 1:
                room = LABEL_WIDTH + column - 1
            name = names[seat]
            if len(name) > room:
                name = name[: room - 1] + "…"
            line.pad_right(end - len(name) - line.cell_len)
            line.append(name, style="bold reverse" if seat == current else "bold")
        lines.append(line)
    return lines


def signed(n: int) -> str:
    """``+3``, ``-2`` or ``±0``."""
    return f"+{n}" if n > 0 else (f"{n}" if n < 0 else "±0")


def bonus_cell(card: Scorecard) -> tuple[str, str]:
    """The upper bonus row's text and style for one card: the bonus once it is sure or
    out of reach, else the distance from par ("+3")."""
    if card.upper_bonus:
        return str(card.upper_bonus), "bold green"
    if all(card[b] is not None for b in card.ruleset.upper_boxes):
        return "0", ""
    return signed(card.upper_par_delta), "green" if card.upper_par_delta >= 0 else "red"


class ScoreRow(Static):
    """One line of the scorecard; a box's line can be clicked to choose the box."""

    class Chosen(Message):
        """The player clicked the row of ``box``."""

        def __init__(self, box: str) -> None:
            super().__init__()
            self.box = box

    def __init__(self, box: str | None, *, row_id: str, classes: str = "") -> None:
        super().__init__("", id=row_id, classes=f"score-row {classes}".strip())
        self.box = box

    def on_click(self) -> None:
        if self.box is not None:
            self.post_message(self.Chosen(self.box))


class ScorecardView(Vertical):
    """The scorecards of all players (the current one's column highlighted)."""

    def __init__(self, ruleset: Ruleset, players: Sequence[str], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.shown: tuple[Game, Translator] | None = None
        self.ruleset = ruleset
        self.players = tuple(players)
        #: Width of a player's column, set from the room there is each time it is drawn.
        self.column = MAX_COLUMN
        self.keys = {box: key for key, box in box_keys(ruleset).items()}
        self.header = ScoreRow(None, row_id="row-header", classes="score-header")
        #: The second line of names, when they take turns to fit (see header_lines).
        self.header_2 = ScoreRow(None, row_id="row-header-2", classes="score-header")
        self.box_rows = {
            box: ScoreRow(box, row_id=f"row-{box}", classes="box-row")
            for box in ruleset.boxes
        }
        self.upper_sum = ScoreRow(None, row_id="row-upper-sum", classes="sum-row")
        self.bonus = ScoreRow(None, row_id="row-bonus", classes="sum-row")
        self.yahtzee_bonus = ScoreRow(None, row_id="row-yahtzee-bonus", classes="sum-row")
        self.total = ScoreRow(None, row_id="row-total", classes="total-row")

    def compose(self) -> ComposeResult:
        yield self.header
        yield self.header_2
        for box in self.ruleset.upper_boxes:
            yield self.box_rows[box]
        yield self.upper_sum
        yield self.bonus
        for box in self.ruleset.lower_boxes:
            yield self.box_rows[box]
        if self.ruleset.extra_yahtzee_points:
            yield self.yahtzee_bonus
        yield self.total

    def _line(self, label: Text, cells: Sequence[tuple[str, str]], current: int | None) -> Text:
        line = Text()
        line.append_text(label)
        line.pad_right(LABEL_WIDTH - label.cell_len)
        line.truncate(LABEL_WIDTH)
        for seat, (text, style) in enumerate(cells):
            if seat == current:
                style = f"{style} on #303848".strip()
            width = self.column - 1
            line.append(text.rjust(width)[:width] + " ", style=style)
        return line

    def on_resize(self) -> None:
        if self.shown is not None:
            self.show(*self.shown)

    def show(self, game: Game, t: Translator) -> None:
        """Show ``game`` in ``t``'s language, the columns as wide as the room allows."""
        self.shown = (game, t)
        # Before the first layout the widget has no size: the room beside the side panel.
        width = self.app.size.width
        available = self.size.width or width - 1 - side_width(width, self.players)
        self.column = column_width(available, len(self.players))
        current = None if game.is_over else game.current_seat
        lines = header_lines(self.players, self.column, current)
        self.header.update(lines[0])
        self.header_2.update(lines[1] if len(lines) > 1 else "")
        self.header_2.display = len(lines) > 1
        # A card too tall for the room (Maxi Yatzy's twenty boxes in 24 lines) leaves out
        # the upper sum, then the bonus row: the total counts the bonus, and the turn's
        # panel tells the player to move how the upper section stands.
        rows = (len(lines) + len(self.box_rows) + 3
                + (1 if self.ruleset.extra_yahtzee_points else 0))
        room = self.size.height or self.app.size.height - 2  # the title and the keys
        self.upper_sum.display = rows <= room
        self.bonus.display = rows - 1 <= room
        choices = game.choices()
        allowed = (
            set(rules.allowed_by_order(game.ruleset, game.card)) if current is not None
            else set()
        )
        for box, row in self.box_rows.items():
            cells = []
            for seat, card in enumerate(game.cards):
                value = card[box]
                if value is not None:
                    cells.append((str(value), ""))
                elif seat != current:
                    cells.append(("", ""))
                elif box not in allowed:
                    cells.append(("–", "dim"))
                elif game.dice is None:
                    cells.append(("", ""))
                elif box in choices:
                    points = choices[box]
                    cells.append((str(points), "italic yellow" if points else "italic dim"))
                else:
                    cells.append(("✕", "dim red"))
            label = Text(f"{self.keys[box]} ", style="dim")
            label.append(box_label(t, box),
                         style="" if current is None or box in allowed else "dim")
            row.update(self._line(label, cells, current))
            row.set_class(current is not None and box in choices, "choosable")
        self.upper_sum.update(self._line(
            Text(t._("Upper sum"), style="bold"),
            [(str(c.upper_sum), "bold") for c in game.cards], current))
        self.bonus.update(self._line(
            Text(t._("Bonus ({threshold}: {points})", points=game.ruleset.upper_bonus_points,
                     threshold=game.ruleset.upper_bonus_threshold)),
            [bonus_cell(c) for c in game.cards], current))
        self.yahtzee_bonus.update(self._line(
            Text(t._("Yahtzee bonus")),
            [(str(c.yahtzee_bonus) if c.yahtzee_bonus else "", "bold green")
             for c in game.cards], current))
        self.total.update(self._line(
            Text(t._("Total"), style="bold"),
            [(str(c.total), "bold") for c in game.cards], current))
