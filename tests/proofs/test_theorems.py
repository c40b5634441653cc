"""Every theorem of proofs/ is proved and every broken variant refuted, through the CLI.

The whole suite runs once per test session (``omen-solver prove --json``); each theorem is
then one test. Counterexample files are written to a temporary folder and each is
replayed with the engine, as ``omen-solver omens play`` would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from omen_solver.omens.position import load_position
from omen_solver.omens.smt.library import load_theorems

PROOFS = Path(__file__).resolve().parents[2] / "proofs"
GOLDEN = PROOFS / "counterexamples"
NAMES = [theorem.name for theorem in load_theorems(PROOFS)]


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run ``omen-solver prove --json`` once, as two processes on halves of the theorems (the
    suite takes about two minutes on one core)."""
    out = tmp_path_factory.mktemp("counterexamples")
    halves = [NAMES[0::2], NAMES[1::2]]
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "omen_solver",
                "prove",
                *half,
                "--dir",
                str(PROOFS),
                "--counterexamples",
                str(out),
                "--json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for half in halves
    ]
    reports: dict[str, Any] = {}
    statuses = []
    for run in runs:
        stdout, stderr = run.communicate(timeout=1200)
        assert not stderr.strip(), stderr
        statuses.append(run.returncode)
        reports.update({report["name"]: report for report in json.loads(stdout)})
    return {"status": max(statuses), "reports": reports, "out": out}


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
