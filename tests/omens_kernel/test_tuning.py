"""How the searches look for a proof (``kernel/params.py``: ``Tuning``) changes the nodes they
visit, never their answers: every setting gives the value of the alpha-beta search as it was
before any of them, and the compiled kernel visits the same nodes as the Python one setting
by setting. The values are the rounds' (rules file 000, "Goal of the Game", "End of a Round":
``round.end.one_card``); the positions are random bout starts and seeded deals."""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from omen_solver.core.budget import Budget, deep_recursion
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.dfpn import DfpnSearch, link_questions
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import SearchParams, Tuning
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.solve import dfpn_value, make_search
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.kernel.view import KernelView
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Table
from tests.omens_kernel.helpers import random_small

SETTINGS = [Tuning(mobility=True), Tuning(distance=3), Tuning(mobility=True, distance=4),
            Tuning(squeeze=True), replace(Tuning.off(), dfpn_first=True),
            replace(Tuning.off(), alpha_beta_shift=4), replace(Tuning.off(), hint=True),
            replace(Tuning.off(), both_questions=True),
            Tuning(seed_model=False, playouts=4, playouts_turn=0),
            Tuning(in_order_turn=1), replace(Tuning.off(), alpha_beta_proofs=True),
            replace(Tuning.off(), alpha_beta_proofs=True, alpha_beta_asks=True),
            Tuning(ties=1), Tuning(ties=2), Tuning(ties=0), Tuning(playout_prior=0),
            Tuning(playouts=4, playouts_turn=0, playout_prior=2), Tuning(seed_model=False),
            Tuning()]
"""Each setting alone, together, and the defaults."""

Position = tuple[Machine, list[bool], KState]


def _random_positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for index in range(count):
        players = (4, 5, 6)[index % 3]
        state = random_small(rng, players, rng.randint(1, 3))
        spec = compile_table(state.table, state.teams())
        team = rng.randrange(len(spec.teams))
        maximising = [spec.team_of[seat] == team for seat in range(players)]
        out.append((Machine(spec), maximising, from_engine(spec, state)))
    return out


def _seeded_deals(count: int, cards: int) -> list[Position]:
    table = Table(4, make_rules("rulebook"))
    out = []
    for index in range(count):
        state = deal_position(table, random_deal(table, 20261130 + index, cards=cards))
        spec = compile_table(state.table, state.teams())
        start = from_engine(spec, state)
        maximising = [spec.team_of[seat] == spec.team_of[start.leader] for seat in range(4)]
        out.append((Machine(spec), maximising, start))
    return out


def _value(search: object, root: KState) -> object:
    try:
        with deep_recursion():
            return search.search(root, 0, 1)  # type: ignore[attr-defined]
    except BudgetExceeded:
        return None


def _agree(positions: list[Position], nodes: int, algorithms: tuple[str, ...]) -> int:
    """How many positions every tuned search and today's alpha-beta both solved; fails on any
    disagreement."""
    compared = 0
    for machine, maximising, root in positions:
        budget = Budget(max_nodes=nodes)
        today = make_search(machine, maximising, SearchParams(budget=budget, tuning=Tuning.off()))
        value = _value(today, root)
        if value is None:
            continue
        for tuning in SETTINGS:
            params = SearchParams(budget=budget, tuning=tuning)
            try:
                proved, _, _ = dfpn_value(machine, maximising, root, params)
            except BudgetExceeded:
                proved = -1
            if proved is None:
                assert isinstance(value, Fraction) and 0 < value < 1, (root.key(), tuning)
            elif proved >= 0:
                assert proved == value, (root.key(), tuning)
            for algorithm in algorithms:
                found = _value(make_search(machine, maximising, params, algorithm=algorithm),
                               root)
                assert found is None or found == value, (root.key(), tuning, algorithm)
        compared += 1
    return compared


def test_every_setting_gives_the_values_of_todays_alpha_beta() -> None:
    assert _agree(_random_positions(21, 45), 5_000, ("portfolio",)) >= 30


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_every_setting_gives_the_values_of_todays_alpha_beta_on_two_card_deals() -> None:
    """Seeded deals as at a game start (one Absolute each), cut to 2 cards a hand."""
    assert _agree(_seeded_deals(12, 2), 50_000, ("portfolio",)) == 12


