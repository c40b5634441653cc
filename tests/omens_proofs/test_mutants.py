"""A handful of engine mutants, each killed by the detectors (the whole run is
``python -m omen_solver.dev.mutants``; its kill table is in docs/proofs.md)."""

from __future__ import annotations

import pytest

from omen_solver.dev.mutants import ROOT, TARGETS, _digest, _run_mutant, all_mutants

SAMPLE = (
    # Law's constraint, rules file 000 "Law" and option law_binds: which placements it binds
    ("omen_solver/omens/state.py", "flip comparison", "Eq -> NotEq", "law_binds"),
    # Luck, rules file 000 "Luck": the card discarded from hand
    ("omen_solver/omens/state.py", "drop statement", "work.discard((card,))", ""),
    # Sadness, rules file 000 "Sadness": with two cards or more, the second-highest wins (the
    # vector sadness-two-cards: exactly two)
    ("omen_solver/omens/resolve.py", "flip comparison", "GtE -> Gt", "len(ordered) >= 2"),
)


def _pick(file: str, kind: str, what: str, line_has: str) -> tuple[object, str]:
    """The first mutant of this kind in ``file`` on a line holding ``line_has``."""
    lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
    for mutant, source in all_mutants():
        if (
            mutant.file == file
            and mutant.kind == kind
            and mutant.what.startswith(what)
            and line_has in lines[mutant.line - 1]
        ):
            return mutant, source()
    raise AssertionError(f"no mutant {kind} {what} in {file} on a line with {line_has!r}")


@pytest.mark.parametrize(("file", "kind", "what", "line_has"), SAMPLE)
def test_a_mutant_is_killed_and_the_engine_is_untouched(
    file: str, kind: str, what: str, line_has: str
) -> None:
    before = _digest()
    mutant, source = _pick(file, kind, what, line_has)
    _, killed, _ = _run_mutant(mutant, source, bouts=300, timeout=300)  # type: ignore[arg-type]
    assert killed, f"{mutant} survived"
    assert _digest() == before
    assert all((ROOT / target).is_file() for target in TARGETS)
