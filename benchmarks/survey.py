"""Benchmark: survey throughput on 1 and 2 Dask workers, resident memory of the results file's
index and tables at 10,000 and 100,000 deals, and PIMC self-play.

Prints, in one run:

* **throughput**: positions per second of the same survey on a local Dask cluster of 1 worker
  and of 2 workers (cluster start-up and each worker's one import of the solver not counted),
  the parallel efficiency ``rate2 / (2 * rate1)``, and the shares of the positions settled
  exactly and left with bounds, and the time of the whole survey on each. The survey is the
  default one (``omen-solver survey`` with no flags: 100 deals per player count as at a game
  start, played by the heuristic to the first bout start with at most 3 cards in every hand,
  every analysis on, the default node budget per search);
* **memory**: the peak resident memory of a process that opens a results file of 10,000 and of
  100,000 deals (the resume index) and makes its tables (one pass over the records), against
  the same process that only starts (records copied from a real survey, one per deal);
* **self-play**: win rates of a team advised by perfect-information Monte Carlo (``advise``,
  ``--samples`` deals per decision) against random players and against the heuristic player
  of the survey's policies (the lowest card above every card in play, else the lowest), and of
  the heuristic against random, with 95 % Wilson intervals.
  Games are played in pairs on the same deal with the teams' seats swapped (as in duplicate
  bridge), so the deal and the lead favour neither side: a side no better than the other wins
  half. A PIMC decision whose searches run out of budget (5,000,000 nodes per deal), or for
  which no consistent deal is sampled, is left to chance (a random legal move) and counted in
  the output, never as a result.

Usage::

    python benchmarks/survey.py [--deals 300] [--batch 4] [--memory 10000,100000]
                                [--games 40] [--samples 8]
                                [--skip-throughput] [--skip-memory] [--skip-self-play]

Self-play rounds: 4 players, 3 cards each from cards 1-29, round scope, seats 1 and 3 against
seats 2 and 4, seat 1 leads; deal ``i`` comes from ``random.Random(i)``.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from distributed import Client, LocalCluster

from omen_solver.cli import build_parser
from omen_solver.cli.survey import config_from
from omen_solver.core.budget import Budget
from omen_solver.errors import AdviceError
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from omen_solver.survey.advice import Tracker, advise
from omen_solver.survey.analysis import SurveyConfig, analyse_deal
from omen_solver.survey.policies import heuristic_move
from omen_solver.survey.report import summarise
from omen_solver.survey.runner import RESULTS_FILE, run_survey, warm_worker
from omen_solver.survey.stats import wilson

TEAMS = ((0, 2), (1, 3))
NODES = 5_000_000
"""The node budget of the searches of one deal in a PIMC decision (deterministic)."""
Move = tuple[OmensAction, ...]
Player = Callable[[OmensState, Tracker, int, random.Random], Move]
SURVEY = config_from(build_parser().parse_args(["survey"]))
"""The default survey's settings (``omen-solver survey``, read from its parser)."""


