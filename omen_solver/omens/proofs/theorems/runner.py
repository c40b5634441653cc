"""Checking a theorem and its broken variants: :func:`run` returns a :class:`Report` and writes
each counterexample as a position file (``<theorem>--<variant>.toml``) a person can replay with
``omen-solver omens play``; the ``prove`` command runs it once per theorem, in parallel."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omen_solver.core.files import atomic_write
from omen_solver.core.smt import DEFAULT_SETTINGS, Outcome, SolverSettings
from omen_solver.omens.proofs.theorems.theorem import Finding, Theorem, Variant

__all__ = ["Report", "VariantReport", "run"]


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
