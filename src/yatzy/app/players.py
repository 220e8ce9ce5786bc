"""Players and the daily challenge.

**Players.** A person who plays on a server is known by the random keys of their
browsers (:mod:`yatzy.app.access`; only the keys' SHA-256 is stored). A player may choose
a display name: the core's :func:`~yatzy.core.names.check_name` decides what a name may
be, and two players cannot have the same name as the core compares names
(:func:`~yatzy.core.names.name_key`: ignoring case and compatibility forms).

**The daily challenge.** Every UTC day, each ruleset at its standard options has one
challenge: a solo game on a secret seed derived from the server's secret (created once,
kept in the database) by :func:`daily_seed`, HMAC-SHA256 of ``"<rules>|<YYYY-MM-DD>"``.
While the day lasts only the seed's SHA-256 (:func:`~yatzy.core.seeded.seed_hash`) is
published; once the day is over the seed is revealed, and the record of every attempt
checks against it with :func:`yatzy.audit_record`. The dice of a roll come from the seed
and the roll's place in the game (:mod:`yatzy.core.seeded`), so two players who make the
same choices get the same dice; a player who rerolls more or less than another gets other
dice from then on. Each player has one *ranked* attempt a day per ruleset (a second is
:class:`~yatzy.app.errors.DailyPlayed`); earlier days stay playable, unranked. An attempt
counts once its game is over, if it was over before the day closed: its total, and the
points its decisions lost against optimal play (the solver's analysis). The day's *par*
is what the ``optimal`` computer scores playing the same seed.

>>> from datetime import date
>>> daily_seed("00" * 32, "yatzy", date(2026, 12, 2))[:16]
'4bb98c634775ef5b'
>>> check_day("2026-12-02")
datetime.date(2026, 12, 2)
>>> streak({date(2026, 12, 1), date(2026, 12, 2)}, today=date(2026, 12, 3))
2
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from yatzy.app.access import player_key_hash
from yatzy.app.codes import AppCode
from yatzy.app.dice import secret_seed
from yatzy.app.errors import (
    BadDay,
    BadQuery,
    BadSeats,
    DailyPlayed,
    DayNotOpen,
    GameNotFound,
    NameTaken,
    PlayerNotFound,
)
from yatzy.app.ports import PlayerRepository
from yatzy.app.ratings import provisional
from yatzy.app.saved import DailyEntry, Player, SavedGame, Seat
from yatzy.core.errors import IllegalMove, RecordError, RulesError, YatzyError
from yatzy.core.game import Game
from yatzy.core.names import check_name, name_key
from yatzy.core.rulesets import Ruleset, ruleset
from yatzy.core.rulesets import rulesets as all_rulesets
from yatzy.core.seeded import seed_hash
from yatzy.i18n import Translator

if TYPE_CHECKING:
    from collections.abc import Callable

    from yatzy.app.service import GameService

#: The setting that holds the server's secret the daily seeds are derived from.
DAILY_SECRET = "daily_secret"

#: The seat's name in a daily game of a player who has not chosen a name (unless the
#: caller gives one in the player's language).
UNNAMED = "Player"

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def daily_seed(secret: str, rules: str, day: date) -> str:
    """The secret seed of the challenge of ruleset ``rules`` on ``day``: HMAC-SHA256 of
    ``"<rules>|<YYYY-MM-DD>"`` under ``secret``, 64 hexadecimal digits (a secret seed of
    :mod:`yatzy.core.seeded`)."""
    message = f"{rules}|{day.isoformat()}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def offline_seed(rules: str, day: date) -> str:
    """The seed of the *offline* challenge of ``rules`` on ``day`` (``yatzy daily``
    without a server): SHA-256 of ``"yatzy offline daily|<rules>|<YYYY-MM-DD>"``. Anyone
    can work it out, so it is the same for everyone playing offline that day, never a
    server's secret seed, and never ranked."""
    return hashlib.sha256(f"yatzy offline daily|{rules}|{day.isoformat()}".encode()).hexdigest()


def check_day(value: object) -> date:
    """``value`` (``"YYYY-MM-DD"``, or a date) as a date; else :class:`BadDay`."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if not isinstance(value, str) or _DAY.fullmatch(value) is None:
        raise BadDay(value)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise BadDay(value) from None


def day_end(day: date) -> datetime:
    """The moment ``day`` (UTC) closes: the next day's midnight."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)


