"""SIGTERM into every long command (``docs/robustness.md``, "Interruption"): the command says
``omen-solver: terminated (SIGTERM)`` and exits 143, prints no result, leaves no process it
started running and no partial or temporary file.

Each test starts one command, waits until it is at work (its SIGTERM handler installed, its
workers started), sends SIGTERM to that process alone, and checks what remains. ``prove`` (two
workers with z3 in them) runs in the default tier; the other commands behind ``--runslow``.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.faults import procs
from tests.faults.test_memory_caps import FULL_DEAL

ROOT = Path(__file__).resolve().parents[2]
TERMINATED = "omen-solver: terminated (SIGTERM)\n"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="watches the command's processes in Linux's /proc")


def _handles_sigterm(pid: int) -> bool:
    """Whether the process has installed its SIGTERM handler (its SigCgt mask)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << (15 - 1)))


def _terminate(argv: list[str], *, workers: int = 0, settle: float = 0.5,
               ready: Callable[[int], bool] | None = None,
               within: float = 10) -> tuple[str, str]:
    """Run ``omen-solver ARGV``, SIGTERM it once at work, and check the promise (every
    process it started gone within ``within`` seconds of its end); return its stdout and
    stderr."""
    process = subprocess.Popen([sys.executable, "-m", "omen_solver", *argv], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    started: list[int] = []
    try:
        procs.wait_until(lambda: _handles_sigterm(process.pid), 120, "the command started")
        procs.wait_until(lambda: len(procs.descendants(process.pid)) >= workers, 120,
                         f"{workers} worker processes started")
        if ready is not None:
            procs.wait_until(lambda: ready(process.pid), 120, "the command at work")
        time.sleep(settle)
        assert process.poll() is None, process.communicate()
        started = procs.descendants(process.pid)
        process.terminate()
        out, err = process.communicate(timeout=120)
        assert (process.returncode, err[-len(TERMINATED):]) == (143, TERMINATED), (out, err)
        assert "Traceback" not in err, err
        assert procs.left_running(started, within) == [], "processes outlived the command"
        return out, err
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        procs.kill(pid for pid in started if procs.alive(pid))


def _whole(folder: Path) -> list[str]:
    """The files of ``folder``, each checked whole (TOML and JSON parse); no temporary file."""
    names = []
    for path in sorted(folder.rglob("*")):
        assert not path.name.endswith((".tmp", ".part", ".partial")), path
        if path.suffix == ".toml":
            tomllib.loads(path.read_text(encoding="utf-8"))
        if path.suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))
        names.append(path.name)
    return names


def _deal(tmp_path: Path) -> Path:
    path = tmp_path / "full.toml"
    path.write_text(FULL_DEAL, encoding="utf-8")
    return path


def test_sigterm_into_prove(tmp_path: Path) -> None:
    """Both workers (z3 checking in each) gone within a second of the command's end, no
    theorem reported, no half-written counterexample."""
    out_folder = tmp_path / "counterexamples"
    out, _ = _terminate(["prove", "--jobs", "2", "--counterexamples", str(out_folder)],
                        workers=2, within=1)
    assert "proved" not in out
    if out_folder.exists():
        _whole(out_folder)


@pytest.mark.slow
def test_sigterm_into_solve(tmp_path: Path) -> None:
    """No answer: the budget's line, then what was proved so far, labelled as interrupted
    (``docs/search.md``)."""
    deal = _deal(tmp_path)
    out, _ = _terminate(["solve", str(deal), "--max-seconds", "300"])
    lines = out.splitlines()
    assert lines[0] == f"{deal}: solving within 300 s", out
    assert lines[1].startswith("interrupted: proven so far, the value lies in "), out
    assert not any(line.startswith("answer") for line in lines), out


@pytest.mark.slow
def test_sigterm_into_perft(tmp_path: Path) -> None:
    out, _ = _terminate(["perft", str(_deal(tmp_path)), "--depth", "1000"])
    assert out == ""


@pytest.mark.slow
def test_sigterm_into_graph(tmp_path: Path) -> None:
    picture = tmp_path / "tree.graphml"
    _terminate(["graph", str(_deal(tmp_path)), "--depth", "40", "--max-nodes", "100000000",
                "--out", str(picture)])
    assert _whole(tmp_path) == ["full.toml"]  # no graph, whole or partial


@pytest.mark.slow
def test_sigterm_into_puzzles_check() -> None:
    _terminate(["puzzles", "check", str(ROOT / "puzzles")])


@pytest.mark.slow
def test_sigterm_into_puzzles_generate(tmp_path: Path) -> None:
    out_folder = tmp_path / "puzzles"
    _terminate(["puzzles", "generate", str(out_folder), "--kind", "deep", "--count", "20"],
               settle=3)
    if out_folder.exists():
        _whole(out_folder)


@pytest.mark.slow
def test_sigterm_into_survey(tmp_path: Path) -> None:
    """The local Dask cluster (its worker processes, the resource tracker) stopped; the
    results recorded so far whole, for the same command to resume."""
    out_folder = tmp_path / "survey"
    _terminate(["survey", "--out", str(out_folder), "--deals", "50", "--players", "4",
                "--workers", "2", "--no-plots"], workers=3, settle=8)
    for line in (out_folder / "deals.jsonl").read_text(encoding="utf-8").splitlines():
        json.loads(line)
    _whole(out_folder)


@pytest.mark.slow
def test_sigterm_into_vectors_check() -> None:
    """The engine (this library's, in a process of its own) stopped with the runner."""
    engine = f"{sys.executable} -m omen_solver vectors engine"
    _terminate(["vectors", "check", str(ROOT / "vectors"), "--engine", engine], workers=1,
               settle=2)


@pytest.mark.slow
def test_sigterm_into_advise() -> None:
    advice = ROOT / "docs/examples/omens/advice-seat1.toml"
    out, _ = _terminate(["advise", str(advice), "--samples", "100000", "--exact-limit", "1"],
                        settle=2)
    assert out == f"{advice}: advising seat 1 within 60 s (the default; --max-seconds S to " \
                  "change)\n"  # the budget's line, no advice


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_sigterm_into_serve() -> None:
    """The server stops, and the search it was running (a process of its own) with it."""
    pytest.importorskip("uvicorn")
    port = _free_port()

    def searching(pid: int) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                pass
        except OSError:
            return False
        if not procs.children(pid):
            body = json.dumps({"toml": FULL_DEAL, "seconds": 30}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/omens/solve",
                                             data=body, method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as reply:
                assert reply.status in (200, 202)
        return bool(procs.children(pid))

    _terminate(["serve", "--port", str(port)], ready=searching)
