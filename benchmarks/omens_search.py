"""Benchmark: Omens bout perft and round solving at 4, 5 and 6 players, 2 to 5 cards each.

Prints, in one run and on the same positions: nodes, distinct states, seconds and nodes per
second of our perft (transpositions merged) and of a plain walk of every sequence; of our
solver (alpha-beta with a transposition table and move ordering; paranoid for three teams), of
the naive reference solver, and of OpenSpiel's ``alpha_beta_search`` through the adapter; and
the time ratios naive/ours and OpenSpiel/ours. Every search runs under the same time budget and
a search that runs out says "unknown" (OpenSpiel's search takes no budget, so it runs in a child
process that is stopped at the limit).

Usage::

    python benchmarks/omens_search.py [--seconds 30] [--write docs/benchmarks.md]

The positions are fixed deals (seeded), round scope, seat 1 leads, default rules. With 4 and 5
players the cards are drawn from 1-29 (no Absolute: OpenSpiel's sequential search cannot play
The Absolute's simultaneous exchange between two teams); with 6 players from all 35.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from omen_solver.core.enumeration.budget import Budget
from omen_solver.core.enumeration.perft import perft
from omen_solver.core.search import naive_solve, solve
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table

CONFIGS = [(players, cards) for players in (4, 5, 6) for cards in (2, 3, 4, 5)]
TEAMS = {4: [[0, 2], [1, 3]], 5: [[0, 3], [1, 2, 4]], 6: [[0, 3], [1, 4], [2, 5]]}
SEED = 20261130


def deal(players: int, cards: int) -> list[list[int]]:
    """A fixed deal for a configuration (the same on every run)."""
    rng = random.Random(SEED + 10 * players + cards)
    deck = list(range(1, 36 if players == 6 else 30))
    rng.shuffle(deck)
    return [sorted(deck[seat * cards : (seat + 1) * cards]) for seat in range(players)]


def position(players: int, cards: int) -> OmensState:
    table = Table(players, make_rules("rulebook"))
    return OmensState.start_of_bout(table, deal(players, cards), TEAMS[players], 0)


@dataclass
class Row:
    name: str
    status: str
    nodes: int | None
    states: int | None
    seconds: float
    value: str = ""

    @property
    def rate(self) -> str:
        if not self.nodes or self.seconds <= 0:
            return "-"
        return f"{self.nodes / self.seconds:,.0f}"


def _perft(state: OmensState, merge: bool, budget: Budget) -> Row:
    result = perft(state, stop="bout", transpositions=merge, budget=budget)
    name = "perft (merged)" if merge else "perft (every sequence)"
    if result.total is None:
        return Row(name, "unknown", result.visited, None, result.seconds)
    return Row(
        name,
        "solved",
        result.visited,
        result.states,
        result.seconds,
        f"{result.total.sequences:,} sequences",
    )


def _solve(state: OmensState, naive: bool, budget: Budget) -> Row:
    concept = "paranoid" if len(state.teams()) > 2 else "minimax"
    search = naive_solve if naive else solve
    result = search(state, concept=concept, team=1, budget=budget)
    name = "naive solver" if naive else "our solver"
    value = "" if result.value is None else f"team 1: {result.value}"
    return Row(name, result.status.value, result.nodes, result.states, result.seconds, value)


_OPENSPIEL_DRIVER = """
import json, sys, time
from omen_solver.integrations.openspiel import make_game
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from open_spiel.python.algorithms import minimax
spec = json.loads(sys.argv[1])
table = Table(spec["players"], make_rules("rulebook"))
state = OmensState.start_of_bout(table, spec["hands"], spec["teams"], 0)
start = time.perf_counter()
game = make_game(state)
scanned = time.perf_counter()
value, _ = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length() + 1,
                                     maximizing_player_id=0)
