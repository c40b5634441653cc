"""Solving on the kernel gives the reference solver's answers: the value, every optimal first
action, and a principal variation that keeps the value; and says which engine ran."""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest

from omen_solver.core.budget import Budget, Status
from omen_solver.core.search import solve
from omen_solver.errors import ChoiceError
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE
from omen_solver.omens.table import Scope
from tests.omens.helpers import position
from tests.omens_kernel.helpers import random_small


def _concept(players: int) -> str:
    return "paranoid" if players == 6 else "minimax"


def _check_line(state, result) -> None:  # type: ignore[no-untyped-def]
    """The principal variation is a legal line from the root (replayed on the engine)."""
    for text in result.principal_variation:
        state = state.apply_move(state.parse_move(text))


@pytest.mark.parametrize("players", [4, 5, 6])
def test_kernel_answers_equal_reference_answers(players: int) -> None:
    rng = random.Random(players)
    compared = 0
    for _ in range(25):
        state = random_small(rng, players, rng.randint(1, 2))
        if state.is_terminal():
            continue
        # Named by its seats, as solve(team=...) takes it.
        team = [seat + 1 for seat in state.teams()[rng.randrange(len(state.teams()))]]
        budget = Budget(max_seconds=30)
        fast = solve(state, concept=_concept(players), team=team, budget=budget)
        slow = solve(state, concept=_concept(players), team=team, budget=budget,
                     engine="reference")
        assert fast.extra["engine"].startswith("kernel")
        assert slow.extra["engine"] == "reference"
        if slow.status is not Status.SOLVED:
            continue
        assert fast.status is Status.SOLVED
        assert (fast.value, fast.values, set(fast.best_actions)) == (
            slow.value, slow.values, set(slow.best_actions)
        ), state
        _check_line(state, fast)
        compared += 1
    assert compared >= 10


def test_pure_python_kernel_gives_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    state = position({1: [15, 23, 5], 2: [28, 26], 3: [3, 25], 4: [9, 10]})
    fast = solve(state)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    slow = solve(state)
    assert slow.extra["engine"] == "kernel (pure Python)"
    assert fast.to_json() | {"seconds": 0, "engine": "", "table_bytes": 0} == (
        slow.to_json() | {"seconds": 0, "engine": "", "table_bytes": 0}
    )
    if compiled.AVAILABLE:
        assert fast.extra["engine"] == "kernel (compiled)"


def test_game_scope_uses_the_reference() -> None:
    """A game needs the deals of later rounds (chance nodes); the kernel plays rounds."""
    state = position({1: [3], 2: [4], 3: [5], 4: [6]}, scope=Scope.BOUT)
    assert solve(state).extra["engine"].startswith("kernel")
    with pytest.raises(ChoiceError, match="engine 'kernel'"):
        solve(position({1: [3, 7], 2: [4, 8], 3: [5, 9], 4: [6, 10]}, scope=Scope.GAME),
              engine="kernel", budget=Budget(max_nodes=10))


