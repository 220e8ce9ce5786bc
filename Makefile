# The two set-up commands: `make run` starts the game (the web app; `yatzy play` is the
# terminal game), `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml src/yatzy/solver/_kernels.c
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/yatzy serve $(if $(PORT),--port $(PORT))

test: $(STAMP)
	test -d node_modules || npm ci --prefix . --no-audit --no-fund
	npx eslint
	node --test tests/js/*.test.js
	$(BIN)/ruff check src tests $(wildcard bench)
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest --cov --cov-branch --cov-report=term:skip-covered

bench: $(STAMP)
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/solve_steps.py
	$(BIN)/python bench/distribution.py
	$(BIN)/python bench/win_chances.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/rl.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage
