"""The evaluation's tree search (docs/estimates.md, kernel/mcts.py): the compiled search against
the Python one (the same tree, counts and estimates for the same seed), its proofs against the
exact searches, and the estimates in a solve: never a proof, the same for the same seed.

The values are those the rules give: a round is won by the team one of whose players is left
with 1 card (rules file 000, "Goal of the Game"); The Absolute's exchange is chosen by both
players at once, face down (rules file 000, "The Absolute"; the rules' README, question O2)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from omen_solver.core.budget import Budget, Status
from omen_solver.core.search import solve
from omen_solver.core.search.moves import MoveStatus
from omen_solver.core.search.result import Concept
from omen_solver.core.stats import wilson as interval
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.compiled import CompiledMaxn, CompiledSearch
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.estimate import EvaluationSettings
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.maxn import KernelMaxn
from omen_solver.omens.kernel.mcts import (
    POLICIES,
    CompiledMcts,
    MctsParams,
    PythonMcts,
    SplitMix64,
    oracle_params,
)
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.solve import solve_with_kernel
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from tests.omens_kernel.helpers import random_small

needs_compiled = pytest.mark.skipif(not compiled.AVAILABLE, reason="the C kernel is not built")

SEED = 20261130
"""The seeds of benchmarks/omens_search.py."""


def _deal(players: int, index: int, cards: int | None, rules: dict[str, str] | None = None
          ) -> OmensState:
    table = Table(players, make_rules("rulebook", rules or {}))
    return deal_position(table, random_deal(table, SEED + index, "first", cards))


def _both(state: OmensState, params: MctsParams, *, maxn: bool, iterations: int
          ) -> tuple[PythonMcts, CompiledMcts]:
    spec = compile_table(state.table, state.teams())
    machine = Machine(spec)
    root = from_engine(spec, state)
    team = state.team_of(state.current_player())
    side = [spec.team_of[seat] == team for seat in range(spec.players)]
    settings = oracle_params(params)
    python_oracle: Any = KernelMaxn(machine, settings) if maxn else KernelSearch(machine, side,
                                                                                   settings)
    compiled_oracle: Any = (CompiledMaxn(machine, settings) if maxn
                            else CompiledSearch(machine, side, settings))
    python = PythonMcts(machine, root, side, params, maxn=maxn, team=team, oracle=python_oracle)
    made = CompiledMcts(machine, root, side, params, maxn=maxn, team=team,
                        oracle=compiled_oracle)
    assert python.run(iterations) == made.run(iterations)
    return python, made


def test_the_random_stream_is_splitmix64() -> None:
    """The published first outputs of SplitMix64 from seed 0 (both kernels draw from it)."""
    stream = SplitMix64(0)
    assert [stream.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@needs_compiled
@pytest.mark.parametrize(("players", "cards", "maxn", "policy", "rules"), [
    (4, 3, False, "greedy", {}),
    (4, 4, False, "heuristic", {}),
    (5, 2, False, "random", {"absolute_exchange": "open"}),
    (6, 2, True, "greedy", {}),
    (5, 3, True, "random", {"luck_chooser": "random"}),
    (6, 3, False, "heuristic", {"absolute_timing": "end"}),
])
def test_the_compiled_search_is_the_python_one(players: int, cards: int, maxn: bool,
                                                policy: str, rules: dict[str, str]) -> None:
    """Same position, parameters and seed: the same tree, kernel moves, oracle nodes and every
    root move's estimate (visits, results, proofs, line), with the exact oracle at work."""
    state = _deal(players, 1, cards, rules)
    params = MctsParams(seed=11, policy=policy, oracle_cards=10, oracle_nodes=400,
                        min_visits=8)
    python, made = _both(state, params, maxn=maxn, iterations=120)
    assert (python.size, python.plies, python.oracle_nodes, python.iterations) == (
        made.size, made.plies, made.oracle_nodes, made.iterations)
    assert made.root_moves() == python.root_moves()
    for move in python.root_map:
        assert python.estimate(move) == made.estimate(move)


@needs_compiled
def test_random_positions_agree_between_the_kernels() -> None:
    """Random bout starts of 4, 5 and 6 players under random rule options."""
    rng = random.Random(5)
    compared = 0
    for _ in range(6):
        players = rng.choice([4, 5, 6])
        state = random_small(rng, players, 2)
        if state.is_terminal():
            continue
        params = MctsParams(seed=rng.randrange(1000), policy=rng.choice(POLICIES),
                            oracle_cards=8, oracle_nodes=300, min_visits=5)
        python, made = _both(state, params, maxn=players == 6, iterations=60)
        assert (python.size, python.plies, python.oracle_nodes) == (
            made.size, made.plies, made.oracle_nodes)
        assert all(python.estimate(m) == made.estimate(m) for m in python.root_map)
        compared += 1
    assert compared >= 4


