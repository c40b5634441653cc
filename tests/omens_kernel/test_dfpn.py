"""Proof-number search (df-pn) answers what the kernel's alpha-beta answers.

A round is won by the team one of whose players is left with 1 card (rules file 000, "Goal of
the Game"), so "does this team win for sure?" is a yes-or-no question; df-pn and alpha-beta
walk the same game (the kernel machine) differently and must agree on every position: value 1,
value 0, or (df-pn only) "neither side wins for sure" where alpha-beta finds a fraction
strictly between (The Absolute's secret exchange between two teams, rules file 000, "The
Absolute"; Luck's random discard under ``luck_chooser = random``).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from omen_solver.core.budget import Budget, deep_recursion
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.dfpn import DfpnSearch
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.params import SearchParams, Tuning
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.solve import dfpn_value
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.state import OmensState
from tests.omens.helpers import position
from tests.omens_kernel.helpers import random_small


def _both(state: OmensState, team: int, nodes: int = 100_000) -> tuple[object, object]:
    spec = compile_table(state.table, state.teams())
    start = from_engine(spec, state)
    maximising = [spec.team_of[seat] == team for seat in range(state.table.players)]
    budget = Budget(max_nodes=nodes)
    alpha_beta = KernelSearch(Machine(spec), maximising, SearchParams(budget=budget))
    # The pure-Python searches recurse a few frames a ply, down to their own depth limit (a
    # bout that repeats); the library's entry points allow that many frames, and so does this.
    with deep_recursion():
        value = alpha_beta.search(start, 0, 1)
        proved, _, _ = dfpn_value(Machine(spec), maximising, start,
                                  SearchParams(budget=budget))
    return value, proved


def _agree(value: object, proved: object) -> bool:
    if proved is None:
        return isinstance(value, Fraction) and 0 < value < 1
    return value == proved


@pytest.mark.parametrize("players", [4, 5, 6])
def test_dfpn_agrees_with_alpha_beta_on_random_positions(players: int) -> None:
    rng = random.Random(100 + players)
    compared = 0
    for _ in range(40):
        state = random_small(rng, players, rng.randint(1, 2))
        if state.is_terminal():
            continue
        team = rng.randrange(len(state.teams()))
        try:
            value, proved = _both(state, team)
        except BudgetExceeded:
            continue
        assert _agree(value, proved), (state, value, proved)
        compared += 1
    assert compared >= 25


def test_dfpn_agrees_with_alpha_beta_with_three_cards() -> None:
    rng = random.Random(204)
    compared = 0
    positions = 12
    for _ in range(positions):
        state = random_small(rng, 4, 3)
        try:
            value, proved = _both(state, rng.randrange(2), nodes=30_000)
        except BudgetExceeded:
            continue
        assert _agree(value, proved), (state, value, proved)
        compared += 1
    assert compared >= positions // 3


@pytest.mark.slow
def test_dfpn_agrees_with_alpha_beta_long() -> None:
    rng = random.Random(300)
    compared = 0
    for _ in range(150):
        players = rng.choice([4, 5, 6])
        state = random_small(rng, players, rng.randint(2, 3))
        try:
            value, proved = _both(state, rng.randrange(len(state.teams())), nodes=300_000)
        except BudgetExceeded:
            continue
        assert _agree(value, proved), (state, value, proved)
        compared += 1
    assert compared >= 100


def test_dfpn_says_neither_side_wins_for_sure_where_chance_decides() -> None:
    """With Luck's discard drawn at random (option luck_chooser = random; rules file 000,
    "Luck") a round can be a matter of chance: where alpha-beta finds a value strictly between
    0 and 1, df-pn proves that neither side wins for sure."""
    rng = random.Random(7)
    seen = 0
    for _ in range(200):
        deck = [card for card in range(1, 30) if card != 13]
        rng.shuffle(deck)
        hands = {seat: sorted(deck[3 * seat : 3 * seat + 2]) for seat in range(1, 5)}
        hands[rng.randint(1, 4)].append(13)
        state = position(hands, leader=rng.randint(1, 4), luck_chooser="random")
        try:
            value, proved = _both(state, 0)
        except BudgetExceeded:
            continue
        assert _agree(value, proved), (state, value, proved)
        seen += proved is None
    assert seen >= 3


def test_dfpn_proves_a_bout_won_by_the_highest_card() -> None:
    """Seat 1 leads with Winter (27) and 2 cards: the highest card wins the bout and is
    discarded (rules file 000, "How a Bout Is Resolved"), leaving seat 1 with 1 card, which
    wins the round for its team (seats 1 and 3; "Goal of the Game")."""
    state = position({1: [27, 4], 2: [5, 6, 7], 3: [8, 2, 3], 4: [1, 18, 19]})
    spec = compile_table(state.table, state.teams())
    team = spec.team_of[0]
    maximising = [spec.team_of[seat] == team for seat in range(4)]
    search = DfpnSearch(Machine(spec), maximising, 1)
    assert search.prove(from_engine(spec, state)) is True
    others = DfpnSearch(Machine(spec), maximising, 0)
    assert others.prove(from_engine(spec, state)) is False


def test_dfpn_stops_at_its_budget() -> None:
    rng = random.Random(3)
    state = random_small(rng, 4, 5)
    spec = compile_table(state.table, state.teams())
    maximising = [spec.team_of[seat] == 0 for seat in range(4)]
    search = DfpnSearch(Machine(spec), maximising, 1, SearchParams(budget=Budget(max_nodes=500)))
    with pytest.raises(BudgetExceeded):
        search.prove(from_engine(spec, state))
    assert search.nodes == 500


def _answer(search: Any, start: Any) -> object:
    """A search's answer from ``start``, or the reason it stopped (its budget, endless play)."""
    try:
        answer: object = search.prove(start)
    except BudgetExceeded as stopped:
        answer = stopped.reason
    return answer


