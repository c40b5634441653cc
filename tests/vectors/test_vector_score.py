"""The mutation score of the shipped Omens suites (``python -m tools.vector_score``; its results
in ``tools/vector-score.json``, its tables in docs/vectors.md, "Mutation score").

The bounded version of the run: the vectors the results name as killing each deviation of the
published engine (``tools/engines.py``) are played again through the protocol, against that
engine (each must fail) and against this library's (each must pass); the docs' tables are the
results file's. The slow tier scores a sample of the mutants again, every vector of both
suites, and compares the verdicts with the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tools.engines import DEVIATIONS, engine_copy
from tools.vector_score import SUITES, main, play_vectors, section, tables, verdict

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tools" / "vector-score.json"
DOCS = ROOT / "docs" / "vectors.md"


def _results() -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in json.loads(RESULTS.read_text(encoding="utf-8"))}


def _play_changed(tmp_path: Path, changes: dict[str, str], only: set[str]
                  ) -> dict[str, dict[str, str]]:
    """The vectors ``only`` played through the protocol against an engine with ``changes``, in
    a process of its own (its copy of the package first on the path)."""
    folder = engine_copy(tmp_path, changes)
    code = ("import json, sys; from pathlib import Path; from tools.vector_score import "
            "play_vectors; print(json.dumps(play_vectors(Path(sys.argv[1]), "
            "set(json.loads(sys.argv[2])))))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(folder), str(ROOT))),
               PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-P", "-c", code, str(ROOT), json.dumps(sorted(only))],
                          env=env, capture_output=True, text=True, timeout=600, check=True)
    result: dict[str, dict[str, str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_docs_show_the_results_file() -> None:
    assert section(DOCS.read_text(encoding="utf-8")) == tables(
        json.loads(RESULTS.read_text(encoding="utf-8"))) + "\n"


@pytest.mark.parametrize("name", sorted(DEVIATIONS))
def test_the_vectors_that_kill_a_deviation_kill_it_and_pass_the_engine(
    tmp_path: Path, name: str
) -> None:
    """Each deviation of the published engine (rules 000, "Betrayal"; "Law"; "End of a Round"
    with option pride_next_round) is killed by two vectors at least of each suite whose preset
    it breaks (played under the preset's settings, as an engine with the preset built in is
    checked); this library's engine passes them."""
    row = _results()[name]
    killing = {suite: set(row["kills"][suite]["holding"]) for suite in SUITES}
    broken = [suite for suite in SUITES if verdict(row, suite) != "not broken"]
    assert broken and all(len(killing[suite]) >= 2 for suite in broken), row["kills"]
    ids = set().union(*killing.values())
    failed = _play_changed(tmp_path, {DEVIATIONS[name].file: DEVIATIONS[name].source()}, ids)
    for suite in SUITES:
        assert killing[suite] <= set(failed[suite]), (suite, failed[suite])
    unchanged = play_vectors(ROOT, ids)
    assert not any(unchanged.values()), unchanged


@pytest.mark.slow
def test_a_sample_of_mutants_scores_as_recorded(tmp_path: Path) -> None:
    """Every tenth mutant scored again (every vector of both suites): the same verdict per
    suite as the results file."""
    recorded = _results()
    numbers = sorted(row["number"] for row in recorded.values() if "number" in row)[::10]
    out = tmp_path / "sample.json"
    assert main(["--numbers", ",".join(map(str, numbers)), "--fuzz-rounds", "0",
                 "--out", str(out)]) == 0
    for row in json.loads(out.read_text(encoding="utf-8")):
        before = recorded[row["name"]]
        assert row["what"] == before["what"] and row.get("line") == before.get("line")
        for suite in SUITES:
            assert row["kills"][suite] == before["kills"][suite], (row["name"], suite)
