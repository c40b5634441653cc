"""A full disk leaves the old file or none, never an empty or partial one and no temporary
file, and the error names the file (``docs/robustness.md``, "Full disks"): the atomic helper
itself, then the commands that write (``puzzles generate``, ``graph --out``, ``prove``'s
counterexamples, the witnesses), on a small filesystem the test fills up."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.files import atomic_file, atomic_write
from tests.faults.conftest import fill

ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "docs/examples/omens/position.toml"


def _left(folder: Path) -> set[str]:
    return {path.name for path in folder.rglob("*")} - {"filler"}


def test_the_helper_keeps_the_old_file_on_a_full_disk(small_disk: Path) -> None:
    target = small_disk / "kept.toml"
    atomic_write(target, "old = 1\n")
    fill(small_disk)
    with pytest.raises(OSError) as raised:
        atomic_write(target, "new = 2\n" * 10_000)
    assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(target)
    assert target.read_text(encoding="utf-8") == "old = 1\n"
    assert _left(small_disk) == {"kept.toml"}
    with pytest.raises(OSError), atomic_file(small_disk / "new.bin") as out:
        out.write(b"x" * 100_000)
    assert _left(small_disk) == {"kept.toml"}  # no new file, no temporary one


def test_an_interrupted_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    atomic_write(target, "old")
    with pytest.raises(KeyboardInterrupt), atomic_file(target, "w") as out:
        out.write("half")
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "old" and os.listdir(tmp_path) == ["kept.txt"]


def _no_space(err: str, path: Path) -> None:
    assert err.count("\n") == 1, err
    assert f"{path}" in err and "No space left on device" in err, err


@pytest.mark.parametrize("kind", ["unique-win", "only-lead"])
def test_puzzles_generate_on_a_full_disk(small_disk: Path, kind: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = small_disk / "puzzles"
    fill(small_disk)
    lead = ["--lead", "14"] if kind == "only-lead" else []
    assert main(["puzzles", "generate", str(out), "--kind", kind, *lead, "--count", "1"]) == 2
    stem = kind if not lead else f"{kind}-14"
    _no_space(capsys.readouterr().err, out / f"{stem}-seed0-1.toml")
    assert _left(small_disk) <= {"puzzles", ".lock"}  # the folder and its lock, no puzzle


def test_graph_on_a_full_disk_keeps_the_old_picture(small_disk: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = small_disk / "tree.graphml"
    out.write_text("old", encoding="utf-8")
    fill(small_disk)
    assert main(["graph", str(POSITION), "--depth", "2", "--out", str(out)]) == 2
    _no_space(capsys.readouterr().err, out)
    assert out.read_text(encoding="utf-8") == "old" and _left(small_disk) == {"tree.graphml"}


def test_prove_on_a_full_disk_writes_no_half_counterexample(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every broken variant's counterexample is written; on a full disk none is left half
    written, and the command names the file."""
    out = small_disk / "counterexamples"
    out.mkdir()
    fill(small_disk)
    status = main(["prove", "extreme-pairs", "--counterexamples", str(out), "--jobs", "1",
                   "--dir", str(ROOT / "proofs")])
    err = capsys.readouterr().err
    assert status == 2 and "No space left on device" in err and f"{out}/" in err, err
    assert _left(small_disk) == {"counterexamples"}


def test_witnesses_on_a_full_disk_keep_the_old_summary(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = small_disk / "witnesses"
    out.mkdir()
    (out / "summary.json").write_text("[]\n", encoding="utf-8")
    fill(small_disk)
    assert main(["witnesses", "fear_pass_on", "--out", str(out), "--no-docs"]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and f"{out}/fear_pass_on--" in err, err
    assert (out / "summary.json").read_text(encoding="utf-8") == "[]\n"
    assert _left(small_disk) == {"witnesses", "summary.json", ".lock"}


def test_solve_write_on_a_full_disk_keeps_the_old_position(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``solve --deal --write``: the position file is whole or the old one is kept."""
    out = small_disk / "deal.toml"
    out.write_text("old = 1\n", encoding="utf-8")
    fill(small_disk)
    status = main(["solve", "--deal", "1", "--players", "4", "--cards", "1", "--write",
                   str(out), "--max-seconds", "10"])
    _no_space(capsys.readouterr().err, out)
    assert status == 2
    assert out.read_text(encoding="utf-8") == "old = 1\n" and _left(small_disk) == {"deal.toml"}


@pytest.mark.slow
def test_vectors_export_on_a_full_disk_writes_no_half_vector_file(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = small_disk / "vectors"
    fill(small_disk)
    status = main(["vectors", "export", "--game", "omen", "--only", "examples", "--out",
                   str(out)])
    err = capsys.readouterr().err
    assert status == 2 and "No space left on device" in err and f"{out}/" in err, err
    assert err.count("\n") == 1, err
    assert not any(path.is_file() for path in out.rglob("*")), sorted(out.rglob("*"))
