"""Theorems about the rules, their broken variants, and the runner.

A theorem has a statement in plain words, the rule lines it rests on, a query, and broken
variants: deliberately wrong rules under which the same query must be refuted, so that the
proof is known not to be vacuous. Two kinds:

* :class:`~omen_solver.omens.proofs.bout_theorem.BoutTheorem`: a z3 query over the whole-bout
  model (every card, seat and option setting at once). Proved when the negation of the claim
  is unsatisfiable; a counterexample is a bout whose moves a person can replay with
  ``omen-solver omens play``.
* :class:`~omen_solver.omens.proofs.enumeration.EnumerationTheorem`: a bounded exhaustive check
  of the engine's game tree, for properties of whole bouts with immediate effects; it states
  exactly what it enumerates and counts the cases.

:func:`run` checks a theorem and all its variants and returns a :class:`Report`. A z3
``unknown`` is reported as ``unknown`` with z3's reason, never as proved.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import z3

from omen_solver.core.smt import DEFAULT_SETTINGS, Outcome, SolverSettings
from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.counterexample import Counterexample

__all__ = [
    "RULE_FILES",
    "Finding",
    "Query",
    "Report",
    "RuleRef",
    "Theorem",
    "Variant",
    "VariantReport",
    "check_definition",
    "rule",
    "run",
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


@dataclass(frozen=True)
class VariantReport:
    variant: Variant
    finding: Finding
    counterexample_path: Path | None = None

    @property
    def ok(self) -> bool:
        """A broken variant is as expected when it is refuted."""
        return self.finding.outcome is Outcome.REFUTED


@dataclass(frozen=True)
class Report:
    """A theorem's result and its variants' results."""

    theorem: Theorem
    finding: Finding
    variants: tuple[VariantReport, ...]
    counterexample_path: Path | None = None

    @property
    def ok(self) -> bool:
        return self.finding.outcome is Outcome.PROVED and all(v.ok for v in self.variants)

    @property
    def seconds(self) -> float:
        return self.finding.seconds + sum(v.finding.seconds for v in self.variants)

    def to_json(self) -> dict[str, Any]:
        finding = self.finding
        data: dict[str, Any] = {
            "name": self.theorem.name,
            "title": self.theorem.title,
            "method": self.theorem.method,
            "status": finding.outcome.name.lower(),
            "seconds": round(finding.seconds, 3),
            "rests_on": [str(r) for r in self.theorem.rests_on],
        }
        if finding.reason:
            data["reason"] = finding.reason
        if finding.cases is not None:
            data["cases"] = finding.cases
        if finding.note:
            data["note"] = finding.note
        if self.counterexample_path is not None:
            data["counterexample"] = str(self.counterexample_path)
        data["broken"] = [
            {
                "name": v.variant.name,
                "rule": v.variant.text,
                "status": v.finding.outcome.name.lower(),
                "seconds": round(v.finding.seconds, 3),
                **({"cases": v.finding.cases} if v.finding.cases is not None else {}),
                **({"reason": v.finding.reason} if v.finding.reason else {}),
                **(
                    {"counterexample": str(v.counterexample_path)}
                    if v.counterexample_path is not None
                    else {}
                ),
            }
            for v in self.variants
        ]
        data["ok"] = self.ok
        return data


def run(
    theorem: Theorem,
    *,
    settings: SolverSettings = DEFAULT_SETTINGS,
    counterexamples: Path | None = None,
) -> Report:
    """Check a theorem and every broken variant; write counterexamples under
    ``counterexamples`` (``<theorem>.toml`` and ``<theorem>--<variant>.toml``)."""
    finding = theorem.check(None, settings)
    path = _write(theorem, None, finding, counterexamples)
    reports = []
    for variant in theorem.variants():
        result = theorem.check(variant, settings)
        reports.append(
            VariantReport(variant, result, _write(theorem, variant, result, counterexamples))
        )
    return Report(theorem, finding, tuple(reports), path)


def _write(
    theorem: Theorem, variant: Variant | None, finding: Finding, folder: Path | None
) -> Path | None:
    example = finding.counterexample
    if folder is None or example is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    stem = theorem.name if variant is None else f"{theorem.name}--{variant.name}"
    path = folder / f"{stem}.toml"
    if variant is None:
        title = f"Counterexample to {theorem.name}: {theorem.title}"
        lead = f"The theorem {theorem.name!r} fails here: {theorem.statement}"
    else:
        title = f"{theorem.name} under the broken rule {variant.name!r}"
        lead = (
            f"Under the deliberately wrong rule '{variant.text}', the theorem "
            f"{theorem.name!r} fails on this bout. The engine plays the real rules, so a "
            f"replay shows what the rules actually do here. The theorem: {theorem.statement}"
        )
    path.write_text(example.to_toml(title, lead), encoding="utf-8")
    return path
