"""The game screen: the dice, every scorecard, and the turn of a person or a computer.

Keys: 1, 2, ... (one per die) hold a die, ``r`` (or space) rolls, a box's letter fills
it, ``h`` hints, ``w`` shows or hides the players' win chances, ``u`` undoes, ``l``
changes the language, ``q`` quits (the game is saved). The mouse works too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Key, Resize
from textual.message import Message as TextualMessage
from textual.widgets import Button, Static

from yatzy.app.advice import check_chances
from yatzy.app.events import Event
from yatzy.app.hints import Advice, hint_text, win_chances_text
from yatzy.app.session import GameSession, Note, Phase, executor_runner
from yatzy.app.table import Table
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import YatzyError
from yatzy.core.game import Game
from yatzy.i18n import Translator
from yatzy.i18n.words import (
    bonus_explanation,
    box_label,
    error_text,
    joker_explanation,
    refusal,
    rolls_text,
    ruleset_title,
    upper_bonus_progress,
)
from yatzy.tui.screens.base import TranslatedScreen
from yatzy.tui.screens.dialogs import ConfirmScreen, DiceEntryScreen, NoticeScreen
from yatzy.tui.widgets.dice import DiceTray, DieSlot
from yatzy.tui.widgets.scorecard import ScorecardView, ScoreRow, box_keys, side_width

#: Seconds between a computer player's steps, so that a person can follow them.
PACE = 0.8

Message = Callable[[Translator], str]


class GameScreen(TranslatedScreen):
    """One game in play."""

    class Chances(TextualMessage):
        """Each player's chance of winning ``game`` (posted from its thread)."""

        def __init__(self, game: Game, chances: dict[str, float]) -> None:
            super().__init__()
            self.game = game
            self.chances = chances

    class Advised(TextualMessage):
        """The strategy's options for ``game``, best first (posted from its thread)."""

        def __init__(self, game: Game, options: Sequence[Advice], depth: int,
                     error: YatzyError | None = None) -> None:
            super().__init__()
            self.game = game
            self.options = options
            self.depth = depth
            self.error = error

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i + 1), f"hold({i})", show=False) for i in range(6)),
        Binding("r,space", "roll", show=False),
        Binding("h", "hint", show=False),
        Binding("w", "win_chances", show=False),
        Binding("u,ctrl+z", "undo", show=False),
        Binding("q", "app.save_and_quit", show=False),
    ]

    def __init__(self, table: Table, *, fast: bool = False, notice: str | None = None) -> None:
        super().__init__(id="game")
        self.table = table
        self.fast = fast
        self.notice = notice
        #: The dice held for the next reroll; after a reroll, those it kept.
        self.holds: set[int] = set(table.hold)
        self.message: Message = lambda t: ""
        #: What the last turn scored (kept while the next player rolls).
        self.last_score: Message = lambda t: ""
        #: The game in play: it plays the computers' steps (at the screen's pace) and
        #: tells the screen what to show. Its blocking work runs on a thread of its own.
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="yatzy-game")
        self.session = GameSession(table, pace=0 if fast else PACE,
                                   run=executor_runner(self._worker))
        self.session.watch(self.noted)
        #: The number of steps the screen has shown (a computer's score is said once).
        self._shown_steps = len(table.game.history)
        #: How many of the strategy's best options the hint shows (0: no hint shown).
        self.hint_depth = 0
        self.hint_for: Game | None = None
        self.keys = box_keys(table.game.ruleset)
        #: Whether the players' win chances are shown (``w``; off, not to spoil a game),
        #: and the last ones worked out, with their game.
        self.show_chances = False
        self.chances: tuple[Game, dict[str, float]] | None = None

    # --- Layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        game = self.table.game
        yield Static("", markup=False, id="title")
        with Horizontal(id="body"):
            yield ScorecardView(game.ruleset, game.players, id="scorecard")
            with Vertical(id="side"):
                yield Static("", markup=False, id="turn")
                yield DiceTray(game.ruleset.dice_count, id="dice")
                yield Button("", id="roll", variant="primary")
                yield Static("", markup=False, id="message")
        yield Static("", markup=False, id="keys")

    @property
    def bot_busy(self) -> bool:
        """True while a computer's steps are being played."""
        return self.session.busy

    def on_unmount(self) -> None:
        self._unfollow()
        closing = asyncio.get_running_loop().create_task(self.session.close())
        closing.add_done_callback(lambda _: self._worker.shutdown(wait=False))

    def _follow(self) -> None:
        """Hear of changes other processes make to this game (a move in the web app);
        the session reads the game again and tells :meth:`noted`."""
        loop = asyncio.get_running_loop()
        game_id = self.table.saved.id

        def heard(event: Event) -> None:  # on the feed's thread
            if event.game_id == game_id and not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._refresh, event.version,
                                              event.type == "turns_handed_over")

        self._unfollow = self.table.service.subscribe(heard, others_only=True)

    def _refresh(self, version: int, handed_over: bool = False) -> None:
        if handed_over:  # the process that played the computers stopped: play them here
            self.session.handed_over()
        if version > self.table.saved.version:
            self.run_worker(self.session.refresh(version), exit_on_error=False)

    def on_mount(self) -> None:
        self._follow()
        self.fit_side(self.app.size.width)
        self.refresh_view()
        if self.notice:
            self.app.push_screen(NoticeScreen(self.notice), lambda _: self.after_action())
        else:
            self.after_action()

    def on_resize(self, event: Resize) -> None:
        self.fit_side(event.size.width)

    def fit_side(self, width: int) -> None:
        """Give the side panel the width the scorecard does not need."""
        self.query_one("#side").styles.width = side_width(width, self.table.game.players)

    def retranslate(self) -> None:
        self.refresh_view()

    # --- Drawing ---------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Draw the game as it stands, in the player's language."""
        t, game = self.t, self.table.game
        bot = self.table.bot_to_play
        rounds = len(game.ruleset.boxes)
        self.query_one("#title", Static).update(
            f"{ruleset_title(t, game.ruleset)}  ·  "
            + t._("Round {round} of {rounds}", round=game.round, rounds=rounds)
        )
        self.query_one(ScorecardView).show(game, t)
        turn = self.query_one("#turn", Static)
        if game.is_over:
            turn.update(t._("The game is over"))
        else:
            who = (t._("{player} (computer) plays", player=game.current_player) if bot
                   else t._("{player}'s turn", player=game.current_player))
            left = rolls_text(t, game)
            par = upper_bonus_progress(t, game.card)
            turn.update(Text.assemble((who, "bold"), "\n", left, "\n", (par, "dim")))
        self.query_one(DiceTray).show(game.dice, self.holds, t._("held"))
        roll = self.query_one("#roll", Button)
        roll.label = t._("Roll (r)") if game.dice is None else t._("Reroll (r)")
        roll.disabled = game.is_over or bot is not None or game.rolls_left == 0
        notes = [self._chances_line(t), self.last_score(t), self.message(t)]
        if game.joker:
            notes.append(joker_explanation(t, game))
        if game.bonus_pending:
            notes.append(bonus_explanation(t, game))
        self.query_one("#message", Static).update("\n".join(n for n in notes if n))
        self.query_one("#keys", Static).update(t._(
            "1-{dice} hold · r roll · {first}-{last} box · h hint · u undo · l language · q quit",
            dice=game.ruleset.dice_count, first=next(iter(self.keys)), last=list(self.keys)[-1]))

    def _chances_line(self, t: Translator) -> str:
        """The win chances, when shown: of the game as it stands, or that they are being
        worked out."""
        game = self.table.game
        if not self.show_chances or len(game.players) < 2:
            return ""
        if self.chances is None or self.chances[0] is not game:
            return t._("Win chances: working them out…")
        return win_chances_text(t, self.chances[1])

    def say(self, message: Message) -> None:
        """Show ``message`` (a function of the language, so it follows a switch)."""
        self.message = message
        self.refresh_view()

    # --- A person's moves ------------------------------------------------------------

    def _person_may_act(self) -> bool:
        return not self.table.game.is_over and self.table.bot_to_play is None

    def action_hold(self, index: int) -> None:
        game = self.table.game
        if not self._person_may_act() or index >= game.ruleset.dice_count:
            return
        if game.dice is None:
            self.say(lambda t: t._("Roll the dice first"))
            return
        self.holds ^= {index}
        self.refresh_view()

    @on(DieSlot.Toggled)
    def die_clicked(self, event: DieSlot.Toggled) -> None:
        self.action_hold(event.index)

    @on(Button.Pressed, "#roll")
    def roll_pressed(self) -> None:
        self.action_roll()

    def action_roll(self) -> None:
        if self.session.phase is Phase.DICE:
            self.ask_computer_dice()  # the computer's roll waits for its real dice
            return
        if not self._person_may_act():
            return
        game = self.table.game
        action: Action = Roll() if game.dice is None else Reroll(tuple(sorted(self.holds)))
        self.roll_with(action)

    def roll_with(self, action: Action) -> None:
        """Apply a roll or reroll; in scorepad mode ask for the dice first."""
        game = self.table.game
        if isinstance(action, Reroll):
            try:  # let the core refuse an impossible reroll before asking for dice
                game.check_hold(action.hold)
            except YatzyError as refused:
                self.say(self._error_message(refused, game))
                return
        if not self.table.manual:
            self.apply(action)
            return
        t = self.t
        if isinstance(action, Roll):
            count = game.ruleset.dice_count
            prompt = t._("{player}: type the {n} dice you rolled",
                         player=game.current_player, n=count)
        else:
            assert isinstance(action, Reroll)
            count = game.ruleset.dice_count - len(action.hold)
            positions = ", ".join(str(i + 1) for i in range(game.ruleset.dice_count)
                                  if i not in action.hold)
            prompt = t.ngettext(
                "{player}: type the die you rerolled (die {positions})",
                "{player}: type the {n} dice you rerolled (dice {positions})",
                count, player=game.current_player, n=count, positions=positions)

        def typed(dice: Dice | None) -> None:
            if dice is None:
                if self.table.waiting_for_dice:
                    self.say(lambda t: t._("Press r when the dice are rolled."))
                return
            if self.table.waiting_for_dice:
                self.run_worker(self.computer_dice(dice), exit_on_error=False)
            elif isinstance(action, Roll):
                self.apply(Roll(dice))
            else:
                assert isinstance(action, Reroll)
                self.apply(Reroll(action.hold, dice))

        self.app.push_screen(DiceEntryScreen(prompt, count), typed)

    @on(ScoreRow.Chosen)
    def row_clicked(self, event: ScoreRow.Chosen) -> None:
        self.choose(event.box)

    def on_key(self, event: Key) -> None:
        box = self.keys.get(event.key)
        if box is not None:
            event.stop()
            self.choose(box)

    def choose(self, box: str) -> None:
        """Fill ``box``: at once, or after a confirmation when it would get 0."""
        if not self._person_may_act():
            return
        game = self.table.game
        if game.dice is None:
            self.say(lambda t: t._("Roll the dice first"))
            return
        options = game.choices()
        if box not in options:
            self.say(lambda t: refusal(t, game, box))
            return
        if options[box] == 0:
            def question(t: Translator) -> str:
                return t._("Put 0 in {box}?", box=box_label(t, box))

            def answered(yes: bool | None) -> None:
                if yes:
                    self.apply(Score(box))
                else:
                    self.say(lambda t: "")

            self.app.push_screen(ConfirmScreen(question), answered)
            return
        self.apply(Score(box))

    def action_undo(self) -> None:
        """Take back the last box a person chose, before the next player acts (with real
        dice, the dice just typed too)."""
        before = self.table.game
        try:
            self.table.undo()
        except YatzyError as refused:
            self.say(self._error_message(refused, before))
            return
        step = before.history[-1]
        player = step.player
        self.holds = set(self.table.hold)
        self.last_score = lambda t: ""
        if isinstance(step.action, Score):
            box = step.action.box
            self.say(lambda t: t._("{player} takes back {box}: choose again.", player=player,
                                   box=box_label(t, box)))
        else:
            self.say(lambda t: t._("{player} takes back the dice typed in: type them again.",
                                   player=player))
        self.after_action()

    # --- Hints ----------------------------------------------------------------------

    def action_hint(self) -> None:
        """Show the best move (again: the next best ones too), from the solver."""
        if not self._person_may_act():
            return
        game = self.table.game
        self.hint_depth = 1 if self.hint_for is not game else min(self.hint_depth + 2, 5)
        self.hint_for = game
        self.say(lambda t: t._("Thinking…"))
        self.advise(game, self.hint_depth)

    def action_win_chances(self) -> None:
        """Show or hide every player's chance of winning (two players or more)."""
        game = self.table.game
        try:
            check_chances(game)
        except YatzyError as error:
            self.say(self._error_message(error, game))
            return
        from yatzy import solver

        if not solver.available():  # installed without the solver's compiled part
            self.say(self._error_message(solver.SolverMissing(), game))
            return
        self.show_chances = not self.show_chances
        self.refresh_view()
        if self.show_chances:
            self.estimate(game)

    @work(thread=True, exclusive=True, group="chances")
    def estimate(self, game: Game) -> None:
        """Have the players' win chances in ``game`` worked out by the advice service
        (seconds in the first rounds, milliseconds later): one version at a time, and a
        version asked for while another is worked out is passed over for the newest."""
        if not self.show_chances:
            return
        advice, saved = self.app.advice, self.table.saved
        if saved.game is not game:
            return  # the game moved on: the move asks for its own
        try:
            version, chances = advice.wait("chances", saved.id,
                                           advice.chances(saved.id, saved.version, game))
        except YatzyError:
            return  # busy: the next move asks again
        shown = self.table.saved
        if version == shown.version:
            self.post_message(self.Chances(shown.game, chances))

    @on(Chances)
    def estimated(self, event: Chances) -> None:
        """Show the chances, unless they are hidden or the game has moved on."""
        self.chances = (event.game, event.chances)
        if self.show_chances and event.game is self.table.game:
            self.refresh_view()

    @work(thread=True, exclusive=True, group="hint")
    def advise(self, game: Game, depth: int) -> None:
        """Ask the advice service for the optimal strategy's options in ``game`` (the
        first time loads its table)."""
        advice, saved = self.app.advice, self.table.saved
        try:
            _, options = advice.wait("hint", saved.id,
                                     advice.hint(saved.id, saved.version, game))
        except YatzyError as error:
            self.post_message(self.Advised(game, [], depth, error))
            return
        self.post_message(self.Advised(game, options, depth))

    @on(Advised)
    def advised(self, event: Advised) -> None:
        """Show the hint, unless the game has moved on meanwhile."""
        game = event.game
        if game is not self.table.game:
            return
        if event.error is not None:
            self.say(self._error_message(event.error, game))
        else:
            options, depth = event.options, event.depth
            if depth > 1:  # the list needs the room of the last turn's note, seen by now
                self.last_score = lambda t: ""
            self.say(lambda t: hint_text(t, game, options, depth))

    # --- Applying moves --------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a person's ``action`` through the table (and so the service), then go
        on."""
        before = self.table.game
        try:
            after = self.table.act(action)
        except YatzyError as refused:
            if self.table.game is not before:  # changed elsewhere: shown as it stands
                self.holds = set(self.table.hold)
            self.say(self._error_message(refused, before))
            self.after_action()
            return
        if isinstance(action, Score):
            self.holds = set()
            self.last_score = self._scored_message(after)
        self._shown_steps = len(after.history)
        self.message = lambda t: ""
        self.refresh_view()
        self.after_action()

    @staticmethod
    def _error_message(error: YatzyError, game: Game) -> Message:
        return lambda t: error_text(t, error, game)

    @staticmethod
    def _scored_message(game: Game) -> Message:
        step = game.history[-1]
        assert isinstance(step.action, Score)
        box, points, bonus = step.action.box, step.points or 0, step.bonus
        extra = game.ruleset.extra_yahtzee_points

        def text(t: Translator) -> str:
            said = t._("{player} put {points} in {box}.", player=step.player,
                       points=points, box=box_label(t, box))
            if bonus:
                said += " " + t._("Yahtzee bonus +{points}!", points=extra)
            return said

        return text

    def after_action(self) -> None:
        """Go on after a move: the end of the game, or the computers' steps (played by
        the session, which tells :meth:`noted` what to show)."""
        game = self.table.game
        if self.show_chances and not game.is_over and (
                self.chances is None or self.chances[0] is not game):
            self.estimate(game)
        if game.is_over:
            self.app.call_later(self.app.show_end, self.table)
            return
        self.session.start()

    # --- A computer's moves ----------------------------------------------------------

    def noted(self, note: Note) -> None:
        """What the session says: a computer shows the dice it keeps, or the game moved
        on (a computer's step, or a change made elsewhere)."""
        if note.kind == "computer" and isinstance(note.action, Reroll):
            self.holds = set(note.action.hold)
            self.refresh_view()
            return
        game = self.table.game
        if len(game.history) != self._shown_steps:
            last = game.history[-1] if game.history else None
            if last is not None and isinstance(last.action, Score) \
                    and len(game.history) > self._shown_steps:
                self.holds = set()
                self.last_score = self._scored_message(game)
            else:
                self.holds = set(self.table.hold)
            self._shown_steps = len(game.history)
        self.refresh_view()
        if game.is_over:
            self.app.call_later(self.app.show_end, self.table)
        elif self.show_chances and (self.chances is None or self.chances[0] is not game):
            self.estimate(game)
        if self.session.phase is Phase.DICE:
            self.ask_computer_dice()

    def ask_computer_dice(self) -> None:
        """In scorepad mode: ask for the real dice of the computer's chosen roll (once:
        not while the question is on screen)."""
        action = self.table.pending
        if (action is not None and self.table.needs_dice(action)
                and not isinstance(self.app.screen, DiceEntryScreen)):
            self.roll_with(action)

    async def computer_dice(self, dice: Dice) -> None:
        """Play the computer's waiting roll with the real ``dice`` typed in."""
        before = self.table.game
        try:
            await self.session.type_dice(dice)
        except YatzyError as refused:
            self.say(self._error_message(refused, before))
