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
                # the count a seed's mobility uses, made without the actions
                assert ckernel.legal_count(packed, key, a) == len(mine)
                assert ckernel.legal_count(packed, key, b) == len(theirs)
                for x in mine:
                    for y in theirs:
                        expected = machine.joint_child(k, (x, y)).key()
                        assert ckernel.joint_child(packed, key, x, y) == expected
                k = machine.joint_child(k, (rng.choice(mine), rng.choice(theirs)))
            else:
                moves = machine.legal(k)
                assert ckernel.legal(packed, key, -1) == moves
                assert ckernel.legal_count(packed, key, -1) == len(moves)
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
    seen = _search_parity(seed=5, positions=70, max_nodes=2_000)  # 800 with --runslow
    print(seen)
    assert seen["solved"] > 25 and seen["unknown"] > 3


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


def _replacement_parity(seed: int, positions: int, limit: int) -> int:
    """Alpha-beta and df-pn with tables far too small: both kernels drop the same entries
    (docs/kernel.md, "Memory"), so values, node counts and table sizes stay equal."""
    from omen_solver.omens.kernel.compiled import CompiledDfpn
    from omen_solver.omens.kernel.dfpn import DfpnSearch

    rng = random.Random(seed)
    collected = 0
    for index in range(positions):
        state = random_small(rng, (4, 5)[index % 2], 3)
        spec = compile_table(state.table, state.teams())
        maximising = [spec.team_of[seat] == 0 for seat in range(spec.players)]
        params = SearchParams(budget=Budget(max_nodes=6_000), table_limit=limit)
        k = from_engine(spec, state)
        results = []
        for kind in (KernelSearch, CompiledSearch):
            search = kind(Machine(spec), maximising, params)
            with deep_recursion():
                outcome = _outcome(search, k)
            table = search.table if isinstance(search, KernelSearch) else None
            results.append((outcome, table.collections if table else None))
        assert results[0][0] == results[1][0], state
        collected += results[0][1] or 0
        proofs = []
        for proof_kind in (DfpnSearch, CompiledDfpn):
            proof = proof_kind(Machine(spec), maximising, 1, params)
            try:
                answer: object = proof.prove(k)
            except BudgetExceeded as exceeded:
                answer = exceeded.reason
            proofs.append((answer, proof.nodes, proof.states))
        assert proofs[0] == proofs[1], state
    return collected


def test_tables_that_are_full_replace_the_same_entries_in_both_kernels() -> None:
    assert _replacement_parity(seed=31, positions=8, limit=128) > 10


def test_shared_tables_merge_the_same_way_in_both_kernels() -> None:
    """Searches storing in tables of their own over a shared one, merged in a fixed order, as
    the root's moves are searched (kernel/rounds.py): the same shared table in both kernels."""
    from omen_solver.omens.kernel.tables import Table

    state = random_small(random.Random(3), 4, 3)
    spec = compile_table(state.table, state.teams())
    machine = Machine(spec)
    k = from_engine(spec, state)
    maximising = [spec.team_of[seat] == 0 for seat in range(spec.players)]
    children = [machine.child(k, move) for move in machine.legal(k)]
    ckernel = compiled._ckernel
    shared_py: Table[object] = Table(512)
    shared_c = ckernel.Table(512)
    found = []
    for _ in range(3):  # rounds
        for child in children:
            own_py: Table[object] = Table(128, shared=shared_py)
            own_c = ckernel.Table(128)
            budget = Budget(max_nodes=2_000)
            py = KernelSearch(machine, maximising, SearchParams(budget=budget, table=own_py))
            c = CompiledSearch(machine, maximising,
                               SearchParams(budget=budget, table=own_c, shared=shared_c))
            with deep_recursion():
                found.append((_outcome(py, child), _outcome(c, child)))
            shared_py.merge(own_py, numbers=False)
            shared_c.merge(own_c, False)
            assert (len(shared_py), shared_py.collections) == (shared_c.size, shared_c.collections)
    assert all(a == b for a, b in found)
    assert shared_py.collections > 0


def test_a_table_emptied_keeps_count_of_its_collections_in_both_kernels() -> None:
    """A root move's table is emptied after every merge (kernel/rounds.py); what it dropped
    stays counted (``table_collections`` in the answer), in both kernels alike."""
    from omen_solver.omens.kernel.tables import Table

    state = random_small(random.Random(3), 4, 3)
    spec = compile_table(state.table, state.teams())
    machine = Machine(spec)
    k = from_engine(spec, state)
    maximising = [spec.team_of[seat] == 0 for seat in range(spec.players)]
    own_py: Table[object] = Table(64)
    own_c = compiled.new_table(64)
    for table in (own_py, own_c):
        params = SearchParams(budget=Budget(max_nodes=3_000), table=table)
        kind = KernelSearch if table is own_py else CompiledSearch
        with deep_recursion():
            _outcome(kind(machine, maximising, params), k)
    assert own_py.collections == own_c.collections > 0
    own_py.clear()
    own_c.clear()
    assert own_py.collections == own_c.collections > 0
    assert (len(own_py), own_c.size) == (0, 0)


def _bout_start_cards(words: tuple[int, ...], players: int) -> int | None:
    """The cards in the hands if a compiled key (``_ckernel_machine.h``: ``pack_key``: the
    phase and the seats that played in its first word, the hands, then the cards in play and
    the obligations pending) is a bout start."""
    if words[0] & 3 != m.BOUT or words[0] >> 2 & 63 or words[players + 1] & 0xFFFF:
        return None
    return sum(hand.bit_count() for hand in words[1:players + 1])


def test_a_table_lists_its_keys_and_the_bout_starts_expanded_are_counted() -> None:
    """``Table.keys()`` gives every entry's key once; the count of bout starts a benchmark
    records (``benchmarks/omens_waste.py``) is that of the bout starts a df-pn search stored
    (it stores every node it expands), and recording costs the search no node."""
    from collections import Counter

    from omen_solver.omens.kernel.compiled import CompiledDfpn

    state = random_small(random.Random(7), 4, 3)
    spec = compile_table(state.table, state.teams())
    machine = Machine(spec)
    k = from_engine(spec, state)
    maximising = [spec.team_of[seat] == 0 for seat in range(spec.players)]
    runs = []
    for record in (False, True):
        table = compiled.new_table(0)
        proof = CompiledDfpn(machine, maximising, 1,
                             SearchParams(budget=Budget(max_nodes=500_000), table=table))
        compiled.record_bout_starts(record)
        answer = proof.prove(k)
        counted = compiled.record_bout_starts(False)
        runs.append((answer, proof.nodes))
        keys = table.keys()
        assert len(keys) == len(set(keys)) == table.size
    stored = Counter(cards for key in keys
                     if (cards := _bout_start_cards(key, spec.players)) is not None)
    assert counted == dict(stored) and sum(stored.values()) > 10
    assert runs[0] == runs[1]
