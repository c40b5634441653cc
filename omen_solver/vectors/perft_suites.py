"""Perft suites as data: exact counts of the legal action sequences from fixed positions, per
depth, with the divide (the count under each first action) at the deepest depth, as chess
engines keep theirs.

A ply is one action: a decision, a chance outcome (a card dealt or drawn), or the joint action
of a simultaneous decision (The Absolute's exchange). ``at_depth`` counts the sequences of
exactly that many plies (the number chess perft reports); ``ended`` the shorter ones that
reach the end of play (the position's scope); ``sequences`` is their sum; ``nodes`` the size of
the tree cut at that depth, the root included. The counts come from
:func:`omen_solver.core.enumeration.perft`; :func:`check_suite` counts again and compares.

One format serves every game: the suites of Omens and Omen give a position and its settings
as the vector protocol does; a suite of another registered game (one a library user adds, the
tests' toy games) gives a position file's keys, read by that game's loader, and may stop at a
stopping point the game names (``to``), count to the end (``depth`` null) and record the
distinct states (``states``).
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
from omen_solver.vectors.omen_mine import load_seeds, seed_position
from omen_solver.vectors.omen_record import omen_options_json, omen_start
from omen_solver.vectors.omens_mine import Suite, example_setup, load_examples
from omen_solver.vectors.omens_record import OmensSetup
from omen_solver.vectors.views import VECTORS

__all__ = [
    "PerftMismatch",
    "check_suite",
    "omen_perft_suite",
    "omens_perft_suite",
    "read_suite",
]

_OMENS_CASES: tuple[tuple[str, int, str], ...] = (
    ("worked-example", 9, "The rulebook's worked example (6 players): the bout played out."),
    ("law-then-wrath", 6, "Law, then Wrath sending it back, then Jealousy: immediate effects "
     "that change who must play what."),
    ("five-players-dream", 6, "Five players, Dream played onto a player who has not played."),
    ("absolute-exchange", 10, "The Absolute's secret exchange: a simultaneous node, each joint "
     "action one ply."),
    ("dream-cards-follow-position", 6, "Four players, three cards each, Dream: the bout and the "
     "next."),
    ("pride-names-the-next-leader", 9, "Luck's discard from hand, Pride naming the next leader, "
     "a second bout."),
)
"""Examples whose positions are perft cases: (example id, deepest depth, why)."""

_OMEN_CASES: tuple[tuple[str, int], ...] = (
    ("war-order-scorned", 6),
    ("wealth-three-coins-bonus", 8),
    ("dirge-destroys", 8),
    ("feat-soldier-in-every-city", 8),
    ("score-at-the-end", 4),
)
"""Omen example seeds whose positions are perft cases: (seed id, deepest depth)."""


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


def _case(
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


def omens_perft_suite(suite: Suite | None = None) -> dict[str, Any]:
    """The Omens perft cases under a suite's settings (default: the rulebook's)."""
    suite = suite or Suite()
    items = {item["id"]: item for item in load_examples()}
    cases = []
    for example, deepest, why in _OMENS_CASES:
        written = example_setup(items[example])
        setup = OmensSetup(written.players, written.teams, written.hands, written.leader,
                           written.scope, suite.preset, dict(suite.overrides),
                           written.rounds_won, written.box)
        cases.append(
            _case(
                f"omens.{suite.name}.perft.{example}", why,
                f"the position of the example {example}",
                setup.options_json(), setup.position_json(), setup.start(), deepest,
            )
        )
    for players in (4, 5, 6):
        setup = OmensSetup(players, (), {}, 1, scope="game", preset=suite.preset,
                           overrides=dict(suite.overrides), new_game=True)
        cases.append(
            _case(
                f"omens.{suite.name}.perft.new-game-{players}", f"A new game of {players} "
                "players: the Absolutes dealt face up, then the hands (every ply a card dealt "
                "by chance).",
                "rules 000, Setup", setup.options_json(), setup.position_json(),
                setup.start(), 5,
            )
        )
    return _suite("omens", cases, suite)


def omen_perft_suite() -> dict[str, Any]:
    seeds = {seed.id: seed for seed in load_seeds()}
    cases = []
    for seed_id, deepest in _OMEN_CASES:
        seed = seeds[seed_id]
        options = omen_options_json(seed.profile, seed.rules)
        position = seed_position(seed, seed.rules)
        start = omen_start(options, position, f"seed {seed_id}")
        cases.append(
            _case(f"omen.perft.{seed_id}", seed.why, seed.source, options, position, start,
                  deepest)
        )
    return _suite("omen", cases)


def _suite(game: str, cases: list[dict[str, Any]], suite: Suite | None = None
           ) -> dict[str, Any]:
    return {
        "format": "omen-solver-perft",
        "version": 1,
        "game": game,
        "suite": f"{game}-perft" if suite is None else f"{game}-{suite.name}-perft",
        "description": "Exact counts of the legal action sequences from these positions, per "
        "depth in plies, with the count under each first action at the deepest depth "
        "(docs/vectors.md, 'Perft suites')"
        + ("." if suite is None else f", under the settings of the suite ({suite.describe()})."),
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
