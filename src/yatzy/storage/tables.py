"""The database schema, as SQLAlchemy Core tables.

``games`` holds one row per game: its record's header (JSON) plus columns for queries.
``moves`` holds one row per action, so that an action appends a row instead of rewriting
the game; the header and the moves make the record, the source of truth. ``results``
holds one row per player of each finished game, for history and statistics. ``changes``
is a short-lived log of the events of every change, for the other processes on the same
database; ``leases`` says which process plays a game's computer turns. The schema is
created and changed only by the Alembic migrations in ``migrations/``; a test checks that
they produce exactly these tables.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

#: Deterministic constraint names, so that migrations can refer to them on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back as an aware datetime on every database
    (SQLite keeps no time zone)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"Timestamps must be aware, not {value!r}")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    #: Ruleset name ("yatzy", "yahtzee").
    sa.Column("ruleset", sa.String(32), nullable=False),
    #: Every option of the ruleset as canonical JSON (sorted keys, defaults included).
    sa.Column("options_key", sa.String(255), nullable=False),
    #: The seed's text form: a number, or a secret seed's hexadecimal digits.
    sa.Column("seed", sa.String(64), nullable=True),
    sa.Column("dice_mode", sa.String(16), nullable=False),
    #: "playing" or "finished".
    sa.Column("status", sa.String(16), nullable=False),
    #: The actions of the game's record, its rows of ``moves`` (an undo and the action
    #: it took back are two; before undos were recorded, an undo deleted its action).
    sa.Column("steps", sa.Integer, nullable=False),
    #: Writes so far (each action or undo adds one): the row's version for optimistic
    #: concurrency (before undos were recorded, an undo lowered ``steps``).
    sa.Column("version", sa.Integer, nullable=False, server_default="1"),
    #: [{"name": ..., "bot": ... or null}] in seat order (``"open": true`` for a seat of
    #: a public table that waits for a player).
    sa.Column("seats", sa.JSON, nullable=False),
    #: Table settings that are not rules, as JSON: {"hints": true}; NULL = defaults.
    sa.Column("settings", sa.JSON, nullable=True),
    #: The game record's header (``record_header``: the record without its actions, with
    #: the totals once the game is over); the actions are the rows of ``moves``.
    sa.Column("record", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    #: A public table: listed in the lobby, its open seats for anyone to take.
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    #: Seats still open (a public table waits for players while there are any).
    sa.Column("open_seats", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_games_status_updated_at", "status", "updated_at"),
    sa.Index("ix_games_ruleset_options_key", "ruleset", "options_key"),
    sa.Index("ix_games_public_status_updated_at", "public", "status", "updated_at"),
)

#: One row per action of each game, in order: the record's ``actions``, one at a time.
moves = sa.Table(
    "moves",
    metadata,
    sa.Column(
        "game_id",
        sa.String(32),
        sa.ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    #: The action's place in the game, from 0.
    sa.Column("step", sa.Integer, primary_key=True),
    #: The record's entry for it (``step_entry``): the action with the dice it used, the
    #: player, a score's points and bonus.
    sa.Column("action", sa.JSON, nullable=False),
)

results = sa.Table(
    "results",
    metadata,
    sa.Column(
        "game_id",
        sa.String(32),
        sa.ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.Text, nullable=False),
    sa.Column("is_bot", sa.Boolean, nullable=False),
    #: The computer player's level, NULL for a person.
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("upper_bonus", sa.Integer, nullable=False),
    #: Points in the five-of-a-kind box (50 or 0).
    sa.Column("yahtzee_points", sa.Integer, nullable=False),
    sa.Column("yahtzee_bonuses", sa.Integer, nullable=False),
    #: 1 = won (shared wins too).
    sa.Column("place", sa.Integer, nullable=False),
    sa.Index("ix_results_player", "player"),
)

#: Which browsers sit in which seats: a browser keeps a random player key (no password)
#: and only its SHA-256 is stored. One seat may have several (a phone and a laptop).
seat_keys = sa.Table(
    "seat_keys",
    metadata,
    sa.Column(
        "game_id",
        sa.String(32),
        sa.ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("claimed_at", UTCDateTime, nullable=False),
    sa.Index("ix_seat_keys_key_hash", "key_hash"),
)

#: The change log: the event of every change, written in the change's transaction, so
#: that other processes on the same database hear of it (:class:`yatzy.app.feed.StoreFeed`
#: reads it a few times a second). Entries are kept for minutes, not for history; no
#: foreign key, since a deleted game's event outlives it.
changes = sa.Table(
    "changes",
    metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    #: The service (process) that stored the change: it published the event already.
    sa.Column("origin", sa.String(32), nullable=False),
    #: The event's dict form (``Event.to_dict()``).
    sa.Column("event", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ix_changes_created_at", "created_at"),
)

#: The server's own settings, one value a key, created once (``daily_secret``: the secret
#: the daily challenges' seeds are derived from).
settings = sa.Table(
    "settings",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

#: People who play on this server: a display name (optional, unique as the core compares
#: names). A player is known by the keys of its browsers (``player_keys``), so a player
#: can later have several devices; ratings, passkeys and the like hang off ``id``.
players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    #: The display name as the player typed it; NULL until the player chooses one.
    sa.Column("name", sa.Text, nullable=True),
    #: ``yatzy.core.names.name_key(name)``: unique, so no two players share a name in
    #: any case or compatibility form.
    sa.Column("name_key", sa.Text, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    #: The Glicko-2 rating (:mod:`yatzy.app.ratings`): NULL until the first rated game.
    sa.Column("rating", sa.Float, nullable=True),
    sa.Column("rating_deviation", sa.Float, nullable=True),
    sa.Column("rating_volatility", sa.Float, nullable=True),
    #: Rated games that counted for the rating.
    sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
    sa.UniqueConstraint("name_key"),
)

#: The browsers (player keys, only their SHA-256) of each player.
player_keys = sa.Table(
    "player_keys",
    metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ix_player_keys_player_id", "player_id"),
)

#: Each player's ranked attempt at a day's challenge of a ruleset (one at most). The
#: total and the points lost are noted once the game is over.
daily_entries = sa.Table(
    "daily_entries",
    metadata,
    sa.Column("ruleset", sa.String(32), primary_key=True),
    #: The UTC day of the challenge.
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column(
        "game_id",
        sa.String(32),
        sa.ForeignKey("games.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("started_at", UTCDateTime, nullable=False),
    #: NULL until the game is over (and for a game finished after the day closed).
    sa.Column("total", sa.Integer, nullable=True),
    #: Expected points lost against optimal play; NULL where the solver does not play.
    sa.Column("points_lost", sa.Float, nullable=True),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.UniqueConstraint("game_id"),
    sa.Index("ix_daily_entries_player_id", "player_id"),
)

#: What optimal play scores on a day's dice stream (worked out once).
daily_pars = sa.Table(
    "daily_pars",
    metadata,
    sa.Column("ruleset", sa.String(32), primary_key=True),
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("par", sa.Integer, nullable=False),
)

#: Leases: what one process at a time may do, and until when (a game's computer turns,
#: by game id). A row is deleted when its holder lets go; one left behind ran out (its
#: holder was killed) and is taken over. The times are the database's clock.
leases = sa.Table(
    "leases",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    #: The process that holds it (its :attr:`~yatzy.app.ports.LeaseStore.holder`).
    sa.Column("holder", sa.String(32), nullable=False),
    sa.Column("expires_at", UTCDateTime, nullable=False),
    sa.Index("ix_leases_expires_at", "expires_at"),
)

#: Quick match: each request of a player to be paired with another for a rated game of
#: a ruleset (its standard options). The ticket the player holds is secret: only its
#: SHA-256 is the row's id. A row waits until another request pairs with it (both rows
#: then name the game and their seat in one transaction), or it is cancelled.
match_tickets = sa.Table(
    "match_tickets",
    metadata,
    #: SHA-256 of the ticket.
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
    ),
    #: The player's id while the ticket waits, else NULL: unique, so that a player
    #: waits with one ticket at most.
    sa.Column("waiting_player", sa.String(32), nullable=True),
    #: The player's display name when the ticket was made (the seat's name).
    sa.Column("name", sa.Text, nullable=False),
    #: SHA-256 of the browser's player key (its seat is claimed for it).
    sa.Column("key_hash", sa.String(64), nullable=False),
    #: SHA-256 of the seat token the ticket gives (made from the ticket).
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("ruleset", sa.String(32), nullable=False),
    #: The player's rating when the ticket was made (closest first).
    sa.Column("rating", sa.Float, nullable=False),
    #: "waiting", "matched", "cancelled" or "expired" (not asked about for a while).
    sa.Column("status", sa.String(16), nullable=False),
    #: Once matched: the game (no foreign key: it is created just after) and the seat.
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    #: When the ticket's holder last asked about it (a ticket not asked about for a
    #: while is not paired: its holder left).
    sa.Column("seen_at", UTCDateTime, nullable=False),
    sa.Column("matched_at", UTCDateTime, nullable=True),
    sa.UniqueConstraint("waiting_player"),
    sa.Index("ix_match_tickets_status_ruleset", "status", "ruleset"),
    sa.Index("ix_match_tickets_game_id", "game_id"),
    sa.Index("ix_match_tickets_player_id", "player_id"),
)

#: The rated games (made by quick match) and whether their result has counted for the
#: players' ratings: ``rated_at`` is set once, in the transaction that updates them.
rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("ruleset", sa.String(32), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("rated_at", UTCDateTime, nullable=True),
)

#: Link codes: a player's browser asks for one to link another device (good once, for
#: minutes). Only a slow hash of the code is stored (scrypt, ``code_hash``: 64 hex
#: digits). A used code keeps its row (``used_at``)
#: so that giving it again is told apart from a wrong code, until it is cleared a day on.
link_codes = sa.Table(
    "link_codes",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("expires_at", UTCDateTime, nullable=False),
    sa.Column("used_at", UTCDateTime, nullable=True),
    sa.Index("ix_link_codes_player_id", "player_id"),
    sa.Index("ix_link_codes_expires_at", "expires_at"),
)

#: Refused link codes, by whom they came from (the SHA-256 of a client's address or of
#: a browser's key hash): counted over minutes, to slow down guessing.
link_failures = sa.Table(
    "link_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("subject", sa.String(64), nullable=False),
    sa.Column("failed_at", UTCDateTime, nullable=False),
    sa.Index("ix_link_failures_subject_failed_at", "subject", "failed_at"),
    sa.Index("ix_link_failures_failed_at", "failed_at"),
)

#: Passkeys (WebAuthn credentials) of players: the credential id (base64url), the
#: public key (COSE) and the authenticator's signature counter.
passkeys = sa.Table(
    "passkeys",
    metadata,
    sa.Column("id", sa.String(1400), primary_key=True),
    sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    #: How the browser may reach the authenticator (["internal", "hybrid"]).
    sa.Column("transports", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("last_used_at", UTCDateTime, nullable=True),
    sa.Index("ix_passkeys_player_id", "player_id"),
)

#: Passkey challenges waiting for their answer (the SHA-256 of the challenge): each is
#: good once, for minutes, for one purpose ("register", "sign_in") and, to register, one
#: player.
webauthn_challenges = sa.Table(
    "webauthn_challenges",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        nullable=True,
    ),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("expires_at", UTCDateTime, nullable=False),
    sa.Index("ix_webauthn_challenges_expires_at", "expires_at"),
)