def _exact_moves(state: OmensState, concept: str) -> dict[str, Fraction]:
    """Every root move's exact value for the team to move, each position after it solved
    whole."""
    team = state.current_player() + 1
    index = state.team_of(team - 1)
    values = {}
    for move in state.moves():
        text = state.move_to_string(move)
        after = state.apply_move(move)
        if after.is_terminal():
            values[text] = after.team_returns()[index]
            continue
        found = solve(after, concept=concept, team=team, per_move=False,
                      budget=Budget(max_nodes=5_000_000))
        assert found.solved and found.value is not None
        values[text] = found.value
    return values


@needs_compiled
@pytest.mark.parametrize("index", [0, 3, 7])
def test_every_move_marked_won_or_lost_is_confirmed_by_the_exact_search(index: int) -> None:
    """A solve whose exact searches have a few thousand nodes and the evaluation nineteen times
    that: the tree search (its exact oracle at bout starts of up to 12 cards) proves moves won
    or lost; each one is what the exact search of the position after it finds, and every other
    move stays unknown with an estimate and bounds that hold."""
    state = _deal(4, index, 3)
    team = state.team_of(state.current_player())
    settings = EvaluationSettings(seed=3, share=0.95)
    result = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=15_000),
                               evaluate=settings, threads=1)
    truth = _exact_moves(state, "minimax")
    marked = 0
    for move in result.moves:
        if move.status is MoveStatus.WON:
            assert truth[move.action] == 1, move
            marked += 1
        elif move.status is MoveStatus.LOST:
            assert truth[move.action] == 0, move
            marked += 1
        elif move.status is MoveStatus.UNKNOWN:
            assert move.estimate is not None and move.value is None
            assert move.lower is not None and move.upper is not None
            assert move.lower <= truth[move.action] <= move.upper
    assert marked >= 1
    assert sum(move.nodes for move in result.moves) <= 15_000


def test_an_estimate_is_never_a_proof() -> None:
    """A full 4-player deal within a small node budget: every first move is unknown with an
    estimate (a win rate inside its interval, the playouts, a line that starts with the move),
    the value stays unknown, and the JSON says "estimate" in words."""
    state = _deal(4, 3, None)
    result = solve(state, budget=Budget(max_nodes=200_000), threads=1, estimate=True, seed=4)
    assert result.status is Status.UNKNOWN and result.value is None
    assert len(result.moves) == len(state.moves())
    for move in result.moves:
        assert move.status is MoveStatus.UNKNOWN and move.value is None
        found = move.estimate
        assert found is not None
        assert found.low <= found.win_rate <= found.high and found.playouts > 0
        assert found.line[0] == move.action
        row = move.to_json()
        assert row["status"] == "unknown" and row["estimate"]["kind"] == "estimate"
    assert result.extra["evaluation"]["kind"] == "estimate"
    rates = [m.estimate.win_rate for m in result.moves if m.estimate is not None]
    assert rates == sorted(rates, reverse=True)  # the side to move is the asked team


def test_the_same_seed_gives_the_same_answer_and_another_seed_another() -> None:
    state = _deal(4, 3, None)
    budget = Budget(max_nodes=150_000)
    first = solve(state, budget=budget, threads=1, estimate=True, seed=1)
    again = solve(state, budget=budget, threads=1, estimate=True, seed=1)
    other = solve(state, budget=budget, threads=1, estimate=True, seed=2)
    assert [m.to_json() for m in first.moves] == [m.to_json() for m in again.moves]
    assert first.nodes == again.nodes
    assert [m.to_json() for m in first.moves] != [m.to_json() for m in other.moves]


@pytest.mark.parametrize("concept", ["paranoid", "maxn"])
def test_six_players_get_every_move_estimated_under_each_concept(concept: str) -> None:
    state = _deal(6, 1, None)
    result = solve(state, concept=concept, budget=Budget(max_nodes=200_000), threads=1,
                   estimate=True)
    assert result.status is Status.UNKNOWN and len(result.moves) == len(state.moves())
    assert all(m.estimate is not None for m in result.moves if not m.settled)
    assert result.extra["evaluation"]["playouts"] > 0


