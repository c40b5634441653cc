"""The compiled kernel (C) gives exactly what the pure-Python kernel gives: the same legal
actions and successors, and the same values, table entries and node counts in search.

The pure-Python kernel is the fallback when no C compiler is present; both transcribe the
explaining engine (see test_machine.py for the kernel against the engine).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from omen_solver.core.budget import Budget, deep_recursion
from omen_solver.core.search.result import SimultaneousMode
from omen_solver.errors import BudgetExceeded, ConceptError
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.compiled import CompiledSearch
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.params import SearchParams
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.spec import compile_table
from tests.omens_kernel.helpers import MAX_LINE, random_small

pytestmark = pytest.mark.skipif(
    not compiled.AVAILABLE, reason="the compiled kernel is not built (no C compiler)"
)


def _machine_walks(seed: int, games: int) -> int:
    ckernel = compiled._ckernel
    rng = random.Random(seed)
    checked = 0
    for index in range(games):
        state = random_small(rng, (4, 5, 6)[index % 3], rng.randint(1, 4))
        spec = compile_table(state.table, state.teams())
        machine, packed = Machine(spec), spec.as_tuple()
        k = from_engine(spec, state)
        for _ in range(MAX_LINE):  # a bout that repeats for ever is cut (docs/kernel.md)
            if (player := machine.current_player(k)) == m.TERMINAL:
                break
            key = k.key()
            if player == m.SIMULTANEOUS:
                a, b = machine.acting_players(k)
                mine, theirs = machine.legal(k, a), machine.legal(k, b)
                assert ckernel.legal(packed, key, a) == mine
                assert ckernel.legal(packed, key, b) == theirs
                for x in mine:
                    for y in theirs:
                        expected = machine.joint_child(k, (x, y)).key()
                        assert ckernel.joint_child(packed, key, x, y) == expected
                k = machine.joint_child(k, (rng.choice(mine), rng.choice(theirs)))
            else:
                moves = machine.legal(k)
                assert ckernel.legal(packed, key, -1) == moves
                for move in moves:
                    assert ckernel.child(packed, key, move) == machine.child(k, move).key()
                k = machine.child(k, moves[rng.randrange(len(moves))])
            checked += 1
    return checked


def test_compiled_machine_equals_python_machine() -> None:
    assert _machine_walks(seed=11, games=300) > 1_000


@pytest.mark.slow
def test_compiled_machine_equals_python_machine_long() -> None:
    assert _machine_walks(seed=12, games=5_000) > 15_000


def _outcome(search: KernelSearch | CompiledSearch, k: m.KState) -> tuple[object, ...]:
    try:
        value: object = search.search(k, 0, 1)
    except BudgetExceeded as exceeded:
        value = ("unknown", exceeded.reason)
    except ConceptError:
        value = "not constant-sum"
    return (value, search.nodes, search.states, search.entry(k))


def _search_parity(seed: int, positions: int, max_nodes: int) -> dict[str, int]:
    rng = random.Random(seed)
    seen = {"solved": 0, "fraction": 0, "unknown": 0}
    for index in range(positions):
        state = random_small(rng, (4, 5, 6)[index % 3], rng.randint(1, 4))
        spec = compile_table(state.table, state.teams())
        team = rng.randrange(len(spec.teams))
        maximising = [spec.team_of[seat] == team for seat in range(spec.players)]
        mode = rng.choice(list(SimultaneousMode))
        payoff = None
        if rng.random() < 0.2:
            rows = spec.players + 1
            payoff = [[Fraction(rng.randint(0, 4), 4)] * spec.players for _ in range(rows)]
        results = []
        for kind in (KernelSearch, CompiledSearch):
            params = SearchParams(constant_sum=len(spec.teams) == 2 and payoff is None,
                                  mode=mode, budget=Budget(max_nodes=max_nodes), payoff=payoff)
            search = kind(Machine(spec), maximising, params)
            with deep_recursion():
                results.append(_outcome(search, from_engine(spec, state)))
        assert results[0] == results[1], (state, results)
        value = results[0][0]
        key = "unknown" if isinstance(value, tuple) else "solved"
        seen[key] += 1
        if isinstance(value, Fraction):
            seen["fraction"] += 1
    return seen


def test_compiled_search_equals_python_search() -> None:
    """Values (fractions from Luck's random discard and mixed exchanges included), table
    entries and node counts, under every simultaneous mode and with a payoff table."""
    seen = _search_parity(seed=5, positions=120, max_nodes=2_000)
    print(seen)
    assert seen["solved"] > 50 and seen["unknown"] > 3


@pytest.mark.slow
def test_compiled_search_equals_python_search_long() -> None:
    seen = _search_parity(seed=6, positions=800, max_nodes=10_000)
    assert seen["fraction"] > 0


def _maxn_parity(seed: int, positions: int, max_nodes: int) -> int:
    from omen_solver.core.search.maxn import TieBreak
    from omen_solver.omens.kernel.compiled import CompiledMaxn
    from omen_solver.omens.kernel.maxn import KernelMaxn
    from omen_solver.omens.kernel.view import KernelView

    rng = random.Random(seed)
    solved = 0
    for index in range(positions):
        state = random_small(rng, (6, 4, 5)[index % 3], rng.randint(1, 3))
        spec = compile_table(state.table, state.teams())
        tie = rng.choice(list(TieBreak))
        results = []
        for kind in (KernelMaxn, CompiledMaxn):
            machine = Machine(spec)
            search = kind(machine, SearchParams(budget=Budget(max_nodes=max_nodes)), tie_break=tie)
            view = KernelView(machine, from_engine(spec, state))
            try:
                with deep_recursion():
                    value: object = search.search(view)
            except BudgetExceeded as exceeded:
                value = exceeded.reason
            results.append((value, search.nodes, search.states))
        assert results[0] == results[1], (state, tie, results)
        solved += not isinstance(results[0][0], str)
    return solved


def test_compiled_maxn_equals_python_maxn() -> None:
    """Max-n vectors (immediate and shallow pruning, security strategies between two teams,
    both tie-breaks) and node counts (kernel/maxn.py)."""
    assert _maxn_parity(seed=8, positions=90, max_nodes=3_000) > 40


@pytest.mark.slow
def test_compiled_maxn_equals_python_maxn_long() -> None:
    assert _maxn_parity(seed=9, positions=600, max_nodes=10_000) > 250
