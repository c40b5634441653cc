"""Budgets for every tree walk: a node limit and a time limit, checked cheaply.

A walk counts every node it enters. The count is compared with a precomputed threshold on each
node (one integer comparison); the clock is read and the progress callback called only every
:data:`CHECK_INTERVAL` nodes, so that the hot path stays lean and node limits stay exact and
deterministic. A walk that runs out of budget raises :class:`BudgetExceeded`; the public
functions catch it and report ``unknown`` rather than a guess.

A walk that keeps what it has seen (perft's memo, a graph) also takes a :class:`MemoryCap`,
read at the same checks: past it the walk stops and answers "unknown" with the reason, and
under an address-space limit (``ulimit -v``) it stops before the system refuses memory, so
that it answers instead of dying.
"""

from __future__ import annotations

import enum
import math
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from time import perf_counter

from omen_solver.errors import BudgetExceeded, OmenSolverError

__all__ = [
    "CHECK_INTERVAL",
    "MAX_NODES",
    "MIB",
    "RECURSION_LIMIT",
    "Budget",
    "MemoryCap",
    "NodeMeter",
    "Progress",
    "Status",
    "deep_recursion",
]

MAX_NODES = 10**18
"""The largest node limit a budget takes: the compiled kernel counts nodes in 64 bits."""

CHECK_INTERVAL = 4096
"""Nodes between two reads of the clock (and two progress reports)."""

RECURSION_LIMIT = 20_000
"""Python frames allowed while one of the Omens kernel's searches runs: they recurse a few
frames per ply and stop at their own depth limit (``omens/kernel/search.py``, a thousand
plies). Every other walk keeps its own stack (:mod:`omen_solver.core.walk`)."""

Progress = Callable[[int, float], None]
"""A progress callback: called with the nodes visited so far and the seconds elapsed."""


class Status(enum.Enum):
    """Whether a walk finished."""

    SOLVED = "solved"
    """The walk finished: every figure reported is exact."""
    UNKNOWN = "unknown"
    """The budget ran out first: only the proven bounds reported are known, nothing else."""


@dataclass(frozen=True, slots=True)
class Budget:
    """A node limit and a time limit; ``None`` means no limit of that kind."""

    max_nodes: int | None = None
    max_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.max_nodes is not None and (
            isinstance(self.max_nodes, bool) or not isinstance(self.max_nodes, int)
        ):
            raise OmenSolverError(f"max_nodes: expected a whole number, got {self.max_nodes!r}")
        if self.max_nodes is not None and not 1 <= self.max_nodes <= MAX_NODES:
            raise OmenSolverError(f"max_nodes: must be from 1 to {MAX_NODES:,}, got "
                                  f"{self.max_nodes}")
        if self.max_seconds is not None and not (
            isinstance(self.max_seconds, int | float)
            and not isinstance(self.max_seconds, bool)
            and math.isfinite(self.max_seconds)
            and self.max_seconds > 0
        ):
            raise OmenSolverError(
                f"max_seconds: must be a positive number of seconds, got {self.max_seconds!r}"
            )

    def remaining(self, nodes: int, seconds: float) -> Budget:
        """The budget left after ``nodes`` nodes and ``seconds`` seconds have been spent.

        Raises :class:`BudgetExceeded` if nothing is left.
        """
        max_nodes = None if self.max_nodes is None else self.max_nodes - nodes
        max_seconds = None if self.max_seconds is None else self.max_seconds - seconds
        if max_nodes is not None and max_nodes < 1:
            raise BudgetExceeded(f"node limit of {self.max_nodes} reached", nodes, seconds)
        if max_seconds is not None and max_seconds <= 0:
            raise BudgetExceeded(f"time limit of {self.max_seconds} s reached", nodes, seconds)
        return Budget(max_nodes, max_seconds)

    def describe(self) -> str:
        parts = []
        if self.max_nodes is not None:
            parts.append(f"{self.max_nodes} nodes")
        if self.max_seconds is not None:
            parts.append(f"{self.max_seconds:g} s")
        return ", ".join(parts) if parts else "no limit"


