"""The dice on the table, drawn as faces with pips; a key or a click holds a die."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

#: Which of the 3x3 pip places (row-major) show a pip on each face.
PIPS: dict[int, frozenset[int]] = {
    1: frozenset({4}),
    2: frozenset({0, 8}),
    3: frozenset({0, 4, 8}),
    4: frozenset({0, 2, 6, 8}),
    5: frozenset({0, 2, 4, 6, 8}),
    6: frozenset({0, 2, 3, 5, 6, 8}),
}

PIP = "●"
#: Cells under a die for its key and hold mark: the die's own width, so that the
#: captions of dice side by side never run together ("1 sparad2 sparad").
CAPTION_WIDTH = 7


def face_lines(value: int | None) -> list[str]:
    """The three text lines of a die showing ``value`` (blank before a roll).

    >>> face_lines(5)
    [' ●   ● ', '   ●   ', ' ●   ● ']
    """
    if value is None:
        return ["       ", "   ?   ", "       "]
    lines = []
    for row in range(3):
        cells = [PIP if row * 3 + col in PIPS[value] else " " for col in range(3)]
        lines.append(" " + " ".join(cells) + " ")
    return lines


class DieFace(Static):
    """One die's face."""

    value: reactive[int | None] = reactive(None)
    held: reactive[bool] = reactive(False)

    def __init__(self, index: int, **kwargs: object) -> None:
        super().__init__(id=f"die-{index}", classes="die", **kwargs)  # type: ignore[arg-type]
        self.index = index

    def render(self) -> Text:
        return Text("\n".join(face_lines(self.value)))

    def watch_held(self, held: bool) -> None:
        self.set_class(held, "held")

    def watch_value(self, value: int | None) -> None:
        self.set_class(value is None, "blank")


class DieSlot(Vertical):
    """A die with its key and hold mark below it. Clicking it asks to toggle its hold."""

    class Toggled(Message):
        """The player clicked die ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(classes="die-slot")
        self.index = index
        self.face = DieFace(index)
        self.caption = Static("", markup=False, classes="die-caption")

    def compose(self) -> ComposeResult:
        yield self.face
        yield self.caption

    def on_click(self) -> None:
        self.post_message(self.Toggled(self.index))


class DiceTray(Static):
    """The five dice in two rows."""

    def __init__(self, count: int, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.slots = [DieSlot(i) for i in range(count)]

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal

        with Horizontal(classes="dice-row"):
            yield from self.slots[:3]
        with Horizontal(classes="dice-row"):
            yield from self.slots[3:]

    def show(self, dice: Sequence[int] | None, held: set[int], held_word: str) -> None:
        """Show ``dice`` (or blanks) with the dice at ``held`` marked (colour, reverse
        caption and the word ``held_word``, or a tick where the word does not fit)."""
        for slot in self.slots:
            slot.face.value = dice[slot.index] if dice is not None else None
            is_held = dice is not None and slot.index in held
            slot.face.held = is_held
            slot.caption.set_class(is_held, "held")
            caption = f"{slot.index + 1} {held_word}"
            if len(caption) > CAPTION_WIDTH:
                caption = f"{slot.index + 1} ✓"
            slot.caption.update(caption if is_held else f"{slot.index + 1}")
