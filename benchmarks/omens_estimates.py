"""Benchmark: how good the estimates are, measured against exact answers before they are shown.

Side by side in one run (``python benchmarks/omens_estimates.py``, ``--quick`` for fewer
deals; ``--write docs/benchmarks.md`` puts the table in its section there):

1. **Quality** on seeded 4-player positions whose every first move's exact value is known
   (solved once, slowly, and kept in ``benchmarks/data/omens_exact_moves.json`` by
   ``benchmarks/omens_exact_moves.py``): deals of 4 cards a hand and positions later in real
   deals (five cards a hand, after some bouts), each solved as ``omen-solver solve`` does
   with its estimates, within ``--seconds`` (or ``--work`` nodes) a position (one thread);
   and deals of 3 cards a hand at the small node budgets ``--budgets``, counting only the
   deals whose exact value the solve did not find within the budget (where the estimates
   order the moves):
   whether the move listed first is an optimal one (on the deals where the moves differ:
   some won, some lost), the AUC of won against lost moves (each move scored 1 where proven
   won, 0 where proven lost, else its estimate's win rate), and the calibration (of the moves
   estimated at 0.9 or more, not proven, how many are in fact lost). Beside the default
   evaluation, the same with random playouts and no exact oracle (the issue's baseline) and
   with each playout policy.
2. **Full deals** of 4, 5 and 6 players (from the deal, 5 cards a hand; 6 players paranoid for
   the leader's team) solved as ``solve --deal`` does by default (30 s, the machine's threads):
   how many deals have every first move either proven or estimated with an interval no wider
   than ±0.1, and the leads proven; a lead is said to have a **cheap proof** when the exact
   per-move search alone settles it within ``--cheap-nodes`` nodes (measured in a separate
   solve without estimates).
3. **Playing strength**: a team choosing by ``advise`` (hidden hands, each decision within
   ``--move-seconds``) against the survey's heuristic policy, 4 players from a game start, one
   round a game, each deal played twice with the teams' seats swapped; The Absolute's
   exchange (which ``advise`` does not cover) is the heuristic's for both. Wins with a 95 %
   Wilson interval.

Seconds depend on the machine and its load (the run prints the load average); ``--work N``
replaces the seconds of rows 1 by a node budget (the exact searches' nodes and the
evaluation's moves and oracle nodes), which repeats exactly from run to run.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
DATA = ROOT / "benchmarks" / "data" / "omens_exact_moves.json"
SEED = 20261130
BEGIN, END = "<!-- omens-estimates:begin -->", "<!-- omens-estimates:end -->"


@dataclass
class Quality:
    """One variant's figures over a set of deals."""

    name: str
    deals: int = 0
    asked: int = 0
    """Deals solved (``deals``: of them, those counted)."""
    mixed: int = 0
    """Deals whose moves differ (some won, some lost)."""
    top_optimal: int = 0
    """Of those, the deals whose first listed move is won."""
    top_estimated: int = 0
    """Of those, the deals whose first listed move is not proven (its place is the estimate's)."""
    top_estimated_optimal: int = 0
    """Of those, the deals whose first listed, unproven move is won."""
    scores: list[tuple[float, bool, bool]] = field(default_factory=list)
    """Per move: (score, won, proven)."""
    proven_wrong: int = 0
    seconds: list[float] = field(default_factory=list)

    def auc(self) -> float:
        won = [s for s, w, _ in self.scores if w]
        lost = [s for s, w, _ in self.scores if not w]
        if not won or not lost:
            return math.nan
        pairs = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in won for b in lost)
        return pairs / (len(won) * len(lost))

    def high(self) -> tuple[int, int]:
        """Moves estimated at 0.9 or more (not proven), and how many of them are lost."""
        high = [w for s, w, p in self.scores if s >= 0.9 and not p]
        return len(high), sum(1 for w in high if not w)


def _state(players: int, seed: int, cards: int | None, kind: str = "first") -> Any:
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(players, make_rules("rulebook", {}))
    return deal_position(table, random_deal(table, seed, kind, cards))


def _position(deal: dict[str, Any]) -> Any:
    """A kept position: its one-line text (positions later in a deal), else its deal."""
    if "position" in deal:
        from omen_solver.omens.state import OmensState

        return OmensState.from_text(deal["position"])
    return _state(deal["players"], deal["seed"], deal["cards"], deal.get("kind", "first"))


