"""``omen-solver vectors fuzz``: differential fuzzing through the protocol (docs/vectors.md).

This library's engine and the example Node.js engine agree with the reference; engines with a
known deviation (the published engine's, ``tools/engines.py``, and mutants of ``tools/mutants``)
are found within a stated number of rounds, shrunk to a small position and line, and written
as a vector file that ``vectors check`` plays (and fails on that engine only); bad input exits
2, a disagreement 1."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.errors import OmenSolverError
from omen_solver.vectors.fuzz import Disagreement, Line, _smaller_positions, shrink
from omen_solver.vectors.omens_record import start_state
from omen_solver.vectors.runner import Mismatch
from omen_solver.vectors.settings import options_json, preset_settings
from tools.engines import DEVIATIONS, engine_command, engine_copy

ROOT = Path(__file__).resolve().parents[2]
SELF = f"{shlex.quote(sys.executable)} -m omen_solver vectors engine"
EXAMPLE_ENGINE = ROOT / "vectors" / "adapters" / "example-omens-engine.js"

FOUND_WITHIN: dict[str, tuple[int, int]] = {
    "betrayal-keeps-law": (4, 1),
    "betrayal-law-gift-one-left": (3, 4),
    "pride-unless-luck-took-a-card": (5, 69),
}
"""Each deviation of the published engine: a seed and the rounds within which ``vectors fuzz``
finds it, the engine declaring the gamepark preset (docs/vectors.md gives the rounds it takes
over ten seeds)."""


def _fuzz(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    status = main(["vectors", "fuzz", *args, "--json"])
    return status, json.loads(capsys.readouterr().out)


def test_this_librarys_engine_agrees_with_itself_and_a_seed_plays_the_same_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every kind of start (game, round, mid-round) is played and nothing differs: exit 0; the
    same seed gives the same report."""
    reports = []
    for _ in range(2):
        status, report = _fuzz(capsys, "--engine", SELF, "--rounds", "20", "--seed", "3",
                               "--out", str(tmp_path))
        assert status == 0, report["disagreements"][:1]
        report.pop("seconds")
        reports.append(report)
    report = reports[0]
    assert report == reports[1]
    assert report["played"] == 20 and report["disagreements"] == []
    assert set(report["starts"]) == {"game", "round", "mid-round"}
    assert report["moves"] > 200 and report["states"] > 20 and report["situations"] > 40
    assert not any(tmp_path.iterdir())


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_example_engine_agrees_under_the_rulebook(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """The example adapter (every rule of the rulebook preset) plays whole games, rounds and
    mid-round positions as this library does."""
    status, report = _fuzz(capsys, "--engine", f"node {EXAMPLE_ENGINE}", "--rounds", "25")
    assert status == 0, report["disagreements"][:1]
    assert report["settings"] == "preset rulebook" and report["played"] == 25


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=pytest.mark.slow) if index else name
             for index, name in enumerate(FOUND_WITHIN)])
