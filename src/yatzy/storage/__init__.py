"""Storage: saved games and their history in SQLite (or any SQL database SQLAlchemy
reaches), with the schema kept by Alembic migrations shipped in this package.

>>> from yatzy.storage import make_engine, upgrade, SqlGameRepository
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> SqlGameRepository(engine).unfinished()
[]
"""

from yatzy.storage.engine import database_url, make_engine
from yatzy.storage.migrate import head_revision, upgrade
from yatzy.storage.repository import SqlGameRepository, options_key

__all__ = [
    "SqlGameRepository",
    "database_url",
    "head_revision",
    "make_engine",
    "options_key",
    "upgrade",
]
