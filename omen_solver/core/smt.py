"""Game-agnostic SMT helpers: one solver factory, ordered outcomes, and queries on both sides.

Modelled on CrossHair's ``statespace.py`` / ``z3util.py``:

* every solver is built by :func:`make_solver`, with a fixed seed, a wall-clock timeout and a
  deterministic resource limit (``rlimit``), in a fresh :class:`z3.Context` per query so that
  a query's answer (and the counterexample z3 picks) does not depend on what ran before it;
* the outcome of a proof is an ordered :class:`Outcome` (``REFUTED < UNKNOWN < PROVED``);
  ``UNKNOWN`` carries z3's ``reason_unknown()`` and is never read as proved
  (:meth:`Verdict.require_known` raises :class:`SmtUnknown`);
* :func:`is_possible` and :func:`both_sides` ask whether a formula *can* hold and whether its
  negation can, so a claim is never checked from one side only.

The resource limit is the budget that decides results: it counts z3's internal steps and is
the same on every machine, so a query that needs more than it comes back ``UNKNOWN`` everywhere.
The timeout is only a safety net for a query that would otherwise run for a very long time.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import z3

from omen_solver.errors import SmtUnknown

__all__ = [
    "BIT_BLAST",
    "DEFAULT_SETTINGS",
    "STRATEGIES",
    "Outcome",
    "Possibility",
    "SolverSettings",
    "Verdict",
    "both_sides",
    "check",
    "evaluate",
    "is_possible",
    "make_context",
    "make_optimizer",
    "make_solver",
    "model_bool",
    "model_int",
    "prove",
    "raise_if_interrupted",
    "smallest",
]


class Outcome(enum.IntEnum):
    """The outcome of a proof attempt, ordered from worst to best for the claim."""

    REFUTED = 0
    """A counterexample exists: the claim is false (the model of the negation is kept)."""
    UNKNOWN = 1
    """z3 gave up (resource limit, timeout, incompleteness): nothing is known."""
    PROVED = 2
    """The negation of the claim is unsatisfiable under the assumptions: the claim holds."""


class Possibility(enum.IntEnum):
    """Whether a formula can hold, ordered: impossible < unknown < possible."""

    IMPOSSIBLE = 0
    """Unsatisfiable under the assumptions."""
    UNKNOWN = 1
    """z3 gave up; it may or may not be possible."""
    POSSIBLE = 2
    """Satisfiable: a model exists."""


@dataclass(frozen=True, slots=True)
class SolverSettings:
    """The settings every solver is built with."""

    seed: int = 0
    """z3's random seed (``random_seed``): fixed, so runs are reproducible."""
    timeout_ms: int = 120_000
    """A wall-clock safety net per ``check()`` call, in milliseconds."""
    rlimit: int = 200_000_000
    """z3's deterministic resource limit per ``check()`` call (0 would mean none)."""

    def describe(self) -> str:
        return f"seed {self.seed}, rlimit {self.rlimit:,} per check, timeout {self.timeout_ms} ms"


DEFAULT_SETTINGS: Final = SolverSettings()


def make_context() -> z3.Context:
    """A fresh z3 context: terms built in it do not share state with any other query."""
    return z3.Context()


BIT_BLAST: Final = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "bit-blast", "sat")
"""The tactics of a bit-blasting solver: bit-vector queries (the whole-bout model's masks) are
simplified, turned into a SAT problem and solved by z3's SAT solver, which on these queries is
an order of magnitude faster than the default solver."""


def make_solver(
    ctx: z3.Context, settings: SolverSettings = DEFAULT_SETTINGS, *, bit_blast: bool = False
) -> z3.Solver:
    """The one place solvers are built: fixed seed, timeout and deterministic resource limit
    (``bit_blast``: the :data:`BIT_BLAST` tactics instead of z3's default solver)."""
    solver = z3.Then(*BIT_BLAST, ctx=ctx).solver() if bit_blast else z3.Solver(ctx=ctx)
    _configure(solver, settings)
    return solver


def make_optimizer(ctx: z3.Context, settings: SolverSettings = DEFAULT_SETTINGS) -> z3.Optimize:
    """The optimizer (for :func:`smallest`), with the same settings as every solver."""
    optimizer = z3.Optimize(ctx=ctx)
    _configure(optimizer, settings)
    return optimizer


