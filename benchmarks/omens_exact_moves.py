"""The exact value of every first move of seeded Omens deals, solved once, slowly, and kept as data
for ``benchmarks/omens_estimates.py`` (which measures the estimates against them).

``python benchmarks/omens_exact_moves.py --players 4 --cards 4 --deals 40`` solves deals ``SEED
+ i`` (the seeds of ``benchmarks/omens_search.py``; one Absolute a hand, as at a game start, or
with ``--kind later`` every card shuffled, as in a later round), each move by move to the end
with df-pn (``solve --search dfpn``, one thread, within ``--seconds`` each), and adds each
answer to ``benchmarks/data/omens_exact_moves.json`` (a deal already there is not solved again,
so an interrupted run resumes). Every move's status is for the team of the seat to play (the
leader). Seconds depend on the machine; the answers do not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "omens_exact_moves.json"
SEED = 20261130
"""The seeds of ``benchmarks/omens_search.py``: deal ``i`` is ``random_deal(table, SEED + i)``."""


def solve_deal(players: int, cards: int | None, index: int, seconds: float,
               memory: int, kind: str = "first") -> dict[str, Any]:
    """One deal's first moves, each with its exact status for the leader's team."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.search import solve
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(players, make_rules("rulebook", {}))
    deal = random_deal(table, SEED + index, kind, cards)
    state = deal_position(table, deal)
    concept = "minimax" if len(state.teams()) == 2 else "paranoid"
    began = time.perf_counter()
    result = solve(state, concept=concept, budget=Budget(max_seconds=seconds), threads=1,
                   algorithm="dfpn", max_memory=memory)
    return {
        "players": players, "cards": cards, "index": index, "seed": SEED + index, "kind": kind,
        "concept": concept, "team": list(result.team_seats), "status": result.status.value,
        "value": None if result.value is None else str(result.value),
        "nodes": result.nodes, "seconds": round(time.perf_counter() - began, 1),
        "moves": [{"action": m.action, "status": m.status.value,
                   "value": None if m.value is None else str(m.value)} for m in result.moves],
    }


def load(path: Path = DATA) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    data: list[dict[str, Any]] = json.loads(path.read_text())["deals"]
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=900.0)
    parser.add_argument("--max-memory", type=int, default=3 << 30)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--kind", choices=("first", "later"), default="first",
                        help="first: a game start (one Absolute each); later: every card "
                             "shuffled (several Absolutes or none)")
    parser.add_argument("--retry", action="store_true",
                        help="solve again the deals kept as unknown (with more time)")
    args = parser.parse_args(argv)
    deals = load(args.data)
    done = {(d["players"], d["cards"], d["index"], d.get("kind", "first")) for d in deals
            if not args.retry or d["status"] == "solved"}
    for index in range(args.first, args.first + args.deals):
        if (args.players, args.cards, index, args.kind) in done:
            continue
        found = solve_deal(args.players, args.cards, index, args.seconds, args.max_memory,
                           args.kind)
        deals = [d for d in load(args.data)
                 if (d["players"], d["cards"], d["index"], d.get("kind", "first"))
                 != (args.players, args.cards, index, args.kind)]
        deals.append(found)
        deals.sort(key=lambda d: (d.get("kind", "first"), d["players"], d["cards"] or 99,
                                  d["index"]))
        text = json.dumps({"format": "omen-solver-exact-moves", "deals": deals}, indent=1)
        tmp = args.data.with_suffix(".tmp")
        tmp.write_text(text + "\n")
        tmp.replace(args.data)
        print(f"deal {index}: {found['status']} in {found['seconds']} s, "
              f"{sum(m['status'] == 'won' for m in found['moves'])} won of "
              f"{len(found['moves'])}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
