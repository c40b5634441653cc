"""Hostile files (``docs/robustness.md``, "Hostile input"): a FIFO handed as any input file is
refused at once, never read (it would block for ever); links planted at the names a command
writes are never followed.

Each test is bounded (the ``bounded`` fixture fails it after 20 s instead of hanging)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core import files
from omen_solver.core.files import atomic_write
from omen_solver.errors import PositionError

ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "docs/examples/omens/position.toml"
OMEN_POSITION = ROOT / "docs/examples/omen/position.toml"

pytestmark = pytest.mark.usefixtures("bounded")

_NOT_REGULAR = "not a regular file"


def _fifo(folder: Path, name: str) -> Path:
    path = folder / name
    os.mkfifo(path)
    return path


def _position_naming(folder: Path, key: str, value: str, source: Path = POSITION) -> Path:
    """A copy of a position file whose ``key`` names ``value`` (a catalogue, card files)."""
    lines = source.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("[") or
                 line.startswith(f"{key} ="))
    if lines[index].startswith(f"{key} ="):
        lines[index] = f"{key} = {value}"
    else:
        lines.insert(index, f"{key} = {value}")
    path = folder / source.name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "omens legal": lambda fifo: ["omens", "legal", str(fifo)],
    "omens play": lambda fifo: ["omens", "play", str(fifo)],
    "omens cards --catalogue": lambda fifo: ["omens", "cards", "--catalogue", str(fifo)],
    "perft": lambda fifo: ["perft", str(fifo), "--depth", "1"],
    "graph": lambda fifo: ["graph", str(fifo), "--depth", "1", "--out",
                           str(fifo.parent / "tree.graphml")],
    "solve": lambda fifo: ["solve", str(fifo)],
    "advise": lambda fifo: ["advise", str(fifo)],
    "omen legal": lambda fifo: ["omen", "legal", str(fifo)],
    "omen play": lambda fifo: ["omen", "play", str(fifo)],
    "omen endgame": lambda fifo: ["omen", "endgame", str(fifo)],
    "omen ask": lambda fifo: ["omen", "ask", str(fifo), "win-city", "1"],
    "omen cards": lambda fifo: ["omen", "cards", str(fifo)],
    "vectors check": lambda fifo: ["vectors", "check", str(fifo), "--engine", "unused"],
    "vectors perft": lambda fifo: ["vectors", "perft", str(fifo), "--engine", "unused"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_fifo_as_the_input_file_is_refused_at_once(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = _fifo(tmp_path, "input.toml")
    assert main(COMMANDS[name](fifo)) == 2
    err = capsys.readouterr().err
    assert f"{fifo}: {_NOT_REGULAR}" in err and err.count("\n") == 1, err
    assert sorted(os.listdir(tmp_path)) == ["input.toml"]  # nothing written


def test_a_fifo_named_inside_a_position_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A card catalogue (Omens) or a card file (Omen) named by a position file."""
    fifo = _fifo(tmp_path, "cards.toml")
    omens = _position_naming(tmp_path, "catalogue", '"cards.toml"')
    assert main(["omens", "legal", str(omens)]) == 2
    assert f"{fifo}: {_NOT_REGULAR}" in capsys.readouterr().err
    omen = _position_naming(tmp_path, "cards", '["cards.toml"]', OMEN_POSITION)
    assert main(["omen", "legal", str(omen)]) == 2
    assert f"{fifo}: {_NOT_REGULAR}" in capsys.readouterr().err


def test_a_fifo_among_puzzles_theorems_and_witnesses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Files found in a folder: a puzzle, a theorem file, the witnesses' summary."""
    puzzles = tmp_path / "puzzles"
    puzzles.mkdir()
    fifo = _fifo(puzzles, "a.toml")
    assert main(["puzzles", "check", str(puzzles)]) == 2
    assert f"{fifo}: {_NOT_REGULAR}" in capsys.readouterr().err
    theorems = tmp_path / "proofs"
    theorems.mkdir()
    fifo = _fifo(theorems, "extreme_pairs.py")
    assert main(["prove", "--dir", str(theorems), "--list"]) == 2
    assert f"{fifo}: {_NOT_REGULAR}" in capsys.readouterr().err
    witnesses = tmp_path / "witnesses"
    witnesses.mkdir()
    fifo = _fifo(witnesses, "summary.json")
    assert main(["witnesses", "fear_pass_on", "--out", str(witnesses), "--no-docs"]) == 2
    assert f"{fifo}: {_NOT_REGULAR}" in capsys.readouterr().err


def test_the_reader_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="is a folder, not a file"):
        files.read_bytes(tmp_path)
    with pytest.raises(PositionError, match=_NOT_REGULAR):
        files.read_bytes("/dev/zero")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 11)
    with pytest.raises(PositionError, match="11 bytes, more than the 10 a file"):
        files.read_bytes(big, limit=10)
    assert files.read_bytes(big, limit=11) == b"x" * 11


# -- links planted where a command writes --------------------------------------------------------


def _victim(folder: Path) -> Path:
    victim = folder / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    return victim


def test_a_link_at_a_temporary_name_is_never_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The temporary name is random; even if a link sits at the very name drawn, the file is
    created exclusively (``O_EXCL``), so another name is drawn and the link left alone."""
    victim = _victim(tmp_path)
    target = tmp_path / "out.toml"
    (tmp_path / ".out.toml.planted.tmp").symlink_to(victim)
    drawn = iter(["planted", "fresh"])
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(drawn))
    atomic_write(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert victim.read_text(encoding="utf-8") == "precious"
    assert (tmp_path / ".out.toml.planted.tmp").is_symlink()


def test_a_link_at_the_target_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    target = tmp_path / "out.toml"
    target.symlink_to(victim)
    atomic_write(target, "new")
    assert not target.is_symlink() and target.read_text(encoding="utf-8") == "new"
    assert victim.read_text(encoding="utf-8") == "precious"


def test_graph_and_puzzles_never_write_through_a_planted_link(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The names the commands used to write first (``.NAME.part`` of ``graph --out``,
    ``NAME.partial`` of deep puzzles, the puzzle file itself) hold links to a victim."""
    victim = _victim(tmp_path)
    out = tmp_path / "tree.graphml"
    for name in (".tree.graphml.part", ".tree.graphml.tmp", "tree.graphml.tmp"):
        (tmp_path / name).symlink_to(victim)
    out.symlink_to(victim)
    assert main(["graph", str(POSITION), "--depth", "1", "--out", str(out)]) == 0
    assert not out.is_symlink() and out.read_text(encoding="utf-8").startswith("<graphml")
    puzzles = tmp_path / "puzzles"
    puzzles.mkdir()
    (puzzles / "unique-win-seed0-1.toml").symlink_to(victim)
    (puzzles / "unique-win-seed0-1.toml.partial").symlink_to(victim)
    assert main(["puzzles", "generate", str(puzzles), "--count", "1"]) == 0
    assert not (puzzles / "unique-win-seed0-1.toml").is_symlink()
    assert victim.read_text(encoding="utf-8") == "precious"
    capsys.readouterr()
