"""Theorems about the rules, their broken variants, and the runner.

A theorem has a statement in plain words, the rule lines it rests on, a query, and broken
variants: deliberately wrong rules under which the same query must be refuted, so that the
proof is known not to be vacuous. Two kinds:

* :class:`SmtTheorem`: a z3 query over the symbolic model (every card, seat and option setting
  at once). Proved when the negation of the claim is unsatisfiable; a counterexample is turned
  into a position file a person can replay with ``omen-solver omens play``.
* :class:`~omen_solver.omens.proofs.enumeration.EnumerationTheorem`: a bounded exhaustive check
  of the engine's game tree, for properties of whole bouts with immediate effects; it states
  exactly what it enumerates and counts the cases.

:func:`run` checks a theorem and all its variants and returns a :class:`Report`. A z3
``unknown`` is reported as ``unknown`` with z3's reason, never as proved.
"""

from __future__ import annotations

import abc
import inspect
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import z3

from omen_solver.core.files import atomic_write
from omen_solver.core.smt import (
    DEFAULT_SETTINGS,
    Outcome,
    SolverSettings,
    Verdict,
    prove,
    smallest,
)
from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.counterexample import Counterexample, from_model, replay_facts
from omen_solver.omens.proofs.model import SymbolicModel, build_model

__all__ = [
    "RULE_FILES",
    "Finding",
    "Query",
    "Report",
    "RuleRef",
    "SmtTheorem",
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
    """``assumptions -> claim``, over one :class:`SymbolicModel`.

    ``lemmas`` split a proof into steps: each lemma is proved in turn over the whole model
    (with the lemmas before it assumed), then the claim from the lemmas alone (or, failing
    that, with the model too). Broken variants are checked on the claim itself, without the
    lemmas, so their counterexamples are counterexamples to the claim.
    """

    claim: z3.BoolRef
    assumptions: Sequence[z3.BoolRef] = ()
    lemmas: Sequence[z3.BoolRef] = ()


@dataclass(frozen=True)
class Variant:
    """A broken variant: a deliberately wrong rule under which the theorem must be refuted."""

    name: str
    text: str
    broken: tuple[Broken, ...] = ()
    """For SMT theorems: the broken rules of the model."""
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


QueryBuilder = Callable[[SymbolicModel], Query]


@dataclass(frozen=True)
class SmtTheorem(Theorem):
    """A theorem proved by z3 over the symbolic model of the end of a bout."""

    name: str
    title: str
    statement: str
    rests_on: tuple[RuleRef, ...]
    query: QueryBuilder
    broken: tuple[Broken, ...]
    hands: bool = False
    """Build the model with the hands and the round end."""
    method: str = field(default="z3", init=False)

    def __post_init__(self) -> None:
        check_definition(self.name, self.statement, self.rests_on, len(self.broken))

    def variants(self) -> tuple[Variant, ...]:
        return tuple(Variant(b.value, b.text, (b,)) for b in self.broken)

    def query_text(self) -> str:
        return textwrap.dedent(inspect.getsource(self.query))

    def verdict(
        self, model: SymbolicModel, settings: SolverSettings, *, lemmas: bool = False
    ) -> Verdict:
        """Check the query on a built model (through its lemmas if asked)."""
        query = self.query(model)
        assumptions = [*model.base(), *query.assumptions]
        if not lemmas or not query.lemmas:
            return prove(query.claim, assumptions, settings=settings)
        return self._through_lemmas(query, assumptions, settings)

    @staticmethod
    def _through_lemmas(
        query: Query, assumptions: list[z3.BoolRef], settings: SolverSettings
    ) -> Verdict:
        """Prove the lemmas in turn, then the claim from the lemmas alone, then with the
        query's assumptions, then with the whole model (a proof from fewer facts is still a
        proof: the lemmas follow from the model); if the whole claim does not go through that
        way, each of its conjuncts in turn. The lighter attempts get a tenth of the resource
        limit: they either succeed quickly or give way."""
        seconds = 0.0
        proved: list[z3.BoolRef] = []
        for number, lemma in enumerate(query.lemmas, start=1):
            verdict = prove(lemma, [*assumptions, *proved], settings=settings)
            seconds += verdict.seconds
            if not verdict.proved:
                what = (
                    "refuted: the proof does not go through"
                    if verdict.refuted
                    else f"unknown ({verdict.reason})"
                )
                return Verdict(Outcome.UNKNOWN, f"lemma {number} {what}", seconds=seconds)
            proved.append(lemma)
        light = replace(settings, rlimit=max(1, settings.rlimit // 10))
        contexts = [
            (proved, light),
            ([*query.assumptions, *proved], light),
            ([*assumptions, *proved], settings),
        ]
        claim = query.claim
        for context, _ in contexts:
            # the whole claim at once first (one check), with a light budget
            verdict = prove(claim, context, settings=light)
            seconds += verdict.seconds
            if verdict.proved:
                return Verdict(Outcome.PROVED, seconds=seconds)
        parts = list(claim.children()) if z3.is_and(claim) else [claim]
        for part in parts:
            for context, budget in contexts:
                verdict = prove(part, context, settings=budget)
                seconds += verdict.seconds
                if verdict.proved:
                    break
            else:
                if verdict.refuted:
                    return Verdict(Outcome.REFUTED, model=verdict.model, seconds=seconds)
                return Verdict(Outcome.UNKNOWN, verdict.reason, seconds=seconds)
        return Verdict(Outcome.PROVED, seconds=seconds)

    def check(self, variant: Variant | None, settings: SolverSettings) -> Finding:
        """The theorem is proved through its lemmas; a broken variant is refuted, with the
        smallest replayable counterexample searched first (one model build for all)."""
        broken = () if variant is None else variant.broken
        started = time.perf_counter()
        model = build_model(broken, hands=self.hands)
        if variant is not None:
            example = self._replayable_counterexample(model, settings)
            if example is not None:
                return Finding(
                    Outcome.REFUTED, time.perf_counter() - started, counterexample=example
                )
        verdict = self.verdict(model, settings, lemmas=variant is None)
        if verdict.outcome is not Outcome.REFUTED:
            return Finding(verdict.outcome, time.perf_counter() - started, verdict.reason)
        example = None if variant is not None else self._replayable_counterexample(model, settings)
        if example is None:
            query = self.query(model)
            facts = [*model.base(), *query.assumptions, z3.Not(query.claim)]
            least = smallest(facts, _shown(model), settings=settings)
            example = from_model(model, least or verdict.model, replayable=False)
        return Finding(Outcome.REFUTED, time.perf_counter() - started, counterexample=example)

    def _replayable_counterexample(
        self, model: SymbolicModel, settings: SolverSettings
    ) -> Counterexample | None:
        """The smallest counterexample that plays out as an ordinary bout (fewest players
        first), if there is one; ``None`` otherwise."""
        query = self.query(model)
        base = [*model.base(), *query.assumptions, *replay_facts(model)]
        for players in (4, 5, 6):
            facts = [*base, model.bout.players == players]
            verdict = prove(query.claim, facts, settings=settings)
            if verdict.outcome is Outcome.REFUTED:
                least = smallest([*facts, z3.Not(query.claim)], _shown(model), settings=settings)
                example = from_model(model, least or verdict.model, replayable=True)
                if example.replayable:
                    return example
        return None


def _shown(model: SymbolicModel) -> list[z3.ArithRef]:
    """What a counterexample file shows, in the order it is made smallest: the options (each
    at its default if it can be), the cards in play and where they lie, the hands and the
    choices."""
    rules, b = model.rules, model.bout
    terms: list[z3.ArithRef] = [
        z3.If(var == rules.index(name, rules.specs[name].default), 0, 1)
        for name, var in rules.vars.items()
    ]
    terms += [*b.value, *b.before, *b.by, b.leader]
    if model.hands is not None:
        hands = model.hands
        terms += [z3.If(p, 1, 0) for row in hands.present for p in row]
        terms += [v for row in hands.value for v in row]
        terms += [hands.luck_pick, hands.zero_pick, hands.top]
    return terms


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
    atomic_write(path, example.to_toml(title, lead))
    return path
