"""Small dialogs: confirming a zero, typing in dice, choosing a language, a notice."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from yatzy.core.dice import Dice, check_dice
from yatzy.core.errors import InvalidDice
from yatzy.i18n import LANGUAGES, Translator
from yatzy.i18n.words import answer_keys
from yatzy.tui.screens.base import TranslatedModal


class ConfirmScreen(TranslatedModal[bool]):
    """A yes/no question. The language's yes key says yes (``y``, ``j`` in Swedish, ``k``
    in Finnish); its no key, Escape and Enter say no: No is the button in focus, so an
    Enter typed by habit never writes a zero."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "answer(False)", show=False)]

    def __init__(self, question: Callable[[Translator], str]) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("", markup=False, id="question", classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("", id="yes", variant="warning")
                yield Button("", id="no")

    def on_mount(self) -> None:
        self.retranslate()
        self.query_one("#no", Button).focus()

    def retranslate(self) -> None:
        t = self.t
        yes, no = answer_keys(t)
        self.query_one("#question", Static).update(self.question(t))
        self.query_one("#yes", Button).label = t._("Yes ({key})", key=yes)
        self.query_one("#no", Button).label = t._("No ({key})", key=no)

    def on_key(self, event: Key) -> None:
        yes, no = answer_keys(self.t)
        if event.key in (yes, no):
            event.stop()
            self.dismiss(event.key == yes)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class NoticeScreen(TranslatedModal[None]):
    """A message to read; any of Enter, Escape or Space closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "close", show=False)]

    def __init__(self, text: str) -> None:
        super().__init__(classes="dialog-screen")
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.text, markup=False, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.t._("OK"), id="ok", variant="primary")

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self) -> None:
        self.dismiss(None)


class DiceEntryScreen(TranslatedModal["Dice | None"]):
    """Scorepad mode: type in the faces of real dice (``33566`` or ``3 3 5 6 6``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, prompt: str, count: int) -> None:
        super().__init__(classes="dialog-screen")
        self.prompt = prompt
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.prompt, markup=False, classes="dialog-text")
            yield Input(placeholder="3 3 5 6 6"[: 2 * self.count - 1], id="dice-input")
            yield Static("", markup=False, id="dice-error", classes="error")
            yield Static(self.t._("Enter to accept, Escape to cancel"), markup=False,
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        try:
            dice = check_dice(Dice.parse(event.value), self.count)
        except InvalidDice:
            self.query_one("#dice-error", Static).update(self.t.ngettext(
                "Type {n} die from 1 to 6", "Type {n} dice from 1 to 6", self.count,
                n=self.count))
            return
        self.dismiss(dice)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LanguageScreen(TranslatedModal["str | None"]):
    """Choose one of the seven languages (each shown in its own words)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, current: str) -> None:
        super().__init__(classes="dialog-screen")
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.t._("Language"), markup=False, classes="dialog-title")
            options = [Option(f"{name} ({code})", id=code) for code, name in LANGUAGES.items()]
            yield OptionList(*options, id="languages")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = list(LANGUAGES).index(self.current)
        options.focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
