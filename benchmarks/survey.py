"""Benchmark: survey throughput on 1 and 2 Dask workers, and PIMC self-play.

Prints, in one run:

* deals per second of the same small survey on a local Dask cluster of 1 worker and of 2
  workers (cluster start-up not counted), and the parallel efficiency ``rate2 / (2 * rate1)``;
* win rates of a team advised by perfect-information Monte Carlo (``advise``) against random
  players and against a simple heuristic player (play the highest card), over seeded rounds,
  with 95 % Wilson intervals, and of random against random as the baseline.

Usage::

    python benchmarks/survey.py [--deals 40] [--games 20] [--samples 8]

Self-play rounds: 4 players, 3 cards each from cards 1-29 (no Absolute, so every decision is
one seat's), round scope, seats 1 and 3 against seats 2 and 4, seat 1 leads.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from distributed import LocalCluster

from omen_solver.core.enumeration.budget import Budget
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from omen_solver.survey.advice import Tracker, advise
from omen_solver.survey.analysis import SurveyConfig
from omen_solver.survey.runner import run_survey
from omen_solver.survey.stats import wilson

TEAMS = ((0, 2), (1, 3))
Player = Callable[[OmensState, Tracker, int, random.Random], tuple[OmensAction, ...]]


def throughput(deals: int) -> None:
    config = SurveyConfig(players=(4, 5), deals=deals // 2, cards=2, max_seconds=60.0,
                          lines=False)
    rates = {}
    for workers in (1, 2):
        folder = Path(tempfile.mkdtemp(prefix="survey-bench-"))
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            start = time.perf_counter()
            store = run_survey(config, folder, scheduler=cluster.scheduler_address, batch=1)
            seconds = time.perf_counter() - start
        shutil.rmtree(folder)
        rates[workers] = len(store.records) / seconds
        print(f"{workers} worker(s): {len(store.records)} deals in {seconds:.1f} s = "
              f"{rates[workers]:.2f} deals/s", flush=True)
    print(f"parallel efficiency at 2 workers: {rates[2] / (2 * rates[1]):.2f} (target >= 0.8)")


def random_player(state: OmensState, tracker: Tracker, seat: int,
                  rng: random.Random) -> tuple[OmensAction, ...]:
    return rng.choice(state.moves())


def highest_card(state: OmensState, tracker: Tracker, seat: int,
                 rng: random.Random) -> tuple[OmensAction, ...]:
    moves = state.moves()
    return max(moves, key=lambda m: max((a.card for a in m if a.verb is Verb.PLAY), default=0))


def pimc(samples: int) -> Player:
    def play(state: OmensState, tracker: Tracker, seat: int,
             rng: random.Random) -> tuple[OmensAction, ...]:
        moves = state.moves()
        if len(moves) == 1:
            return moves[0]
        advice = advise(tracker.view(seat), samples=samples, exact_limit=samples,
                        seed=rng.randrange(2**32), budget=Budget(max_seconds=30.0))
        best = advice.best
        if best is None:
            return rng.choice(moves)
        return (state.string_to_action(best.action),)

    return play


def game(seed: int, ours: Player, theirs: Player) -> int:
    """1 if seats 1 and 3 win the round, else 0."""
    rng = random.Random(seed)
    deck = list(range(1, 30))
    rng.shuffle(deck)
    hands = [sorted(deck[i * 3:(i + 1) * 3]) for i in range(4)]
    state = OmensState.start_of_bout(Table(4, make_rules()), hands, TEAMS, 0)
    tracker = Tracker(state)
    while not state.is_terminal():
        seat = state.current_player()
        player = ours if state.team_of(seat) == 0 else theirs
        move = player(state, tracker, seat, rng)
        after = state.apply_move(move)
        tracker.observe(state, move, after)
        state = after
    return int(state.team_returns()[0])


def self_play(games: int, samples: int) -> None:
    matches = [("random", random_player, "random", random_player),
               ("PIMC", pimc(samples), "random", random_player),
               ("PIMC", pimc(samples), "highest card", highest_card),
               ("highest card", highest_card, "random", random_player)]
    for name, ours, other, theirs in matches:
        start = time.perf_counter()
        wins = sum(game(seed, ours, theirs) for seed in range(games))
        low, high = wilson(wins, games)
        print(f"{name} (seats 1, 3) vs {other}: {wins}/{games} won = {wins / games:.2f} "
              f"[{low:.2f}, {high:.2f}] in {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals in the throughput survey")
    parser.add_argument("--games", type=int, default=20, help="seeded rounds per match")
    parser.add_argument("--samples", type=int, default=8, help="PIMC deals per decision")
    args = parser.parse_args()
    throughput(args.deals)
    self_play(args.games, args.samples)


if __name__ == "__main__":
    main()
