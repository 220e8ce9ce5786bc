"""The set-up screen: rules and options, players (people and computers), dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from yatzy.app import Seat
from yatzy.bots import bot_names
from yatzy.core.errors import YatzyError
from yatzy.core.rulesets import JOKERS, ORDERS, Ruleset, ruleset
from yatzy.i18n import LANGUAGES, translator
from yatzy.i18n.words import (
    JOKER_NAMES,
    ORDER_NAMES,
    RULESET_NAMES,
    default_player_name,
    error_text,
)
from yatzy.tui.screens.base import TranslatedScreen
from yatzy.tui.seats import parse_seats


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to start a game."""

    rules: Ruleset
    seats: tuple[Seat, ...]
    dice_mode: str = "auto"
    #: ``"seat"``, ``"roll"`` or ``None`` for the default (a roll-off for multi-player
    #: Yahtzee, as its rule sheet says).
    first_player: str | None = None
    seed: int | None = None

    @property
    def first(self) -> str:
        """How the first player is chosen."""
        if self.first_player is not None:
            return self.first_player
        return self.rules.default_first_player(len(self.seats))


class SetupScreen(TranslatedScreen):
    """Choose the game; Enter or the Start button starts it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.quit", show=False),
        Binding("ctrl+r", "app.show_resume", show=False),
    ]

    def __init__(self, previous: GameSetup | None = None) -> None:
        super().__init__(id="setup")
        self.previous = previous
        #: How many saved games are not finished (shown with the key to continue one).
        self.unfinished = 0
        self.players_text = "" if previous is None else ", ".join(
            s.name if s.bot is None else f"{s.name}:{s.bot}" for s in previous.seats)

    def _options(self, rules_name: str = "yatzy") -> dict[str, list[tuple[str, str]]]:
        t = self.t
        orders = ORDERS if rules_name == "yatzy" else ("free", "upper_first")
        return {
            "rules": [(t._(RULESET_NAMES[n]), n) for n in RULESET_NAMES],
            "order": [(t._(ORDER_NAMES[o]), o) for o in orders],
            "joker": [(t._(JOKER_NAMES[j]), j) for j in JOKERS],
            "bonus": [(t._("+100 for each extra Yahtzee"), "on"),
                      (t._("no Yahtzee bonus"), "off")],
            "first": [(t._("as the rules say (a roll-off in Yahtzee)"), "rules"),
                      (t._("the first in the list"), "seat"),
                      (t._("roll-off (highest sum starts)"), "roll")],
            "dice": [(t._("rolled by the program"), "auto"),
                     (t._("real dice, typed in (scorepad)"), "manual")],
        }

    def compose(self) -> ComposeResult:
        previous = self.previous
        rules = previous.rules if previous else ruleset("yatzy")
        values = {
            "rules": rules.name,
            "order": rules.order,
            "joker": rules.joker if rules.name == "yahtzee" else "forced",
            "bonus": "off" if rules.name == "yahtzee" and not rules.extra_yahtzee_points
            else "on",
            "first": previous.first_player or "rules" if previous else "rules",
            "dice": previous.dice_mode if previous else "auto",
        }
        yield Static("", markup=False, id="title")
        with Vertical(id="form"):
            for key, options in self._options(rules.name).items():
                with Horizontal(classes="field", id=f"{key}-field"):
                    yield Label("", markup=False, id=f"{key}-label", classes="field-label")
                    yield Select(options, id=key, allow_blank=False, value=values[key],
                                 compact=True)
            with Horizontal(classes="field"):
                yield Label("", markup=False, id="players-label", classes="field-label")
                yield Input(self.players_text, id="players", compact=True)
            yield Static("", markup=False, id="players-hint", classes="hint")
            yield Static("", markup=False, id="setup-error", classes="error")
            yield Button("", id="start", variant="primary", compact=True)
            yield Static("", markup=False, id="resume-hint", classes="hint")
        yield Static("", markup=False, id="keys")

    def on_mount(self) -> None:
        self.unfinished = len(self.app.service.unfinished())
        self.retranslate()
        self._show_options(self.query_one("#rules", Select).value)
        self.query_one("#players", Input).focus()

    def retranslate(self) -> None:
        t = self.t
        self.query_one("#title", Static).update(t._("New game"))
        labels = {"rules": t._("Rules"), "order": t._("Play order"), "joker": t._("Joker"),
                  "bonus": t._("Yahtzee bonus"), "first": t._("First player"),
                  "dice": t._("Dice"), "players": t._("Players")}
        for key, text in labels.items():
            self.query_one(f"#{key}-label", Label).update(text)
        for key, options in self._options(self._rules_name()).items():
            self._set_options(key, options)
        players = self.query_one("#players", Input)
        if players.value in {default_player_name(translator(lang)) for lang in LANGUAGES}:
            players.value = default_player_name(t)  # the offered name follows the language
        self.query_one("#players-hint", Static).update(t._(
            "Names separated by commas; cpu:LEVEL for a computer ({levels}).",
            levels=", ".join(bot_names())))
        self.query_one("#start", Button).label = t._("Start (Enter)")
        self.query_one("#resume-hint", Static).update(t.ngettext(
            "{n} unfinished game: ctrl+r to continue it",
            "{n} unfinished games: ctrl+r to continue one",
            self.unfinished, n=self.unfinished) if self.unfinished else "")
        self.query_one("#keys", Static).update(t._(
            "Enter start · Tab next field · ctrl+l language · Escape quit"))

    def _rules_name(self) -> str:
        return str(self.query_one("#rules", Select).value)

    def _set_options(self, key: str, options: list[tuple[str, str]]) -> None:
        select: Select[str] = self.query_one(f"#{key}", Select)
        value = select.value
        select.set_options(options)
        if any(v == value for _, v in options):
            select.value = value

    def _show_options(self, rules_name: object) -> None:
        self.query_one("#joker-field").display = rules_name == "yahtzee"
        self.query_one("#bonus-field").display = rules_name == "yahtzee"

    @on(Select.Changed, "#rules")
    def rules_changed(self, event: Select.Changed) -> None:
        """Show the options of the rules chosen."""
        name = str(event.value)
        self._show_options(name)
        self._set_options("order", self._options(name)["order"])

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def start(self) -> None:
        """Check the form and start the game it describes."""
        name = self._rules_name()
        order = str(self.query_one("#order", Select).value)
        options: dict[str, object] = {"order": order} if name == "yatzy" else {
            "joker": self.query_one("#joker", Select).value,
            "upper_first": order == "upper_first",
            "yahtzee_bonus": self.query_one("#bonus", Select).value == "on",
        }
        try:
            rules = ruleset(name, **options)
            seats = parse_seats(self.query_one("#players", Input).value, bot_names())
        except YatzyError as error:
            self.query_one("#setup-error", Static).update(error_text(self.t, error))
            return
        dice = str(self.query_one("#dice", Select).value)
        chosen = str(self.query_one("#first", Select).value)
        first = None if chosen == "rules" else chosen  # GameSetup.first knows the default
        seed = self.previous.seed if self.previous is not None else None
        self.app.start_game(GameSetup(rules, seats, dice, first_player=first, seed=seed))