def _positions(seed: int, count: int) -> Iterator[tuple[OmensState, Any, Any, list[bool]]]:
    """Seeded small positions of 4 to 6 players: the state, its kernel spec and start, and
    the seats of team 1 (maximising)."""
    rng = random.Random(seed)
    for _ in range(count):
        players = rng.choice([4, 5, 6])
        state = random_small(rng, players, rng.randint(1, 3))
        spec = compile_table(state.table, state.teams())
        yield state, spec, from_engine(spec, state), [spec.team_of[seat] == 0
                                                       for seat in range(players)]


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
@pytest.mark.parametrize(("seed", "count"), [
    (1, 30), pytest.param(1, 60, marks=pytest.mark.slow),
    pytest.param(2, 60, marks=pytest.mark.slow)])
def test_compiled_dfpn_equals_python_dfpn(seed: int, count: int) -> None:
    """The C transcription answers as the Python module does, with the same node counts and
    table entries (and the same stops when the budget runs out)."""
    compared = 0
    for state, spec, start, maximising in _positions(seed, count):
        for target in (0, 1):
            seen = []
            for kind in (DfpnSearch, compiled.CompiledDfpn):
                params = SearchParams(budget=Budget(max_nodes=2_000))
                search = kind(Machine(spec), maximising, target, params)
                seen.append((_answer(search, start), search.nodes, search.states,
                             search.mixed_seen))
            assert seen[0] == seen[1], (state, target)
            compared += 1
    assert compared == 2 * count


def test_searches_refuse_settings_they_do_not_apply() -> None:
    """df-pn answers the mixed mode's yes-or-no question of a round and max-n takes no payoff
    table: a setting a search cannot apply is refused, not ignored."""
    from omen_solver.core.search.result import SimultaneousMode
    from omen_solver.omens.kernel.maxn import KernelMaxn

    state = position({1: [27, 4], 2: [5, 6, 7], 3: [8, 2, 3], 4: [1, 18, 19]})
    spec = compile_table(state.table, state.teams())
    maximising = [spec.team_of[seat] == 0 for seat in range(4)]
    with pytest.raises(ValueError, match="mixed mode only"):
        DfpnSearch(Machine(spec), maximising, 1, SearchParams(mode=SimultaneousMode.LOWER))
    with pytest.raises(ValueError, match="payoff"):
        KernelMaxn(Machine(spec), SearchParams(payoff=[[1] * 4] * 5))