def daily_rules() -> list[Ruleset]:
    """The rulesets with a daily challenge: every ruleset at its standard options."""
    return [ruleset(info.name) for info in all_rulesets()]


def streak(days: Iterable[date], *, today: date) -> int:
    """The days in a row, up to ``today`` (or up to yesterday while today is not played
    yet), among ``days``."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count


def ranks(values: Sequence[float]) -> list[int]:
    """Competition ranks of ``values``, smallest first (equal values share a rank:
    1, 2, 2, 4).

    >>> ranks([3.0, 1.0, 3.0, 0.5])
    [3, 2, 3, 1]
    """
    ordered = sorted(values)
    return [1 + bisect.bisect_left(ordered, value) for value in values]


@dataclass(frozen=True)
class Challenge:
    """A day's challenge of a ruleset: the seed's hash, the seed once the day is over
    (else ``None``), and the number of ranked attempts so far."""

    rules: Ruleset
    day: date
    seed_hash: str
    seed: str | None
    players: int


@dataclass(frozen=True)
class Ranked:
    """An attempt and where it stands: ``rank`` by total (highest first) and
    ``accuracy_rank`` by points lost (fewest first; ``None`` where the solver does not
    play the rules), among ``of`` attempts that count. An attempt that does not count
    (not over, or over after the day closed) has no ranks."""

    entry: DailyEntry
    rank: int | None
    accuracy_rank: int | None
    of: int


@dataclass(frozen=True)
class DailyResults:
    """A challenge with its par (``None`` where the solver does not play the rules), its
    ranked attempts best first, and ``mine``: the asking player's attempt, if any."""

    challenge: Challenge
    par: int | None
    entries: tuple[Ranked, ...]
    mine: Ranked | None


@dataclass(frozen=True)
class Profile:
    """What is shown of a player. ``rating`` and ``rating_deviation`` (Glicko-2,
    :mod:`yatzy.app.ratings`) stay ``None`` until a rated game counted; the rating is
    ``provisional`` until :data:`~yatzy.app.ratings.PROVISIONAL_GAMES` rated games.
    ``points_lost_per_game`` is the mean over the player's ranked daily attempts (the
    games that are analysed), ``None`` before the first."""

    name: str
    games: int
    points_lost_per_game: float | None
    streak: int
    rating: float | None = None
    rating_deviation: float | None = None
    rated_games: int = 0
    provisional: bool = True
    #: The OpenSkill rating of rated tables of 3 to 6 players (mu and sigma,
    #: :mod:`yatzy.app.skill`), and how many counted.
    multi_rating: float | None = None
    multi_rating_deviation: float | None = None
    multi_rated_games: int = 0
    multi_provisional: bool = True


def share_text(t: Translator, rules: Ruleset, mine: Ranked) -> str:
    """What a player shares after a challenge: ``Yatzy 2026-12-02: 271 · 3.4 from
    perfect · #12 of 340``, in ``t``'s language."""
    from yatzy.app.hints import format_points
    from yatzy.i18n.words import ruleset_title

    entry = mine.entry
    parts = [t._("{rules} {day}: {total}", rules=ruleset_title(t, rules),
                 day=entry.day.isoformat(), total=entry.total)]
    if entry.points_lost is not None:
        parts.append(t._("{points} from perfect", points=format_points(t, entry.points_lost)))
    if mine.rank is not None:
        parts.append(t._("#{rank} of {players}", rank=mine.rank, players=mine.of))
    return " · ".join(parts)


def _standard(rules: object) -> Ruleset:
    """The standard options of the ruleset named ``rules`` (the core's error for an
    unknown name)."""
    if not isinstance(rules, str):
        raise BadQuery(f"A ruleset's name is needed, not {rules!r}", value=repr(rules))
    return ruleset(rules)


def points_lost(game: Game) -> float | None:
    """The expected points the (only) player's decisions lost against optimal play;
    ``None`` where the solver does not play the rules or their table is not built (Maxi
    Yatzy's, by ``yatzy solve``: never built here)."""
    from yatzy.solver import SolverMissing, TableNotBuilt, UnsupportedRuleset, check_ready
    from yatzy.solver.analysis import analyse

    try:
        check_ready(game.ruleset)
        return round(analyse(game).players[0].total_loss, 3)
    except (RulesError, UnsupportedRuleset, TableNotBuilt, SolverMissing):
        return None


