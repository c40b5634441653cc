"""The shipped theorems, puzzles and vectors are found from any folder (issue 20, item 4):
``prove``, ``puzzles check`` and ``vectors check`` read them by default and say which folder
they read (``omen_solver.shipped``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from omen_solver import cli
from omen_solver.shipped import SHIPPED, shipped

ROOT = Path(__file__).resolve().parents[2]
ENGINE = f"{sys.executable} -m omen_solver vectors engine"


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs from an empty folder, far from the repository."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_shipped_folders_of_a_checkout_are_the_repository_s() -> None:
    for name in SHIPPED:
        assert shipped(name) == ROOT / name


def test_prove_lists_the_shipped_theorems(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prove", "--list")
    theorems = sorted(p for p in (ROOT / "proofs").glob("*.py") if not p.name.startswith("_"))
    assert code == 0
    assert out.splitlines()[0] == (f"{len(theorems)} theorems from {ROOT / 'proofs'} "
                                   "(shipped with omen-solver)")
    code, out, _ = run(capsys, "prove", "--list", "--json")
    assert [item["file"] for item in json.loads(out)] == [str(p) for p in theorems]


def test_puzzles_check_reads_the_shipped_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    """With a budget of one node most are unknown (exit 1): the point is which files."""
    code, out, _ = run(capsys, "puzzles", "check", "--max-nodes", "1", "--json")
    files = sorted(str(p) for p in (ROOT / "puzzles").rglob("*.toml"))
    assert code == 1
    assert [row["file"] for row in json.loads(out)] == files
    code, out, _ = run(capsys, "puzzles", "check", "--max-nodes", "1", "-q")
    assert out.splitlines()[0] == (f"{len(files)} puzzles under {ROOT / 'puzzles'} "
                                   "(shipped with omen-solver)")


def test_vectors_check_reads_the_shipped_vectors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "vectors", "check", "--engine", ENGINE, "--game", "omen",
                         "--match", "omen.example.war-order", "--min-played", "1", "--json")
    report = json.loads(out)
    assert (code, report["dir"]) == (0, str(ROOT / "vectors")), err
    assert report["passed"] >= 1


@pytest.mark.slow
def test_a_built_package_carries_the_shipped_folders(tmp_path: Path) -> None:
    """The build copies proofs/, puzzles/ and vectors/ into the package (setup.py), and the
    installed package reads its copy from any folder."""
    pytest.importorskip("wheel")
    source = tmp_path / "source"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    for name in tracked:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps",
                    "--no-build-isolation", "-q", "-w", str(tmp_path / "wheel")],
                   cwd=source, check=True, capture_output=True)
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for name in SHIPPED:
        expected = {f"omen_solver/_shipped/{f}" for f in tracked if f.startswith(name + "/")}
        assert expected <= set(names), name
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(wheel)], check=True, capture_output=True)
    probe = ("import omen_solver.shipped as s; "
             "print(s.shipped('puzzles'), s.shipped('proofs'), s.shipped('vectors'))")
    # -S: without site-packages, where the editable install of this checkout would answer.
    done = subprocess.run([sys.executable, "-S", "-c", probe], cwd=tmp_path, capture_output=True,
                          text=True, check=False, env={"PYTHONPATH": str(target)})
    assert done.returncode == 0, done.stderr
    package = target / "omen_solver" / "_shipped"
    assert done.stdout.split() == [str(package / n) for n in ("puzzles", "proofs", "vectors")]
