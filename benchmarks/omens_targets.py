"""Benchmark: the table of what Omens solves answer at real sizes, beside the targets, in one run.

Each row is a configuration of seeded deals (one Absolute a hand, as at a game start:
``omen_solver.omens.deals.random_deal``, the seeds of ``benchmarks/omens_search.py``) solved
as ``omen-solver solve`` does by default (the kernel's search by turns, every root move
answered, ``--max-memory`` 2 GiB), within the row's time limit. The solves run on one thread
unless ``--threads N`` says otherwise (``--threads 0``: the machine's cores, as ``omen-solver
solve`` has by default); the rows then say how many threads they had:

1. 4 players, 3 cards a hand: how many deals are solved exactly within 1 s each;
2. 4 players, 4 cards a hand: the median seconds to the exact value (40 s each at most);
3. 4 players from the deal (5 cards) within 30 s: how many leads are reported with bounds
   tighter than [0, 1] (a proven bound, not the [0, 1] every round lies in), and on how many
   deals the value is decided or at least one lead is proven (won, lost or an exact value);
4. 4 players from the start of bout 3 of a real deal (the first two bouts played at random,
   seeded): the median seconds to the exact value (15 s each at most);
5. 5 and 6 players from the deal within 30 s (6 players: paranoid for the leader's team):
   the leads reported with bounds tighter than [0, 1];
6. nodes searched over the size of the smallest proof the search's own tables certify, on
   3-card 4-player deals (``benchmarks/proof_size.py``'s extractor, node budgets);
7. the distinct bout starts a solve searched over those in its proof, on 4-card deals
   (``benchmarks/omens_waste.py``, node budgets: the figures repeat);
8. the hardest lead of 4-card deal 0 proved on 1 and 2 threads (``benchmarks/omens_parallel.py``):
   the wall clock's speed-up, beside the nodes and the processor time;
9. the peak resident memory of the processes that ran rows 1-5 (each row runs in a child
   process of its own).

Rows 1, 2 and 4 also count processor seconds (of every thread), which a loaded machine disturbs
less than the wall clock; ``--slack F`` lets each solve run F times its row's seconds on the
wall clock so that the processor time can be read. ``--compare SETTINGS`` runs rows 1, 2, 4
and 7 a second time with settings of ``kernel/params.py``'s ``Tuning`` changed (e.g.
``playouts=0``: the default search before playouts), side by side in one run; ``--rows``
chooses the rows.

A solve ends once every root move is known to reach the value or not (every optimal move and
a line of play); the live table says the exact value as soon as the moves decide it (one
proven winning move, or all proven losing). Rows 1, 2 and 4 give both: the whole solve, and
when the value was first said (the solve's ``report``).

``python benchmarks/omens_targets.py [--deals3 100] [--deals 6] [--proof-deals 20] [--rows
3,4,...] [--compare SETTINGS] [--slack F]`` prints
the table (Markdown) with each row's figure beside its target; ``--quick`` runs fewer deals.
Seconds depend on the machine and its load; node counts do not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
SEED = 20261130
"""The seeds of ``benchmarks/omens_search.py``: deal ``i`` is ``random_deal(table, SEED + i)``."""


@dataclass
class Row:
    """What a child process solves: ``deals`` seeded deals of ``players`` with ``cards`` a hand
    (None: the whole deal), from bout ``bout`` (1: the deal), each within ``seconds``."""

    players: int
    deals: int
    seconds: float
    cards: int | None = None
    bout: int = 1
    concept: str = "minimax"
    settings: dict[str, Any] = field(default_factory=dict)
    """Settings of ``kernel/params.py``'s ``Tuning`` changed from the defaults (a search
    before or after a change of default, side by side in one run)."""
    threads: int = 1
    """The solve's threads (0: the machine's cores, as ``omen-solver solve`` by default)."""
    slack: float = 1.0
    """The wall-clock limit of a solve is ``seconds`` times this, so that on a loaded machine
    a solve may take its ``seconds`` of processor time (``cpu``)."""


@dataclass
class Solved:
    """One deal's answer."""

    status: str
    seconds: float
    nodes: int
    moves: int
    """Root moves reported."""
    legal: int
    """Legal root moves."""
    bounded: int
    """Moves reported with bounds tighter than [0, 1] (a lower bound above 0 or an upper bound
    below 1: [0, 1] is what every round is worth, so it says nothing)."""
    settled: int
    """Moves proven (won, lost or an exact value)."""
    cpu: float = 0.0
    """Processor seconds of the solve (of all its threads)."""
    value_seconds: float | None = None
    """When the solve first said the exact value (its report, as the live table shows it,
    before every move is known to reach it or not), or None if it did not."""


@dataclass
class Measured:
    solved: list[Solved] = field(default_factory=list)
    peak_rss: int = 0


