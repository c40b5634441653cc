"""What the exact search can be expected to finish: the data behind ``solve``'s "out of reach"
note, and the model fitted to it (``omen_solver/omens/kernel/reach.py``).

``python benchmarks/omens_reach.py --collect`` solves seeded Omens positions of 4, 5 and 6
players as ``solve`` does by default (every root move, the kernel's default search, one thread,
at most ``--nodes`` nodes each) and adds each one's size (players, cards in the hands) and the
nodes its solve took (or that it ran out) to ``benchmarks/data/omens_reach.json``: dealt hands
of 2 to 5 cards (one Absolute each, as at a game start) and the bout starts that seeded play
from full deals reaches (the survey's heuristic, the first bouts played). ``--fit`` fits, for
each number of players, the base-10 logarithm of the nodes a solve needs as a straight line in
the cards in the hands (over the medians of each size, the positions that ran out counted as
needing more than the limit) with the spread of the positions about it, and prints the
constants that ``reach.py`` keeps, with how the model fares on the data. The node counts do not
depend on the machine; ``--rate`` measures the nodes a second of this machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "omens_reach.json"
SEED = 20261130


def positions(players: int, count: int) -> list[tuple[str, Any]]:
    """Seeded positions of one player count: dealt hands of 2 to 5 cards, and bout starts of
    full deals after 1 to 4 bouts of the survey's heuristic play."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table
    from omen_solver.survey.policies import heuristic_move

    table = Table(players, make_rules("rulebook", {}))
    found: list[tuple[str, Any]] = []
    for index in range(count):
        for cards in (2, 3, 4):
            deal = random_deal(table, SEED + index, "first", cards)
            found.append((f"{players}p deal {index}, {cards} cards", deal_position(table, deal)))
        state = deal_position(table, random_deal(table, SEED + index, "first", None))
        found.append((f"{players}p deal {index}, whole", state))
        rng = random.Random(index)
        bouts = 0
        while not state.is_terminal() and bouts < 4:
            move = heuristic_move(state) if rng.random() < 0.7 else rng.choice(state.moves())
            if state.current_player() < 0:
                move = tuple(state.actions(seat)[0] for seat in state.acting_players())
            after = state.apply_move(move)
            if (not after.is_terminal() and not after.in_play and not after.pending
                    and not any(after.played_this_bout(s) for s in range(players))
                    and after.leader is not None):
                bouts += 1
                found.append((f"{players}p deal {index}, after bout {bouts}", after))
            state = after
    return found


def collect(players: tuple[int, ...], count: int, nodes: int, path: Path) -> None:
    from omen_solver.core.budget import Budget
    from omen_solver.core.search import solve

    rows: list[dict[str, Any]] = json.loads(path.read_text())["positions"] if path.exists() else []
    done = {row["name"] for row in rows}
    for number in players:
        concept = "minimax" if number < 6 else "paranoid"
        for name, state in positions(number, count):
            if name in done or state.is_terminal():
                continue
            began = time.perf_counter()
            result = solve(state, concept=concept, budget=Budget(max_nodes=nodes), threads=1)
            rows.append({"name": name, "players": number,
                         "cards": sum(len(hand) for hand in state.hands),
                         "solved": result.solved, "nodes": result.nodes, "limit": nodes,
                         "seconds": round(time.perf_counter() - began, 2)})
            text = json.dumps({"format": "omen-solver-reach", "positions": rows}, indent=1)
            path.with_suffix(".tmp").write_text(text + "\n")
            path.with_suffix(".tmp").replace(path)
            print(f"{name}: {rows[-1]['cards']} cards, "
                  f"{'solved' if result.solved else 'unknown'} in {result.nodes:,} nodes",
                  file=sys.stderr, flush=True)


def fit(path: Path) -> dict[int, tuple[float, float, float]]:
    """Per player count: (intercept, slope, spread) of log10(nodes) against cards."""
    rows = json.loads(path.read_text())["positions"]
    model: dict[int, tuple[float, float, float]] = {}
    for players in sorted({row["players"] for row in rows}):
        mine = [row for row in rows if row["players"] == players]
        points = []
        for cards in sorted({row["cards"] for row in mine}):
            sizes = [math.log10(max(1, row["nodes"])) if row["solved"] else math.inf
                     for row in mine if row["cards"] == cards]
            median = statistics.median(sizes)
            if median != math.inf and len(sizes) >= 2:
                points.append((cards, median))
        if len(points) < 2:
            continue
        xs, ys = zip(*points, strict=True)
        slope, intercept = statistics.linear_regression(xs, ys)
        residuals = [math.log10(max(1, row["nodes"])) - (intercept + slope * row["cards"])
                     for row in mine if row["solved"]]
        spread = statistics.pstdev(residuals) if len(residuals) > 1 else 1.0
        model[players] = (round(intercept, 3), round(slope, 3), round(max(spread, 0.3), 3))
    return model


def report(path: Path, model: dict[int, tuple[float, float, float]]) -> None:
    """How often the model's "not expected" (a chance below a half) held on the data."""
    from statistics import NormalDist

    rows = json.loads(path.read_text())["positions"]
    print("players  intercept  slope  spread  (log10 nodes = intercept + slope * cards)")
    for players, (intercept, slope, spread) in model.items():
        print(f"{players:>7}  {intercept:>9}  {slope:>5}  {spread:>6}")
    wrong = said = 0
    for row in rows:
        if row["players"] not in model:
            continue
        intercept, slope, spread = model[row["players"]]
        mean = intercept + slope * row["cards"]
        chance = NormalDist(mean, spread).cdf(math.log10(row["limit"]))
        if chance < 0.5:
            said += 1
            wrong += row["solved"]
    print(f"'not expected within {rows[0]['limit']:,} nodes' said of {said} of {len(rows)} "
          f"positions; {wrong} of them were solved within it")


def rate(seconds: float) -> float:
    """Nodes a second of a default solve here (a 4-player deal with 4 cards a hand)."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.search import solve
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook", {}))
    state = deal_position(table, random_deal(table, SEED + 1, "first", 4))
    result = solve(state, budget=Budget(max_seconds=seconds), threads=1)
    return result.nodes / result.seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--collect", action="store_true")
    parser.add_argument("--players", default="4,5,6")
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=4_000_000)
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--rate", type=float, metavar="S", help="measure the node rate for S s")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    if args.collect:
        collect(tuple(int(p) for p in args.players.split(",")), args.deals, args.nodes,
                args.data)
    if args.fit:
        model = fit(args.data)
        report(args.data, model)
        print("MODEL =", json.dumps({str(k): v for k, v in model.items()}))
    if args.rate:
        print(f"{rate(args.rate):,.0f} nodes a second (one thread)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
