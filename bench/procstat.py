"""What a benchmark reads of its own process (Linux ``/proc``), shared by the scripts."""

from __future__ import annotations


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