def _states(row: Row) -> list[Any]:
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.playout import play_forward
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(row.players, make_rules("rulebook"))
    states = []
    for index in range(row.deals):
        state = deal_position(table, random_deal(table, SEED + index, cards=row.cards))
        if row.bout > 1:
            rng = random.Random(SEED + index)
            state = next(reached.start for reached in play_forward(state, rng)
                         if reached.bouts == row.bout - 1)
        states.append(state)
    return states


def run_row(row: Row) -> Measured:
    """Solve the row's deals in this process, as ``omen-solver solve`` does."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.search.moves import MovesReport
    from omen_solver.core.search.solver import resolve_concept
    from omen_solver.omens.kernel.params import Tuning
    from omen_solver.omens.kernel.solve import solve_with_kernel

    tuning = Tuning(**row.settings)
    measured = Measured()
    for state in _states(row):
        legal = len(state.moves())
        said: list[float] = []

        def report(snapshot: MovesReport, said: list[float] = said) -> None:
            if snapshot.value is not None and not said:
                said.append(snapshot.seconds)  # the solve's own clock

        began, cpu = time.perf_counter(), time.process_time()
        concept, team = resolve_concept(state, row.concept, None)
        result = solve_with_kernel(state, concept, team,
                                   budget=Budget(max_seconds=row.seconds * row.slack),
                                   report=report, tuning=tuning, threads=row.threads)
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        moves = result.moves or []
        if result.status.value == "solved" and not said:
            said.append(seconds)  # a root with no per-move search: the value comes at the end
        measured.solved.append(Solved(
            result.status.value, seconds, result.nodes, len(moves), legal,
            sum(1 for m in moves if m.lower is not None and m.upper is not None
                and (m.lower > 0 or m.upper < 1)),
            sum(1 for m in moves if m.settled), cpu, said[0] if said else None))
    measured.peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return measured


def in_child(row: Row) -> Measured:
    done = subprocess.run([sys.executable, __file__, "--worker", json.dumps(asdict(row))],
                          capture_output=True, text=True, check=False, cwd=ROOT,
                          timeout=row.deals * (row.seconds * row.slack * 3 + 30) + 120)
    if done.returncode != 0:
        raise RuntimeError(f"{row}: {done.stderr.strip()[-2000:]}")
    data = json.loads(done.stdout)
    return Measured([Solved(**s) for s in data["solved"]], data["peak_rss"])


def _nodes(measured: Measured) -> str:
    return f"median {statistics.median(s.nodes for s in measured.solved):,.0f} nodes"


def _median_seconds(measured: Measured, limit: float) -> str:
    padded = [s.seconds if s.status == "solved" else float("inf") for s in measured.solved]
    median = statistics.median(padded)
    return f"> {limit:g} s" if median == float("inf") else f"{median:.2f} s"


def _said(measured: Measured, limit: float) -> str:
    """When the exact value was first said (before every move is settled): how many deals
    within ``limit`` seconds, and the median."""
    times = [s.value_seconds if s.value_seconds is not None and s.value_seconds <= limit
             else float("inf") for s in measured.solved]
    within = sum(1 for t in times if t != float("inf"))
    median = statistics.median(times)
    shown = f"> {limit:g} s" if median == float("inf") else f"{median:.2f} s"
    return f"the value said within {limit:g} s on {within}/{len(times)}, median {shown}"


def _reported(measured: Measured) -> str:
    every = sum(1 for s in measured.solved if s.moves == s.legal and s.bounded == s.moves)
    leads = sum(s.legal for s in measured.solved)
    bounded = sum(s.bounded for s in measured.solved)
    return (f"{bounded}/{leads} leads with bounds tighter than [0, 1]; {every}/"
            f"{len(measured.solved)} deals with every lead so bounded")


def _proof_ratio(deals: int, nodes: int) -> str:
    from proof_size import deals as proof_deals
    from proof_size import run_search

    ratios = []
    for machine, maximising, root in proof_deals(deals):
        run = run_search(machine, maximising, root, "portfolio+defaults", nodes)
        if run.ratio is not None:
            ratios.append(run.ratio)
    if not ratios:
        return "no deal solved"
    return (f"median {statistics.median(ratios):.1f}x, worst {max(ratios):,.1f}x "
            f"({len(ratios)}/{deals} deals with a proof)")


def _settings(text: str) -> dict[str, Any]:
    """``name=value,...``: ``Tuning`` settings (``benchmarks/omens_waste.py``'s
    ``parse_settings``)."""
    from omens_waste import parse_settings

    return parse_settings(text)


def _cpu_within(measured: Measured, limit: float) -> str:
    within = sum(1 for s in measured.solved if s.status == "solved" and s.cpu <= limit)
    return f"{within}/{len(measured.solved)} within {limit:g} s of processor time"


def _median_cpu(measured: Measured) -> str:
    padded = [s.cpu if s.status == "solved" else float("inf") for s in measured.solved]
    median = statistics.median(padded)
    solved = sum(1 for s in measured.solved if s.status == "solved")
    shown = "unknown" if median == float("inf") else f"{median:.1f} s"
    return f"{solved}/{len(measured.solved)} solved, median {shown} of processor time"


def waste_ratio(deals: int, nodes: int, settings: dict[str, Any]) -> str:
    """Distinct bout starts searched over those in the proof, 4-card deals from 0
    (``benchmarks/omens_waste.py``; the default solve, one thread, 2 GiB)."""
    from omens_waste import Variant, deal_states, solve_deal

    variant = Variant("now", "portfolio", tuple(settings.items()))
    cells = []
    for index, state in enumerate(deal_states(deals, 4)):
        measured = solve_deal(state, variant, nodes, 1, check=False, max_memory=2 * 2**30)
        ratio = measured.ratio
        if ratio is None:
            cells.append(f"deal {index}: {measured.status} at {measured.nodes:,} nodes")
            continue
        searched = sum(measured.searched.values())
        held = sum((measured.proof or {}).values())
        completed = (f"; {measured.completed} lead(s)' proofs completed by a search without "
                     "playouts" if measured.completed else "")
        cells.append(f"deal {index}: {ratio:.1f}x ({searched:,} / {held:,}{completed}; "
                     f"{measured.nodes:,} nodes)")
    return "; ".join(cells)


def threads_ratio(nodes: int, settings: dict[str, Any]) -> str:
    """The hardest lead of 4-card deal 0 proved on 1 and 2 threads
    (``benchmarks/omens_parallel.py``): the wall clock's speed-up and the processor time."""
    from omens_parallel import prove_lead

    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.kernel.params import Tuning
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, SEED, cards=4))
    leader = state.current_player()
    lead = next(m for m in state.moves() if " ".join(map(str, m)) == "3:35 with 4")
    after = state.apply_move(lead)
    one = prove_lead(after, leader, 1, nodes, 2 * 2**30, Tuning(**settings))
    two = prove_lead(after, leader, 2, nodes, 2 * 2**30, Tuning(**settings))
    return (f"{one[2] / two[2]:.2f}x of the wall clock ({one[1]:,} nodes in {one[2]:.1f} s, "
            f"{one[3]:.1f} s of processor time; 2 threads {two[1]:,} nodes in {two[2]:.1f} s, "
            f"{two[3]:.1f} s)")