def variants(names: list[str]) -> dict[str, Any]:
    """The evaluations compared: the default, and others by their settings."""
    from omen_solver.omens.kernel.estimate import EvaluationSettings
    from omen_solver.omens.kernel.mcts import MctsParams

    made = {
        "default": EvaluationSettings(),
        "random playouts, no oracle": EvaluationSettings(
            params=MctsParams(policy="random", oracle_cards=0)),
        "heuristic playouts": EvaluationSettings(params=MctsParams(policy="heuristic")),
        "random playouts": EvaluationSettings(params=MctsParams(policy="random")),
        "greedy, no oracle": EvaluationSettings(params=MctsParams(oracle_cards=0)),
        "oracle at 8 cards": EvaluationSettings(params=MctsParams(oracle_cards=8)),
    }
    return {name: made[name] for name in names}


def _tuned(settings: Any, spec: str) -> Any:
    """A variant with ``name=value`` MctsParams overrides (comma-separated; ``share=S``: the
    evaluation's share of the budget)."""
    from omen_solver.omens.kernel.mcts import MctsParams

    if not spec:
        return settings
    changes: dict[str, Any] = {}
    for part in spec.split(","):
        key, text = part.split("=")
        if key == "share":
            settings = replace(settings, share=float(text))
            continue
        kind = type(getattr(MctsParams(), key))
        changes[key] = kind(text)
    return replace(settings, params=replace(settings.params, **changes))


def quality(name: str, settings: Any, deals: list[dict[str, Any]], seconds: float,
            work: int | None, open_only: bool = False, seed: int = 0) -> Quality:
    """The variant's figures on ``deals`` (``open_only``: only those whose exact value the
    solve did not find within the budget, where the estimates decide the order); the
    evaluation's seed is the deal's index plus ``seed``."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.search.moves import MoveStatus
    from omen_solver.core.search.result import Concept
    from omen_solver.omens.kernel.solve import solve_with_kernel

    found = Quality(name)
    for deal in deals:
        state = _position(deal)
        truth = {move["action"]: move["status"] for move in deal["moves"]}
        team = state.team_of(state.current_player())
        budget = Budget(max_nodes=work) if work else Budget(max_seconds=seconds)
        began = time.perf_counter()
        result = solve_with_kernel(state, Concept.MINIMAX, team, budget=budget,
                                   evaluate=replace(settings, seed=deal["index"] + seed),
                                   threads=1)
        found.seconds.append(time.perf_counter() - began)
        found.asked += 1
        if open_only and result.solved:
            continue  # the exact search finished: nothing rests on the estimates
        found.deals += 1
        for move in result.moves:
            won = truth[move.action] == "won"
            if move.status is MoveStatus.WON or move.status is MoveStatus.LOST:
                proven = move.status is MoveStatus.WON
                found.proven_wrong += proven != won
                found.scores.append((float(proven), won, True))
            elif move.estimate is not None:
                found.scores.append((move.estimate.win_rate, won, False))
            else:
                found.scores.append((0.5, won, False))
        statuses = set(truth.values())
        if {"won", "lost"} <= statuses:
            found.mixed += 1
            top_won = truth[result.moves[0].action] == "won"
            found.top_optimal += top_won
            if result.moves[0].status is MoveStatus.UNKNOWN:
                found.top_estimated += 1
                found.top_estimated_optimal += top_won
    return found


@dataclass
class Full:
    players: int
    deals: int = 0
    ranked: int = 0
    """Deals with every first move proven or estimated within ±0.1."""
    moves: int = 0
    narrow: int = 0
    proven: int = 0
    cheap: int = 0
    """Deals where a lead has a cheap proof (measured apart), and of them ..."""
    cheap_proven: int = 0
    """... those where the default solve proved a lead."""
    seconds: list[float] = field(default_factory=list)


def full(players: int, count: int, seconds: float, cheap_nodes: int) -> Full:
    from omen_solver.core.budget import Budget
    from omen_solver.core.search import solve

    concept = "paranoid" if players == 6 else "minimax"
    found = Full(players)
    for index in range(count):
        state = _state(players, SEED + index, None)
        began = time.perf_counter()
        result = solve(state, concept=concept, budget=Budget(max_seconds=seconds),
                       threads=0, estimate=True, seed=index)
        found.seconds.append(time.perf_counter() - began)
        found.deals += 1
        narrow = [m.settled or (m.estimate is not None and
                                m.estimate.high - m.estimate.low <= 0.2 + 1e-9)
                  for m in result.moves]
        found.moves += len(narrow)
        found.narrow += sum(narrow)
        found.ranked += all(narrow) and len(narrow) == len(state.moves())
        settled = sum(1 for m in result.moves if m.settled)
        found.proven += settled
        if cheap_nodes:
            exact = solve(state, concept=concept, budget=Budget(max_nodes=cheap_nodes),
                          threads=1)
            if any(m.settled for m in exact.moves):
                found.cheap += 1
                found.cheap_proven += settled > 0
    return found


@dataclass
class Strength:
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    decisions: int = 0
    estimated: int = 0
    """Decisions whose best action rested on estimates."""
    seconds: float = 0.0


def strength(deals: int, move_seconds: float, samples: int, work: int | None) -> Strength:
    """The advised team against the heuristic, each deal twice with the seats swapped."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.game import SIMULTANEOUS
    from omen_solver.errors import AdviceError
    from omen_solver.survey.advice import Tracker, advise
    from omen_solver.survey.policies import heuristic_move

    found = Strength()
    began = time.perf_counter()
    for index in range(deals):
        for ours in (0, 1):
            state = _state(4, SEED + 10_000 + index, None)
            tracker = Tracker(state)
            rng = random.Random(index * 2 + ours)
            moves = 0
            while not state.is_terminal() and moves < 2000:
                moves += 1
                player = state.current_player()
                if player == SIMULTANEOUS:
                    move = tuple(heuristic_move(state, seat)[0]
                                 for seat in state.acting_players())
                elif state.team_of(player) != ours or len(state.moves()) == 1:
                    move = heuristic_move(state)
                else:
                    found.decisions += 1
                    try:
                        budget = (Budget(max_nodes=work) if work
                                  else Budget(max_seconds=move_seconds / samples))
                        advice = advise(tracker.view(player), samples=samples,
                                        exact_limit=samples, seed=rng.randrange(2**32),
                                        budget=budget,
                                        total_seconds=None if work else move_seconds)
                        best = advice.best
                    except AdviceError:
                        best = None
                    if best is None:
                        move = heuristic_move(state)
                    else:
                        found.estimated += best.estimate is not None
                        move = (state.string_to_action(best.action),)
                after = state.apply_move(move)
                tracker.observe(state, move, after)
                state = after
            found.games += 1
            if not state.is_terminal():
                found.unfinished += 1
                continue
            found.wins += int(state.team_returns()[ours] == 1)
    found.seconds = time.perf_counter() - began
    return found


