"""Benchmark: proof-number search (df-pn) against the kernel's boolean alpha-beta, on the same
positions, side by side.

Both searches run in pure Python on the same kernel machine, so their nodes and seconds
compare like for like; the compiled alpha-beta's seconds are shown as well (what ``solve``
runs). The positions are seeded random deals as at a game start (one Absolute each, teams and
leader from them, ``omen_solver.omens.deals``), cut to ``--cards`` cards per hand.

Usage::

    python benchmarks/omens_dfpn.py [--players 4] [--cards 3] [--deals 20] [--seconds 60]

Prints one line per deal and a summary: deals each search solved within the budget, the
median and total seconds, and the median ratio of df-pn's nodes to alpha-beta's on the deals
both solved. Exit status 1 if the two searches ever disagree on a value.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from omen_solver.core.enumeration.budget import Budget, BudgetExceeded
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.dfpn import dfpn_value
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Table

SEED = 20261130


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(4, 5))
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--preset", default="rulebook")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMEN_SOLVER_PURE_PYTHON", "1")
    table = Table(args.players, make_rules(args.preset))
    print(f"{args.deals} deals, {args.players} players, {args.cards} cards a hand, "
          f"preset {args.preset}, {args.seconds:g} s per search (per question for df-pn)")
    rows: list[tuple[str, float, int, str, float, int, float | None]] = []
    disagreements = 0
    for index in range(args.deals):
        state = deal_position(table, random_deal(table, SEED + index, cards=args.cards))
        spec = compile_table(state.table, tuple(tuple(team) for team in state.teams()))
        start = from_engine(spec, state)
        maximising = [spec.team_of[seat] == spec.team_of[start.leader]
                      for seat in range(args.players)]
        began = time.perf_counter()
        search = KernelSearch(Machine(spec), maximising, constant_sum=True,
                              budget=Budget(max_seconds=args.seconds))
        try:
            ab = str(search.search(start, 0, 1))
        except BudgetExceeded:
            ab = "unknown"
        ab_seconds, ab_nodes = time.perf_counter() - began, search.nodes
        began = time.perf_counter()
        try:
            value, pn_nodes, _ = dfpn_value(Machine(spec), maximising, start,
                                            budget=Budget(max_seconds=args.seconds))
            pn = "mixed" if value is None else str(value)
        except BudgetExceeded as stopped:
            pn, pn_nodes = "unknown", stopped.nodes
        pn_seconds = time.perf_counter() - began
        fast: float | None = None
        if compiled.AVAILABLE:
            began = time.perf_counter()
            fast_search = compiled.CompiledSearch(Machine(spec), maximising, constant_sum=True,
                                                  budget=Budget(max_seconds=args.seconds))
            try:
                fast_search.search(start, 0, 1)
                fast = time.perf_counter() - began
            except BudgetExceeded:
                fast = None
        if ab not in ("unknown", "mixed") and pn not in ("unknown", "mixed") and ab != pn:
            disagreements += 1
        rows.append((ab, ab_seconds, ab_nodes, pn, pn_seconds, pn_nodes, fast))
        shown = "unknown" if fast is None else f"{fast:.2f} s"
        print(f"deal {index:3}: alpha-beta {ab:>7} {ab_seconds:7.2f} s {ab_nodes:>10,} nodes"
              f" | df-pn {pn:>7} {pn_seconds:7.2f} s {pn_nodes:>10,} nodes"
              f" | compiled alpha-beta {shown}", flush=True)
    solved_ab = [r for r in rows if r[0] != "unknown"]
    solved_pn = [r for r in rows if r[3] != "unknown"]
    both = [r for r in rows if r[0] != "unknown" and r[3] != "unknown"]

    def median_seconds(pairs: list[tuple[str, float]]) -> str:
        padded = sorted(seconds if value != "unknown" else float("inf") for value, seconds in pairs)
        middle = statistics.median_low(padded)
        return f"> {args.seconds:g} s" if middle == float("inf") else f"{middle:.2f} s"

    print(f"solved: alpha-beta {len(solved_ab)}/{len(rows)}, df-pn {len(solved_pn)}/{len(rows)}")
    print(f"median seconds: alpha-beta {median_seconds([(r[0], r[1]) for r in rows])}, "
          f"df-pn {median_seconds([(r[3], r[4]) for r in rows])}")
    if both:
        ratios = [r[5] / r[2] for r in both]
        faster = sum(1 for r in both if r[4] < r[1])
        print(f"on the {len(both)} deals both solved: df-pn/alpha-beta nodes median "
              f"{statistics.median(ratios):.2f} (from {min(ratios):.2f} to {max(ratios):.2f}); "
              f"df-pn faster on {faster}; seconds in all: alpha-beta "
              f"{sum(r[1] for r in both):.1f}, df-pn {sum(r[4] for r in both):.1f}")
    if disagreements:
        print(f"DISAGREEMENT on {disagreements} deals", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
