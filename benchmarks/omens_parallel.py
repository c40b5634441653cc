"""Benchmark: one proof on 1 thread and on N threads, side by side in one run.

A solve's root moves are searched by rounds; a move searched alone proves on every thread at
once (``Tuning.parallel_dfpn``: Kaneko's parallel df-pn on one table, ``_ckernel.c``:
``dfpn_parallel``). One lead can take most of a deal's nodes, so this is what ``--threads``
gives on the hardest deals. This benchmark takes a seeded 4-player deal with 4 cards a hand
(one Absolute each; deal ``i`` is ``random_deal(table, SEED + i, cards=4)``, the seeds of
``benchmarks/omens_search.py``), finds its hardest lead (the one whose value, df-pn's two
questions by turns as ``dfpn_value`` asks them, takes most nodes on one thread; or ``--lead``),
and proves that lead's value on 1 thread and on each of ``--threads`` (compiled kernel, one
table of ``--max-memory``): the nodes (every thread's), the wall-clock seconds, the processor
seconds, and the speed-up of the wall clock over one thread.

With one thread the node counts repeat from run to run; with several they vary a little (the
threads' timing decides which subtree each takes next), and the answers do not. The seconds
need the cores free: on a machine shared with other work the speed-up falls.

``python benchmarks/omens_parallel.py [--deal 0] [--lead ACTION] [--threads 2,...]
[--repeat 1] [--nodes N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from dataclasses import replace
from typing import Any

SEED = 20261130


def _usage_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def prove_lead(state: Any, leader: int, workers: int, nodes: int, memory: int,
               tuning: Any = None) -> tuple[int | None, int, float, float]:
    """The value of ``state`` for the team of ``leader`` (df-pn's two questions, the second
    reading the first's proofs, as ``dfpn_value`` asks them), on ``workers`` threads: (value,
    nodes, wall seconds, processor seconds)."""
    from omen_solver.core.budget import Budget
    from omen_solver.omens.kernel import compiled
    from omen_solver.omens.kernel.convert import from_engine
    from omen_solver.omens.kernel.dfpn import settled_by
    from omen_solver.omens.kernel.machine import Machine
    from omen_solver.omens.kernel.params import SearchParams, Tuning
    from omen_solver.omens.kernel.spec import compile_table
    from omen_solver.omens.kernel.tables import MemoryPlan

    spec = compile_table(state.table, state.teams())
    start = from_engine(spec, state)
    maximising = [spec.team_of[seat] == spec.team_of[leader] for seat in range(spec.players)]
    plan = MemoryPlan(memory)
    pool = compiled.new_pool(plan.table_bytes)
    began, used = time.perf_counter(), _usage_seconds()
    asked: Any = None
    total = 0
    value: int | None = None
    for question in (1, 0):
        table = compiled.new_table(plan.limit(plan.SHARES[question], True), pool)
        params = SearchParams(constant_sum=True, budget=Budget(max_nodes=nodes), table=table,
                              pool=pool, tuning=tuning or Tuning())
        proof = compiled.CompiledDfpn(Machine(spec), maximising, question, params)
        proof.workers = workers
        if asked is not None:
            proof.use_hint(asked)
        asked = proof
        proved = proof.prove(start)
        total += proof.nodes
        value = settled_by(question, proved, proof)
        if value is not None:
            break
    return value, total, time.perf_counter() - began, _usage_seconds() - used


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deal", type=int, default=0)
    parser.add_argument("--lead", help="the lead to prove (canonical action text); "
                        "default: the hardest on one thread")
    parser.add_argument("--threads", default="2",
                        help="comma-separated thread counts to run beside one thread")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each thread count")
    parser.add_argument("--playouts", type=int, default=0,
                        help="Tuning.playouts: random playouts seeding each bout start")
    parser.add_argument("--nodes", type=int, default=200_000_000)
    parser.add_argument("--max-memory", type=int, default=2 * 2**30)
    args = parser.parse_args(argv)

    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.kernel import compiled
    from omen_solver.omens.kernel.params import Tuning
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    if not compiled.AVAILABLE:
        print("the compiled kernel is not built: the parallel df-pn is its own", file=sys.stderr)
        return 1
    counts = [int(text) for text in args.threads.split(",") if text.strip()]
    table = Table(4, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, SEED + args.deal, cards=4))
    leader = state.current_player()
    tuning = replace(Tuning(), playouts=args.playouts, playouts_turn=0)
    leads = {" ".join(str(action) for action in move): move for move in state.moves()}
    print(f"4 players, 4 cards a hand, deal {args.deal}; {len(leads)} leads; "
          f"{tuning.playouts} playouts a bout start; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}", flush=True)
    if args.lead is not None:
        if args.lead not in leads:
            parser.error(f"--lead {args.lead!r}: not a lead of this deal ({', '.join(leads)})")
        hardest = args.lead
        one = None
    else:
        hardest, one = "", None
        for text, move in leads.items():
            measured = prove_lead(state.apply_move(move), leader, 1, args.nodes, args.max_memory,
                                  tuning)
            print(f"  lead {text}: value {measured[0]}, {measured[1]:,} nodes, "
                  f"{measured[2]:.1f} s", flush=True)
            if one is None or measured[1] > one[1]:
                hardest, one = text, measured
    after = state.apply_move(leads[hardest])
    rows: list[tuple[int, tuple[int | None, int, float, float]]] = []
    if one is not None:
        rows.append((1, one))
    for workers in ([1] if one is None else []) + counts:
        for _ in range(args.repeat if workers > 1 or one is None else 1):
            rows.append((workers, prove_lead(after, leader, workers, args.nodes, args.max_memory,
                                             tuning)))
            print(f"  {workers} thread(s): {rows[-1][1][1]:,} nodes, {rows[-1][1][2]:.1f} s",
                  flush=True)
    ones = [wall for workers, (_, _, wall, _) in rows if workers == 1]
    base = sum(ones) / len(ones)  # the speed-up is over one thread's mean wall clock
    print(f"\nThe hardest lead, {hardest} (load average {os.getloadavg()[0]:.1f} at the end):\n")
    print("| threads | value | nodes | wall seconds | processor seconds | speed-up |")
    print("|---|---|---|---|---|---|")
    for workers, (value, nodes, wall, cpu) in rows:
        print(f"| {workers} | {value} | {nodes:,} | {wall:.1f} | {cpu:.1f} | {base / wall:.2f}x |")
    values = {value for _, (value, _, _, _) in rows}
    if len(values) != 1:
        print(f"the threads disagree: {values}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
