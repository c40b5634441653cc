"""The proof-graph extractor of the proof-size benchmark (``benchmarks/proof_size.py``).

A proof that a round is worth 1 (or 0) for a team keeps one choice of the side that wins at
each of its decisions and every choice of the others (rules file 000, "Goal of the Game": a
team wins a round when one of its players has 1 card left; ``round.end.one_card``); the
extractor builds one from a solved search's tables, and :func:`check_proof` checks it against
the rules' successors, independently of the tables.
"""

from __future__ import annotations

import random

from benchmarks.proof_size import (
    Proof,
    Questions,
    check_proof,
    run_search,
    smallest_proof,
    table_proves,
)
from omen_solver.core.budget import Budget
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.dfpn import DfpnSearch
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import SearchParams
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.spec import compile_table
from tests.omens_kernel.helpers import random_small


def _positions(seed: int, count: int) -> list[tuple[Machine, list[bool], KState]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = random_small(rng, 4, 2)
        spec = compile_table(state.table, state.teams())
        maximising = [spec.team_of[seat] == 0 for seat in range(4)]
        out.append((Machine(spec), maximising, from_engine(spec, state)))
    return out


def test_proofs_from_alpha_beta_and_dfpn_tables_are_proofs() -> None:
    """From alpha-beta's proven bounds and from df-pn's proof numbers, the proof extracted for
    a round worth 0 or 1 is a proof by the rules, smaller than the search, and the smallest
    proof tree the two tables together lead to is no larger than either's."""
    checked = 0
    for machine, maximising, root in _positions(11, 40):
        alpha_beta = KernelSearch(machine, maximising, SearchParams(budget=Budget(20_000)))
        value = alpha_beta.search(root, 0, 1)
        if value not in (0, 1):
            continue
        target = int(value)
        proof = DfpnSearch(machine, maximising, target, SearchParams(budget=Budget(20_000)))
        assert proof.prove(root) is True
        found: list[Proof] = []
        for search in (alpha_beta, proof):
            extracted = smallest_proof(machine, maximising, root, target, table_proves(search))
            assert extracted is not None
            check_proof(machine, maximising, root, target, extracted)
            assert extracted.size <= max(search.nodes, 1) + extracted.leaves
            found.append(extracted)
        hints = [table_proves(search) for search in (alpha_beta, proof)]
        both = smallest_proof(machine, maximising, root, target,
                              lambda state, v, hints=hints: any(h(state, v) for h in hints))
        assert both is not None and both.tree <= min(p.tree for p in found)
        check_proof(machine, maximising, root, target, both)
        checked += 1
    assert checked >= 30


def test_a_table_that_proves_nothing_gives_no_proof_of_a_deep_round() -> None:
    """The tables are only hints: without them no choice of the winning side is tried, so a
    round that needs a choice gives no proof, and a wrong value gives none either."""
    for machine, maximising, root in _positions(12, 10):
        value = KernelSearch(machine, maximising).search(root, 0, 1)
        if value not in (0, 1):
            continue
        wrong = smallest_proof(machine, maximising, root, 1 - int(value), lambda s, v: True)
        assert wrong is None


def test_questions_by_turns_give_alpha_betas_values_with_a_proof() -> None:
    """The benchmark's df-pn questions by turns (``Questions``) answer alpha-beta's value (rules
    file 000, "End of a Round", ``round.end.one_card``) in both kernels, where neither side
    wins for sure none, and the proof their tables hold (none for a 0 settled by disproving
    "value 1?") holds."""
    proved = 0
    for machine, maximising, root in _positions(13, 24):
        value = KernelSearch(machine, maximising, SearchParams(budget=Budget(20_000))).search(
            root, 0, 1)
        runs = [run_search(machine, maximising, root, "questions+defaults", 20_000,
                           pure_python=pure_python) for pure_python in (True, False)]
        assert [(run.value, run.nodes, run.proof) for run in runs] == [
            (runs[0].value, runs[0].nodes, runs[0].proof)] * 2
        assert runs[0].value == (value if value in (0, 1) else None)
        if value not in (0, 1):
            continue
        questions = Questions(machine, maximising, SearchParams(budget=Budget(20_000)), True)
        assert questions.search(root, 0, 1) == value
        proof = smallest_proof(machine, maximising, root, int(value), table_proves(questions))
        if proof is not None:
            check_proof(machine, maximising, root, int(value), proof)
            proved += 1
    assert proved >= 10
