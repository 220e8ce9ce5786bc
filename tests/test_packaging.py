"""Packaging: the solver's compiled part is optional. Installed from source without a C
compiler, yatzy installs and everything but the solver works; a solver feature says in
one line what is missing (and the web app neither offers nor accepts it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "yatzy"
MISSING_LINE = ("yatzy: The solver is not installed (its compiled part was not built): "
                "install yatzy from a wheel, or install a C compiler and reinstall yatzy")


def _copy_source(to: Path) -> Path:
    """What an sdist holds (the build's own files and the package's), without anything
    built in place (the compiled solver, caches)."""
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, to / name)
    shutil.copytree(SOURCE, to / "src" / "yatzy", ignore=shutil.ignore_patterns(
        "*.so", "*.pyd", "__pycache__", "*.egg-info"))
    return to


@pytest.fixture(scope="module")
def without_compiler(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with yatzy installed from source where no C compiler runs
    (PATH holds none, CC names none); it borrows the test environment's dependencies."""
    if not (ROOT / "setup.py").is_file() or not SOURCE.is_dir():
        pytest.skip("needs the source tree")
    base = tmp_path_factory.mktemp("nocc")
    (base / "src-copy").mkdir()
    source = _copy_source(base / "src-copy")
    env = base / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(env)}))
    # The dependencies (and pip, setuptools) of the running tests, after the env's own.
    (site / "zz-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    python = env / "bin" / "python"
    no_tools = base / "bin"
    no_tools.mkdir()
    environ = {**os.environ, "PATH": str(no_tools), "CC": "no-such-compiler",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    # The build uses the test environment's setuptools when it is recent enough (no
    # download), else an isolated build fetches one.
    offline = int(setuptools.__version__.split(".")[0]) >= 77
    how = ["--no-build-isolation", "--no-index"] if offline else []
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", *how, str(source)],
        env=environ, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return env


def _run(env: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(env / "bin" / "yatzy"), *words], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "LANG": "C.UTF-8"})


def test_an_install_without_a_compiler_has_no_compiled_solver(without_compiler: Path) -> None:
    found = subprocess.run(
        [str(without_compiler / "bin" / "python"), "-c",
         "import yatzy, yatzy.solver, yatzy.web.app, yatzy.tui.app; "
         "print(yatzy.__file__); print(yatzy.solver.available())"],
        capture_output=True, text=True, timeout=60)
    assert found.returncode == 0, found.stderr
    where, available = found.stdout.split()
    assert Path(where).is_relative_to(without_compiler)
    assert available == "False"
    assert not list((Path(where).parent / "solver").glob("_kernels*.so"))
    assert not list((Path(where).parent / "solver").rglob("*.[ch]"))


def test_scoring_works_and_solving_says_what_is_missing(without_compiler: Path) -> None:
    score = _run(without_compiler, "score", "3", "3", "3", "5", "5")
    assert score.returncode == 0, score.stderr
    assert "Full house" in score.stdout and "19" in score.stdout
    solve = _run(without_compiler, "solve")
    assert solve.returncode == 2
    assert solve.stdout == ""
    assert solve.stderr == MISSING_LINE + "\n"


