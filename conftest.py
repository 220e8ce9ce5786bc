"""Project-wide pytest configuration."""

collect_ignore_glob = ["src/yatzy/**/__main__.py", "bench/*"]