done = time.perf_counter()
print(json.dumps({"value": value, "scan": scanned - start, "search": done - scanned}))
"""


def _openspiel(players: int, cards: int, seconds: float) -> Row:
    if players == 6:
        return Row("OpenSpiel alpha_beta_search", "n/a (3 teams)", None, None, 0.0)
    spec = json.dumps({"players": players, "hands": deal(players, cards), "teams": TEAMS[players]})
    try:
        done = subprocess.run(
            [sys.executable, "-c", _OPENSPIEL_DRIVER, spec],
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Row("OpenSpiel alpha_beta_search", "unknown", None, None, seconds)
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["failed"])[-1]
        return Row("OpenSpiel alpha_beta_search", f"n/a ({reason[:60]})", None, None, 0.0)
    report = json.loads(done.stdout)
    value = "team 1 wins" if report["value"] > 0 else "team 1 loses"
    return Row(
        "OpenSpiel alpha_beta_search",
        "solved",
        None,
        None,
        report["search"] + report["scan"],
        value,
    )


def _ratio(slow: Row, fast: Row) -> str:
    if slow.status != "solved" or fast.status != "solved" or fast.seconds <= 0:
        if slow.status == "unknown" and fast.status == "solved":
            return f"> {slow.seconds / max(fast.seconds, 1e-9):,.0f}"
        return "-"
    return f"{slow.seconds / fast.seconds:,.1f}"


def run(seconds: float) -> tuple[list[list[str]], list[list[str]]]:
    budget = Budget(max_seconds=seconds)
    perft_rows: list[list[str]] = []
    solve_rows: list[list[str]] = []
    for players, cards in CONFIGS:
        label = f"{players}p x {cards}"
        state = position(players, cards)
        merged, plain = _perft(state, True, budget), _perft(state, False, budget)
        for row in (merged, plain):
            perft_rows.append(_cells(label, row))
        perft_rows[-1].append(_ratio(plain, merged))
        perft_rows[-2].append("")
        ours = _solve(state, False, budget)
        naive = _solve(state, True, budget)
        spiel = _openspiel(players, cards, seconds)
        for row, ratio in ((ours, ""), (naive, _ratio(naive, ours)), (spiel, _ratio(spiel, ours))):
            solve_rows.append([*_cells(label, row), ratio])
        print(f"done {label}", file=sys.stderr, flush=True)
    return perft_rows, solve_rows


def _cells(label: str, row: Row) -> list[str]:
    nodes = "-" if row.nodes is None else f"{row.nodes:,}"
    states = "-" if row.states is None else f"{row.states:,}"
    return [label, row.name, row.status, nodes, states, f"{row.seconds:.2f}", row.rate, row.value]


HEADERS = ["position", "search", "status", "nodes", "states", "seconds", "nodes/s", "result"]


def markdown(perft_rows: list[list[str]], solve_rows: list[list[str]], seconds: float) -> str:
    def table(headers: list[str], rows: list[list[str]]) -> list[str]:
        out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        return out

    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores"
    )
    lines = [
        "# Benchmarks",
        "",
        "Measured by `python benchmarks/omens_search.py --write docs/benchmarks.md` "
        f"(`make bench` prints the same without writing) on {machine}, "
        f"on {time.strftime('%Y-%m-%d')}, with a budget of {seconds:g} s per search.",
        "Positions: fixed seeded deals, seat 1 leads, default rules, round scope (see the "
        'script\'s docstring). "unknown" means the search ran out of its budget; a ratio '
        '"> n" is a lower bound from a search that ran out.',
        "",
        "## Bout perft (every legal action sequence to the end of the bout)",
        "",
        "The ratio is the time of the plain walk over the merged walk.",
        "",
        *table([*HEADERS, "ratio"], perft_rows),
        "",
        "## Round solving (which team wins the round, every hand open)",
        "",
        "Ratios are the time of the naive solver, and of OpenSpiel's alpha-beta through the "
        "adapter (state-graph scan included), over our solver's time. Three teams: paranoid "
        "(team 1 against the others); OpenSpiel's alpha-beta does not apply.",
        "",
        *table([*HEADERS, "ratio"], solve_rows),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per search")
    parser.add_argument("--write", type=Path, help="also write the tables to this markdown file")
    args = parser.parse_args(argv)
    perft_rows, solve_rows = run(args.seconds)
    text = markdown(perft_rows, solve_rows, args.seconds)
    print(text)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
        print(f"wrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
