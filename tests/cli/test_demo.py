"""``make demo`` tells a story that fits a screen or two (issue 20, item 3): six steps, each
headed, in at most 100 rows of an 80-column terminal (a long line counted as the rows it
wraps onto), nothing cut."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from rich.cells import cell_len

ROOT = Path(__file__).resolve().parents[2]
SCREENS = 2
LINES = 50
"""A screen: 50 lines of a terminal."""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_demo_fits_two_screens() -> None:
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run(["make", "--no-print-directory", "demo"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()  # what the terminal shows: stdout and stderr
    assert [line[:5] for line in lines if line.startswith("== ")] == [
        f"== {step}." for step in range(1, 7)]
    # the rows of an 80-column terminal: a longer line wraps onto more of them
    rows = sum(max(1, -(-cell_len(line) // 80)) for line in lines)
    assert rows <= SCREENS * LINES
    assert "…" not in done.stdout  # nothing cut
    assert "Traceback" not in done.stdout
    assert "[card.law.constraint]" in done.stdout  # the refused move names its rule
    assert " agree, 0 contradicted" in done.stdout
