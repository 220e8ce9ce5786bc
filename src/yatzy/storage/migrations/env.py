"""Alembic's environment: runs the migrations on the connection that
:func:`yatzy.storage.migrate.upgrade` (or a developer's ``alembic`` command) gives."""

from __future__ import annotations

from alembic import context

from yatzy.storage.migrations.runner import run_migrations

# Alembic executes this file to migrate; anything else that imports it (a test
# collector, say) gets the module without side effects.
if hasattr(context, "config"):
    run_migrations(context)
