"""Memory caps that answer (``docs/robustness.md``, "Memory"): ``perft`` and ``graph`` keep
what they have seen (a memo, the graph), so their memory grows with the walk; past
``--max-memory``, or near an address-space limit (``ulimit -v``, set here with
``resource.setrlimit`` in a child process), they stop and say why: ``perft`` answers
"unknown" (exit 1), ``graph`` writes nothing (exit 2); never a traceback. The solver's
searches likewise answer "unknown" near an address-space limit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core import budget
from omen_solver.core.budget import Budget
from omen_solver.errors import BudgetExceeded

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
import json, resource, sys
from omen_solver.cli import main
import networkx  # the modules loaded before the limit is set
import omen_solver.cli.graph, omen_solver.cli.perft, omen_solver.cli.solve, omen_solver.omens
import omen_solver.core.graph, omen_solver.core.positions, omen_solver.core.search.solver
import omen_solver.omens.kernel.solve
with open("/proc/self/statm") as statm:
    virtual = int(statm.read().split()[0]) * resource.getpagesize()
limit = virtual + {growth} * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(main(json.loads(sys.argv[1])))
"""
"""A command in a child whose address space may grow ``growth`` MiB past what it holds once
its modules are loaded (``ulimit -v``, as ``resource.setrlimit`` sets it)."""


def _deal(tmp_path: Path) -> Path:
    path = tmp_path / "full.toml"
    path.write_text(FULL_DEAL, encoding="utf-8")
    return path


def _under_address_limit(argv: list[str], growth_mib: int,
                         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(_CHILD.format(growth=growth_mib))
    return subprocess.run([sys.executable, "-c", script, json.dumps(argv)], capture_output=True,
                          text=True, timeout=1200, check=False,
                          env={**os.environ, **(env or {})})


def _perft_under_address_limit(tmp_path: Path, growth_mib: int) -> None:
    """``perft --depth 1000`` (the issue's run: it grew to 7.6 GB, and died with a
    ``SystemError`` under a 2 GB limit) answers "unknown" with the reason."""
    done = _under_address_limit(["perft", str(_deal(tmp_path)), "--depth", "1000",
                                 "--max-seconds", "1200"], 64 + growth_mib)
    assert done.returncode == 1, done.stderr
    assert "unknown: near the address-space limit (ulimit -v)" in done.stdout, done.stdout
    assert done.stderr == ""


def _graph_under_address_limit(tmp_path: Path, growth_mib: int) -> None:
    """``graph`` of the same deal writes nothing and says why (exit 2, as for its node
    limit), never a ``MemoryError`` or ``SystemError``."""
    picture = tmp_path / "tree.graphml"
    done = _under_address_limit(["graph", str(_deal(tmp_path)), "--depth", "1000",
                                 "--max-nodes", "100000000", "--max-seconds", "1200",
                                 "--out", str(picture)],
                                64 + growth_mib)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("omen-solver: error: the graph was not built: near the "
                                  "address-space limit (ulimit -v) of "), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not picture.exists() and os.listdir(tmp_path) == ["full.toml"]


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_perft_answers_unknown_near_an_address_space_limit(tmp_path: Path) -> None:
    _perft_under_address_limit(tmp_path, 4)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_perft_answers_unknown_under_a_larger_address_space_limit(tmp_path: Path) -> None:
    _perft_under_address_limit(tmp_path, 96)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_graph_says_why_near_an_address_space_limit(tmp_path: Path) -> None:
    _graph_under_address_limit(tmp_path, 4)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_graph_says_why_under_a_larger_address_space_limit(tmp_path: Path) -> None:
    _graph_under_address_limit(tmp_path, 96)


def _kernel_under_address_limit(tmp_path: Path, growth_mib: int) -> None:
    """The pure-Python kernel (``OMEN_SOLVER_PURE_PYTHON=1``) on the full deal, its tables
    growing in a limited address space (the issue's run died with a ``MemoryError``
    traceback): the answer is unknown with the bounds proved so far and the reason, as the
    compiled kernel's "out of memory for the transposition table" is (``docs/kernel.md``,
    "Memory")."""
    done = _under_address_limit(["solve", str(_deal(tmp_path)), "--max-seconds", "1200",
                                 "--max-nodes", "100000000"], growth_mib,
                                env={"OMEN_SOLVER_PURE_PYTHON": "1"})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    assert "answer: unknown: the value of seats 2, 3 lies in [0, 1]" in done.stdout, done.stdout
    assert "note: near the address-space limit (ulimit -v) of " in done.stdout, done.stdout
    assert "engine: kernel (pure Python)" in done.stdout, done.stdout


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_a_search_given_no_cap_stops_near_an_address_space_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every walk (the kernels' searches, the reference solver's) watches the address-space
    limit when the process has one, and only then."""
    used = budget.memory_in_use()
    assert used is not None
    assert budget.NodeMeter().memory is None or budget._address_limit() is not None
    monkeypatch.setattr(budget, "_address_limit", lambda: used[1] + 32 * budget.MIB)
    meter = budget.NodeMeter(Budget(max_nodes=10**9))
    assert meter.memory is not None and meter.memory.max_bytes is None
    with pytest.raises(BudgetExceeded, match=r"near the address-space limit \(ulimit -v\)"):
        meter.check()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_the_pure_python_kernel_answers_unknown_near_an_address_space_limit(
        tmp_path: Path) -> None:
    _kernel_under_address_limit(tmp_path, 72)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_the_pure_python_kernel_answers_unknown_under_a_larger_address_space_limit(
        tmp_path: Path) -> None:
    _kernel_under_address_limit(tmp_path, 128)


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
