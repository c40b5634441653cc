"""One writer per folder a command merges into (``docs/robustness.md``, "Concurrency"): the
witnesses' folder, whose summary a run for some options merges with what is there. A second
run stops at once (exit 2) naming the first, or waits for it with ``--wait``. (The survey's
folder: the survey's own fault tests.)"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.files import FolderLock


def test_a_second_witnesses_run_stops_at_once_naming_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "witnesses"
    with FolderLock(out, what="the first run"):
        assert main(["witnesses", "fear_pass_on", "--out", str(out), "--no-docs"]) == 2
    err = capsys.readouterr().err
    assert f"{out}: in use by process {os.getpid()} (the first run)" in err, err
    assert err.count("\n") == 1 and sorted(os.listdir(out)) == [".lock"]


def test_a_second_witnesses_run_waits_with_wait(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "witnesses"
    first = FolderLock(out, what="the first run")
    first.acquire()
    released: list[float] = []

    def release() -> None:
        released.append(time.time())
        first.release()

    timer = threading.Timer(1.0, release)
    timer.start()
    try:
        assert main(["witnesses", "fear_pass_on", "--out", str(out), "--no-docs",
                     "--wait"]) == 0
    finally:
        timer.cancel()
        first.release()
    # it wrote only once the first had ended
    assert released and (out / "summary.json").stat().st_mtime >= released[0]
    capsys.readouterr()