def test_a_seed_without_estimates_is_refused() -> None:
    from omen_solver.errors import ChoiceError

    with pytest.raises(ChoiceError, match="seed"):
        solve(_deal(4, 3, 2), seed=3)


def test_the_interval_is_wilsons() -> None:
    low, high = interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert interval(0, 0) == (0.0, 1.0)


@needs_compiled
def test_a_solve_with_estimates_is_the_same_in_both_kernels(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The whole answer (the exact searches' moves and the evaluation's estimates) with a node
    budget, compiled against pure Python."""
    from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE

    state = _deal(4, 2, 3)
    budget = Budget(max_nodes=60_000)
    made = solve(state, budget=budget, threads=1, estimate=True, seed=2)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    pure = solve(state, budget=budget, threads=1, estimate=True, seed=2)
    assert pure.extra["engine"] == "kernel (pure Python)"
    assert [m.to_json() for m in pure.moves] == [m.to_json() for m in made.moves]
    assert pure.extra["evaluation"]["playouts"] == made.extra["evaluation"]["playouts"] > 0


@needs_compiled
def test_two_trees_on_two_threads_repeat_and_match_the_python_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With two threads the evaluation grows two trees at once (seeds s and s + 1) and adds
    their counts up: the same answer run after run, and the same as the pure-Python trees
    grown one after the other."""
    from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE

    state = _deal(4, 5, 3)
    budget = Budget(max_nodes=30_000)  # the exact value takes about 35,000
    first = solve(state, budget=budget, threads=2, estimate=True, seed=7)
    again = solve(state, budget=budget, threads=2, estimate=True, seed=7)
    assert first.extra["evaluation"]["trees"] == 2
    assert [m.to_json() for m in first.moves] == [m.to_json() for m in again.moves]
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    pure = solve(state, budget=budget, threads=2, estimate=True, seed=7)
    assert [m.to_json() for m in pure.moves] == [m.to_json() for m in first.moves]
    assert pure.extra["evaluation"]["playouts"] == first.extra["evaluation"]["playouts"]


@needs_compiled
def test_a_tree_whose_iterations_end_at_known_values_still_spends_its_budget() -> None:
    """A 3-card deal whose tree, with the oracle at bout starts of up to 8 cards, soon has
    every leaf it reaches settled (exact values, proofs, ended rounds): each iteration's walk
    counts as work, so the evaluation stops at its share of a node budget instead of
    iterating for ever (docs/estimates.md: a node budget repeats exactly)."""
    state = _deal(4, 7, 3)
    team = state.team_of(state.current_player())
    settings = EvaluationSettings(seed=3, share=0.95, params=MctsParams(oracle_cards=8))
    result = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=15_000),
                               evaluate=settings, threads=1)
    report = result.extra["evaluation"]
    assert 0 < report["work"] <= 15_000 * 19 + 1
    assert report["playouts"] // 8 <= report["work"]


def test_a_move_with_few_playouts_is_estimated_near_the_roots_mean() -> None:
    """docs/estimates.md, "How to read the numbers": a move's win rate is drawn toward the mean
    of the root's playouts by 5 virtual playouts, so a handful of playouts never shows an
    extreme rate; its interval still holds the rate shown."""
    from omen_solver.omens.kernel.estimate import PRIOR_PLAYOUTS, Evaluation
    from omen_solver.omens.kernel.view import KernelView

    state = _deal(4, 2, 3)
    spec = compile_table(state.table, state.teams())
    view = KernelView(Machine(spec), from_engine(spec, state))
    team = state.team_of(state.current_player())
    side = [spec.team_of[seat] == team for seat in range(spec.players)]
    evaluation = Evaluation(view, side, EvaluationSettings(seed=5))
    evaluation.run(300)
    prior = evaluation.prior()
    seen = 0
    for option in evaluation.search.root_moves():
        found = evaluation.found(option)
        got = evaluation.estimate(option)
        if got is None:
            continue
        seen += 1
        raw = found.wins / found.visits
        assert min(raw, prior) - 1e-9 <= got.win_rate <= max(raw, prior) + 1e-9
        weight = found.visits / (found.visits + PRIOR_PLAYOUTS)
        assert abs(got.win_rate - prior) <= weight * abs(raw - prior) + 1e-9
        assert got.low <= got.win_rate <= got.high
    assert seen