MIB = 1024 * 1024
"""Bytes in a MiB (memory limits are given in MiB)."""

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _address_limit() -> int | None:
    """The process's address-space limit in bytes (``ulimit -v``), if it has one."""
    try:
        import resource
    except ImportError:  # not on this system
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def memory_in_use() -> tuple[int, int] | None:
    """``(resident, virtual)`` bytes of this process (Linux's ``/proc/self/statm``), or None
    where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            size, resident = statm.read(200).split()[:2]
    except (OSError, ValueError):
        return None
    return int(resident) * _PAGE, int(size) * _PAGE


class MemoryCap:
    """A limit on a walk's memory, checked with its budget (:meth:`NodeMeter.check`).

    ``max_bytes`` bounds the resident memory of the process (``None``: no such bound). Under
    an address-space limit the walk also stops once its virtual size comes within an eighth
    of it (at least 64 MiB): the room left is what it needs to unwind and answer, where a walk
    that ran into the limit itself would fail in whatever allocation came next.
    """

    HEADROOM_SHARE = 8

    def __init__(self, max_bytes: int | None = None) -> None:
        if max_bytes is not None and (isinstance(max_bytes, bool) or max_bytes < 1):
            raise OmenSolverError(f"max_memory: must be a positive number of bytes, "
                                  f"got {max_bytes!r}")
        self.max_bytes = max_bytes
        address = _address_limit()
        self.address_stop = (None if address is None else
                             address - max(64 * MIB, address // self.HEADROOM_SHARE))

    @classmethod
    def address_space(cls) -> MemoryCap | None:
        """The cap of a walk given none: the address-space limit's alone, if the process has
        one (a search whose tables grow answers "unknown" near it rather than dying in the
        allocation that fails, ``docs/robustness.md``, "Memory")."""
        return cls() if _address_limit() is not None else None

    def exceeded(self) -> str | None:
        """Why the walk must stop now, or None."""
        if self.max_bytes is None and self.address_stop is None:
            return None
        used = memory_in_use()
        if used is None:
            return None
        resident, virtual = used
        if self.max_bytes is not None and resident > self.max_bytes:
            return f"memory limit of {self.max_bytes / MIB:,.0f} MiB reached"
        if self.address_stop is not None and virtual > self.address_stop:
            return (f"near the address-space limit (ulimit -v) of "
                    f"{(_address_limit() or 0) / MIB:,.0f} MiB")
        return None


class NodeMeter:
    """Node counting and budget checks, meant as the base class of a tree walk.

    The walk does ``self.nodes += 1`` and ``if self.nodes >= self.next_check: self.check()``
    on each node it enters. A :class:`MemoryCap` is read at each check too; a walk given
    none still stops near an address-space limit (:meth:`MemoryCap.address_space`).
    """

    def __init__(self, budget: Budget | None = None, progress: Progress | None = None,
                 memory: MemoryCap | None = None) -> None:
        budget = budget or Budget()
        self.memory = memory if memory is not None else MemoryCap.address_space()
        self.nodes = 0
        self.started = perf_counter()
        self._budget = budget
        self._deadline = None if budget.max_seconds is None else self.started + budget.max_seconds
        self._progress = progress
        self.next_check = self._schedule()

    def _schedule(self) -> int:
        following = self.nodes + CHECK_INTERVAL
        if self._budget.max_nodes is not None:
            # The node after the last allowed one triggers the check exactly.
            following = min(following, self._budget.max_nodes + 1)
        return following

    def elapsed(self) -> float:
        return perf_counter() - self.started

    @property
    def node_limit(self) -> int | None:
        """The node limit (``None``: none): :meth:`limit_nodes` sets it."""
        return self._budget.max_nodes

    def limit_nodes(self, limit: int | None) -> None:
        """Set the node limit (``None``: none), keeping the time limit: a walk that stopped at
        one limit can be asked again with a higher one (its tables kept)."""
        self._budget = replace(self._budget, max_nodes=limit)
        self.next_check = self._schedule()

    def check(self) -> None:
        """Raise :class:`BudgetExceeded` if a limit is passed; report progress otherwise."""
        limit = self._budget.max_nodes
        if limit is not None and self.nodes > limit:
            self.nodes = limit
            raise BudgetExceeded(f"node limit of {limit} reached", self.nodes, self.elapsed())
        now = perf_counter()
        if self._deadline is not None and now > self._deadline:
            raise BudgetExceeded(
                f"time limit of {self._budget.max_seconds:g} s reached",
                self.nodes,
                now - self.started,
            )
        memory = self.memory.exceeded() if self.memory is not None else None
        if memory is not None:
            raise BudgetExceeded(memory, self.nodes, now - self.started)
        if self._progress is not None:
            self._progress(self.nodes, now - self.started)
        self.next_check = self._schedule()


@contextmanager
def deep_recursion(limit: int = RECURSION_LIMIT) -> Iterator[None]:
    """Allow at least ``limit`` Python frames while a recursive walk of bounded depth runs."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)
