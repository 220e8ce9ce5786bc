"""The terminal game (``yatzy play``), built with Textual."""
