"""Processes a fault test started, found and ended by their ids (never by name: other work
on the machine is never touched)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable
from pathlib import Path


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (Linux's ``/proc``)."""
    found: list[int] = []
    with contextlib.suppress(FileNotFoundError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(FileNotFoundError):
                text = Path(f"/proc/{pid}/task/{task}/children").read_text()
                found += [int(word) for word in text.split()]
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, theirs, ...)."""
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``condition()`` until true; fail after ``seconds``, saying ``what`` was awaited."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds:g} s: {what}"
        time.sleep(0.05)


def left_running(pids: Iterable[int], seconds: float = 5.0) -> list[int]:
    """The processes of ``pids`` still running after ``seconds`` (fewer if all end sooner)."""
    pids = list(pids)
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def kill(pids: Iterable[int]) -> None:
    """End the given processes (the test's own leftovers), by id."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
