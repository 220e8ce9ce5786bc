"""The compiled kernels cannot be crashed from Python: every misuse that crashed the
process (or read or wrote outside an array) raises a TypeError or ValueError instead,
and a fuzz of every entry point finds nothing else.

The misuses (``kernel_cases.py``) and the fuzz (``kernel_fuzz.py``) run in child
processes, so that a crash fails these tests rather than killing pytest; each misuse is
its own test here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.solver import kernel_cases
from yatzy import solver

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(not solver.available(), reason="needs the compiled solver")


def _child(module: str, *args: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", f"tests.solver.{module}", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=HERE.parent.parent)


@pytest.fixture(scope="module")
def outcomes() -> tuple[dict[str, tuple[str, str]], subprocess.CompletedProcess[str]]:
    """Every case's exception and message, from one child process running them all."""
    done = _child("kernel_cases")
    found: dict[str, tuple[str, str]] = {}
    for line in done.stdout.splitlines():
        if line.startswith("END\t"):
            _, name, error, message = line.split("\t", 3)
            found[name] = (error, message)
    return found, done


@pytest.mark.parametrize("name", list(kernel_cases.CASES))
def test_a_misuse_raises_a_clean_error(
        outcomes: tuple[dict[str, tuple[str, str]], subprocess.CompletedProcess[str]],
        name: str) -> None:
    found, done = outcomes
    if name not in found:
        started = [line.split("\t")[1] for line in done.stdout.splitlines()
                   if line.startswith("START\t")]
        pytest.fail(f"the child process ended (status {done.returncode}) in case "
                    f"{started[-1] if started else '?'!r} before this one:\n{done.stderr}")
    expected = kernel_cases.CASES[name]
    error, message = found[name]
    assert error == expected.raises, message
    assert expected.message in message


def test_the_cases_ran_to_their_end(
        outcomes: tuple[dict[str, tuple[str, str]], subprocess.CompletedProcess[str]]) -> None:
    found, done = outcomes
    assert done.returncode == 0, done.stderr
    assert set(found) == set(kernel_cases.CASES)


#: Examples per fuzz target in ``make test`` (a fixed run: the same examples each time).
FUZZ_EXAMPLES = 300


def test_a_fuzz_of_every_entry_point_raises_only_clean_errors() -> None:
    """``kernel_fuzz.py``: every method and the constructor with arguments hypothesis
    makes up; only TypeError, ValueError or OverflowError, and no crash."""
    done = _child("kernel_fuzz", str(FUZZ_EXAMPLES))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert set(report) == {"plausible arguments", "any arguments", "construction",
                           "saved rolls", "quantise"}
    for target in report.values():
        assert target["examples"] >= FUZZ_EXAMPLES
    # The made-up arguments reach the loops, not only the checks.
    assert report["plausible arguments"]["outcomes"][""] > FUZZ_EXAMPLES // 10
    assert report["saved rolls"]["outcomes"][""] > FUZZ_EXAMPLES // 10
    assert report["construction"]["outcomes"][""] > FUZZ_EXAMPLES // 10
    assert report["quantise"]["outcomes"][""] > FUZZ_EXAMPLES // 10
