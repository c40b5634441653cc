"""Every theorem of proofs/ is proved and every broken variant refuted, each theorem checked
once (one test per theorem, in this process). Counterexample files are written to a temporary
folder, replayed with the engine as ``omen-solver omens play`` would, and compared with the
committed ones (the same query gives the same counterexample)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omen_solver.core.smt import Outcome
from omen_solver.omens.position import load_position
from omen_solver.omens.proofs.theorems.library import load_theorems
from omen_solver.omens.proofs.theorems.runner import run

PROOFS = Path(__file__).resolve().parents[2] / "proofs"
GOLDEN = PROOFS / "counterexamples"
THEOREMS = {theorem.name: theorem for theorem in load_theorems(PROOFS)}


def test_there_are_enough_theorems() -> None:
    assert len(THEOREMS) >= 20


def test_every_theorem_is_documented() -> None:
    docs = (PROOFS.parent / "docs" / "proofs.md").read_text(encoding="utf-8")
    missing = [name for name in THEOREMS if f"`{name}`" not in docs]
    assert not missing, f"docs/proofs.md does not list {missing}"


@pytest.mark.parametrize("name", sorted(THEOREMS))
def test_theorem(name: str, tmp_path: Path) -> None:
    """Proved; every broken variant refuted with a counterexample that replays and is the
    committed one."""
    report = run(THEOREMS[name], counterexamples=tmp_path)
    assert report.finding.outcome is Outcome.PROVED, report.finding
    assert report.counterexample_path is None
    assert report.variants, "every theorem has a broken variant"
    for variant in report.variants:
        assert variant.finding.outcome is Outcome.REFUTED, (variant.variant.name, variant.finding)
        path = variant.counterexample_path
        assert path is not None
        position = load_position(path)
        _, steps = position.replay()
        assert len(steps) == len(position.moves)
        text = path.read_text(encoding="utf-8")
        assert variant.variant.text in text and "THIS_FILE" in text
        assert (GOLDEN / path.name).read_text(encoding="utf-8") == text, path.name
