"""Memory caps that answer (``docs/robustness.md``, "Memory"): ``perft`` and ``graph`` keep
what they have seen (a memo, the graph), so their memory grows with the walk; past
``--max-memory``, or near an address-space limit (``ulimit -v``, set here with
``resource.setrlimit`` in a child process), they stop and say why: ``perft`` answers
"unknown" (exit 1), ``graph`` writes nothing (exit 2); never a traceback."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from omen_solver.cli import main

FULL_DEAL = """\
game = "omens"
players = 4
phase = "game-start"
[hands]
1 = [31, 1, 2, 3, 4]
2 = [35, 5, 6, 7, 8]
3 = [30, 9, 10, 11, 12]
4 = [33, 13, 14, 15, 16]
"""
"""A full 4-player deal at the start of a game: its tree is far too large to walk."""

_CHILD = """\
import resource, sys
from omen_solver.cli import main
import omen_solver.cli.perft, omen_solver.core.positions, omen_solver.omens  # loaded first
with open("/proc/self/statm") as statm:
    virtual = int(statm.read().split()[0]) * resource.getpagesize()
limit = virtual + 64 * 2**20 + {growth} * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(main(["perft", sys.argv[1], "--depth", "1000", "--max-seconds", "1200"]))
"""


def _deal(tmp_path: Path) -> Path:
    path = tmp_path / "full.toml"
    path.write_text(FULL_DEAL, encoding="utf-8")
    return path


def _perft_under_address_limit(tmp_path: Path, growth_mib: int) -> None:
    """``perft --depth 1000`` in a child whose address space may grow ``growth_mib`` MiB past
    the headroom kept for answering: it answers "unknown" with the reason."""
    script = textwrap.dedent(_CHILD.format(growth=growth_mib))
    done = subprocess.run([sys.executable, "-c", script, str(_deal(tmp_path))],
                          capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 1, done.stderr
    assert "unknown: near the address-space limit (ulimit -v)" in done.stdout, done.stdout
    assert done.stderr == ""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_perft_answers_unknown_near_an_address_space_limit(tmp_path: Path) -> None:
    _perft_under_address_limit(tmp_path, 4)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_perft_answers_unknown_under_a_larger_address_space_limit(tmp_path: Path) -> None:
    _perft_under_address_limit(tmp_path, 96)


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_perft_and_graph_stop_at_max_memory(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A cap below what the process already holds stops the walk at its first check."""
    deal = _deal(tmp_path)
    assert main(["perft", str(deal), "--depth", "1000", "--max-memory", "1"]) == 1
    out = capsys.readouterr().out
    assert "unknown: memory limit of 1 MiB reached after 4,096 nodes" in out, out
    picture = tmp_path / "tree.graphml"
    assert main(["graph", str(deal), "--depth", "9", "--max-memory", "1",
                 "--out", str(picture)]) == 2
    err = capsys.readouterr().err
    assert "the graph was not built: memory limit of 1 MiB reached after 4,096 nodes" in err
    assert not picture.exists()
