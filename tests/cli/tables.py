"""Reading rich tables printed by the commands."""

from __future__ import annotations


def rows(out: str) -> list[list[str]]:
    """The cells of each body row of a rich table."""
    return [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in out.splitlines() if line.startswith("│")]


def header(out: str) -> list[str]:
    """The column names of a rich table."""
    line = next(line for line in out.splitlines() if line.startswith("┃"))
    return [cell.strip() for cell in line.split("┃")[1:-1]]
