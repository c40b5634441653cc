"""What a set of vectors covers, dimension by dimension, and which lines of the resolver ran.

A *feature* is a short stable key (``rule:card.law.choose``, ``pair:law>wrath:opponents``,
``option:pride_next_round=unless_luck`` ...). Mining keeps a vector only if it brings a
feature no earlier vector had (:class:`Coverage`), and the coverage report counts, for each
dimension, the features covered against all there are.

Resolver branches are measured, not declared: :class:`LineTracer` records which lines of the
Omens rule functions run while a vector is played, with :func:`sys.settrace` (the standard
library's hook; Python 3.11 has no cheaper one). The rule functions are every function of
``omens/resolve.py`` and the module-level functions of ``omens/state.py`` (one per rule, as the
rulebook reads); the state class's bookkeeping (copying, who acts, the legal-action cache) is
not a rule and is not counted. A line is named by its function and its offset from the ``def``
line, so unrelated edits elsewhere in a file do not rename it.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import omen_solver.omens.resolve
import omen_solver.omens.state

__all__ = ["Coverage", "Dimension", "LineTracer", "executable_lines"]

_MODULES = (omen_solver.omens.resolve, omen_solver.omens.state)
_PLUMBING = frozenset({"_next_to_play", "_bout_over", "describe_state"})
"""Module-level functions that are not rules: who plays next (asked on every query), the
search's stopping point, the text for people."""


def _classes() -> frozenset[str]:
    return frozenset(
        name for module in _MODULES for name, value in vars(module).items()
        if isinstance(value, type)
    )


def _is_rule_function(code: types.CodeType, classes: frozenset[str]) -> bool:
    top = code.co_qualname.split(".", 1)[0]
    return top not in classes and top not in _PLUMBING


def _functions(code: types.CodeType) -> Iterator[types.CodeType]:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _functions(const)


def _module_name(filename: str) -> str:
    return Path(filename).stem


def _line_key(code: types.CodeType, line: int) -> str:
    return f"line:{_module_name(code.co_filename)}.{code.co_qualname}+{line - code.co_firstlineno}"


def executable_lines() -> frozenset[str]:
    """Every line of the resolver's functions that can run (the ``def`` lines excepted)."""
    keys: set[str] = set()
    classes = _classes()
    for module in _MODULES:
        path = Path(str(module.__file__))
        code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
        for function in _functions(code):
            if not _is_rule_function(function, classes):
                continue
            for _, _, line in function.co_lines():
                if line is not None and line != function.co_firstlineno:
                    keys.add(_line_key(function, line))
    return frozenset(keys)


class LineTracer:
    """Collects the resolver lines that run inside :meth:`tracing` blocks."""

    def __init__(self) -> None:
        self.files = frozenset(str(Path(str(m.__file__)).resolve()) for m in _MODULES)
        self.classes = _classes()
        self.lines: set[str] = set()
        self._known: dict[types.CodeType, bool] = {}

    def _local(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines.add(_line_key(frame.f_code, frame.f_lineno))
        return self._local

    def _global(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        wanted = self._known.get(code)
        if wanted is None:
            wanted = str(Path(code.co_filename).resolve()) in self.files and _is_rule_function(
                code, self.classes
            )
            self._known[code] = wanted
        return self._local if wanted else None

    @contextmanager
    def tracing(self) -> Iterator[set[str]]:
        """Trace the block; yields the set of lines it ran (fresh for each block)."""
        outer = self.lines
        self.lines = set()
        previous = sys.gettrace()
        sys.settrace(self._global)
        try:
            yield self.lines
        finally:
            sys.settrace(previous)
            ran = self.lines
            self.lines = outer
            outer |= ran


@dataclass(frozen=True)
class Dimension:
    """One dimension of the coverage report."""

    name: str
    title: str
    total: frozenset[str] | None
    """Every feature of the dimension that a line of play can have (None: no fixed universe,
    only a count)."""
    note: str = ""
    impossible: tuple[tuple[str, int, str], ...] = ()
    """The features no line of play can have, left out of ``total``: (what, how many, why)."""
    holding: bool = False
    """Counted only from vectors whose expectations hold under the suite's settings (what an
    engine with those settings plays)."""


@dataclass
class Coverage:
    """The features covered so far, and the vector that first covered each."""

    dimensions: tuple[Dimension, ...]
    first: dict[str, str] = field(default_factory=dict)

    def new(self, features: Iterable[str]) -> list[str]:
        """The features not covered yet, sorted."""
        return sorted(set(features) - self.first.keys())

    def add(self, features: Iterable[str], vector: str) -> None:
        for feature in features:
            self.first.setdefault(feature, vector)

    def holding_only(self) -> frozenset[str]:
        """The prefixes (``NAME:``) of the dimensions counted only from vectors that hold under
        the suite's settings."""
        return frozenset(f"{dim.name}:" for dim in self.dimensions if dim.holding)

    def report(self, sets: Mapping[str, int], game: str,
               suite: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The published coverage file (``coverage.json``); ``suite``: the settings the suite
        was mined under (Omens)."""
        dims: dict[str, Any] = {}
        for dim in self.dimensions:
            covered = {f for f in self.first if f.startswith(dim.name + ":")}
            entry: dict[str, Any] = {"title": dim.title}
            if dim.total is None:
                entry.update({"covered": len(covered), "total": None, "missing": []})
            else:
                entry.update(
                    {
                        "covered": len(covered & dim.total),
                        "total": len(dim.total),
                        "missing": sorted(dim.total - covered),
                    }
                )
            if dim.impossible:
                entry["impossible"] = [{"what": what, "count": count, "why": why}
                                       for what, count, why in dim.impossible]
            if dim.note:
                entry["note"] = dim.note
            dims[dim.name] = entry
        report: dict[str, Any] = {
            "format": "omen-solver-coverage",
            "version": 1,
            "game": game,
        }
        if suite is not None:
            report["suite"] = dict(suite)
        report.update({"sets": dict(sets), "dimensions": dims})
        return report
