"""What the commands that read the game database share."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from yatzy.bootstrap import describe_db
from yatzy.i18n import Translator


def no_games_yet(t: Translator, db: str | Path | None) -> Text:
    """What a read-only command says when the game database is not there yet (plain
    text: a path is shown as it is)."""
    return Text(t._("No games yet: there is no game database at {db}.\n"
                    "Play one with `yatzy play`.", db=describe_db(db)))
