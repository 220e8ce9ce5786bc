"""What a benchmark reads of its own process (Linux ``/proc``), shared by the scripts."""

from __future__ import annotations

import json
import os
import subprocess
import time
from typing import Any


def memory() -> dict[str, int]:
    """This process's resident memory in kB: ``VmRSS``, ``RssAnon``, ``RssFile`` (pages
    of mapped files, shared) and ``VmHWM`` (the peak)."""
    found = {}
    with open("/proc/self/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                found[name] = int(value.split()[0])
    return found


def run_command(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run ``argv`` as a user would: ``(wall seconds from spawn to exit, peak memory in
    MB)`` of the whole process, start-up included (``env`` added to this one's). Linux
    counts in a child's peak the memory of the process it was started from, so the
    figure is never below this process's own peak: a caller measuring small commands
    stays small (or reads the child's ``VmHWM``, as ``bench/solver.py`` does)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"benchmark command {argv} failed:\n{stderr}")
    return seconds, usage.ru_maxrss / 1024


def run_json(argv: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``argv`` (a benchmark's child) and return the JSON object its output ends
    with (``env`` added to this one's); its error output when it fails."""
    done = subprocess.run(argv, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})
    if done.returncode != 0:
        raise SystemExit(f"benchmark child {argv[:3]} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
