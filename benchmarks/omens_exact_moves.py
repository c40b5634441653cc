"""The exact value of every first move of seeded Omens positions, solved once, slowly, and kept as
data for ``benchmarks/omens_estimates.py`` (which measures the estimates against them).

``python benchmarks/omens_exact_moves.py --players 4 --cards 4 --deals 40`` solves deals ``SEED
+ i`` (the seeds of ``benchmarks/omens_search.py``; one Absolute a hand, as at a game start, or
with ``--kind later`` every card shuffled, as in a later round), each move by move to the end
(one thread, within ``--nodes`` nodes or ``--seconds`` a deal), and adds each answer to
``benchmarks/data/omens_exact_moves.json`` (a deal already there is not solved again, so an
interrupted run resumes).

``--kind after`` takes positions **later in real deals**: deal ``AFTER_SEED + i`` (five cards a
hand, as ``solve --deal`` deals), played on by the survey's heuristic (a random legal move a
quarter of the time, from a stream seeded by ``i``) bout by bout until a bout starts with at
most ``--max-cards`` cards in the hands (and at least ``--bouts`` bouts played); the position
is kept as its one-line text (``"position"``) with the moves that led there (``"line"``).

The search is ``--search`` (default ``dfpn``: value-only df-pn, the fastest exact settings
measured on 4-card deals) with ``--playouts`` random playouts at each new bout start
(``Tuning.playouts``; docs/benchmarks.md, "Exact answers one size up"). An exact value is
exact whatever search found it; each entry records how it was solved (``"how"``). Every
move's status is for the team of the seat to play. Seconds depend on the machine; the answers
do not.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "omens_exact_moves.json"
SEED = 20261130
"""The seeds of ``benchmarks/omens_search.py``: deal ``i`` is ``random_deal(table, SEED + i)``."""
AFTER_SEED = SEED + 50_000
"""The deals of ``--kind after``: ``random_deal(table, AFTER_SEED + i)``, five cards a hand."""
EPSILON = 0.25
"""``--kind after``: the share of random moves in the play that leads to the position."""


def _table(players: int) -> Any:
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    return Table(players, make_rules("rulebook", {}))


def after_position(players: int, index: int, bouts: int, max_cards: int
                   ) -> tuple[Any, list[str]] | None:
    """The position of ``--kind after`` number ``index`` and the moves that led there, or None
    where the round ended (or 8 bouts passed) before a bout started with few enough cards."""
    from omen_solver.core.game import SIMULTANEOUS
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.survey.policies import heuristic_move

    table = _table(players)
    state = deal_position(table, random_deal(table, AFTER_SEED + index, "first", None))
    rng = random.Random(index)
    line: list[str] = []
    played = 0
    while played < 8:
        bout_over = state.stop_predicate("bout")
        first = True
        while first or not bout_over(state):
            first = False
            if state.is_terminal():
                return None
            moves = state.moves()
            if state.current_player() == SIMULTANEOUS or rng.random() < EPSILON:
                move = moves[rng.randrange(len(moves))]
            else:
                move = heuristic_move(state)
            line.append(state.action_to_string(move if len(move) > 1 else move[0]))
            state = state.apply_move(move)
        played += 1
        if state.is_terminal():
            return None
        cards = sum(len(hand) for hand in state.hands)
        if played >= bouts and cards <= max_cards and state.current_player() >= 0:
            return state, line
    return None


def solve_position(state: Any, nodes: int | None, seconds: float | None, memory: int,
                   search: str, playouts: int) -> dict[str, Any]:
    """One position's first moves, each with its exact status for the team to play."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.search.result import Concept
    from omen_solver.omens.kernel.params import Tuning
    from omen_solver.omens.kernel.solve import solve_with_kernel

    concept = Concept.MINIMAX if len(state.teams()) == 2 else Concept.PARANOID
    team = state.team_of(state.current_player())
    began = time.perf_counter()
    result = solve_with_kernel(state, concept, team, budget=Budget(nodes, seconds), threads=1,
                               algorithm=search, max_memory=memory,
                               tuning=replace(Tuning(), playouts=playouts))
    return {
        "concept": concept.value, "team": list(result.team_seats),
        "status": result.status.value,
        "value": None if result.value is None else str(result.value),
        "nodes": result.nodes, "seconds": round(time.perf_counter() - began, 1),
        "how": {"search": search, "playouts": playouts, "max_nodes": nodes,
                "max_seconds": seconds, "threads": 1},
        "moves": [{"action": m.action, "status": m.status.value,
                   "value": None if m.value is None else str(m.value)} for m in result.moves],
    }


def load(path: Path = DATA) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    data: list[dict[str, Any]] = json.loads(path.read_text())["deals"]
    return data


def _key(deal: dict[str, Any]) -> tuple[Any, ...]:
    return (deal["players"], deal["cards"], deal["index"], deal.get("kind", "first"))


def store(path: Path, found: dict[str, Any]) -> None:
    """Add (or replace) one entry, under a lock, so that two runs may add to the same file."""
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        deals = [d for d in load(path) if _key(d) != _key(found)]
        deals.append(found)
        deals.sort(key=lambda d: (d.get("kind", "first"), d["players"], d["cards"] or 99,
                                  d["index"]))
        text = json.dumps({"format": "omen-solver-exact-moves", "deals": deals}, indent=1)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text + "\n")
        tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=None, help="a position's node budget")
    parser.add_argument("--seconds", type=float, default=None,
                        help="a position's time budget (default: 900 s without --nodes)")
    parser.add_argument("--max-memory", type=int, default=2 << 30)
    parser.add_argument("--search", choices=("dfpn", "portfolio", "alphabeta"), default="dfpn")
    parser.add_argument("--playouts", type=int, default=8,
                        help="df-pn's playouts at a new bout start (Tuning.playouts; 0: none)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--kind", choices=("first", "later", "after"), default="first",
                        help="first: a game start (one Absolute each); later: every card "
                             "shuffled (several Absolutes or none); after: a real deal played "
                             "on for some bouts")
    parser.add_argument("--bouts", type=int, default=1, help="--kind after: bouts at least")
    parser.add_argument("--max-cards", type=int, default=16,
                        help="--kind after: cards in the hands at most")
    parser.add_argument("--retry", action="store_true",
                        help="solve again the positions kept as unknown (with more budget)")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None or args.nodes else 900.0
    cards = None if args.kind == "after" else args.cards
    done = {_key(d) for d in load(args.data) if not args.retry or d["status"] == "solved"}
    for index in range(args.first, args.first + args.deals):
        if (args.players, cards, index, args.kind) in done:
            continue
        entry: dict[str, Any] = {"players": args.players, "cards": cards, "index": index,
                                 "kind": args.kind}
        if args.kind == "after":
            found = after_position(args.players, index, args.bouts, args.max_cards)
            if found is None:
                print(f"position {index}: the round ended first", file=sys.stderr, flush=True)
                continue
            state, line = found
            entry.update(seed=AFTER_SEED + index, position=state.to_text(), line=line)
        else:
            from omen_solver.omens.deals import deal_position, random_deal

            table = _table(args.players)
            state = deal_position(table, random_deal(table, SEED + index, args.kind, cards))
            entry.update(seed=SEED + index)
        entry.update(solve_position(state, args.nodes, seconds, args.max_memory, args.search,
                                    args.playouts))
        store(args.data, entry)
        print(f"{args.kind} {index}: {entry['status']} in {entry['seconds']} s, "
              f"{entry['nodes']:,} nodes, {sum(m['status'] == 'won' for m in entry['moves'])} "
              f"won of {len(entry['moves'])}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