def test_each_deviation_of_the_published_engine_is_found_and_shrunk(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """An engine declaring the gamepark preset with one of the published engine's deviations
    (rules 000, "Betrayal": taking Law ends its constraint; "Law"; "End of a Round" with
    option pride_next_round) is found within the stated rounds, the disagreement shrunk to 4 or
    5 players, 2 cards each and a few actions, and written as a vector that ``vectors check``
    fails on that engine and passes on this library's."""
    seed, rounds = FOUND_WITHIN[name]
    deviation = DEVIATIONS[name]
    folder = engine_copy(tmp_path / "engine", {deviation.file: deviation.source()})
    engine = engine_command(folder, "--preset", "gamepark")
    status, report = _fuzz(capsys, "--engine", engine, "--rounds", str(rounds), "--seed",
                           str(seed), "--max-found", "1", "--seconds", "600", "--out",
                           str(tmp_path / "found"))
    assert status == 1
    (found,) = report["disagreements"]
    assert found["round"] <= rounds
    size = found["size"]
    assert size["players"] <= 5 and size["cards"] <= 10 and size["actions"] <= 6, size
    vector_file = Path(found["file"])
    assert main(["vectors", "check", str(vector_file), "--engine", engine]) == 1
    assert main(["vectors", "check", str(vector_file), "--engine",
                 f"{SELF} --preset gamepark"]) == 0
    capsys.readouterr()


def test_shrinking_keeps_the_disagreement_and_makes_the_position_smaller() -> None:
    """A disagreement that needs Law (15) in a hand and a line of 3 actions or more shrinks to
    the fewest players, the fewest cards and the shortest line that still show it."""
    options = options_json("omens", preset_settings("omens", "rulebook"), "rulebook")
    position = {"players": 6, "teams": [[1, 4], [2, 5], [3, 6]], "leader": 2, "scope": "game",
                "rounds_won": [1, 0, 0], "box": [],
                "hands": {"1": [15, 3, 4], "2": [5, 6, 7], "3": [8, 9, 10], "4": [11, 16, 17],
                          "5": [18, 19, 20], "6": [25, 26, 27]}}

    def check(line: Line) -> Disagreement | None:
        try:  # a position this library refuses is no candidate (as in a real fuzz run)
            start_state(options, line.position, "test")
        except OmenSolverError:
            return None
        hands = line.position["hands"]
        if not any(15 in cards for cards in hands.values()):
            return None
        choices = line.choices or ()
        if len(choices) < 3:
            return None
        mismatch = Mismatch("fuzz", 3, "x", "legal actions", [], [])
        return Disagreement("legal actions", mismatch, (), line.position, [], choices[:3])

    first = check(Line(position, (5, 4, 3, 2, 1)))
    assert first is not None
    best, checks = shrink(check, options, first)
    assert best.what == "legal actions" and checks > 0
    assert best.position["players"] == 4
    assert sum(len(cards) for cards in best.position["hands"].values()) == 8
    assert any(15 in cards for cards in best.position["hands"].values())
    assert best.position["scope"] == "bout" and best.choices == (0, 0, 0)
    assert all(candidate["players"] >= 4 for candidate, _ in _smaller_positions(best.position))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rounds", "0"], "--rounds is a whole number from 1"),
        (["--seconds", "nan"], "is not a positive number of seconds"),
        (["--seconds", "inf"], "is not a positive number of seconds"),
        (["--max-found", "0"], "--max-found is a whole number from 1"),
        (["--shrink-replays", "-1"], "is not a whole number 0 or more"),
    ],
)
def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str], args: list[str],
                                 message: str) -> None:
    with pytest.raises(SystemExit) as usage:  # argparse's own errors: exit 2
        main(["vectors", "fuzz", "--engine", SELF, *args])
    assert usage.value.code == 2
    assert message in capsys.readouterr().err


def test_an_engine_that_cannot_start_or_plays_other_settings_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["vectors", "fuzz", "--engine", str(tmp_path / "no-such-engine")]) == 2
    assert "cannot start" in capsys.readouterr().err
    assert main(["vectors", "fuzz", "--engine", f"{SELF} --preset gamepark", "--preset",
                 "rulebook"]) == 2
    assert "the engine plays preset gamepark" in capsys.readouterr().err
    existing = tmp_path / "a-file"
    existing.write_text("x", encoding="utf-8")
    assert main(["vectors", "fuzz", "--engine", SELF, "--out", str(existing)]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_an_engine_that_dies_is_a_disagreement(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """An engine that exits in the middle of a line: the disagreement says so (class
    ``engine``), the engine is started again for the next line, exit 1."""
    script = tmp_path / "dies.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from omen_solver.vectors.engine import Adapter\n"
        "real = Adapter(); plays = 0\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['cmd'] == 'play':\n"
        "        plays += 1\n"
        "        if plays == 3: sys.exit(3)\n"
        "    print(json.dumps({'id': r['id'], 'ok': True, **real.handle(r)}), flush=True)\n",
        encoding="utf-8")
    status, report = _fuzz(capsys, "--engine", f"{shlex.quote(sys.executable)} {script}",
                           "--rounds", "3", "--max-found", "1", "--shrink-replays", "0",
                           "--out", str(tmp_path / "out"))
    assert status == 1
    (found,) = report["disagreements"]
    assert found["what"] == "engine" and "exited with status 3" in json.dumps(found["actual"])
