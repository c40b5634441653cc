"""Benchmark: proof-number search (df-pn) against the kernel's boolean alpha-beta, on the same
positions, side by side.

Both searches run on the same kernel machine (compiled when it is built, else pure Python,
or pure Python on request), so their nodes and seconds compare like for like. The positions
are seeded random deals as at a game start (one Absolute each, teams and leader from them,
``omen_solver.omens.deals``), whole or cut to ``--cards`` cards per hand; the question is the
round's value for the leader's team (paranoid for it with six players).

The third search is the two by turns (``omen_solver.omens.kernel.portfolio``). df-pn answers
"value 1?" and, when that is disproved through an exchange between the teams or a chance
node, "value 0?" too (``omen_solver.omens.kernel.dfpn``); its seconds and nodes are those of
both questions. Usage::

    python benchmarks/omens_dfpn.py [--players 4] [--cards 3] [--deals 20] [--seconds 30]

Prints one line per deal and a summary: deals each search solved within the budget, the
median and worst seconds, and the ratio of nodes on the deals both solved. Exit status 1 if
the two searches ever disagree on a value.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from omen_solver.core.budget import Budget
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.params import SearchParams
from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE, dfpn_value, make_search
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Table

SEED = 20261130


def _shown(value: float | None, budget: float) -> str:
    return f"> {budget:g} s" if value is None else f"{value:.2f} s"


def _summary(name: str, seconds: list[float | None], budget: float) -> str:
    padded = sorted(float("inf") if s is None else s for s in seconds)
    solved = sum(1 for s in seconds if s is not None)
    middle = statistics.median_low(padded)
    worst = padded[-1]
    return (f"{name}: solved {solved}/{len(seconds)}, median "
            f"{_shown(None if middle == float('inf') else middle, budget)}, worst "
            f"{_shown(None if worst == float('inf') else worst, budget)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(4, 5, 6))
    parser.add_argument("--cards", type=int, default=None,
                        help="cards per hand (default: the whole deal)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--preset", default="rulebook")
    parser.add_argument("--pure-python", action="store_true",
                        help="run both searches in pure Python")
    args = parser.parse_args(argv)
    if args.pure_python:
        os.environ[PURE_PYTHON_VARIABLE] = "1"
    pure = args.pure_python or not compiled.AVAILABLE
    table = Table(args.players, make_rules(args.preset))
    print(f"{args.deals} deals, {args.players} players, "
          f"{args.cards or 'all the'} cards a hand, preset {args.preset}, {args.seconds:g} s "
          f"per search, {'pure Python' if pure else 'compiled'}")
    ab_seconds: list[float | None] = []
    pn_seconds: list[float | None] = []
    mix_seconds: list[float | None] = []
    ratios: list[float] = []
    disagreements = 0
    for index in range(args.deals):
        state = deal_position(table, random_deal(table, SEED + index, cards=args.cards))
        spec = compile_table(state.table, state.teams())
        start = from_engine(spec, state)
        maximising = [spec.team_of[seat] == spec.team_of[start.leader]
                      for seat in range(args.players)]
        began = time.perf_counter()
        params = SearchParams(constant_sum=args.players < 6,
                              budget=Budget(max_seconds=args.seconds))
        search = make_search(Machine(spec), maximising, params)
        try:
            ab: str = str(search.search(start, 0, 1))
            ab_seconds.append(time.perf_counter() - began)
        except BudgetExceeded:
            ab = "unknown"
            ab_seconds.append(None)
        ab_nodes = search.nodes
        began = time.perf_counter()
        try:
            value, pn_nodes, _ = dfpn_value(Machine(spec), maximising, start,
                                            params.with_budget(Budget(max_seconds=args.seconds)))
            pn = "mixed" if value is None else str(value)
            pn_seconds.append(time.perf_counter() - began)
        except BudgetExceeded as stopped:
            pn, pn_nodes = "unknown", stopped.nodes
            pn_seconds.append(None)
        began = time.perf_counter()
        both = make_search(Machine(spec), maximising,
                           params.with_budget(Budget(max_seconds=args.seconds)),
                           algorithm="portfolio")
        try:
            mixed = str(both.search(start, 0, 1))
            mix_seconds.append(time.perf_counter() - began)
        except BudgetExceeded:
            mixed = "unknown"
            mix_seconds.append(None)
        if mixed != "unknown" and ab != "unknown" and mixed != ab:
            disagreements += 1
        if "unknown" not in (ab, pn):
            ratios.append(pn_nodes / ab_nodes)
            if pn != "mixed" and ab != pn:
                disagreements += 1
        print(f"deal {index:3}: alpha-beta {ab:>7} {_shown(ab_seconds[-1], args.seconds):>9}"
              f" {ab_nodes:>12,} nodes | df-pn {pn:>7} "
              f"{_shown(pn_seconds[-1], args.seconds):>9} {pn_nodes:>12,} nodes | by turns "
              f"{mixed:>7} {_shown(mix_seconds[-1], args.seconds):>9} {both.nodes:>12,} nodes",
              flush=True)
    print(_summary("alpha-beta", ab_seconds, args.seconds))
    print(_summary("df-pn     ", pn_seconds, args.seconds))
    print(_summary("by turns  ", mix_seconds, args.seconds))
    if ratios:
        print(f"df-pn's nodes / alpha-beta's on the {len(ratios)} deals both solved: median "
              f"{statistics.median(ratios):.2f}, from {min(ratios):.2f} to {max(ratios):.2f}")
    if disagreements:
        print(f"DISAGREEMENT on {disagreements} deals", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