ALL_ROWS = "3,4,deal,bout3,large,proof,waste,threads"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--deals3", type=int, default=100, help="3-card deals (row 1)")
    parser.add_argument("--deals", type=int, default=6, help="deals of rows 2-4")
    parser.add_argument("--large-deals", type=int, default=2, help="5p and 6p deals each")
    parser.add_argument("--proof-deals", type=int, default=20)
    parser.add_argument("--proof-nodes", type=int, default=3_000_000)
    parser.add_argument("--waste-deals", type=int, default=1,
                        help="4-card deals whose width is measured")
    parser.add_argument("--waste-nodes", type=int, default=60_000_000)
    parser.add_argument("--threads-nodes", type=int, default=200_000_000,
                        help="node budget of the 1 and 2 thread proofs")
    parser.add_argument("--rows", default=ALL_ROWS, help=f"the rows to run, of {ALL_ROWS}")
    parser.add_argument("--compare", default=None, metavar="SETTINGS",
                        help="also run rows 3, 4, bout3 and waste with these Tuning settings "
                             "(name=value,...: the search before a change of default)")
    parser.add_argument("--threads", type=int, default=1, metavar="N",
                        help="threads of the solves of rows 3, 4, deal, bout3 and large (0: the "
                             "machine's cores, as omen-solver solve by default; default 1)")
    parser.add_argument("--slack", type=float, default=1.0,
                        help="wall-clock limits times this (a loaded machine)")
    parser.add_argument("--quick", action="store_true", help="a few deals a row")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(asdict(run_row(Row(**json.loads(args.worker))))))
        return 0
    if args.threads < 0:
        parser.error(f"--threads: 0 (the machine's cores) or more, not {args.threads}")
    threads = args.threads
    on = ("" if threads == 1 else
          f" ({threads if threads else os.cpu_count() or 1} threads)")
    if args.quick:
        args.deals3, args.deals, args.large_deals, args.proof_deals = 10, 2, 1, 3
    wanted = set(args.rows.split(","))
    unknown = wanted - set(ALL_ROWS.split(","))
    if unknown:
        parser.error(f"--rows: unknown {', '.join(sorted(unknown))}; choose from {ALL_ROWS}")
    variants: list[tuple[str, dict[str, Any]]] = [("now", {})]
    if args.compare is not None:
        try:
            variants.append((args.compare, _settings(args.compare)))
        except ValueError as error:
            parser.error(f"--compare: {error}")
    peaks: list[int] = []
    load = os.getloadavg()[0]

    def measure(row: Row) -> Measured:
        measured = in_child(row)
        peaks.append(measured.peak_rss)
        print(f"done {row}", file=sys.stderr, flush=True)
        return measured

    def each(make: Any) -> str:
        """A row's figure with each variant, side by side."""
        cells = [make(settings) for _, settings in variants]
        if len(cells) == 1:
            return str(cells[0])
        named = zip(variants, cells, strict=True)
        return "; ".join(f"**{name}**: {cell}" for (name, _), cell in named)

    rows: list[tuple[str, str, str, str]] = []
    slack = args.slack
    if "3" in wanted:
        def three(settings: dict[str, Any]) -> str:
            got = measure(Row(4, args.deals3, 1.0, cards=3, settings=settings, slack=slack,
                              threads=threads))
            within = sum(1 for s in got.solved if s.status == "solved" and s.seconds <= 1.0)
            return (f"{within}/{len(got.solved)} within 1 s, {_cpu_within(got, 1.0)} "
                    f"({_nodes(got)}); {_said(got, 1.0)}")
        rows.append(("4p, 3 cards a hand, exact value" + on, "83/100 within 1 s", each(three),
                     "100/100 within 1 s"))
    if "4" in wanted:
        def four(settings: dict[str, Any]) -> str:
            got = measure(Row(4, args.deals, 40.0, cards=4, settings=settings, slack=slack,
                              threads=threads))
            return f"{_median_cpu(got)} ({_nodes(got)}); {_said(got, 40.0)}"
        rows.append(("4p, 4 cards a hand, exact value and every lead" + on,
                     "unknown at 20 M nodes; 0/6 within 40 s", each(four),
                     "median ≤ 10 s, ≤ 5 M nodes"))
    if "deal" in wanted:
        deal = measure(Row(4, args.deals, 30.0, slack=slack, threads=threads))
        decided = sum(1 for s in deal.solved if s.status == "solved" or s.settled > 0)
        rows.append(("4p from the deal (5 cards), within 30 s" + on,
                     "value in [0, 1], no move settled",
                     f"{_reported(deal)}; {decided}/{len(deal.solved)} with the value decided "
                     "or ≥ 1 lead proven",
                     "every lead bounded; ≥ 50 % of deals with the value decided or ≥ 1 lead "
                     "proven"))
    if "bout3" in wanted:
        def bout3(settings: dict[str, Any]) -> str:
            got = measure(Row(4, args.deals, 15.0, bout=3, settings=settings, slack=slack,
                              threads=threads))
            return f"{_median_cpu(got)} ({_nodes(got)}); {_cpu_within(got, 1.0)}"
        rows.append(("4p from the start of bout 3 of a real deal (seeded play)" + on,
                     "1/6 within 15 s", each(bout3), "median ≤ 1 s"))
    if "large" in wanted:
        five = measure(Row(5, args.large_deals, 30.0, slack=slack, threads=threads))
        six = measure(Row(6, args.large_deals, 30.0, concept="paranoid", slack=slack,
                          threads=threads))
        rows.append(("5p and 6p from the deal, within 30 s" + on, "nothing",
                     f"5p: {_reported(five)}; 6p: {_reported(six)}",
                     "every lead bounded tighter than [0, 1]"))
    if "proof" in wanted:
        rows.append(("nodes searched / proof graph size, 3-card 4p deals", "median 8.5×",
                     _proof_ratio(args.proof_deals, args.proof_nodes), "median ≤ 2×"))
    if "waste" in wanted:
        rows.append(("bout starts searched / in the proof, 4 cards", "71×",
                     each(lambda settings: waste_ratio(args.waste_deals, args.waste_nodes,
                                                       settings)), "≤ 10×"))
    if "threads" in wanted:
        # the lead's df-pn with playouts from the start, as a solve's long turns have them
        rows.append(("2 threads against 1 on the hardest lead of a 4-card deal", "1.0×",
                     threads_ratio(args.threads_nodes, {"playouts_turn": 0}), "≥ 1.7×"))
    if peaks:
        rows.append(("peak memory of any default solve", "1.8 GB",
                     f"{max(peaks) / 2**20:,.0f} MiB (the rows run above)", "≤ 2 GB"))
    print(f"load average (1 min) at the start {load:.1f}, at the end {os.getloadavg()[0]:.1f}, "
          f"on {os.cpu_count()} cores")
    print("| configuration (seeded deals, one Absolute a hand) | issue's figure | now | target |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