def throughput(deals: int, batch: int) -> None:
    config = SurveyConfig(**{**SURVEY.__dict__, "deals": deals // 3})
    total = config.total
    default = " (the default survey)" if config == SURVEY else ""
    print(f"throughput: {total} deals{default}: {config.describe()}; 4, 5, 6 players, every "
          f"analysis, {config.max_nodes:,} nodes per search, {batch} deals per task",
          flush=True)
    rates = {}
    for workers in (1, 2):
        folder = Path(tempfile.mkdtemp(prefix="survey-bench-"))
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
                Client(cluster) as client:
            client.run(warm_worker)
            start = time.perf_counter()
            store = run_survey(config, folder, scheduler=cluster.scheduler_address, batch=batch)
            seconds = time.perf_counter() - start
        summary = summarise(config, store.records())
        shutil.rmtree(folder)
        rates[workers] = summary.positions / seconds
        print(f"  {workers} worker(s): {summary.deals} deals, {summary.positions} positions in "
              f"{seconds:.1f} s = {rates[workers]:.3f} positions/s "
              f"({summary.deals / seconds:.2f} deals/s)", flush=True)
    every = summary.positions or 1
    print(f"  parallel efficiency at 2 workers: {rates[2] / (2 * rates[1]):.2f} (target >= 0.8)")
    print(f"  settled exactly: {summary.settled}/{summary.positions} = "
          f"{summary.settled / every:.3f}; left with bounds: {summary.unsettled} = "
          f"{summary.unsettled / every:.3f} (bounds {summary.bounds or '-'}); "
          f"{summary.option_unknown} more unknown under another option setting")


# -- memory -------------------------------------------------------------------------------------

_MEASURE = """
import resource, sys
from pathlib import Path
from omen_solver.cli import build_parser
from omen_solver.cli.survey import config_from
from omen_solver.survey.report import summarise
from omen_solver.survey.store import ResultStore
args = ["survey", "--players", "4", "--deals", sys.argv[2]]
config = config_from(build_parser().parse_args(args))
if sys.argv[1] != "-":
    with ResultStore(Path(sys.argv[1]), config) as store:
        summary = summarise(config, store.records())
        print(len(store), summary.positions, end=" ")
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _four_players(deals: int) -> SurveyConfig:
    """The default survey's settings at 4 players only (as the measuring process makes them)."""
    return SurveyConfig(**{**SURVEY.__dict__, "players": (4,), "deals": deals})


def memory(sizes: list[int]) -> None:
    """Peak resident memory of resuming and summarising results files of many deals."""
    config = _four_players(max(sizes))
    templates = [r for r in (analyse_deal(config, 4, i) for i in range(12)) if r.get("reached")]
    print(f"memory: results files of {', '.join(f'{n:,}' for n in sizes)} deals (copies of "
          f"{len(templates)} real records, about {_mean_size(templates)} bytes a line): peak "
          "resident memory of opening the file (the resume index) and making the tables",
          flush=True)
    base = _peak("-", config.deals)
    print(f"  a process that only imports the survey: {base / 1024:.0f} MB")
    for size in sizes:
        folder = Path(tempfile.mkdtemp(prefix="survey-memory-"))
        path = folder / RESULTS_FILE
        with path.open("w") as handle:
            handle.write(json.dumps({"survey": config.to_json()}) + "\n")
            for index in range(size):
                record = dict(templates[index % len(templates)], id=f"4p-{index}", index=index)
                handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        megabytes = path.stat().st_size / 2**20
        start = time.perf_counter()
        found = _peak(str(path), config.deals)
        seconds = time.perf_counter() - start
        shutil.rmtree(folder)
        print(f"  {size:,} deals ({megabytes:.0f} MB file): {found / 1024:.0f} MB peak, "
              f"{(found - base) / 1024:.0f} MB above the bare process, {seconds:.1f} s",
              flush=True)


def _mean_size(records: list[dict[str, object]]) -> int:
    return round(sum(len(json.dumps(r, separators=(",", ":"))) for r in records) / len(records))


def _peak(path: str, deals: int) -> int:
    """The peak resident memory (KB) of a fresh process reading ``path``."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, path, str(deals)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1])


# -- players ------------------------------------------------------------------------------------


@dataclass
class Counter:
    """Decisions of a PIMC player; those where a search ran out of budget, and those where no
    consistent deal was sampled (both then left to chance)."""

    decisions: int = 0
    unknown: int = 0
    unsampled: int = 0


def random_player(state: OmensState, tracker: Tracker, seat: int, rng: random.Random) -> Move:
    return rng.choice(state.moves())


def cheapest_winner(state: OmensState, tracker: Tracker, seat: int,
                    rng: random.Random) -> Move:
    """The survey's heuristic policy (:func:`omen_solver.survey.policies.heuristic_move`)."""
    return heuristic_move(state)


def pimc(samples: int, counter: Counter) -> Player:
    def play(state: OmensState, tracker: Tracker, seat: int, rng: random.Random) -> Move:
        moves = state.moves()
        if len(moves) == 1:
            return moves[0]
        counter.decisions += 1
        try:
            advice = advise(tracker.view(seat), samples=samples, exact_limit=samples,
                            seed=rng.randrange(2**32), budget=Budget(max_nodes=NODES))
        except AdviceError:
            counter.unsampled += 1
            return rng.choice(moves)
        best = advice.best
        if best is None or advice.unknown:
            counter.unknown += 1
        if best is None:
            return rng.choice(moves)
        return (state.string_to_action(best.action),)

    return play


def game(seed: int, ours: Player, theirs: Player, ours_first: bool) -> int:
    """1 if ``ours`` wins the round: seats 1 and 3 when ``ours_first``, else seats 2 and 4."""
    rng = random.Random(seed)
    deck = list(range(1, 30))
    rng.shuffle(deck)
    hands = [sorted(deck[i * 3:(i + 1) * 3]) for i in range(4)]
    state = OmensState.start_of_bout(Table(4, make_rules()), hands, TEAMS, 0)
    tracker = Tracker(state)
    moves = random.Random(f"moves:{seed}:{ours_first}")
    ours_team = 0 if ours_first else 1
    while not state.is_terminal():
        seat = state.current_player()
        player = ours if state.team_of(seat) == ours_team else theirs
        move = player(state, tracker, seat, moves)
        after = state.apply_move(move)
        tracker.observe(state, move, after)
        state = after
    return int(state.team_returns()[ours_team])


def self_play(games: int, samples: int) -> None:
    print(f"self-play: {games} deals, each played twice with the seats swapped; PIMC with "
          f"{samples} deals per decision", flush=True)
    counter = Counter()
    matches = [("random", random_player, "random", random_player),
               ("heuristic", cheapest_winner, "random", random_player),
               ("PIMC", pimc(samples, counter), "random", random_player),
               ("PIMC", pimc(samples, counter), "heuristic", cheapest_winner)]
    for name, ours, other, theirs in matches:
        start = time.perf_counter()
        wins = sum(game(seed, ours, theirs, first)
                   for seed in range(games) for first in (True, False))
        played = 2 * games
        low, high = wilson(wins, played)
        print(f"  {name} vs {other}: {wins}/{played} won = {wins / played:.3f} "
              f"[{low:.3f}, {high:.3f}] in {time.perf_counter() - start:.0f} s", flush=True)
    print(f"  PIMC decisions: {counter.decisions}; left to chance: {counter.unknown} with a "
          f"search out of budget, {counter.unsampled} with no consistent deal sampled")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=SURVEY.total,
                        help="deals in the throughput survey (default: the default survey's)")
    parser.add_argument("--batch", type=int, default=4, help="deals per Dask task")
    parser.add_argument("--memory", default="10000,100000",
                        help="deals in the results files of the memory figures")
    parser.add_argument("--games", type=int, default=40, help="deals per self-play match")
    parser.add_argument("--samples", type=int, default=8, help="PIMC deals per decision")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-self-play", action="store_true")
    args = parser.parse_args()
    if not args.skip_throughput:
        throughput(args.deals, args.batch)
    if not args.skip_memory:
        memory([int(part) for part in args.memory.split(",")])
    if not args.skip_self_play:
        self_play(args.games, args.samples)


if __name__ == "__main__":
    main()
