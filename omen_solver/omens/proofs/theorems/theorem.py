"""What a theorem is: a statement, the rule lines it rests on, a query, broken variants.

A theorem has a statement in plain words, the rule lines it rests on, a query, and broken
variants: deliberately wrong rules under which the same query must be refuted, so that the
proof is known not to be vacuous. Two kinds:

* :class:`~omen_solver.omens.proofs.theorems.bout_theorem.BoutTheorem`: a z3 query over the
  whole-bout model (every card, seat and option setting at once). Proved when the negation of
  the claim is unsatisfiable; a counterexample is a bout whose moves a person can replay with
  ``omen-solver omens play``.
* :class:`~omen_solver.omens.proofs.enumeration.walk.EnumerationTheorem`: a bounded exhaustive
  check of the engine's game tree, for properties of whole bouts with immediate effects; it
  states exactly what it enumerates and counts the cases.

:func:`~omen_solver.omens.proofs.theorems.runner.run` checks a theorem and its variants. A z3
``unknown`` is reported as ``unknown`` with z3's reason, never as proved.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import z3

from omen_solver.core.smt import Outcome, SolverSettings
from omen_solver.omens.proofs.counterexamples import Counterexample
from omen_solver.omens.proofs.model.broken import Broken

__all__ = [
    "RULE_FILES",
    "Finding",
    "Query",
    "RuleRef",
    "Theorem",
    "Variant",
    "check_definition",
    "rule",
]

RULE_FILES: Final = {
    "000": "000_03e827d9adbd8afe.txt",
    "cards": "omens-cards.md",
}
"""Short names of the rule files (``/work/shared/rules/`` in the project's rule set)."""


@dataclass(frozen=True)
class RuleRef:
    """A rule line a theorem rests on: the file and its section."""

    file: str
    section: str

    def __str__(self) -> str:
        return f"{self.file}, {self.section!r}"


def rule(file: str, section: str) -> RuleRef:
    """``rule("000", "Mirror")``: a section of a rule file, by short name or file name."""
    return RuleRef(RULE_FILES.get(file, file), section)


@dataclass(frozen=True)
class Query:
    """``assumptions -> claim``, over one build of the model."""

    claim: z3.BoolRef
    assumptions: Sequence[z3.BoolRef] = ()


@dataclass(frozen=True)
class Variant:
    """A broken variant: a deliberately wrong rule under which the theorem must be refuted."""

    name: str
    text: str
    broken: tuple[Broken, ...] = ()
    """For z3 theorems: the broken rules of the model."""
    payload: Any = None
    """For enumeration theorems: the mutated rule (see :mod:`~.enumeration`)."""


@dataclass(frozen=True)
class Finding:
    """The result of checking a theorem, or one of its variants."""

    outcome: Outcome
    seconds: float
    reason: str = ""
    """z3's ``reason_unknown()``, or why an enumeration did not finish."""
    counterexample: Counterexample | None = None
    cases: int | None = None
    """For enumerations: how many cases were checked."""
    note: str = ""


class Theorem(abc.ABC):
    """What every theorem offers the runner and the ``prove`` command."""

    name: str
    title: str
    statement: str
    rests_on: tuple[RuleRef, ...]
    method: str

    @abc.abstractmethod
    def variants(self) -> tuple[Variant, ...]:
        """The broken variants (at least one)."""

    @abc.abstractmethod
    def check(self, variant: Variant | None, settings: SolverSettings) -> Finding:
        """Check the theorem (``variant=None``) or one broken variant."""

    @abc.abstractmethod
    def query_text(self) -> str:
        """The query, for people: source of the query or the enumerated space."""


def check_definition(name: str, statement: str, rests_on: Sequence[RuleRef], variants: int) -> None:
    """Definition mistakes fail when the theorem is defined, not when it is run."""
    if not name or name != name.lower() or " " in name:
        raise ValueError(f"theorem name {name!r}: use lower-case words joined by '-'")
    if not statement.strip():
        raise ValueError(f"theorem {name}: the statement in plain words is required")
    if not rests_on:
        raise ValueError(f"theorem {name}: name the rule lines it rests on")
    if variants < 1:
        raise ValueError(f"theorem {name}: give at least one broken variant that must be refuted")
