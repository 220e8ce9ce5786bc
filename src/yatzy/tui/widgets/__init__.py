"""Widgets of the terminal game: dice and scorecard."""