@pytest.mark.slow
@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_every_setting_gives_the_values_of_todays_alpha_beta_on_three_card_deals() -> None:
    """The proof-size benchmark's deals (``benchmarks/proof_size.py``): 3 cards a hand, on the
    9 of 12 that alpha-beta without any setting solves within 3 M nodes."""
    assert _agree(_seeded_deals(12, 3), 3_000_000, ("portfolio", "dfpn")) >= 9


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
@pytest.mark.parametrize("tuning", [SETTINGS[0], SETTINGS[2],
                                    Tuning(seed_model=False, playouts=4, playouts_turn=0),
                                    Tuning(seed_model=False, playouts=15, playouts_turn=0,
                                           distance=0),
                                    Tuning(ties=0), Tuning(ties=1), Tuning(ties=2),
                                    Tuning(ties=3),
                                    Tuning(seed_model=False, playouts=4, playouts_turn=0,
                                           playout_prior=0),
                                    Tuning(seed_model=False, playouts=8, playouts_turn=0,
                                           playout_prior=4),
                                    Tuning(seed_model=True, playouts_turn=0),
                                    Tuning(seed_model=True, playouts=4, playouts_turn=0,
                                           ties=0)],
                         ids=repr)
def test_compiled_dfpn_visits_the_nodes_of_python_dfpn(tuning: Tuning) -> None:
    """The same answers, node counts, table entries and stops, setting by setting (the
    playouts of a bout start's seed are the same random playouts in both kernels)."""
    for machine, maximising, root in _random_positions(22, 15):
        for target in (0, 1):
            seen = []
            for kind in (DfpnSearch, compiled.CompiledDfpn):
                params = SearchParams(budget=Budget(max_nodes=1_500), tuning=tuning)
                search = kind(machine, maximising, target, params)
                try:
                    answer: object = search.prove(root)
                except BudgetExceeded as stopped:
                    answer = stopped.reason
                seen.append((answer, search.nodes, search.states, search.mixed_seen))
            assert seen[0] == seen[1], (root.key(), target)


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_playout_seeds_are_the_same_in_both_kernels() -> None:
    """A bout start's playouts (``Tuning.playouts``) are the same random playouts in both
    kernels (seeded by the position): the same answers, node counts and table entries on
    seeded 3-card deals, where they change the search."""
    changed = 0
    for machine, maximising, root in _seeded_deals(2, 3):
        for target in (0, 1):
            runs = []
            for tuning in (Tuning(playouts=0),
                           Tuning(seed_model=False, playouts=4, playouts_turn=0)):
                seen = []
                for kind in (DfpnSearch, compiled.CompiledDfpn):
                    search = kind(machine, maximising, target,
                                  SearchParams(budget=Budget(max_nodes=5_000), tuning=tuning))
                    try:
                        answer: object = search.prove(root)
                    except BudgetExceeded as stopped:
                        answer = stopped.reason
                    seen.append((answer, search.nodes, search.states))
                assert seen[0] == seen[1], (root.key(), target, tuning)
                runs.append(seen[0])
            changed += runs[0] != runs[1]
    assert changed >= 2


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
@pytest.mark.parametrize("tuning", [Tuning.off(), Tuning(squeeze=True)], ids=repr)
def test_compiled_alpha_beta_visits_the_nodes_of_python_alpha_beta(tuning: Tuning) -> None:
    """The move ordering is the same in both kernels: the same values, node counts and table
    entries, setting by setting."""
    for machine, maximising, root in _random_positions(23, 15):
        seen = []
        for kind in (KernelSearch, compiled.CompiledSearch):
            search = kind(machine, maximising,
                          SearchParams(budget=Budget(max_nodes=3_000), tuning=tuning))
            seen.append((_value(search, root), search.nodes, search.states))
        assert seen[0] == seen[1], root.key()


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_alpha_beta_reads_the_proofs_of_df_pn_in_both_kernels() -> None:
    """``Tuning.alpha_beta_proofs``: alpha-beta that reads what df-pn's two questions proved
    in a few hundred nodes gives the value it gives alone, each kernel with the same node
    counts as the other, and on some positions fewer nodes (a state df-pn has proved is
    not searched again)."""
    fewer = 0
    kinds = ((DfpnSearch, KernelSearch), (compiled.CompiledDfpn, compiled.CompiledSearch))
    for machine, maximising, root in _random_positions(24, 12):
        seen = []
        for dfpn_kind, alpha_beta_kind in kinds:
            proofs: list[Any] = []
            for target in (0, 1):
                proof = dfpn_kind(machine, maximising, target,
                                  SearchParams(budget=Budget(max_nodes=300)))
                with contextlib.suppress(BudgetExceeded):
                    proof.prove(root)
                proofs.append(proof)
            runs = []
            for linked in (True, False):
                search = alpha_beta_kind(machine, maximising,
                                         SearchParams(budget=Budget(max_nodes=20_000)))
                if linked:
                    search.use_proofs(*proofs)
                runs.append((_value(search, root), search.nodes))
            seen.append(runs)
        assert seen[0] == seen[1], root.key()
        (linked_value, linked_nodes), (alone_value, alone_nodes) = seen[0]
        if linked_value is not None and alone_value is not None:
            assert linked_value == alone_value, root.key()
            fewer += linked_nodes < alone_nodes
    assert fewer >= 3


