"""What ``env.py`` does, as a function that can be read, typed and tested."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from yatzy.storage.tables import metadata


def run_migrations(context: Any) -> None:
    """Run the migrations in Alembic's ``context``: on the connection in the config's
    attributes, or else on the config's ``sqlalchemy.url`` (developers' command line)."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        if context.is_offline_mode():
            context.configure(url=url, target_metadata=metadata, literal_binds=True)
            with context.begin_transaction():
                context.run_migrations()
            return
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            _run_online(context, conn)
        engine.dispose()
        return
    _run_online(context, connection)


def _run_online(context: Any, connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        compare_type=True,
        # SQLite changes a table by copying it: "batch" mode makes that work.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
