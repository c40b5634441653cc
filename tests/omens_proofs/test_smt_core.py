"""The game-agnostic SMT helpers (omen_solver.core.smt): ordered outcomes, the one solver
factory, unknown never read as proved, queries on both sides, evaluation of terms."""

from __future__ import annotations

import pytest
import z3

from omen_solver.core.smt import (
    Outcome,
    Possibility,
    SolverSettings,
    Verdict,
    both_sides,
    evaluate,
    make_context,
    make_solver,
    prove,
)
from omen_solver.errors import SmtUnknown


def test_outcomes_are_ordered_worst_first() -> None:
    assert Outcome.REFUTED < Outcome.UNKNOWN < Outcome.PROVED
    assert Possibility.IMPOSSIBLE < Possibility.UNKNOWN < Possibility.POSSIBLE


def test_a_true_claim_is_proved_and_a_false_one_refuted_with_a_model() -> None:
    ctx = make_context()
    x = z3.Int("x", ctx)
    assert prove(x * x >= 0, [x >= -3]).outcome is Outcome.PROVED
    verdict = prove(x < 3, [x >= 0, x <= 5])
    assert verdict.outcome is Outcome.REFUTED
    assert verdict.model is not None
    assert verdict.model.eval(x).as_long() in (3, 4, 5)


def test_unknown_is_never_proved() -> None:
    """A budget too small to decide anything gives unknown with z3's reason."""
    ctx = make_context()
    xs = [z3.Int(f"x{i}", ctx) for i in range(9)]
    facts = [z3.Distinct(*xs), *[z3.And(x >= 0, x < 9) for x in xs]]
    claim = z3.Sum(*[x * x for x in xs]) != 204
    verdict = prove(claim, facts, settings=SolverSettings(rlimit=10))
    assert verdict.outcome is Outcome.UNKNOWN
    assert verdict.reason
    with pytest.raises(SmtUnknown, match="unknown"):
        verdict.require_known("pigeons")


def test_require_known_passes_decided_verdicts_through() -> None:
    verdict = Verdict(Outcome.PROVED)
    assert verdict.require_known("x") is verdict


def test_the_solver_factory_refuses_no_budget() -> None:
    with pytest.raises(ValueError, match="positive"):
        make_solver(make_context(), SolverSettings(rlimit=0))


def test_the_same_query_gives_the_same_counterexample() -> None:
    def example() -> list[int]:
        ctx = make_context()
        xs = [z3.Int(f"x{i}", ctx) for i in range(5)]
        verdict = prove(z3.Sum(*xs) != 20, [z3.Distinct(*xs), *[x >= 0 for x in xs]])
        return [verdict.model.eval(x).as_long() for x in xs]

    assert example() == example()


def test_both_sides() -> None:
    ctx = make_context()
    x = z3.Int("x", ctx)
    solver = make_solver(ctx)
    solver.add(x > 0, x < 3)
    assert both_sides(solver, x > 0) == (Possibility.POSSIBLE, Possibility.IMPOSSIBLE)
    assert both_sides(solver, x == 1) == (Possibility.POSSIBLE, Possibility.POSSIBLE)
    assert both_sides(solver, x > 5) == (Possibility.IMPOSSIBLE, Possibility.POSSIBLE)


def test_evaluate_reads_booleans_and_integers_in_one_pass() -> None:
    ctx = make_context()
    x, p = z3.Int("x", ctx), z3.Bool("p", ctx)
    pairs = [(x, z3.IntVal(-7, ctx)), (p, z3.BoolVal(True, ctx))]
    assert evaluate([x + 1, z3.Not(p), x * 3, p], pairs, ctx) == [-6, False, -21, True]
    assert evaluate([], pairs, ctx) == []
