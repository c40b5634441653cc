"""A handful of engine mutants, each killed by the detectors (the whole run is
``python -m omen_solver.omens.smt.mutants``; its kill table is in docs/proofs.md)."""

from __future__ import annotations

import pytest

from omen_solver.omens.smt.mutants import ROOT, TARGETS, _digest, _run_mutant, all_mutants

SAMPLE = (
    # Law's constraint, rules file 000 "Law": "lower or higher than this card's value"
    ("omen_solver/omens/state.py", "flip comparison", "Gt -> GtE"),
    # Luck, rules file 000 "Luck": the card discarded from hand
    ("omen_solver/omens/state.py", "drop statement", "work.discard((card,))"),
    # Sadness, rules file 000 "Sadness": with two cards or more, the second-highest wins
    ("omen_solver/omens/resolve.py", "flip comparison", "GtE -> Gt"),
)


def _pick(file: str, kind: str, what: str) -> tuple[object, str]:
    for mutant, source in all_mutants():
        if mutant.file == file and mutant.kind == kind and mutant.what.startswith(what):
            return mutant, source()
    raise AssertionError(f"no mutant {kind} {what} in {file}")


@pytest.mark.parametrize(("file", "kind", "what"), SAMPLE)
def test_a_mutant_is_killed_and_the_engine_is_untouched(file: str, kind: str, what: str) -> None:
    before = _digest()
    mutant, source = _pick(file, kind, what)
    _, killed, _ = _run_mutant(mutant, source, bouts=300, timeout=300)  # type: ignore[arg-type]
    assert killed, f"{mutant} survived"
    assert _digest() == before
    assert all((ROOT / target).is_file() for target in TARGETS)
