"""Output that fits (issue 20, item 3): tables as wide as the terminal or ``COLUMNS``, one line
per item with details on ``-v``, quiet broken pipes, any output encoding, singulars."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from omen_solver import cli
from omen_solver.omens.rule_ids import RULES

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = sorted((ROOT / "puzzles" / "omens").glob("*.toml"))[:5]
HARMONY = ROOT / "puzzles" / "omens" / "harmony.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exited:
        code = int(exited.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for path in PUZZLES:
        shutil.copy(path, tmp_path)
    return tmp_path


@pytest.mark.parametrize("width", [50, 80, 132])
def test_puzzles_check_wraps_each_answer_within_the_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, folder: Path,
    width: int,
) -> None:
    """A row starts with the puzzle's name, never cut; its answer goes on under itself on the
    next lines, whole (a piped output keeps every word of it)."""
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run(capsys, "puzzles", "check", str(folder), "--json")
    answers = {Path(row["file"]).name: row for row in __import__("json").loads(out)}
    code, out, _ = run(capsys, "puzzles", "check", str(folder))
    lines = out.splitlines()
    assert code == 0
    starts = [n for n, line in enumerate(lines) if line.startswith("agrees")]
    assert len(starts) == len(PUZZLES)
    for path, start, end in zip(PUZZLES, starts, [*starts[1:], -1], strict=True):
        assert path.name in lines[start]  # names are never cut
        best = ", ".join(answers[path.name]["best_actions"])
        assert " ".join(best.split()) in " ".join(" ".join(lines[start:end]).split())
    assert "…" not in out
    assert all(cell_len(line) <= width or len(line.split()) == 1
               for line in lines[1:-1] if width >= 80)


def test_piped_output_without_columns_is_80_wide(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 folder: Path) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    _, out, _ = run(capsys, "puzzles", "check", str(folder))
    assert 70 < max(cell_len(line) for line in out.splitlines()[1:-1]) <= 80


def test_details_on_demand(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    _, plain, _ = run(capsys, "puzzles", "check", str(folder))
    _, verbose, _ = run(capsys, "puzzles", "check", str(folder), "-v")
    _, quiet, _ = run(capsys, "puzzles", "check", str(folder), "-q")
    assert "question:" not in plain and verbose.count("question:") == len(PUZZLES)
    assert quiet.splitlines() == [plain.splitlines()[0], plain.splitlines()[-1]]


def test_one_is_singular(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shutil.copy(HARMONY, tmp_path)
    _, out, _ = run(capsys, "puzzles", "check", str(tmp_path))
    assert out.splitlines()[-1].startswith("1 puzzle: 1 agree")
    assert "1 puzzles" not in out


def test_help_shows_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "advise", "--help")
    assert "95 % interval" in " ".join(out.split()) and "%%" not in out


def _closed_pipe(*argv: str) -> subprocess.CompletedProcess[str]:
    """``argv`` with its stdout a pipe whose reader is already gone (``| head`` done)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "omen_solver", *argv], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    finally:
        os.close(write)


@pytest.mark.parametrize("argv", [("omens", "cards"), ("solve", str(HARMONY)),
                                  ("perft", str(HARMONY), "--json")])
def test_a_broken_pipe_ends_quietly_with_141(argv: tuple[str, ...]) -> None:
    done = _closed_pipe(*argv)
    assert (done.returncode, done.stderr) == (cli.EXIT_BROKEN_PIPE, "")


@pytest.mark.parametrize("argv", [("--help",), ("omens", "cards"), ("solve", str(HARMONY)),
                                  ("omens", "play", str(HARMONY))])
def test_any_output_encoding_works(argv: tuple[str, ...]) -> None:
    """Présages, '…' and '·' become '?' in ASCII: never a traceback."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "omen_solver", *argv], capture_output=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    done.stdout.decode("ascii")  # every byte is ASCII


@pytest.mark.parametrize("width", [60, 80, 132])
@pytest.mark.parametrize("command", ["cards", "rules"])
def test_omens_listings_fit_the_width_and_show_everything_with_v(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int,
    command: str,
) -> None:
    """Piped, each text wraps under its column, whole; with ``-v`` each item is one line
    (the terminal wraps it)."""
    monkeypatch.setenv("COLUMNS", str(width))
    _, out, _ = run(capsys, "omens", command)
    assert all(cell_len(line) <= width or len(line.split()) == 1 for line in out.splitlines())
    _, verbose, _ = run(capsys, "omens", command, "-v")
    items = 35 if command == "cards" else len(RULES)
    # (the cards' source,) the header, one line per item
    assert len(verbose.splitlines()) == items + 1 + (command == "cards")
    whole = "discard the highest green card in play" if command == "cards" else "[000 Setup]"
    assert whole in verbose and whole in " ".join(out.split())
    assert " ".join(out.split()) == " ".join(verbose.split()) or command == "rules"


@pytest.mark.parametrize("width", [80, 132])
def test_omen_cards_fit_the_width_grouped_by_set(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 width: int) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run(capsys, "omen", "cards")
    lines = out.splitlines()
    assert code == 0 and max(cell_len(line) for line in lines) <= width
    assert lines[0].split() == ["card", "kind", "c/o/s", "copies", "origin", "keywords"]
    assert "set reign-of-war: " in out and lines[-1].endswith("cards (c/o/s: cost/offering/"
                                                              "strength), all valid")
    assert all(line == line.rstrip() for line in lines)
    hoplite = next(line for line in lines if line.startswith("hoplite "))
    assert hoplite.split()[:3] == ["hoplite", "Soldier", "1/1/2"]


@pytest.mark.parametrize("argv", [["omens", "options"], ["omen", "profiles"], ["prove", "--list"],
                                  ["prove", "--list", "-v"]])
def test_listings_of_prose_fit_the_width(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch,
                                         argv: list[str]) -> None:
    """Issue 20, item 3: the option and profile listings break their prose into lines that fit
    (no word is cut), and ``prove --list`` is one row per theorem (its title wrapped under
    itself), statements on ``-v``; the
    first line of ``prove --list`` names a folder, which is never cut."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, *argv)
    lines = out.splitlines()
    assert code == 0
    assert all(cell_len(line) <= 80 for line in lines[argv[0] == "prove":])
    words = [word for line in lines for word in line.split()]
    if argv == ["prove", "--list"]:  # one row a theorem, its title wrapped under itself
        rows = [line for line in lines[2:] if not line.startswith(" ")]
        assert len(rows) == len(list((ROOT / "proofs").glob("[!_]*.py")))
    if argv[0] == "omens":
        from omen_solver.omens.rules import option_specs

        # every setting's meaning is there in full, whatever the width
        joined = " ".join(words)
        for spec in option_specs():
            for meaning in spec.settings.values():
                assert " ".join(meaning.split()) in joined