EXCHANGE_LINE = ("4:9", "1:31 with 3", "1:gives 3 & 3:gives 1", "2:28 return 9", "4:35 with 1",
                 "4:gives 9 & 1:gives 29", "3:33 with 4")
"""Seeded 3-card deal 89 played along its principal variation to an exchange of The Absolute
between the teams that has no saddle (rules file 000, "The Absolute": both cards placed face
down at the same time; ``omens-cards.md``, 30-35): worth 1/2 to the leader's team."""


def _exchange_worth_a_fraction() -> Position:
    table = Table(4, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, 20261130 + 89, cards=3))
    spec = compile_table(state.table, state.teams())
    machine = Machine(spec)
    view = KernelView(machine, from_engine(spec, state))
    for action in EXCHANGE_LINE:
        if " & " in action:
            view = view.joint_child(tuple(view.string_to_action(a) for a in action.split(" & ")))
        else:
            view = view.child(view.string_to_action(action))
    maximising = [spec.team_of[seat] == spec.team_of[3] for seat in range(4)]
    return machine, maximising, view.k


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_alpha_beta_asks_df_pn_below_a_root_worth_a_fraction_in_both_kernels() -> None:
    """``Tuning.alpha_beta_asks``: where both of df-pn's questions are disproved at its root
    (the exchange is worth 1/2: neither team wins for sure), alpha-beta that asks them about
    each new state gives the value it gives without asking, in far fewer nodes, and each
    kernel with the same node counts as the other; a node limit that falls inside a question
    stops both kernels alike, and the search asked again goes on to the same answer."""
    machine, maximising, root = _exchange_worth_a_fraction()
    kinds = ((DfpnSearch, KernelSearch), (compiled.CompiledDfpn, compiled.CompiledSearch))
    seen = []
    for ask, (dfpn_kind, alpha_beta_kind) in ((True, kinds[0]), (True, kinds[1]),
                                               (False, kinds[1])):
        params = SearchParams(budget=Budget(max_nodes=400_000),
                              tuning=Tuning(alpha_beta_asks=ask))
        proofs = {target: dfpn_kind(machine, maximising, target, params) for target in (1, 0)}
        link_questions(proofs)
        assert [proofs[target].prove(root) for target in (1, 0)] == [False, False]
        search = alpha_beta_kind(machine, maximising, params)
        search.use_proofs(proofs[0], proofs[1])
        stops = []
        if ask:
            search.limit_nodes(5_000)  # inside the first entry's question
            with pytest.raises(BudgetExceeded):
                search.search(root, 0, 1)
            stops.append(search.nodes)
            search.limit_nodes(None)
        seen.append((_value(search, root), search.nodes, stops,
                     [proof.states for proof in proofs.values()]))
    python, compiled_kernel, without = seen
    assert python == compiled_kernel
    assert python[0] == without[0] == Fraction(1, 2)
    assert python[1] * 2 < without[1]


