"""moves: one row per action of each game, so that an action appends a row instead of
rewriting the game's whole record; games.record keeps the record's header (all but the
actions).

Every game's actions move to its rows of ``moves``, in SQL on SQLite and PostgreSQL (so
that the offline SQL moves them too); a record that does not decode, is no game record or
holds no list of actions (a damaged row) is left whole, still exportable. The downgrade
puts the actions back.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: Games moved per round trip.
BATCH = 200

# The tables as this migration finds and leaves them (not the models, which move on).
_games = sa.table("games", sa.column("id", sa.String()), sa.column("record", sa.JSON()))
_moves = sa.table("moves", sa.column("game_id", sa.String()), sa.column("step", sa.Integer()),
                  sa.column("action", sa.JSON()))

#: The keys a record writes after its actions.
_AFTER_ACTIONS = ("seed_hash", "totals")


def _decoded(text: str | None) -> Any:
    """A JSON column read as text, decoded; text that is not JSON stays as it is."""
    try:
        return json.loads(text) if text is not None else None
    except ValueError:
        return text


def _records(connection: sa.Connection) -> Iterator[list[tuple[str, Any]]]:
    """Every game's id and record (decoded, or its text when it is not JSON), a batch at
    a time."""
    ids = list(connection.scalars(sa.select(_games.c.id).order_by(_games.c.id)))
    for start in range(0, len(ids), BATCH):
        rows = connection.execute(
            sa.select(_games.c.id, sa.cast(_games.c.record, sa.Text))
            .where(_games.c.id.in_(ids[start:start + BATCH]))
            .order_by(_games.c.id)
        ).all()
        yield [(game_id, _decoded(text)) for game_id, text in rows]


def _header(record: Any) -> bool:
    """True when ``record`` is (at least the header of) a game record."""
    return isinstance(record, dict) and record.get("format") == "yatzy-game"


def _set_records(connection: sa.Connection, records: list[dict[str, Any]]) -> None:
    if records:
        connection.execute(
            _games.update()
            .where(_games.c.id == sa.bindparam("b_id"))
            .values(record=sa.bindparam("b_record", type_=sa.JSON())),
            records,
        )


# SQLite and PostgreSQL move the data with one statement each (which also works as the
# SQL of an offline migration); any other database with the functions above, online.

#: On SQLite: the record is a game record with a list of actions (a damaged one is left
#: whole).
_SQLITE_ACTIONS = ("CASE WHEN json_valid(games.record)"
                   " THEN json_type(games.record, '$.actions') = 'array'"
                   " AND json_extract(games.record, '$.format') = 'yatzy-game' END")

_UP = {
    "sqlite": [
        f"""INSERT INTO moves (game_id, step, action)
SELECT games.id, actions.key,
  CASE actions.type WHEN 'object' THEN actions.value WHEN 'array' THEN actions.value
    WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null'
    ELSE json_quote(actions.value) END
FROM games, json_each(
  CASE WHEN {_SQLITE_ACTIONS} THEN json_extract(games.record, '$.actions') ELSE '[]' END
) AS actions""",
        f"UPDATE games SET record = json_remove(record, '$.actions') WHERE {_SQLITE_ACTIONS}",
    ],
    "postgresql": [
        """INSERT INTO moves (game_id, step, action)
SELECT games.id, actions.n - 1, actions.value
FROM games CROSS JOIN LATERAL json_array_elements(
  CASE WHEN json_typeof(games.record -> 'actions') = 'array'
    AND games.record ->> 'format' = 'yatzy-game'
    THEN games.record -> 'actions' ELSE '[]'::json END
) WITH ORDINALITY AS actions(value, n)""",
        """UPDATE games SET record = COALESCE((
  SELECT json_object_agg(f.key, f.value ORDER BY f.n)
  FROM json_each(games.record) WITH ORDINALITY AS f(key, value, n) WHERE f.key <> 'actions'
), '{}'::json)
WHERE json_typeof(games.record -> 'actions') = 'array'
  AND games.record ->> 'format' = 'yatzy-game'""",
    ],
}

_DOWN = {
    "sqlite": ["""UPDATE games SET record = json_set(record, '$.actions', json(COALESCE((
  SELECT json_group_array(json(
    CASE WHEN json_valid(m.action) THEN m.action ELSE json_quote(m.action) END))
  FROM (SELECT action FROM moves WHERE moves.game_id = games.id ORDER BY step) AS m
), '[]')))
WHERE CASE WHEN json_valid(record)
  THEN json_type(record) = 'object' AND json_type(record, '$.actions') IS NULL
    AND json_extract(record, '$.format') = 'yatzy-game' END"""],
    "postgresql": ["""UPDATE games SET record = (
  SELECT json_object_agg(f.key, f.value ORDER BY f.n) FROM (
    SELECT e.key, e.value, e.n FROM json_each(games.record) WITH ORDINALITY AS e(key, value, n)
    UNION ALL
    SELECT 'actions', COALESCE((SELECT json_agg(m.action ORDER BY m.step) FROM moves AS m
                                WHERE m.game_id = games.id), '[]'::json), 2147483647
  ) AS f
)
WHERE json_typeof(games.record) = 'object' AND games.record -> 'actions' IS NULL
  AND games.record ->> 'format' = 'yatzy-game'"""],
}


def move_actions(connection: sa.Connection) -> None:
    """Move every game's actions from its record to ``moves`` (any database)."""
    for batch in _records(connection):
        rows: list[dict[str, Any]] = []
        headers: list[dict[str, Any]] = []
        for game_id, record in batch:
            if not _header(record) or not isinstance(record.get("actions"), list):
                continue  # damaged: kept whole, and read (and refused) as it was
            header = {key: value for key, value in record.items() if key != "actions"}
            rows += [{"game_id": game_id, "step": step, "action": action}
                     for step, action in enumerate(record["actions"])]
            headers.append({"b_id": game_id, "b_record": header})
        if rows:
            connection.execute(_moves.insert(), rows)
        _set_records(connection, headers)


def put_actions_back(connection: sa.Connection) -> None:
    """Put every game's moves back in its record (any database)."""
    for batch in _records(connection):
        ids = [game_id for game_id, record in batch
               if _header(record) and "actions" not in record]
        actions: dict[str, list[Any]] = {game_id: [] for game_id in ids}
        if ids:
            for game_id, text in connection.execute(
                sa.select(_moves.c.game_id, sa.cast(_moves.c.action, sa.Text))
                .where(_moves.c.game_id.in_(ids))
                .order_by(_moves.c.game_id, _moves.c.step)
            ):
                actions[game_id].append(_decoded(text))
        records = []
        for game_id, header in batch:
            if game_id in actions:
                record = {key: value for key, value in header.items()
                          if key not in _AFTER_ACTIONS}
                record["actions"] = actions[game_id]
                record.update((key, header[key]) for key in _AFTER_ACTIONS if key in header)
                records.append({"b_id": game_id, "b_record": record})
        _set_records(connection, records)


def _run(statements: dict[str, list[str]], anywhere: Callable[[sa.Connection], None]) -> None:
    dialect = op.get_context().dialect.name
    if dialect in statements:
        for statement in statements[dialect]:
            op.execute(statement)
    else:
        anywhere(op.get_bind())


def upgrade() -> None:
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name="fk_moves_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "step", name="pk_moves"),
    )
    _run(_UP, move_actions)


def downgrade() -> None:
    _run(_DOWN, put_actions_back)
    op.drop_table("moves")
