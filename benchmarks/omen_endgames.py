"""Benchmark: Omen endgames 1, 2 and 3 turns from the end, with and without the reductions.

Prints, in one run and on the same positions (bundled puzzles of ``puzzles/omen``, searched
over the number of turns given), the nodes, distinct states and seconds of:

* the endgame search (``omen_solver.omen.endgame``) as it runs by default: alpha-beta with a
  transposition table, Star1 at chance nodes, and the default reductions (kept units in one
  order, states decided by the victory points still reachable);
* the same search with every reduction (also commuting plays in one order, choices reaching
  the same table, Star2 probing);
* the same search without any reduction (transposition table and Star1 only);
* a plain expectimax: the naive reference walk (``omen_solver.core.search.naive_solve``) over
  the same game, no table, no pruning, no reductions;

and the time ratios of the last three over the first. Every search runs under the same time
budget; one that runs out says "unknown", and a ratio "> n" is then a lower bound.

Usage::

    python benchmarks/omen_endgames.py [--seconds 30] [--write docs/benchmarks.md]

``--write`` replaces only the Omen endgame section of the file (between its markers), so the
file's other sections are kept.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from omen_solver.core.budget import Budget, Status
from omen_solver.core.search import naive_solve
from omen_solver.omen import load
from omen_solver.omen.endgame import (
    ALL_REDUCTIONS,
    Draws,
    EndgameView,
    Objective,
    Reduction,
    _rules,
    solve_endgame,
)
from omen_solver.omen.state import OmenState

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "omen"
BEGIN, END = "<!-- omen-endgames:begin -->", "<!-- omen-endgames:end -->"

POSITIONS = [
    (1, "endgame-occupation.toml", "reign-of-war"),
    (1, "endgame-atalantas-gamble.toml", "omega, chance"),
    (1, "endgame-ishtar-gate-draw.toml", "fires-in-the-east, chance"),
    (2, "endgame-veteran-waits.toml", "reign-of-war"),
    (2, "endgame-wealth-for-a-veteran.toml", "reign-of-war, chance"),
    (2, "endgame-moon-ritual.toml", "fires-in-the-east"),
    (3, "endgame-veteran-waits.toml", "reign-of-war"),
    (3, "endgame-keep-to-hold.toml", "reign-of-war"),
    (3, "endgame-decree-ends-it.toml", "fires-in-the-east"),
]
"""(turns searched, puzzle file, what it is)."""


@dataclass
class Row:
    search: str
    status: str
    nodes: int
    states: int
    seconds: float
    value: Fraction | None


def _seat(state: OmenState) -> int:
    player = state.current_player()
    return state.active if player < 0 else player


def endgame(state: OmenState, turns: int, reductions: bool | frozenset[Reduction], name: str,
            budget: Budget) -> Row:
    result = solve_endgame(state, seat=_seat(state) + 1, turns=turns, margin=False,
                           reductions=reductions, budget=budget)
    return Row(name, result.status.value, result.nodes, result.states, result.seconds,
               result.value)


def plain(state: OmenState, turns: int, budget: Budget) -> Row:
    """The naive expectimax over the same game (the endgame view with no reductions)."""
    seat = _seat(state)
    root = EndgameView(state, _rules(state, seat, Objective.RESULT, Draws.EXPECTED, turns,
                                     False), is_root=True)
    result = naive_solve(root, team=seat + 1, budget=budget)  # teams are named by seats from 1
    return Row("plain expectimax", result.status.value, result.nodes, result.states,
               result.seconds, result.value)


def ratio(slow: Row, fast: Row) -> str:
    if fast.status != Status.SOLVED.value or fast.seconds <= 0:
        return "-"
    if slow.status != Status.SOLVED.value:
        return f"> {slow.seconds / fast.seconds:,.0f}"
    return f"{slow.seconds / fast.seconds:,.1f}"


def run(seconds: float) -> list[list[str]]:
    rows = []
    for turns, name, what in POSITIONS:
        state = load(PUZZLES / name)
        label = f"{turns} turn{'s' if turns > 1 else ''}: {name.removesuffix('.toml')} ({what})"
        fast = endgame(state, turns, True, "endgame search", Budget(max_seconds=seconds))
        found = [fast,
                 endgame(state, turns, ALL_REDUCTIONS, "all reductions",
                         Budget(max_seconds=seconds)),
                 endgame(state, turns, False, "without reductions", Budget(max_seconds=seconds)),
                 plain(state, turns, Budget(max_seconds=seconds))]
        values = {row.value for row in found if row.status == Status.SOLVED.value}
        if len(values) > 1:
            raise SystemExit(f"{name}: the searches disagree: {values}")
        for row in found:
            rows.append([label, row.search, row.status, f"{row.nodes:,}", f"{row.states:,}",
                         f"{row.seconds:.2f}", "-" if row.value is None else str(row.value),
                         "" if row is fast else ratio(row, fast)])
        print(f"done {label}", file=sys.stderr, flush=True)
    return rows


HEADERS = ["position", "search", "status", "nodes", "states", "seconds", "value", "ratio"]


def markdown(rows: list[list[str]], seconds: float) -> str:
    machine = (f"{platform.python_implementation()} {platform.python_version()}, "
               f"{platform.machine()}, {os.cpu_count()} cores")
    lines = [
        BEGIN,
        "## Omen endgames (1, 2 and 3 turns from the end)",
        "",
        "Measured by `python benchmarks/omen_endgames.py --write docs/benchmarks.md` (`make "
        f"bench` prints the same without writing) on {machine}, on "
        f"{time.strftime('%Y-%m-%d')}, with a budget of {seconds:g} s per search. Positions: "
        "the bundled puzzles of `puzzles/omen` named below, searched over the number of "
        "turns given (the turn in progress counts), draws from a shuffled deck as chance "
        "(expected result); the value is the seat to act's. The ratio is the time of a search "
        "over the endgame search's; \"> n\" is a lower bound from a search that ran out of "
        "its budget (\"unknown\"). The three searches must agree on every value they find.",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
        END,
    ]
    return "\n".join(lines)


def write_section(path: Path, section: str) -> None:
    """Put the section between its markers, or at the end of the file; the rest is kept."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        after = rest.split(END, 1)[1]
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per search")
    parser.add_argument("--write", type=Path,
                        help="also write the section into this markdown file")
    args = parser.parse_args(argv)
    section = markdown(run(args.seconds), args.seconds)
    print(section)
    if args.write:
        write_section(args.write, section)
        print(f"wrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