def _load(cards: int | None, kind: str = "first", players: int = 4) -> list[dict[str, Any]]:
    from omens_exact_moves import load

    return [deal for deal in load(DATA) if deal["cards"] == cards
            and deal.get("kind", "first") == kind
            and deal["players"] == players and deal["status"] == "solved"]


def _row(label: str, got: Quality, deals: str) -> str:
    high, lost = got.high()
    auc = got.auc()
    median = statistics.median(got.seconds) if got.seconds else 0.0
    estimated = (f" ({got.top_estimated_optimal}/{got.top_estimated} where unproven)"
                 if got.top_estimated else "")
    return (f"| {label} | {deals} | {got.top_optimal}/{got.mixed}{estimated} | "
            f"{'-' if math.isnan(auc) else f'{auc:.3f}'} | {lost}/{high} | {got.proven_wrong} "
            f"| {median:.1f} |")


def main(argv: list[str] | None = None) -> int:
    from omen_solver.survey.stats import wilson

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="rows 1: a deal's time")
    parser.add_argument("--work", type=int, default=None,
                        help="rows 1: a node budget instead of --seconds (repeats exactly)")
    parser.add_argument("--budgets", default="20000,100000,300000",
                        help="rows 2: the node budgets of the 3-card rows")
    parser.add_argument("--deals4", type=int, default=1000,
                        help="4-card deals and later positions (all kept)")
    parser.add_argument("--kinds", default="first,later,after",
                        help="rows 1: the kinds of kept positions (first: 4-card deals; later: "
                             "4-card deals in later rounds; after: real deals after some bouts)")
    parser.add_argument("--deals3", type=int, default=60, help="3-card deals (0: no rows 2)")
    parser.add_argument("--variants", default="default;random playouts, no oracle",
                        help="evaluations compared (names of variants(), ';'-separated)")
    parser.add_argument("--tune", default="", help="MctsParams overrides of every variant")
    parser.add_argument("--seed", type=int, default=0,
                        help="rows 1 and 2: added to each deal's index to seed its evaluation")
    parser.add_argument("--full-deals", type=int, default=10, help="full deals a player count")
    parser.add_argument("--full-seconds", type=float, default=30.0)
    parser.add_argument("--cheap-nodes", type=int, default=2_000_000)
    parser.add_argument("--games", type=int, default=100,
                        help="deals of the playing-strength match (twice each)")
    parser.add_argument("--move-seconds", type=float, default=0.5)
    parser.add_argument("--samples", type=int, default=8, help="deals advise samples a move")
    parser.add_argument("--move-work", type=int, default=None,
                        help="a node budget of each sampled deal instead of --move-seconds")
    parser.add_argument("--skip", default="", help="rows to skip: quality,full,strength")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", type=Path, help="put the table into this Markdown file")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals4, args.deals3, args.full_deals, args.games = 4, 10, 1, 4
    skip = set(filter(None, args.skip.split(",")))
    load = os.getloadavg()[0]
    lines: list[str] = []
    if "quality" not in skip:
        variants_ = variants(args.variants.split(";"))
        budget = f"{args.work:,} nodes" if args.work else f"{args.seconds:g} s"
        lines += [f"Quality on 4-card deals and on positions later in real deals, each within "
                  f"{budget} (one thread), 4 players, the team to play:", "",
                  "| evaluation | positions | top move optimal | AUC won/lost | estimated ≥ 0.9: "
                  "lost | proven moves wrong | median s |", "|---|---|---|---|---|---|---|"]
        for cards, kind, where in ((4, "first", "4-card deals"),
                                   (4, "later", "4-card deals, later rounds"),
                                   (None, "after", "real deals after some bouts")):
            deals = _load(cards, kind)[:args.deals4]
            if not deals or kind not in args.kinds.split(","):
                continue
            for name, settings in variants_.items():
                got = quality(name, _tuned(settings, args.tune), deals, args.seconds, args.work,
                              seed=args.seed)
                lines.append(_row(f"{name}, {where}", got, f"{got.deals}"))
                print(lines[-1], file=sys.stderr, flush=True)
        if not args.deals3:
            lines.append("")
    if "quality" not in skip and args.deals3:
        variants_ = variants(args.variants.split(";"))
        lines += ["", "Quality on 3-card deals at small node budgets, counting only the deals "
                  "whose exact value the solve did not find within the budget (there the "
                  "estimates order the moves; one thread):", "",
                  "| evaluation | budget | deals open / tried | top move optimal | AUC won/lost "
                  "| estimated ≥ 0.9: lost | proven moves wrong | median s |",
                  "|---|---|---|---|---|---|---|---|"]
        deals = _load(3)[:args.deals3]
        for nodes in (int(text) for text in args.budgets.split(",") if text):
            for name, settings in variants_.items():
                got = quality(name, _tuned(settings, args.tune), deals, args.seconds, nodes,
                              open_only=True, seed=args.seed)
                lines.append(_row(f"{name} | {nodes:,} nodes", got,
                                  f"{got.deals}/{got.asked}"))
                print(lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    if "full" not in skip:
        lines += [f"Full deals from the deal (5 cards a hand), the default budget "
                  f"({args.full_seconds:g} s, the machine's threads):", "",
                  "| players | deals | every move ranked, interval ≤ ±0.1 | moves so "
                  "ranked | leads proven | deals with a cheap proof: a lead proven | "
                  "median s |", "|---|---|---|---|---|---|---|"]
        for players in (4, 5, 6):
            got = full(players, args.full_deals, args.full_seconds, args.cheap_nodes)
            lines.append(f"| {players} | {got.deals} | {got.ranked}/{got.deals} | "
                         f"{got.narrow}/{got.moves} | {got.proven} | "
                         f"{got.cheap_proven}/{got.cheap} | "
                         f"{statistics.median(got.seconds):.1f} |")
            print(lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    if "strength" not in skip:
        got = strength(args.games, args.move_seconds, args.samples, args.move_work)
        played = got.games - got.unfinished
        low, high = wilson(got.wins, played) if played else (0.0, 1.0)
        each = (f"{args.move_work:,} nodes a sampled deal" if args.move_work
                else f"{args.move_seconds:g} s a move")
        lines += [f"Playing strength, 4 players from a game start: the team advised ({each}, "
                  f"{args.samples} deals sampled) against the heuristic, each deal twice with "
                  "the seats swapped:", "",
                  f"{got.wins}/{played} games won = {got.wins / max(1, played):.3f} "
                  f"[{low:.3f}, {high:.3f}] ({got.unfinished} unfinished; {got.decisions} "
                  f"decisions advised, {got.estimated} of them by estimates; "
                  f"{got.seconds:.0f} s)", ""]
    lines.append(f"Load average (1 min) at the start {load:.1f}, at the end "
                 f"{os.getloadavg()[0]:.1f}, on {os.cpu_count()} cores.")
    text = "\n".join(lines)
    print(text)
    if args.write:
        page = args.write.read_text()
        block = f"{BEGIN}\n{text}\n{END}"
        if BEGIN in page:
            page = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, page,
                          flags=re.S)
        else:
            page = page.rstrip("\n") + "\n\n" + block + "\n"
        args.write.write_text(page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