@pytest.mark.parametrize("pure_python", ["0", "1"])
def test_play_that_repeats_for_ever_is_unknown(
    pure_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With wrath_replay = allowed, Betrayal gives Wrath, Wrath sends Betrayal back, Betrayal is
    replayed and takes Wrath again... (rules file 000, "Wrath", "Betrayal"): the rules give such
    play no end, so the search says unknown and why, instead of failing."""
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, pure_python)
    state = position(
        {1: [4, 28, 29], 2: [22], 3: [20, 27], 4: [6, 11]}, leader=4, wrath_replay="allowed",
    )
    for engine in ("auto", "reference"):
        result = solve(state, budget=Budget(max_seconds=60), engine=engine)
        assert result.status is Status.UNKNOWN
        assert "repeat for ever" in (result.note or "")


def _maxn_agreement(seed: int, positions: int, two_cards_every: int) -> tuple[int, int]:
    rng = random.Random(seed)
    compared = crossing = 0
    for index in range(positions):
        state = random_small(rng, 6, 1 + (index % two_cards_every == 0))
        if state.is_terminal():
            continue
        budget = Budget(max_seconds=30)
        fast = solve(state, concept="maxn", budget=budget)
        slow = solve(state, concept="maxn", budget=budget, engine="reference")
        if not slow.solved:
            continue
        assert fast.extra["engine"].startswith("kernel")
        assert (fast.values, set(fast.best_actions), fast.extra["maxn"]) == (
            slow.values, set(slow.best_actions), slow.extra["maxn"]
        ), state
        compared += 1
        crossing += any(c >= 30 for hand in state.hands for c in hand)
    return compared, crossing


def test_kernel_maxn_equals_reference_maxn() -> None:
    """Max-n told straight (O15): the value under each tie-break, each team's paranoid
    guarantee; the exchange between two teams by security strategies (core/search/maxn.py)."""
    compared, crossing = _maxn_agreement(seed=66, positions=9, two_cards_every=4)
    assert compared >= 6 and crossing > 0


@pytest.mark.slow
def test_kernel_maxn_equals_reference_maxn_long() -> None:
    compared, crossing = _maxn_agreement(seed=67, positions=60, two_cards_every=2)
    assert compared >= 40 and crossing > 5


def test_solve_a_seeded_deal_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`omen-solver solve --deal SEED --players N`: a game-start deal (rules file 000, "Setup":
    one Absolute each, teams and leader from them), solved on the kernel."""
    import json

    from omen_solver.cli import main

    assert main(["solve", "--deal", "7", "--players", "4", "--cards", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "solved" and report["engine"].startswith("kernel")
    again = main(["solve", "--deal", "7", "--players", "4", "--cards", "2", "--json"])
    assert again == 0 and json.loads(capsys.readouterr().out)["nodes"] == report["nodes"]
    assert main(["solve", "--deal", "7"]) == 2
    assert "--players" in capsys.readouterr().err


# Seeded 3-card deals of four players (``random_deal(table, 20261130 + seed, cards=3)``, as in
# benchmarks/omens_targets.py) played on at random (``play_forward`` with ``Random(seed)``) to a
# position where The Absolute's secret exchange between the two teams is a matrix game without
# a saddle (rules file 000, "The Absolute": both cards are chosen at once, face down): the seed,
# the bouts played, the moves into the bout, whether the value asked is that of the team not
# to move, and that value.
_GAPS = [
    (111, 0, 3, False, Fraction(1, 2)),
    (228, 0, 4, False, Fraction(1, 2)),
    (228, 0, 3, False, Fraction(1)),
    (34, 0, 2, False, Fraction(1)),
    (34, 0, 2, True, Fraction(0)),
]


@pytest.mark.parametrize(("seed", "bouts", "moves", "other", "value"), _GAPS)
def test_pure_values_of_a_round_without_chance_follow_from_its_value(
    seed: int, bouts: int, moves: int, other: bool, value: Fraction
) -> None:
    """A round is won or lost (rules file 000, "Goal of the Game") and, with no random
    discard by Luck, has no chance: with an exchange's choices revealed in a fixed order each
    pure value is 0 or 1, so the kernel reports them from the mixed value without a search.
    They must be what the searches in the ``lower`` and ``upper`` modes find."""
    from omen_solver.core.search.result import SimultaneousMode
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.playout import play_forward
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook"))
    deal = deal_position(table, random_deal(table, 20261130 + seed, cards=3))
    state = next(reached.state for reached in play_forward(deal, random.Random(seed))
                 if reached.bouts == bouts and len(reached.moves) == moves)
    mover = state.current_player()
    team = next([seat + 1 for seat in seats] for seats in state.teams()
                if (mover in seats) != other)
    budget = Budget(max_nodes=2_000_000)
    mixed = solve(state, concept="minimax", team=team, budget=budget)
    assert mixed.status is Status.SOLVED and mixed.pure_lower is not None
    assert mixed.value == value
    lower = solve(state, concept="minimax", team=team, budget=budget,
                  simultaneous=SimultaneousMode.LOWER)
    upper = solve(state, concept="minimax", team=team, budget=budget,
                  simultaneous=SimultaneousMode.UPPER)
    assert (mixed.pure_lower, mixed.pure_upper) == (lower.value, upper.value)
    assert mixed.pure_lower <= mixed.value <= mixed.pure_upper


def test_principal_variation_follows_what_the_tables_proved() -> None:
    """From bout 3 of a seeded deal (benchmarks/omens_targets.py, deal 2 of the bout-3 row)
    every first card loses (value 0): the line of play goes through the other side's choices
    that df-pn's tables proved keep the value, each checked in a few nodes, rather than
    searching the choices that do not to their end (2,934,443 nodes in all before, 10,822 of
    them for the moves). Each step of the line keeps the value: the value of the position
    after each prefix, solved alone, is the root's (rules file 000, "Goal of the Game": the
    round is won or lost)."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.kernel.convert import from_engine
    from omen_solver.omens.kernel.machine import Machine
    from omen_solver.omens.kernel.params import SearchParams
    from omen_solver.omens.kernel.solve import dfpn_value
    from omen_solver.omens.kernel.spec import compile_table
    from omen_solver.omens.playout import play_forward
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    seed = 20261130 + 2
    table = Table(4, make_rules("rulebook"))
    deal = deal_position(table, random_deal(table, seed))
    state = next(reached.start for reached in play_forward(deal, random.Random(seed))
                 if reached.bouts == 2)
    result = solve(state, concept="minimax", budget=Budget(max_nodes=200_000))
    assert result.status is Status.SOLVED and result.value == 0
    assert result.moves and all(move.value == 0 for move in result.moves)
    line_nodes = result.nodes - sum(move.nodes for move in result.moves)
    assert line_nodes <= 10 * len(result.principal_variation)
    spec = compile_table(table, state.teams())
    maximising = [seat + 1 in result.team_seats for seat in range(table.players)]
    for text in result.principal_variation:
        state = state.apply_move(state.parse_move(text))
        if state.is_terminal():
            break
        # the value alone (df-pn's two questions), not every optimal move of each position
        proved, _, _ = dfpn_value(Machine(spec), maximising, from_engine(spec, state),
                                  SearchParams(budget=Budget(max_nodes=200_000)))
        assert proved == 0, text


def test_maxn_keeps_to_the_memory_budget() -> None:
    """``max_memory`` (``--max-memory``) binds max-n's table as it binds the other searches':
    the compiled pool never holds more than the plan's table bytes, and the table keeps to
    the plan's entry limit (replacing its cheapest entries once full)."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.kernel.tables import MemoryPlan
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    if not compiled.AVAILABLE or os.environ.get(PURE_PYTHON_VARIABLE):
        pytest.skip("the compiled kernel's pool counts the bytes")
    table = Table(6, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, 20261130, cards=3))
    plan = MemoryPlan(400 * 2**20)
    result = solve(state, concept="maxn", budget=Budget(max_nodes=1_500_000),
                   max_memory=plan.max_bytes)
    assert result.extra["max_memory"] == plan.max_bytes
    assert 0 < result.extra["table_bytes"] <= plan.table_bytes
    assert result.extra["table_entries"] <= plan.limit(1.0, True)