#: Runs with the compiled part hidden, as an install without a compiler has it.
WITHOUT_SOLVER = textwrap.dedent("""
    import json, sys
    sys.modules["yatzy.solver._kernels"] = None
    from fastapi.testclient import TestClient
    from yatzy import bots, solver
    from yatzy.bootstrap import open_service
    from yatzy.cli import main
    from yatzy.web.app import Settings, create_app

    out = {"available": solver.available(), "bots": list(bots.bot_names())}
    try:
        bots.check_level("optimal")
    except solver.SolverMissing as error:
        out["check"] = [error.code, isinstance(error, ValueError)]
    out["commands"] = [main(words) for words in (
        ["solve"], ["advise", "--dice", "3", "3", "5", "6", "6"],
        ["simulate", "--bot", "hard", "-n", "5"], ["match", "greedy", "optimal", "-n", "2"],
        ["play", "--players", "Ann,cpu:hard"],
        ["score", "1", "2", "3", "4", "5"], ["simulate", "--bot", "greedy", "-n", "2"])]
    app = create_app(open_service(sys.argv[1]), Settings(pace=0.0, rate=0.0))
    with TestClient(app) as client:
        out["home"] = client.get("/").text.count('<option value="optimal"')
        refused = client.post("/api/games", json={
            "rules": "yatzy", "seats": [{"name": "Ann"}, {"bot": "optimal"}]})
        out["computer"] = [refused.status_code, refused.json()]
        made = client.post("/api/games", json={
            "rules": "yatzy", "hints": True, "seats": [{"name": "Ann"}, {"bot": "greedy"}]})
        game = made.json()
        token = game["seats"][0]["token"]
        headers = {"Authorization": "Bearer " + token}
        hint = client.get(f"/api/games/{game['id']}/hint", headers=headers)
        out["hint"] = [hint.status_code, hint.json()]
    print(json.dumps(out))
""")


def test_without_the_solver_its_features_are_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_SOLVER, str(tmp_path / "g.db")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LANG": "C.UTF-8"})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["available"] is False
    assert out["bots"] == ["random", "greedy"]
    assert out["check"] == ["solver_missing", False]  # not bad input: no ValueError
    assert out["commands"] == [2, 2, 2, 2, 2, 0, 0]
    lines = [line for line in done.stderr.splitlines() if line.startswith("yatzy:")]
    assert lines == [MISSING_LINE] * 5
    assert "Traceback" not in done.stderr
    assert out["home"] == 0
    status, body = out["computer"]
    assert status == 503 and body["error"]["code"] == "solver_missing"
    status, body = out["hint"]
    assert status == 503 and body["error"]["code"] == "solver_missing"
    assert "C compiler" in body["error"]["message"]


def test_the_compiled_solver_is_optional_in_the_build() -> None:
    setup = (ROOT / "setup.py").read_text()
    assert "optional=True" in setup
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    tools = config["tool"]["setuptools"]
    # Declared in setup.py only (pyproject's ext-modules table is experimental).
    assert "ext-modules" not in tools
    # Each package-data pattern matches something: none is dead.
    for pattern in tools["package-data"]["yatzy"]:
        assert list(SOURCE.glob(pattern)), pattern
    assert tools["exclude-package-data"] == {"yatzy.solver.csrc": ["*.c", "*.h"]}


def test_the_solver_module_is_light_until_used() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, yatzy.solver as s; s.available(); "
         "print('numpy' in sys.modules)"], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
    import yatzy.solver

    assert yatzy.solver.Strategy.__name__ == "Strategy"  # loaded on first use


@pytest.mark.asyncio
async def test_the_terminal_game_says_the_win_chances_need_the_solver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """w (win chances) would raise in a worker thread and stop the game."""
    import yatzy
    from tests.tui.helpers import game_screen, shown
    from yatzy import solver
    from yatzy.app import Seat
    from yatzy.bootstrap import open_service
    from yatzy.solver import policy
    from yatzy.tui.app import YatzyApp
    from yatzy.tui.screens.setup import GameSetup

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))  # a crash log would go there
    monkeypatch.setattr(solver, "_LOAD_ERROR", ["not built"])
    monkeypatch.setattr(policy, "_STRATEGIES", {})  # none built by earlier tests
    setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"), Seat("Bo")), seed=7)
    with open_service(tmp_path / "g.sqlite3") as service:
        app = YatzyApp(service, setup=setup, fast=True)  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            await pilot.press("w")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert " ".join(shown(screen.query_one("#message")).split()) == (
                MISSING_LINE.removeprefix("yatzy: "))
            await pilot.press("h")  # a hint: the same line
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert " ".join(shown(screen.query_one("#message")).split()) == (
                MISSING_LINE.removeprefix("yatzy: "))
            assert app.is_running
