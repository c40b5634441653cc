"""Perft suites as data: exact counts of the legal action sequences from fixed positions, per
depth, with the divide (the count under each first action) at the deepest depth, as chess
engines keep theirs.

A ply is one action: a decision, a chance outcome (a card dealt or drawn), or the joint action
of a simultaneous decision (The Absolute's exchange). ``at_depth`` counts the sequences of
exactly that many plies (the number chess perft reports); ``ended`` the shorter ones that
reach the end of play (the position's scope); ``sequences`` is their sum; ``nodes`` the size of
the tree cut at that depth, the root included. The counts come from
:func:`omen_solver.core.enumeration.perft`; :func:`check_suite` counts again and compares.

One format serves every game: the suites of the games the vectors play (Omens and Omen, each
built by the game's own module, ``omens_export`` and ``omen_export``) give a position and its
settings as the vector protocol does; a suite of another registered game (one a library user
adds, the tests' toy games) gives a position file's keys, read by that game's loader, and may
stop at a stopping point the game names (``to``), count to the end (``depth`` null) and record
the distinct states (``states``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omen_solver.core.enumeration import PerftResult, perft
from omen_solver.core.game import GameState, game_named
from omen_solver.core.positions import load_data
from omen_solver.errors import VectorFileError
from omen_solver.vectors.jsonfile import read_json, validate
from omen_solver.vectors.views import VECTORS

__all__ = [
    "PerftMismatch",
    "check_suite",
    "perft_case",
    "perft_file",
    "read_suite",
]


def _counts(result: PerftResult, depth: int | None) -> dict[str, Any]:
    assert result.total is not None
    return {
        "depth": depth,
        "sequences": result.total.sequences,
        "at_depth": result.total.at_depth,
        "ended": result.total.ended,
        "nodes": result.total.nodes,
        "states": result.states,
    }


def perft_case(
    case_id: str,
    why: str,
    source: str,
    options: Mapping[str, Any],
    position: Mapping[str, Any],
    start: GameState[Any],
    deepest: int,
) -> dict[str, Any]:
    depths = []
    last = None
    for depth in range(1, deepest + 1):
        last = perft(start, depth)
        row = _counts(last, depth)
        del row["states"]
        depths.append(row)
    assert last is not None
    divide = {text: count.sequences for text, count in last.divide}
    return {
        "id": case_id,
        "why": why,
        "source": source,
        "options": dict(options),
        "position": dict(position),
        "depths": depths,
        "divide": {"depth": deepest, "counts": divide},
    }


def perft_file(game: str, cases: list[dict[str, Any]], suite: str | None = None,
               settings: str = "") -> dict[str, Any]:
    """A perft file of ``game``'s ``cases``; ``suite``: the name of the suite they were
    counted under (a game mined per suite), whose ``settings`` the description states."""
    return {
        "format": "omen-solver-perft",
        "version": 1,
        "game": game,
        "suite": f"{game}-perft" if suite is None else f"{game}-{suite}-perft",
        "description": "Exact counts of the legal action sequences from these positions, per "
        "depth in plies, with the count under each first action at the deepest depth "
        "(docs/vectors.md, 'Perft suites')"
        + ("." if suite is None else f", under the settings of the suite ({settings})."),
        "cases": cases,
    }


def read_suite(path: Path | str) -> dict[str, Any]:
    """Read a perft file and check it against the perft schema (errors name the file and the
    JSON path)."""
    data = read_json(Path(path))
    validate(data, str(path))
    if data["format"] != "omen-solver-perft":
        raise VectorFileError(f"{path}: key 'format': expected 'omen-solver-perft', not "
                              f"{data['format']!r}")
    return dict(data)


@dataclass(frozen=True)
class PerftMismatch:
    case: str
    depth: int | None
    key: str
    expected: Any
    counted: Any

    def __str__(self) -> str:
        cut = "to the end" if self.depth is None else f"depth {self.depth}"
        return f"{self.case}: {cut}: {self.key}: recorded {self.expected}, counted {self.counted}"


def _start(game: str, case: Mapping[str, Any]) -> GameState[Any]:
    """A case's start: set up by the game's vector view (its ``options`` and ``position``),
    or, for a game the vectors do not play, its ``position`` read by the game's loader."""
    try:
        view = VECTORS.of(game_named(game))
    except KeyError:
        return load_data(Path(f"perft case {case['id']}"), dict(case["position"]))
    state: GameState[Any] = view.start(case["options"], case["position"], case["id"])
    return state


def check_suite(
    suite: Mapping[str, Any],
    *,
    max_nodes: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Iterator[PerftMismatch]:
    """Count again every recorded depth (only those whose recorded tree has at most
    ``max_nodes`` nodes, when given) and the divide; yield each difference."""
    game = suite["game"]
    for case in suite["cases"]:
        start = _start(game, case)
        for row in case["depths"]:
            if max_nodes is not None and row["nodes"] > max_nodes:
                continue
            if progress is not None:
                progress(f"{case['id']} depth {row['depth']}")
            result = perft(start, row["depth"], stop=case.get("to"))
            if result.total is None:
                yield PerftMismatch(case["id"], row["depth"], "sequences", row["sequences"],
                                    f"unknown: {result.reason}")
                continue
            yield from _compare(case["id"], row, _counts(result, row["depth"]))
            if row["depth"] == case["divide"]["depth"]:
                counted = {text: count.sequences for text, count in result.divide}
                if counted != case["divide"]["counts"]:
                    yield PerftMismatch(case["id"], row["depth"], "divide",
                                        case["divide"]["counts"], counted)


def _compare(case: str, row: Mapping[str, Any], counted: Mapping[str, Any]
             ) -> Sequence[PerftMismatch]:
    return [
        PerftMismatch(case, row["depth"], key, row[key], counted[key])
        for key in ("sequences", "at_depth", "ended", "nodes", "states")
        if key in row and row[key] != counted[key]
    ]