def _configure(solver: Any, settings: SolverSettings) -> None:
    if settings.rlimit <= 0 or settings.timeout_ms <= 0:
        raise ValueError(f"solver settings: rlimit and timeout_ms must be positive, got {settings}")
    solver.set("random_seed", settings.seed)
    solver.set("timeout", settings.timeout_ms)
    solver.set("rlimit", settings.rlimit)


@dataclass(frozen=True)
class Verdict:
    """The answer to a proof query: the outcome, z3's reason when unknown, the counterexample
    when refuted, and the seconds the check took."""

    outcome: Outcome
    reason: str = ""
    model: Any = None
    """A :class:`z3.ModelRef` of the negated claim when ``REFUTED``; ``None`` otherwise."""
    seconds: float = 0.0

    @property
    def proved(self) -> bool:
        return self.outcome is Outcome.PROVED

    @property
    def refuted(self) -> bool:
        return self.outcome is Outcome.REFUTED

    def require_known(self, what: str) -> Verdict:
        """Return self, or raise :class:`SmtUnknown` if z3 could not decide."""
        if self.outcome is Outcome.UNKNOWN:
            raise SmtUnknown(what, self.reason)
        return self


INTERRUPTED_REASONS: Final = ("interrupted",)
"""Words of z3's ``reason_unknown()`` when a check was stopped by Ctrl-C: z3 catches SIGINT
itself while it checks, so Python never sees the signal."""


def raise_if_interrupted(reason: str) -> None:
    """Turn z3's "interrupted from keyboard" back into :class:`KeyboardInterrupt`, so that an
    interrupted check stops the command (exit 130) instead of reading as ``unknown`` or, worse,
    letting the next strategy prove the claim."""
    if any(word in reason.lower() for word in INTERRUPTED_REASONS):
        raise KeyboardInterrupt(reason)


def check(solver: z3.Solver, *assumed: z3.BoolRef) -> tuple[Possibility, str]:
    """Run ``solver.check(*assumed)``; unknown comes back with z3's reason (Ctrl-C during the
    check raises :class:`KeyboardInterrupt`)."""
    result = solver.check(*assumed)
    if result == z3.sat:
        return Possibility.POSSIBLE, ""
    if result == z3.unsat:
        return Possibility.IMPOSSIBLE, ""
    reason = solver.reason_unknown() or "unknown"
    raise_if_interrupted(reason)
    return Possibility.UNKNOWN, reason


STRATEGIES: Final = ("asserted", "assumed")
"""The two ways :func:`prove` poses a query, in the order tried. ``asserted``: the negated
claim is asserted with the assumptions, so z3 preprocesses the whole query (it simplifies
case-heavy queries a great deal). ``assumed``: the negated claim is passed to ``check()`` as
an assumption literal and left as written (sums of many 0/1 terms stay linear instead of
being expanded into cases). On the queries of this project each strategy decides in well
under a second some query on which the other runs out of its budget."""


