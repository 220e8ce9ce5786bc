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
from yatzy.core.rulesets import OptionInfo, Ruleset, ruleset, rulesets
from yatzy.core.seeded import Seed
from yatzy.i18n import LANGUAGES, Translator, translator
from yatzy.i18n.words import default_player_name, error_text
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
    #: The dice's seed: a number, or a secret seed (a daily challenge's).
    seed: Seed | None = None

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
        #: Every option of every ruleset, by name (a field each).
        self._option_names: list[str] = []
        self.players_text = "" if previous is None else ", ".join(
            s.name if s.bot is None else f"{s.name}:{s.bot}" for s in previous.seats)

    def _options(self) -> dict[str, list[tuple[str, str]]]:
        t = self.t
        return {
            "rules": [(t._(info.title), info.name) for info in rulesets()],
            "first": [(t._("as the rules say"), "rules"),
                      (t._("the first in the list"), "seat"),
                      (t._("roll-off (highest sum starts)"), "roll")],
            "dice": [(t._("rolled by the program"), "auto"),
                     (t._("real dice, typed in (scorepad)"), "manual")],
        }

    def _rule_options(self, rules_name: str) -> dict[str, list[tuple[str, str]]]:
        """The choices of each option of the ruleset ``rules_name``, as its description
        gives them (every value as text: :func:`ruleset` reads it back)."""
        t = self.t
        [info] = [info for info in rulesets() if info.name == rules_name] or [rulesets()[0]]
        return {option.name: _choices(t, option) for option in info.options}

    def compose(self) -> ComposeResult:
        previous = self.previous
        rules = previous.rules if previous else ruleset("yatzy")
        values = {
            "rules": rules.name,
            "first": previous.first_player or "rules" if previous else "rules",
            "dice": previous.dice_mode if previous else "auto",
        }
        chosen = {name: _text(value) for name, value in rules.option_items}
        options = self._options()
        yield Static("", markup=False, id="title")
        with Vertical(id="form"):
            yield from self._field("rules", options.pop("rules"), values["rules"])
            for info in rulesets():  # every option of every ruleset, shown as it applies
                for option in info.options:
                    if option.name not in self._option_names:
                        self._option_names.append(option.name)
                        yield from self._field(
                            f"opt-{option.name}", _choices(self.t, option),
                            chosen.get(option.name, _text(option.default)))
            for key, choices in options.items():
                yield from self._field(key, choices, values[key])
            with Horizontal(classes="field"):
                yield Label("", markup=False, id="players-label", classes="field-label")
                yield Input(self.players_text, id="players", compact=True)
            yield Static("", markup=False, id="players-hint", classes="hint")
            yield Static("", markup=False, id="setup-error", classes="error")
            yield Button("", id="start", variant="primary", compact=True)
            yield Static("", markup=False, id="resume-hint", classes="hint")
        yield Static("", markup=False, id="keys")

    def _field(self, key: str, choices: list[tuple[str, str]], value: str) -> ComposeResult:
        with Horizontal(classes="field", id=f"{key}-field"):
            yield Label("", markup=False, id=f"{key}-label", classes="field-label")
            yield Select(choices, id=key, allow_blank=False, compact=True,
                         value=value if any(v == value for _, v in choices) else choices[0][1])

    def on_mount(self) -> None:
        self.unfinished = len(self.app.service.unfinished())
        self.retranslate()
        self._show_options(self._rules_name())
        self.query_one("#players", Input).focus()

    def retranslate(self) -> None:
        t = self.t
        self.query_one("#title", Static).update(t._("New game"))
        labels = {"rules": t._("Rules"), "first": t._("First player"),
                  "dice": t._("Dice"), "players": t._("Players")}
        for info in rulesets():
            labels.update((f"opt-{o.name}", t._(o.label)) for o in info.options)
        for key, text in labels.items():
            self.query_one(f"#{key}-label", Label).update(text)
        for key, options in self._options().items():
            self._set_options(key, options)
        self._show_options(self._rules_name())
        players = self.query_one("#players", Input)
        if players.value in {default_player_name(translator(lang)) for lang in LANGUAGES}:
            players.value = default_player_name(t)  # the offered name follows the language
        self._show_levels(self._rules_name())
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
        if list(select._options) == options:
            return
        value = select.value
        select.set_options(options)
        if any(v == value for _, v in options):
            select.value = value


    def _show_options(self, rules_name: str) -> None:
        """Show the options of the ruleset ``rules_name`` (with its choices), hide the
        others."""
        own = self._rule_options(rules_name)
        for name in self._option_names:
            self.query_one(f"#opt-{name}-field").display = name in own
            if name in own:
                self._set_options(f"opt-{name}", own[name])
        self._show_levels(rules_name)

    def _show_levels(self, rules_name: str) -> None:
        """Name the computer levels that play the ruleset ``rules_name``."""
        self.query_one("#players-hint", Static).update(self.t._(
            "Names separated by commas; cpu:LEVEL for a computer ({levels}).",
            levels=", ".join(bot_names(ruleset(rules_name)))))

    @on(Select.Changed, "#rules")
    def rules_changed(self, event: Select.Changed) -> None:
        """Show the options of the rules chosen."""
        self._show_options(str(event.value))

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def start(self) -> None:
        """Check the form and start the game it describes."""
        name = self._rules_name()
        options = {key: str(self.query_one(f"#opt-{key}", Select).value)
                   for key in self._rule_options(name)}
        try:
            rules = ruleset(name, **options)
            seats = parse_seats(self.query_one("#players", Input).value, bot_names(), rules)
        except YatzyError as error:
            self.query_one("#setup-error", Static).update(error_text(self.t, error))
            return
        dice = str(self.query_one("#dice", Select).value)
        chosen = str(self.query_one("#first", Select).value)
        first = None if chosen == "rules" else chosen  # GameSetup.first knows the default
        seed = self.previous.seed if self.previous is not None else None
        self.app.start_game(GameSetup(rules, seats, dice, first_player=first, seed=seed))


def _text(value: object) -> str:
    """An option's value as its field holds it (``ruleset()`` reads it back)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _choices(t: Translator, option: OptionInfo) -> list[tuple[str, str]]:
    """The choices of a described option, translated: each choice of a choice, on and
    off, or each whole number of its range."""
    if option.kind == "choice":
        labels = dict(option.choice_labels)
        return [(t._(labels.get(c, c)), c) for c in option.choices]
    if option.kind == "bool":
        return [(t._("on"), "on"), (t._("off"), "off")]
    low, high = option.minimum or 0, option.maximum or 0
    return [(str(n), str(n)) for n in range(low, high + 1)]
