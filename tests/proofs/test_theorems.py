"""Every theorem of proofs/ is proved and every broken variant refuted, through the CLI.

The whole suite runs once per test session (``omen-solver prove --json``, in process); each
theorem is then one test. Counterexample files are written to a temporary folder and each is
replayed with the engine, as ``omen-solver omens play`` would.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.omens.position import load_position
from omen_solver.omens.smt.library import load_theorems

PROOFS = Path(__file__).resolve().parents[2] / "proofs"
GOLDEN = PROOFS / "counterexamples"
NAMES = [theorem.name for theorem in load_theorems(PROOFS)]


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("counterexamples")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = main(["prove", "--dir", str(PROOFS), "--counterexamples", str(out), "--json"])
    reports = json.loads(buffer.getvalue())
    return {"status": status, "reports": {r["name"]: r for r in reports}, "out": out}


def test_there_are_enough_theorems() -> None:
    assert len(NAMES) >= 20


def test_every_theorem_is_documented() -> None:
    docs = (PROOFS.parent / "docs" / "proofs.md").read_text(encoding="utf-8")
    missing = [name for name in NAMES if f"`{name}`" not in docs]
    assert not missing, f"docs/proofs.md does not list {missing}"


def test_the_suite_passes(suite: dict[str, Any]) -> None:
    """Exit status 0: every theorem proved, every broken variant refuted."""
    assert suite["status"] == 0
    assert sorted(suite["reports"]) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_theorem_is_proved(suite: dict[str, Any], name: str) -> None:
    report = suite["reports"][name]
    assert report["status"] == "proved", report
    assert report["seconds"] >= 0
    assert "counterexample" not in report


@pytest.mark.parametrize("name", NAMES)
def test_broken_variants_are_refuted_with_replayable_counterexamples(
    suite: dict[str, Any], name: str
) -> None:
    report = suite["reports"][name]
    assert report["broken"], "every theorem has a broken variant"
    for variant in report["broken"]:
        assert variant["status"] == "refuted", variant
        path = Path(variant["counterexample"])
        position = load_position(path)
        _, steps = position.replay()
        assert len(steps) == len(position.moves)
        text = path.read_text(encoding="utf-8")
        assert variant["rule"] in text
        assert "THIS_FILE" in text
        # the same query gives the same counterexample: the committed file is current
        assert (GOLDEN / path.name).read_text(encoding="utf-8") == text, path.name