def prove(
    claim: z3.BoolRef,
    assumptions: Iterable[z3.BoolRef] = (),
    *,
    settings: SolverSettings = DEFAULT_SETTINGS,
    bit_blast: bool = False,
) -> Verdict:
    """Prove ``assumptions -> claim``: refute its negation.

    ``unsat`` of ``assumptions & not claim`` is a proof; ``sat`` is a counterexample (kept in
    the verdict); anything else is ``UNKNOWN`` with z3's reason, never a proof. Each strategy of
    :data:`STRATEGIES` is tried in turn with an equal share of the resource limit, each on a
    solver from :func:`make_solver`, so the answer is the same on every run.
    """
    facts = list(assumptions)
    strategies = ("bit-blasted",) if bit_blast else STRATEGIES
    share = replace(settings, rlimit=max(1, settings.rlimit // len(strategies)))
    seconds = 0.0
    reasons = []
    for strategy in strategies:
        solver = make_solver(claim.ctx, share, bit_blast=bit_blast)
        solver.add(*facts)
        started = time.perf_counter()
        if strategy != "assumed":
            solver.add(z3.Not(claim))
            possibility, reason = check(solver)
        else:
            possibility, reason = check(solver, z3.Not(claim))
        seconds += time.perf_counter() - started
        if possibility is Possibility.IMPOSSIBLE:
            return Verdict(Outcome.PROVED, seconds=seconds)
        if possibility is Possibility.POSSIBLE:
            return Verdict(Outcome.REFUTED, model=solver.model(), seconds=seconds)
        reasons.append(f"{strategy}: {reason}")
    return Verdict(Outcome.UNKNOWN, reason="; ".join(reasons), seconds=seconds)


def smallest(
    facts: Iterable[z3.BoolRef],
    terms: Sequence[z3.ArithRef],
    *,
    settings: SolverSettings = DEFAULT_SETTINGS,
) -> Any:
    """The model of ``facts`` whose ``terms`` are lexicographically smallest, or ``None`` if
    there is none or z3 gives up.

    A counterexample z3 happens to find can depend on the path its search took, and that path
    can depend on what else ran in the process; the lexicographically smallest one cannot, so
    counterexamples are reported this way (and small values read well).
    """
    facts = list(facts)
    if not facts:
        raise ValueError("smallest: no facts to satisfy")
    optimizer = make_optimizer(facts[0].ctx, settings)
    optimizer.set("priority", "lex")
    optimizer.add(*facts)
    for term in terms:
        optimizer.minimize(term)
    result = optimizer.check()
    if result == z3.unknown:
        raise_if_interrupted(optimizer.reason_unknown() or "")
    if result != z3.sat:
        return None
    return optimizer.model()


def is_possible(solver: z3.Solver, formula: z3.BoolRef) -> Possibility:
    """Whether ``formula`` can hold together with what ``solver`` already asserts (asserted
    in a scope that is popped afterwards)."""
    solver.push()
    try:
        solver.add(formula)
        return check(solver)[0]
    finally:
        solver.pop()


def both_sides(solver: z3.Solver, formula: z3.BoolRef) -> tuple[Possibility, Possibility]:
    """``(is_possible(formula), is_possible(not formula))``: a formula is forced exactly when
    the first is ``POSSIBLE`` and the second ``IMPOSSIBLE``."""
    return is_possible(solver, formula), is_possible(solver, z3.Not(formula))


def model_int(model: Any, term: z3.ArithRef) -> int:
    """The value of an integer term in a model (unconstrained terms read as z3's default)."""
    value = model.eval(term, model_completion=True)
    return int(value.as_long())


def model_bool(model: Any, term: z3.BoolRef) -> bool:
    """The value of a boolean term in a model."""
    return bool(z3.is_true(model.eval(term, model_completion=True)))


INT_BITS: Final = 24
"""Integers read back by :func:`evaluate` must lie in ``[-2**23, 2**23)``."""


def evaluate(
    terms: Sequence[z3.ExprRef],
    assignment: Sequence[tuple[z3.ExprRef, z3.ExprRef]],
    ctx: z3.Context,
) -> list[int | bool]:
    """The values of ``terms`` (booleans and small integers) when the constants of
    ``assignment`` take the given values: no solving, one pass of z3's model evaluator.

    The terms are packed into one bit-vector so that their shared sub-terms are evaluated once
    (evaluating them one by one costs a walk of the whole term graph each). Constants not in
    ``assignment`` take z3's default (model completion).
    """
    model = z3.Model(ctx)
    for constant, value in assignment:
        model.update_value(constant, value)
    offset = 1 << (INT_BITS - 1)
    parts: list[z3.BitVecRef] = []
    for term in terms:
        if z3.is_bool(term):
            parts.append(z3.If(term, z3.BitVecVal(1, 1, ctx), z3.BitVecVal(0, 1, ctx)))
        elif z3.is_int(term):
            parts.append(z3.Int2BV(term + offset, INT_BITS))
        else:
            raise TypeError(f"evaluate: {term} is neither a boolean nor an integer term")
    if not parts:
        return []
    packed = parts[0] if len(parts) == 1 else z3.Concat(*parts)
    bits = model.eval(packed, model_completion=True)
    if not z3.is_bv_value(bits):
        raise ValueError(f"evaluate: the terms did not reduce to constants ({bits})")
    number = bits.as_long()
    values: list[int | bool] = []
    for term in reversed(terms):
        if z3.is_bool(term):
            values.append(bool(number & 1))
            number >>= 1
        else:
            values.append((number & ((1 << INT_BITS) - 1)) - offset)
            number >>= INT_BITS
    values.reverse()
    return values
