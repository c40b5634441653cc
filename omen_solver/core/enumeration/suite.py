"""Perft suites: expected counts kept as data, as chess engines keep theirs.

A suite is a TOML file of ``[[case]]`` tables::

    [[case]]
    id = "nim-10"                 # unique name
    position = "positions/nim10.toml"   # relative to the suite file
    depth = 3                     # optional: plies
    to = "bout"                   # optional: a stopping point named by the game
    sequences = 27                # expected number of sequences
    states = 11                   # optional: expected distinct states
    source = "counted by hand: ..."     # where the number was checked

:func:`check_case` compares one case and, on a mismatch, explains it with the divide (the count
under each root action), so the branch that differs can be followed down.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omen_solver.core.budget import Budget, Status
from omen_solver.core.enumeration.perft import PerftResult, perft
from omen_solver.core.positions import load_state, read_toml
from omen_solver.errors import PositionError

__all__ = ["CaseCheck", "PerftCase", "check_case", "load_suite"]

_KEYS = {"id", "position", "depth", "to", "sequences", "states", "source"}


@dataclass(frozen=True, slots=True)
class PerftCase:
    id: str
    position: Path
    depth: int | None
    to: str | None
    sequences: int
    states: int | None
    source: str
    where: str
    """The file and case index, for messages."""


@dataclass(frozen=True, slots=True)
class CaseCheck:
    case: PerftCase
    result: PerftResult
    ok: bool
    message: str


def _whole(value: Any, where: str, key: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(f"{where}: key {key!r}: expected a whole number ≥ 0, got {value!r}")
    return value


def load_suite(path: Path | str) -> list[PerftCase]:
    """Read and check a suite file; every error names the file, the case and the key."""
    path = Path(path)
    data = read_toml(path)
    cases = data.get("case")
    if not isinstance(cases, list) or not cases:
        raise PositionError(f"{path}: expected one or more [[case]] tables")
    loaded: list[PerftCase] = []
    seen: set[str] = set()
    for index, table in enumerate(cases):
        where = f"{path}: case {index + 1}"
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise PositionError(f"{where}: unknown key {unknown[0]!r}; known: {sorted(_KEYS)}")
        for key in ("id", "position", "sequences", "source"):
            if key not in table:
                raise PositionError(f"{where}: key {key!r} is missing")
        case_id = str(table["id"])
        if case_id in seen:
            raise PositionError(f"{where}: id {case_id!r} is used twice")
        seen.add(case_id)
        to = table.get("to")
        depth = _whole(table.get("depth"), where, "depth", optional=True)
        if to is not None and not isinstance(to, str):
            raise PositionError(f"{where}: key 'to': expected a stopping-point name")
        sequences = _whole(table["sequences"], where, "sequences")
        assert sequences is not None
        loaded.append(
            PerftCase(
                case_id, path.parent / str(table["position"]), depth, to, sequences,
                _whole(table.get("states"), where, "states", optional=True),
                str(table["source"]), f"{where} ({case_id})",
            )
        )
    return loaded


def check_case(case: PerftCase, budget: Budget | None = None) -> CaseCheck:
    """Run one case; the message explains a mismatch with the divide."""
    result = perft(load_state(case.position), case.depth, stop=case.to, budget=budget)
    if result.status is not Status.SOLVED or result.total is None:
        return CaseCheck(case, result, False, f"{case.where}: unknown: {result.reason}")
    problems = []
    if result.total.sequences != case.sequences:
        problems.append(f"sequences: expected {case.sequences}, counted {result.total.sequences}")
    if case.states is not None and result.states != case.states:
        problems.append(f"states: expected {case.states}, counted {result.states}")
    if not problems:
        return CaseCheck(case, result, True, f"{case.where}: ok")
    divide = "\n".join(f"  {text}: {count.sequences}" for text, count in result.divide)
    message = f"{case.where}: {'; '.join(problems)} (source: {case.source})\ndivide:\n{divide}"
    return CaseCheck(case, result, False, message)
