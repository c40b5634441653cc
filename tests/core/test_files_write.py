"""Files written whole (a temporary file renamed over the target) and one writer per folder
(``omen_solver.core.files``, docs/architecture.md)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from omen_solver.core.files import FolderLock, atomic_file, atomic_write
from omen_solver.errors import FolderLocked


def test_a_file_is_replaced_whole_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    target = tmp_path / "summary.md"
    atomic_write(target, "old\n")
    atomic_write(target, "new\n")
    assert target.read_text() == "new\n"
    atomic_write(tmp_path / "plot.png", b"\x89PNG")
    assert (tmp_path / "plot.png").read_bytes() == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.png", "summary.md"]


def test_a_failure_keeps_the_old_file_and_removes_the_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "summary.json"
    atomic_write(target, "{}\n")
    with pytest.raises(RuntimeError), atomic_file(target, "w") as handle:
        handle.write("half of a new fi")
        raise RuntimeError("the disk is full")
    assert target.read_text() == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


def test_a_planted_link_is_never_followed(tmp_path: Path) -> None:
    """A symbolic link at the target's name is replaced, not written through; links planted
    at temporary names cannot be hit (each name is new and created exclusively)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "summary.md").symlink_to(victim)
    for name in (".summary.md.tmp", "summary.md.tmp", ".summary.md.part"):
        (folder / name).symlink_to(victim)
    atomic_write(folder / "summary.md", "the summary\n")
    assert victim.read_text() == "keep me\n"
    assert not (folder / "summary.md").is_symlink()
    assert (folder / "summary.md").read_text() == "the summary\n"


def test_an_error_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(OSError) as error:
        atomic_write(tmp_path / "no-such-folder" / "summary.md", "x")
    assert error.value.filename == str(tmp_path / "no-such-folder" / "summary.md")


def test_a_second_writer_is_refused_at_once_naming_the_holder(tmp_path: Path) -> None:
    with FolderLock(tmp_path / "s", what="omen-solver survey --out s"):
        started = time.monotonic()
        with pytest.raises(FolderLocked, match=rf"process {os.getpid()} \(omen-solver survey"):
            FolderLock(tmp_path / "s").acquire()
        assert time.monotonic() - started < 5
    with FolderLock(tmp_path / "s"):
        pass


def test_the_lock_of_a_killed_process_is_free(tmp_path: Path) -> None:
    """The system releases the lock when its process ends, even by ``kill -9``."""
    code = ("import sys, time; from omen_solver.core.files import FolderLock; "
            "FolderLock(sys.argv[1]).acquire(); print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(FolderLocked, match=f"process {holder.pid}"):
            FolderLock(tmp_path).acquire()
    finally:
        holder.kill()
        holder.wait(timeout=30)
        if holder.stdout is not None:
            holder.stdout.close()
    with FolderLock(tmp_path):
        pass


def test_a_waiting_writer_goes_on_when_the_lock_is_released(tmp_path: Path) -> None:
    first = FolderLock(tmp_path)
    first.acquire()
    got: list[float] = []

    def second() -> None:
        with FolderLock(tmp_path, wait=True):
            got.append(time.monotonic())

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(0.3)
    assert not got
    released = time.monotonic()
    first.release()
    thread.join(timeout=30)
    assert got and got[0] >= released