def _seeded_deal(index: int, cards: int = 3) -> tuple[Any, Any, list[bool]]:
    """Seeded 4-player deal ``index`` of ``benchmarks/omens_search.py`` with ``cards`` a hand
    (one Absolute each): its compiled table, its start, and which seats are on the compiled
    table's first team (the maximising side of the tests that use it)."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, 20261130 + index, cards=cards))
    spec = compile_table(state.table, state.teams())
    return spec, from_engine(spec, state), [spec.team_of[seat] == 0 for seat in range(4)]


def _two_questions(kind: type, spec: object, maximising: list[bool], start: object,
                   hint: bool) -> list[object]:
    """Ask "value 1?" then "value 0?", the second reading the first's table if ``hint``."""
    seen: list[object] = []
    first = None
    for target in (1, 0):
        search = kind(Machine(spec), maximising, target,  # type: ignore[arg-type]
                      SearchParams(budget=Budget(max_nodes=3_000)))
        if hint and first is not None:
            search.use_hint(first)
        first = search
        seen.append((_answer(search, start), search.nodes, search.states))
    return seen


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
@pytest.mark.parametrize("seed", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_compiled_dfpn_reads_a_hint_as_python_dfpn_does(seed: int) -> None:
    """With "value 0?" reading what "value 1?" settled (kernel/dfpn.py, ``use_hint``), the
    two kernels give the same answers, node counts and table entries, and the answers are
    those without the hint (a state worth 1 is not worth 0: rules file 000, "Goal of the
    Game", a round is won by one team)."""
    read = 0
    for state, spec, start, maximising in _positions(seed, 20):
        hinted = [_two_questions(kind, spec, maximising, start, True)
                  for kind in (DfpnSearch, compiled.CompiledDfpn)]
        assert hinted[0] == hinted[1], state
        plain = _two_questions(DfpnSearch, spec, maximising, start, False)
        for with_hint, without in zip(hinted[0], plain, strict=True):
            if isinstance(without[0], bool) and isinstance(with_hint[0], bool):  # type: ignore[index]
                assert with_hint[0] == without[0], state  # type: ignore[index]
        read += hinted[0] != plain
    assert read > 0, "the hint never changed a search: it is not read"


@pytest.mark.parametrize("kind", [DfpnSearch, compiled.CompiledDfpn] if compiled.AVAILABLE
                         else [DfpnSearch])
def test_a_proof_of_the_other_question_settles_a_child_at_once(kind: type) -> None:
    """A round the leader's team wins for sure: "value 1?" proves it (rules file 000, "Goal of
    the Game"). "value 0?" reading that proof disproves the root as soon as it is expanded:
    the leader's winning child is settled by the hint, so one node, against a search of its
    own without it."""
    state = position({1: [27, 4], 2: [5, 6, 7], 3: [8, 2, 3], 4: [1, 18, 19]})
    spec = compile_table(state.table, state.teams())
    start = from_engine(spec, state)
    leader = state.current_player()
    maximising = [spec.team_of[seat] == spec.team_of[leader] for seat in range(4)]
    (won, _, _), (lost, nodes, _) = _two_questions(kind, spec, maximising, start, True)
    (_, _, _), (_, plain, _) = _two_questions(kind, spec, maximising, start, False)
    assert (won, lost) == (True, False)
    assert nodes == 1 < plain


def test_a_search_is_not_its_own_hint() -> None:
    state = position({1: [27, 4], 2: [5, 6, 7], 3: [8, 2, 3], 4: [1, 18, 19]})
    spec = compile_table(state.table, state.teams())
    maximising = [spec.team_of[seat] == 0 for seat in range(4)]
    kinds = [DfpnSearch, compiled.CompiledDfpn] if compiled.AVAILABLE else [DfpnSearch]
    for kind in kinds:
        search = kind(Machine(spec), maximising, 0)
        with pytest.raises(ValueError, match="own hint"):
            search.use_hint(search)
    if compiled.AVAILABLE:
        with pytest.raises(TypeError, match="must be one too"):
            DfpnSearch(Machine(spec), maximising, 0).use_hint(
                compiled.CompiledDfpn(Machine(spec), maximising, 1))


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_hints_both_ways_agree_across_kernels_with_value_0_asked_first() -> None:
    """Each question reading the other, "value 0?" asked first: the two kernels give the same
    answers and node counts (a round won by the leader's team, rules file 000, "Goal of the
    Game"), and the compiled search refuses a hint asking about a value other than 0 or 1."""
    state = position({1: [27, 4], 2: [5, 6, 7], 3: [8, 2, 3], 4: [1, 18, 19]})
    spec = compile_table(state.table, state.teams())
    start = from_engine(spec, state)
    leader = state.current_player()
    maximising = [spec.team_of[seat] == spec.team_of[leader] for seat in range(4)]
    seen = []
    for kind in (DfpnSearch, compiled.CompiledDfpn):
        searches = {target: kind(Machine(spec), maximising, target) for target in (0, 1)}
        searches[1].use_hint(searches[0])
        searches[0].use_hint(searches[1])
        answers = [searches[target].prove(start) for target in (0, 1)]
        seen.append((answers, [searches[target].nodes for target in (0, 1)]))
    assert seen[0] == seen[1]
    assert seen[0][0] == [False, True]
    with pytest.raises(ValueError, match="0 or 1"):
        compiled.CompiledDfpn(Machine(spec), maximising, 0)._search.hint(
            compiled.CompiledDfpn(Machine(spec), maximising, 1)._search, 2)


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the parallel df-pn is the compiled kernel's")
@pytest.mark.parametrize("workers", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_parallel_dfpn_answers_as_one_thread(workers: int) -> None:
    """Several threads proving one question on one table (Kaneko's parallel df-pn) answer as
    one thread does, proof for proof, on seeded deals of 3 cards a hand and small random
    positions; their node counts may differ. With hints from the other question too."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook"))
    states = [deal_position(table, random_deal(table, 20261130 + index, cards=3))
              for index in range(4)]
    states += [state for state, _, _, _ in _positions(7, 30)]
    compared = 0
    for state in states:
        if state.is_terminal():
            continue
        spec = compile_table(state.table, state.teams())
        start = from_engine(spec, state)
        maximising = [spec.team_of[seat] == 0 for seat in range(spec.players)]
        answers = []
        for count in (1, workers):
            proofs = {}
            for target in (1, 0):
                proof = compiled.CompiledDfpn(Machine(spec), maximising, target,
                                              SearchParams(budget=Budget(max_nodes=700_000)))
                proof.workers = count
                if target == 0:
                    proof.use_hint(proofs[1])
                proofs[target] = proof
                try:
                    answer: object = proof.prove(start)
                except BudgetExceeded as stopped:
                    # play that repeats for ever is met on some lines of search, not others;
                    # a position harder than the limit is left out (one thread too)
                    assert any(reason in stopped.reason
                               for reason in ("came back", "deep", "node limit"))
                    answer = None
                answers.append(answer)
        if None in answers:
            continue
        assert answers[:2] == answers[2:], state
        compared += 1
    assert compared >= 20


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the parallel df-pn is the compiled kernel's")
def test_parallel_dfpn_keeps_its_budget_and_can_be_interrupted() -> None:
    """The node limit counts every thread's nodes (the count never passes it); an interrupt
    from another thread stops every thread at its next check; the number of threads is
    checked; one thread counts the same nodes every run."""
    import threading

    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, 20261130, cards=4))
    spec = compile_table(state.table, state.teams())
    start = from_engine(spec, state)
    maximising = [spec.team_of[seat] == spec.team_of[start.leader] for seat in range(4)]
    proof = compiled.CompiledDfpn(Machine(spec), maximising, 1,
                                  SearchParams(budget=Budget(max_nodes=60_000)))
    proof.workers = 2
    with pytest.raises(BudgetExceeded, match="node limit"):
        proof.prove(start)
    assert proof.nodes == 60_000
    # one worker is the plain df-pn: the same node counts run after run
    counts = set()
    for _ in range(2):
        alone = compiled.CompiledDfpn(Machine(spec), maximising, 1,
                                      SearchParams(budget=Budget(max_nodes=300_000)))
        alone.workers = 1
        with contextlib.suppress(BudgetExceeded):
            alone.prove(start)
        counts.add((alone.nodes, alone.states))
    assert len(counts) == 1
    endless = compiled.CompiledDfpn(Machine(spec), maximising, 1, SearchParams())
    endless.workers = 2
    timer = threading.Timer(0.5, endless._search.interrupt)
    timer.start()
    with pytest.raises(BudgetExceeded, match="interrupted"):
        endless.prove(start)
    timer.join()
    for wrong in (0, 257):
        with pytest.raises(ValueError, match="workers"):
            proof.workers = wrong


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the parallel df-pn is the compiled kernel's")
def test_parallel_dfpn_answers_as_one_thread_on_a_small_table() -> None:
    """A table far smaller than the proof drops what cost least over and over while two threads
    write it at once (each thread keeps words for its new keys and counts its new entries in
    batches, and a collection moves the entries and the words under the threads): the answers
    stay those of one thread on the same small table."""
    collected = 0
    for index in range(2):
        spec, start, maximising = _seeded_deal(index)
        answers = []
        for count in (1, 2):
            for target in (1, 0):
                small = compiled.new_table(8192)
                proof = compiled.CompiledDfpn(
                    Machine(spec), maximising, target,
                    SearchParams(budget=Budget(max_nodes=1_000_000), table=small))
                proof.workers = count
                answers.append(proof.prove(start))
                if count == 2:
                    collected += small.collections
        assert answers[:2] == answers[2:], index
    assert collected >= 40


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the parallel df-pn is the compiled kernel's")
def test_parallel_dfpn_on_a_small_table_does_not_search_the_same_subtrees_forever() -> None:
    """On 2,048 entries (a collection every thousand nodes or so), two threads prove "value 1?"
    of 3-card deal 0 in about as many nodes as one thread (331,551): a parallel df-pn's table
    ages the work of the entries it keeps, so that entries which cost much once cannot hold
    the whole kept half and make every entry stored since go at the next collection. Before,
    4 runs in 1,591 took 3,000,000 nodes or more (stopped there); after, the most of 1,300 was
    1,254,463 (docs/benchmarks.md, "Two threads on a small table"). The ceiling is generous,
    so that the test does not fail by chance; it cannot catch the rare blow-up of before
    every time."""
    spec, start, maximising = _seeded_deal(0)
    for _ in range(8):
        small = compiled.new_table(2048)
        proof = compiled.CompiledDfpn(
            Machine(spec), maximising, 1,
            SearchParams(budget=Budget(max_nodes=2_500_000), table=small))
        proof.workers = 2
        assert proof.prove(start) is True
        assert small.collections >= 100


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the parallel df-pn is the compiled kernel's")
def test_parallel_dfpn_with_playouts_sizes_its_table_first() -> None:
    """Two threads with playouts at bout starts (each reads the other's memo of playouts, a slot
    read whole or not at all) answer as one thread does, with hints from the other question;
    the table of a parallel proof is made as large as its entry limit first (no thread stops
    the other to grow it), where one thread grows it as it fills."""
    limit = 1 << 16
    for index in range(3):
        spec, start, maximising = _seeded_deal(index)
        answers = []
        sizes = []
        for count in (1, 2):
            asked = None
            for target in (1, 0):
                tt = compiled.new_table(limit)
                proof = compiled.CompiledDfpn(
                    Machine(spec), maximising, target,
                    SearchParams(budget=Budget(max_nodes=2_000_000), table=tt,
                                 tuning=Tuning(seed_model=False)))
                proof.playouts = 8
                proof.workers = count
                if asked is not None:
                    proof.use_hint(asked)
                asked = proof
                answers.append(proof.prove(start))
                sizes.append((count, tt.size, tt.bytes))
        assert answers[:2] == answers[2:], index
        # two slots an entry at the limit, 33 bytes a slot (the entry and its tag)
        assert all(held >= 2 * limit * 33 for count, _, held in sizes if count == 2), sizes
        assert any(held < 2 * limit * 33 for count, size, held in sizes if count == 1), sizes


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the memo of playouts is the compiled kernel's")
def test_the_searches_of_one_pool_share_one_memo_of_playouts() -> None:
    """The searches of one solve (one pool: both questions of both sides, one after the other)
    share one memo of playouts, keyed so that each reads only results that hold for it: the
    answers and node counts are those of searches each with memos of its own (no pool). The
    memo's bytes are counted in the pool (a 64th of its limit at most) and ``drop_memos`` gives
    them back."""
    spec, start, maximising = _seeded_deal(1)

    def run(pool: Any) -> list[object]:
        seen = []
        for side in (maximising, [not flag for flag in maximising]):
            for target in (1, 0):
                proof = compiled.CompiledDfpn(
                    Machine(spec), side, target,
                    SearchParams(budget=Budget(max_nodes=300_000), pool=pool,
                                 tuning=Tuning(seed_model=False)))
                proof.playouts = 8
                seen.append((_answer(proof, start), proof.nodes, proof.states))
        return seen

    alone = run(None)
    pool = compiled.new_pool(1 << 30)
    assert run(pool) == alone
    assert 0 < pool.used <= (1 << 30) // 64  # one memo: the searches and their tables are gone
    pool.drop_memos()
    assert pool.used == 0