def par(rules: Ruleset, seed: str) -> int | None:
    """What the ``optimal`` computer scores alone on ``seed``: the day's par; ``None``
    where the solver does not play ``rules``."""
    from yatzy.bots import check_level, make_bot

    try:
        check_level("optimal", rules)
    except YatzyError:
        return None
    bot = make_bot("optimal")
    game = Game.start(rules, ["optimal"], seed=seed)
    while not game.is_over:
        game = game.apply(bot.choose(game))
    return game.cards[0].total


class PlayerService:
    """Players' names and profiles, and the daily challenges, over a
    :class:`~yatzy.app.ports.PlayerRepository` and the games of a
    :class:`~yatzy.app.service.GameService` (``service.players``)."""

    def __init__(self, games: GameService, repository: PlayerRepository,
                 clock: Callable[[], datetime]) -> None:
        self._games = games
        self._repo = repository
        self._clock = clock
        self._daily_secret: str | None = None

    # --- Players --------------------------------------------------------------------

    def today(self) -> date:
        """The current UTC day (from the service's clock)."""
        return self._clock().astimezone(UTC).date()

    def me(self, player_key: str) -> Player:
        """The player of the browser with ``player_key`` (a new player without a name
        for a key seen the first time)."""
        player = self._repo.player_of_key(player_key_hash(player_key), create_at=self._clock())
        assert player is not None
        return player

    def name_of(self, player_key: str) -> str | None:
        """The display name of the player of ``player_key`` (``None``: none chosen, or
        a key not seen yet; nothing is created)."""
        player = self._repo.player_of_key(player_key_hash(player_key))
        return None if player is None else player.name

    def set_name(self, player_key: str, name: object) -> Player:
        """Give the player of ``player_key`` the display name ``name``: checked by the
        core (:class:`~yatzy.core.errors.InvalidName`), unique
        (:class:`~yatzy.app.errors.NameTaken`)."""
        checked = check_name(name)
        player = self.me(player_key)
        self._repo.rename_player(player.id, checked, name_key(checked), self._clock())
        return replace(player, name=checked)

    def seat_name(self, player_key: str | None, name: object = None) -> str:
        """The name a person takes a seat of a public table under: ``name`` when given
        (checked by the core; :class:`~yatzy.app.errors.NameTaken` when it is another
        player's display name), else the display name of the player of ``player_key``;
        :class:`~yatzy.app.errors.BadSeats` when there is neither."""
        if name is None:
            found = None if player_key is None else self.name_of(player_key)
            if found is None:
                raise BadSeats("Give a name to join the table", code=AppCode.NAME_NEEDED)
            return found
        try:
            checked = check_name(name)
        except IllegalMove as exc:
            raise BadSeats(exc.message, code=exc.code, **exc.params) from exc
        owner = self._repo.player_named(name_key(checked))
        if owner is not None:
            mine = None if player_key is None else self._repo.player_of_key(
                player_key_hash(player_key))
            if mine is None or mine.id != owner.id:
                raise NameTaken(checked)
        return checked

    def named(self, name: object) -> Player:
        """The player called ``name`` (as the core compares names), their rated games
        over counted; :class:`~yatzy.app.errors.PlayerNotFound` when nobody is."""
        try:
            checked = check_name(name)
        except IllegalMove:
            raise PlayerNotFound(str(name)[:80]) from None
        player = self._repo.player_named(name_key(checked))
        if player is None or player.name is None:
            raise PlayerNotFound(checked)
        if self._games.matches.pending(player.id):
            self._games.matches.settle_player(player.id)
            player = self._repo.player_named(name_key(checked)) or player
        return player

    def daily_days(self, player_id: str
                   ) -> tuple[int, tuple[tuple[date, str, int | None, float | None], ...]]:
        """The player's daily streak and their attempts that count, newest first:
        (day, ruleset, total, points lost)."""
        entries = self._counting(player_id)
        return (streak((e.day for e in entries), today=self.today()),
                tuple((e.day, e.rules, e.total, e.points_lost) for e in entries))

    def profile(self, name: object) -> Profile:
        """The profile of the player called ``name`` (as the core compares names);
        :class:`~yatzy.app.errors.PlayerNotFound` when nobody is."""
        player = self.named(name)
        assert player.name is not None
        entries = self._counting(player.id)
        lost = [e.points_lost for e in entries if e.points_lost is not None]
        return Profile(
            name=player.name, games=self._repo.player_games(player.id),
            points_lost_per_game=round(sum(lost) / len(lost), 3) if lost else None,
            streak=streak((e.day for e in entries), today=self.today()),
            rating=None if player.rating is None else round(player.rating, 1),
            rating_deviation=(None if player.rating_deviation is None
                              else round(player.rating_deviation, 1)),
            rated_games=player.rated_games, provisional=provisional(player.rated_games),
            multi_rating=None if player.skill_mu is None else round(player.skill_mu, 2),
            multi_rating_deviation=(None if player.skill_sigma is None
                                    else round(player.skill_sigma, 2)),
            multi_rated_games=player.skill_games,
            multi_provisional=provisional(player.skill_games),
        )

    def streak_of(self, player_key: str) -> int:
        """The daily streak of the player of ``player_key`` (0 for a key not seen)."""
        player = self._repo.player_of_key(player_key_hash(player_key))
        if player is None:
            return 0
        return streak((e.day for e in self._counting(player.id)), today=self.today())

    def _counting(self, player_id: str) -> list[DailyEntry]:
        """The player's ranked attempts that count."""
        return [e for e in self._settled(self._repo.player_entries(player_id)) if _counts(e)]

    # --- The daily challenge --------------------------------------------------------

    def _secret(self) -> str:
        """The server's daily secret: made and stored once, then never changed, so read
        from the database once per service."""
        if self._daily_secret is None:
            self._daily_secret = self._repo.setting(DAILY_SECRET, secret_seed())
        return self._daily_secret

    def _check_open(self, day: object) -> date:
        checked = check_day(day)
        if checked > self.today():
            raise DayNotOpen(checked.isoformat())
        return checked

    def challenge(self, rules: object, day: object) -> Challenge:
        """The challenge of ruleset ``rules`` (a name; its standard options) on ``day``
        (``"YYYY-MM-DD"``, not after today): the seed only once the day is over."""
        standard = _standard(rules)
        checked = self._check_open(day)
        seed = daily_seed(self._secret(), standard.name, checked)
        return Challenge(standard, checked, seed_hash(seed),
                         seed if checked < self.today() else None,
                         self._repo.daily_counts(checked).get(standard.name, 0))

    def today_challenges(self) -> list[Challenge]:
        """Today's challenges, one per ruleset (its seed's hash, not the seed)."""
        today = self.today()
        counts = self._repo.daily_counts(today)
        secret = self._secret()
        return [Challenge(rules, today, seed_hash(daily_seed(secret, rules.name, today)), None,
                          counts.get(rules.name, 0)) for rules in daily_rules()]

    def play(self, rules: object, player_key: str, *, day: object = None,
             token_hash: str | None = None, unnamed: str = UNNAMED,
             admit: Callable[[], None] | None = None) -> SavedGame:
        """Start ``player_key``'s attempt at the challenge of ``rules`` on ``day``
        (default today): ranked today (a second ranked attempt is
        :class:`~yatzy.app.errors.DailyPlayed`), unranked on an earlier day. The game is
        a solo game on the day's seed, its seat named after the player (``unnamed``
        for a player without a name; with ``token_hash``, the hash of the seat's
        token), in the player's games. ``admit`` (a quota of games) is asked once the
        attempt may begin, so that a refused attempt uses none of it."""
        standard = _standard(rules)
        today = self.today()
        checked = today if day is None else self._check_open(day)
        player = self.me(player_key)
        ranked = checked == today
        if ranked and any(e.player_id == player.id
                          for e in self._repo.daily_entries(standard.name, checked)):
            raise DailyPlayed(standard.name, checked.isoformat())
        if admit is not None:
            admit()
        seed = daily_seed(self._secret(), standard.name, checked)
        name = player.name or unnamed
        saved = self._games.create(standard, [Seat(name, token_hash=token_hash)], seed=seed)
        if ranked:
            try:
                self._repo.add_daily_entry(DailyEntry(
                    standard.name, checked, player.id, player.name, saved.id, self._clock()))
            except DailyPlayed:
                self._games.delete(saved.id)  # another attempt began at the same moment
                raise
        self._games.claim_seat(saved.id, name, player_key)
        return saved

    def results(self, rules: object, day: object, player_key: str | None = None
                ) -> DailyResults:
        """The challenge of ``rules`` on ``day`` with its par and its ranked attempts,
        best total first; with ``player_key``, that player's own attempt too."""
        challenge = self.challenge(rules, day)
        name = challenge.rules.name
        entries = self._settled(self._repo.daily_entries(name, challenge.day))
        counting = sorted((e for e in entries if _counts(e)),
                          key=lambda e: (-(e.total or 0), e.finished_at or e.started_at))
        by_total = ranks([-(e.total or 0) for e in counting])
        losses = [e.points_lost for e in counting]
        by_loss = (ranks([lost or 0.0 for lost in losses])
                   if all(lost is not None for lost in losses) else [None] * len(losses))
        ranked = tuple(Ranked(e, r, a, len(counting))
                       for e, r, a in zip(counting, by_total, by_loss, strict=True))
        mine = None
        if player_key is not None:
            me = self._repo.player_of_key(player_key_hash(player_key))
            if me is not None:
                mine = next((r for r in ranked if r.entry.player_id == me.id), None) or next(
                    (Ranked(e, None, None, len(counting)) for e in entries
                     if e.player_id == me.id), None)
        return DailyResults(challenge, self.par(challenge), ranked, mine)

    def sealed(self, game: Game) -> bool:
        """True when ``game``'s seed is the seed of today's challenge of its ruleset: it
        must not be shown (in the record of a game already over, say) before the day
        is over, or the day's dice would be known to everyone still to play."""
        seed = game.seed
        if not isinstance(seed, str):
            return False
        expected = daily_seed(self._secret(), game.ruleset.name, self.today())
        return hmac.compare_digest(seed, expected)

    def par(self, challenge: Challenge) -> int | None:
        """The par of ``challenge`` (worked out once, then kept)."""
        name = challenge.rules.name
        found = self._repo.daily_par(name, challenge.day)
        if found is None:
            found = par(challenge.rules, daily_seed(self._secret(), name, challenge.day))
            if found is not None:
                self._repo.set_daily_par(name, challenge.day, found)
        return found

    def _settled(self, entries: list[DailyEntry]) -> list[DailyEntry]:
        """``entries`` with the total and points lost of every game that is over noted."""
        settled = []
        for entry in entries:
            if not entry.finished:
                entry = self._settle(entry)
            settled.append(entry)
        return settled

    def settle_daily(self, player_id: str, game_id: str, lost: float | None) -> bool:
        """Note the result of the player's ranked attempt played in ``game_id`` (over),
        with ``lost`` the points its decisions lost, worked out already (in the
        background, when the game ended): True when there was such an attempt to note."""
        for entry in self._repo.player_entries(player_id):
            if entry.game_id == game_id and not entry.finished:
                return self._settle(entry, lost, known=True).finished
        return False

    def _settle(self, entry: DailyEntry, lost: float | None = None, *,
                known: bool = False) -> DailyEntry:
        """``entry`` with its game's result noted, once the game is over: the points
        lost are ``lost`` when ``known``, else worked out here (the solver's analysis)."""
        try:
            saved = self._games.load(entry.game_id)
        except (GameNotFound, RecordError):
            return entry  # a game deleted, or that no longer replays, does not count
        if not saved.finished:
            return entry
        done = replace(entry, total=saved.game.cards[0].total,
                       points_lost=lost if known else points_lost(saved.game),
                       finished_at=saved.updated_at)
        self._repo.finish_daily_entry(done)
        return done


def _counts(entry: DailyEntry) -> bool:
    """True when an attempt counts: over, and over before its day closed."""
    return entry.finished_at is not None and entry.finished_at < day_end(entry.day)


__all__ = ["DAILY_SECRET", "UNNAMED", "Challenge", "DailyResults", "PlayerService",
           "Profile", "Ranked", "check_day", "daily_rules", "daily_seed", "day_end",
           "offline_seed", "par", "points_lost", "ranks", "share_text", "streak"]
