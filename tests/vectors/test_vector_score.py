"""The mutation score of the shipped Omens suites (``python -m tools.vector_score``; its results
in ``tools/vector-score.json``, its tables in docs/vectors.md, "Mutation score").

The bounded version of the run: the results file is the engine's mutants as they are now (the
same list, and every mutant's changed text still where it says), the docs' tables are the
results file's, every mutant at the target or explained; the vectors the results name as
killing each deviation of the published engine (``tools/engines.py``) and a few mutants are
played again through the protocol, against that engine (each must fail) and against this
library's (each must pass). The slow tier scores a sample of the mutants again, through the
whole run, and compares the verdicts with the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tools.engines import DEVIATIONS, engine_copy
from tools.mutants import all_mutants
from tools.vector_score import (
    EXPLAINED,
    KEEP,
    SUITES,
    explained,
    main,
    play_vectors,
    reading_key,
    section,
    survived,
    tables,
    verdict,
)

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
            "set(json.loads(sys.argv[2])), validate=False)))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(folder), str(ROOT))),
               PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-P", "-c", code, str(ROOT), json.dumps(sorted(only))],
                          env=env, capture_output=True, text=True, timeout=600, check=True)
    result: dict[str, dict[str, str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_docs_show_the_results_file() -> None:
    assert section(DOCS.read_text(encoding="utf-8")) == tables(
        json.loads(RESULTS.read_text(encoding="utf-8"))) + "\n"


def test_the_results_are_of_the_engine_as_it_is() -> None:
    """Every mutant the tool makes today is in the results, at the same place with the same
    change (a change of the engine shifts them: run the score again)."""
    recorded = _results()
    for mutant, _ in all_mutants():
        row = recorded.get(f"mutant {mutant.number}")
        assert row is not None, f"mutant {mutant.number} is not in {RESULTS.name}"
        assert (row["file"], row["line"], row["kind"], row["what"]) == (
            mutant.file, mutant.line, mutant.kind, mutant.what), mutant.number
    assert set(DEVIATIONS) <= set(recorded)


def test_every_mutant_is_at_the_target_or_explained() -> None:
    """The target of docs/vectors.md: a mutant that breaks a suite's preset is killed by two
    vectors of that suite at least; each one short of it, and each one nothing kills, is read
    and named with why; every reading recorded is of a mutant of the results."""
    rows = _results().values()
    for row in rows:
        for suite in SUITES:
            if verdict(row, suite) in ("once", "missed"):
                assert explained(row, suite), (row["name"], suite)
        if survived(row):
            assert explained(row), row["name"]
    keys = {reading_key(row) for row in rows}
    assert not set(EXPLAINED) - keys, set(EXPLAINED) - keys


@pytest.mark.parametrize("name", [*sorted(DEVIATIONS), "mutant 3", "mutant 44"])
def test_the_vectors_that_kill_a_mutant_kill_it_and_pass_the_engine(
    tmp_path: Path, name: str
) -> None:
    """Each deviation of the published engine (rules 000, "Betrayal"; "Law"; "End of a Round"
    with option pride_next_round) and two mutants (Law's constraint; Betrayal giving back) are
    killed by two vectors at least of each suite whose preset they break (played under the
    preset's settings, as an engine with the preset built in is checked); this library's engine
    passes those vectors."""
    row = _results()[name]
    killing = {suite: set(row["kills"][suite]["holding"]) for suite in SUITES}
    broken = [suite for suite in SUITES if verdict(row, suite) not in ("not broken",
                                                                         "other settings")]
    assert broken and all(len(killing[suite]) >= 2 for suite in broken), row["kills"]
    assert all(len(killing[suite]) <= KEEP for suite in SUITES)
    ids = set().union(*killing.values())
    if "number" in row:
        changes = {m.file: source() for m, source in all_mutants() if m.number == row["number"]}
    else:
        changes = {DEVIATIONS[name].file: DEVIATIONS[name].source()}
    failed = _play_changed(tmp_path, changes, ids)
    for suite in SUITES:
        assert killing[suite] <= set(failed[suite]), (suite, failed[suite])
    unchanged = play_vectors(ROOT, ids, validate=False)
    assert not any(unchanged.values()), unchanged


@pytest.mark.parametrize(("name", "function", "where"), [
    # Betrayal's gift under Law's constraint when it takes another card, free of it when it
    # takes Law (rules 000, "Betrayal"), under betrayal_give_back = forbidden
    ("mutant 497", "_betrayal_choices", "gamepark"),
    # Law's choice under law_when_last = skip when the turn has passed the last seat
    # (rules 000, "Law"): a Law given or placed for Dream with seat 1 next to play
    ("mutant 506", "_nobody_left", "gamepark"),
    # The Absolute's exchange at the end of the bout with an empty hand (rules 000, "The
    # Absolute"; absolute_timing = end, dream_target_turn = plays_again)
    ("mutant 305", "_pending_choices", "own"),
    ("mutant 477", "_advance", "own"),
    # Betrayal and Wrath resolved by the player who placed them (rules 000, "Betrayal",
    # "Wrath"; now_resolver = placer): never a card in front of that player, nor themselves
    ("mutant 364", "_betrayal_choices", "own"),
    ("mutant 493", "_now_choices", "own"),
])
def test_the_mutants_once_short_of_the_target_or_alive_are_killed_twice(
    tmp_path: Path, name: str, function: str, where: str
) -> None:
    """The two mutants a single vector of the gamepark suite once killed, and the four no
    vector killed (docs/vectors.md, "Mutation score"): each is killed by two vectors at least,
    of the gamepark suite under its preset, or under the settings the vector was recorded
    with (those the mutant breaks); this library's engine passes those vectors."""
    row = _results()[name]
    assert row["function"] == function
    if where == "gamepark":
        kills = set(row["kills"]["gamepark"]["holding"])
    else:
        kills = set().union(*(row["kills"][suite]["all"] for suite in SUITES))
    assert len(kills) >= 2, row["kills"]
    changes = {m.file: source() for m, source in all_mutants() if m.number == row["number"]}
    failed = _play_changed(tmp_path, changes, kills)
    assert kills <= set(failed[where]), failed
    unchanged = play_vectors(ROOT, kills, validate=False)
    assert not any(unchanged.values()), unchanged


@pytest.mark.slow
def test_a_sample_of_mutants_scores_as_recorded(tmp_path: Path) -> None:
    """Every twentieth mutant scored again (the whole run, without fuzzing): the same kills per
    suite as the results file."""
    recorded = _results()
    numbers = sorted(row["number"] for row in recorded.values() if "number" in row)[::20]
    out = tmp_path / "sample.json"
    assert main(["--numbers", ",".join(map(str, numbers)), "--fuzz-rounds", "0",
                 "--out", str(out)]) == 0
    for row in json.loads(out.read_text(encoding="utf-8")):
        before = recorded[row["name"]]
        assert row["what"] == before["what"] and row.get("line") == before.get("line")
        for suite in SUITES:
            assert row["kills"].get(suite) == before["kills"].get(suite), (row["name"], suite)