def test_a_setting_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="distance"):
        Tuning(distance=8)
    with pytest.raises(ValueError, match="playouts"):
        Tuning(playouts=16)
    with pytest.raises(ValueError, match="playouts_turn"):
        Tuning(playouts_turn=-1)
    with pytest.raises(ValueError, match="round_width"):
        Tuning(round_width=-1)
    with pytest.raises(ValueError, match="ties"):
        Tuning(ties=4)
    with pytest.raises(ValueError, match="playout_prior"):
        Tuning(playout_prior=-1)
    with pytest.raises(ValueError, match="playout_prior"):
        Tuning(playout_prior=8)


def test_a_df_pn_search_alone_starts_without_the_playouts_of_long_turns() -> None:
    """By default the playouts are the long turns' of the searches by turns
    (``Tuning.playouts_turn``): a df-pn search run alone starts without them, and with them
    where every turn has them."""
    assert Tuning().playouts and Tuning().first_playouts() == 0
    assert Tuning(playouts=4, playouts_turn=0).first_playouts() == 4
    assert Tuning().hint_stored and not Tuning().first_hint_stored()
    assert Tuning(playouts_turn=0).first_hint_stored()
    machine, maximising, _ = _seeded_deals(1, 3)[0]
    for tuning, wanted in ((Tuning(), 0), (Tuning(playouts_turn=0), Tuning().playouts)):
        kinds: list[type] = [DfpnSearch] + ([compiled.CompiledDfpn] if compiled.AVAILABLE else [])
        for kind in kinds:
            search = kind(machine, maximising, 1, SearchParams(tuning=tuning))
            assert search.playouts == wanted
            assert search.hint_stored == bool(wanted)



def _questions_by_turns(kind: type, position: Position, hint_stored: bool) -> object:
    """"value 1?" and "value 0?" by turns (as the searches by turns ask them, each reading the
    other's table, the turns doubling from 100 nodes to 3,200): the answers, the nodes in all
    and the states stored."""
    machine, maximising, root = position
    tuning = Tuning(playouts=0, playouts_turn=0, hint_stored=hint_stored)
    proofs = {target: kind(machine, maximising, target, SearchParams(tuning=tuning))
              for target in (1, 0)}
    link_questions(proofs)
    answers: dict[int, bool] = {}
    nodes, turn = 0, 100
    while len(answers) < 2 and turn <= 3_200:
        for target in (1, 0):
            if target in answers:
                continue
            proof = proofs[target]
            proof.nodes = nodes
            proof.limit_nodes(nodes + turn)
            try:
                with deep_recursion():
                    answers[target] = proof.prove(root)
            except BudgetExceeded as stopped:
                if "node limit" not in stopped.reason:
                    return stopped.reason
            nodes = proof.nodes
        turn *= 2
    return answers, nodes, [proofs[target].states for target in (1, 0)]


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_the_hint_reaches_stored_entries_alike_in_both_kernels() -> None:
    """``Tuning.hint_stored``: a state "value 0?" stored still open, which "value 1?" has
    disproved since, starts the next visit of its parent as likely proved. The two kernels
    give the same answers, node counts and table entries with it, the answers are those
    without it (a round is won by one team: rules file 000, "Goal of the Game"), and it
    changes the search somewhere."""
    changed = 0
    for position in _seeded_deals(6, 2) + _random_positions(24, 12):
        runs = [_questions_by_turns(kind, position, True)
                for kind in (DfpnSearch, compiled.CompiledDfpn)]
        assert runs[0] == runs[1], position[2].key()
        before = _questions_by_turns(compiled.CompiledDfpn, position, False)
        if isinstance(runs[0], tuple) and isinstance(before, tuple):
            assert runs[0][0] == before[0], position[2].key()
        changed += runs[0] != before
    assert changed > 0
