"""``omen-solver prove``: statuses, JSON, exit codes, counterexample files, bad input."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.omens.actions import Verb
from omen_solver.omens.position import load_position

PROOFS = Path(__file__).resolve().parents[2] / "proofs"

HIGHEST_ALWAYS_WINS = '''
"""A false theorem: the highest card always wins (Mirror and Sadness say otherwise)."""
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m, i):
    return Query(m.end.win == m.o.highest(m.end.in_play))


THEOREM = BoutTheorem(
    name="highest-always-wins",
    title="The highest card always wins",
    statement="The highest card in play always wins the bout.",
    rests_on=(rule("000", "How a Bout Is Resolved"),),
    query=query,
    broken=(Broken.MIRROR_IGNORED,),
    span=0,
)
'''

VACUOUS_VARIANT = '''
"""A true theorem whose broken variant does not break it: the suite must fail."""
from z3 import Implies
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m, i):
    return Query(Implies(m.end.in_play != 0, m.end.discarded != 0))


THEOREM = BoutTheorem(
    name="discards-with-useless-variant",
    title="A discard every bout",
    statement="Every bout discards a card.",
    rests_on=(rule("000", "How a Bout Is Resolved"),),
    query=query,
    broken=(Broken.PRIDE_OVER_ROUND,),
    span=0,
)
'''


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_reports_name_status_seconds_and_variants(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(
        capsys,
        "prove",
        "life-and-death",
        "jealousy-no-second-effect",
        "--dir",
        str(PROOFS),
        "--counterexamples",
        str(tmp_path),
        "--json",
    )
    assert status == 0
    reports = json.loads(out)
    assert [r["name"] for r in reports] == ["life-and-death", "jealousy-no-second-effect"]
    for report in reports:
        assert report["status"] == "proved"
        assert isinstance(report["seconds"], float)
        assert all(v["status"] == "refuted" for v in report["broken"])


def test_a_false_theorem_is_refuted_with_a_replayable_counterexample(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "proofs"
    folder.mkdir()
    write(folder, "highest_always_wins.py", HIGHEST_ALWAYS_WINS)
    status, out, _ = run(capsys, "prove", "--dir", str(folder), "--json")
    assert status == 1
    (report,) = json.loads(out)
    assert report["status"] == "refuted"
    path = Path(report["counterexample"])
    assert path.parent == folder / "counterexamples"
    position = load_position(path)
    state, _ = position.replay()
    summary = state.last_bout
    assert summary is not None
    played = {a.card for move in position.moves for a in move if a.verb is Verb.PLAY}
    # the replayed bout is won by a card other than the highest (rules file 000, Mirror or
    # Sadness): the engine agrees the claim is false
    assert summary.winning_card != max(played)


def test_a_broken_variant_that_is_not_refuted_fails_the_suite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write(tmp_path, "discards_with_useless_variant.py", VACUOUS_VARIANT)
    status, out, _ = run(capsys, "prove", "--dir", str(tmp_path))
    assert status == 1
    assert "was not refuted" in out
    assert "1 proved" in out and "broken variants: 0/1 refuted" in out


def test_unknown_is_reported_with_z3s_reason_and_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(
        capsys,
        "prove",
        "life-and-death",
        "--dir",
        str(PROOFS),
        "--rlimit",
        "50",
        "--counterexamples",
        str(tmp_path),
        "--json",
    )
    assert status == 1
    (report,) = json.loads(out)
    assert report["status"] == "unknown"
    assert report["reason"].startswith("bit-blasted: ")


def test_readable_output_names_every_theorem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(
        capsys, "prove", "life-and-death", "--dir", str(PROOFS), "--counterexamples", str(tmp_path),
        "-v",
    )
    assert status == 0
    assert "life-and-death" in out and "proved" in out
    assert "Life and Death discard each other" in out  # -v: the title and statement under it
    assert "1/1 refuted" in out and " ".join(out.split()).count("Broken variants refuted") == 1


def test_list_and_query(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "prove", "--dir", str(PROOFS), "--list", "--json")
    assert status == 0
    listed = json.loads(out)
    assert len(listed) >= 20
    assert all(item["statement"] and item["rests_on"] and item["broken"] for item in listed)
    status, out, _ = run(capsys, "prove", "one-card-before-each", "--dir", str(PROOFS), "--query")
    assert status == 0
    assert "enumerated: 4 players" in out and "deals" in out
    status, out, _ = run(capsys, "prove", "betrayal-gift", "--dir", str(PROOFS), "--query")
    assert "def query" in out and "rests on" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["prove", "--dir", "no/such/folder"], "no such folder of theorems"),
        (["prove", "no-such-theorem", "--dir", str(PROOFS)], "no theorem named 'no-such-theorem'"),
        (["prove", "life-and-death", "--dir", str(PROOFS), "--rlimit", "0"], "must be positive"),
        (["prove", "life-and-death", "--dir", str(PROOFS), "--jobs", "0"], "must be positive"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2
    assert message in err


def test_bad_theorem_files_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    write(tmp_path, "no_theorem.py", "X = 1\n")
    status, _, err = run(capsys, "prove", "--dir", str(tmp_path))
    assert status == 2 and "THEOREM" in err and "no_theorem.py" in err
    (tmp_path / "no_theorem.py").unlink()
    write(tmp_path, "wrong_name.py", HIGHEST_ALWAYS_WINS)
    status, _, err = run(capsys, "prove", "--dir", str(tmp_path))
    assert status == 2 and "'highest-always-wins' should be 'wrong-name'" in err
    (tmp_path / "wrong_name.py").unlink()
    write(tmp_path, "broken_code.py", "raise RuntimeError('oops')\n")
    status, _, err = run(capsys, "prove", "--dir", str(tmp_path))
    assert status == 2 and "broken_code.py" in err and "oops" in err


HARD = '''
"""A query that takes z3 a long time (pigeons in too few holes), to interrupt."""
import z3
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m, i):
    n = 14
    p = [[z3.Bool(f"p{i}_{j}", m.ctx) for j in range(n - 1)] for i in range(n)]
    facts = [z3.Or(*row) for row in p]
    facts += [
        z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j]))
        for j in range(n - 1) for i in range(n) for k in range(i + 1, n)
    ]
    return Query(z3.Not(z3.And(*facts)))


THEOREM = BoutTheorem(
    name="pigeons",
    title="Pigeons",
    statement="No 14 pigeons fit 13 holes.",
    rests_on=(rule("000", "Components"),),
    query=query,
    broken=(Broken.PRIDE_OVER_ROUND,),
    span=0,
)
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_prove_and_reports_nothing_proved(tmp_path: Path, jobs: str) -> None:
    """A real SIGINT to the process group, as Ctrl-C on a terminal sends: z3 catches it during
    a check, and prove must still stop with 'interrupted' and exit 130 (brief: exit codes),
    reporting nothing as proved."""
    import os
    import signal
    import subprocess
    import sys
    import time

    write(tmp_path, "pigeons.py", HARD)
    write(tmp_path, "pigeons_too.py", HARD.replace('"pigeons"', '"pigeons-too"'))
    process = subprocess.Popen(
        [sys.executable, "-m", "omen_solver", "prove", "--dir", str(tmp_path), "--jobs", jobs,
         "--counterexamples", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(4)
    assert process.poll() is None, process.communicate()
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert "omen-solver: interrupted" in err
    assert "proved" not in out and "Traceback" not in err
