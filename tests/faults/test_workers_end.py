"""Processes stopped with the command that started them (``docs/robustness.md``,
"Processes"): a command killed outright (``kill -9``, which it cannot answer) leaves nothing
computing: ``prove``'s workers (z3 inside them), an engine behind ``vectors check``, the web
server's search processes. Each test starts its own command, finds what that command started
by its process ids, kills only those, and cleans up after itself."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.faults import procs
from tests.faults.test_memory_caps import FULL_DEAL

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(),
                                reason="finds a command's processes in Linux's /proc")


def _start(argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)


def _kill_9_leaves_nothing(process: subprocess.Popen[str], workers: int,
                           within: float = 5) -> None:
    """Once ``process`` has started ``workers`` processes, kill it outright: every one of
    them must end within ``within`` seconds of its end."""
    started: list[int] = []
    try:
        procs.wait_until(lambda: len(procs.descendants(process.pid)) >= workers, 120,
                         f"{workers} worker processes started")
        started = procs.descendants(process.pid)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        assert procs.left_running(started, within) == [], "workers outlived the command"
    finally:
        process.kill()
        process.wait()
        procs.kill(pid for pid in started if procs.alive(pid))


def test_prove_workers_end_when_prove_is_killed() -> None:
    """Two theorems checked at once, each by z3 in a worker process: both gone within a
    second of the command's end (the kernel kills them as their parent ends)."""
    process = _start([sys.executable, "-m", "omen_solver", "prove", "--jobs", "2"])
    _kill_9_leaves_nothing(process, 2, within=1)


_HANGING_ENGINE = """\
import json, os, sys, time
with open({pids!r}, "a") as out:
    out.write(f"{{os.getpid()}}\\n")
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] in ("hello", "setup"):
        answer = {{"id": request["id"], "ok": True, "name": "hangs", "games": ["omens"]}}
        sys.stdout.write(json.dumps(answer) + "\\n")
        sys.stdout.flush()
    else:
        break
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
while True:  # deaf to everything but SIGKILL, and to the end of its input
    time.sleep(1)
"""


def test_an_engine_ends_when_the_runner_is_killed(tmp_path: Path) -> None:
    """An engine that stops answering and ignores the end of its input and every signal it
    may ignore: the runner, killed outright, cannot stop it, the kernel does."""
    pids = tmp_path / "pids"
    engine = tmp_path / "engine.py"
    engine.write_text(_HANGING_ENGINE.format(pids=str(pids)), encoding="utf-8")
    process = _start([sys.executable, "-m", "omen_solver", "vectors", "check",
                      str(ROOT / "vectors/omens/rulebook/examples.json"), "--engine",
                      f"{sys.executable} {engine}"])
    engines: list[int] = []
    try:
        procs.wait_until(lambda: pids.exists() and pids.read_text().endswith("\n"), 120,
                         "the engine started")
        engines = [int(line) for line in pids.read_text().split()]
        procs.wait_until(lambda: not procs.children(engines[0]) and
                         Path(f"/proc/{engines[0]}/wchan").read_text() != "pipe_read", 30,
                         "the engine stopped reading")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        assert procs.left_running(engines, 5) == [], "the engine outlived the runner"
    finally:
        process.kill()
        process.wait()
        procs.kill(pid for pid in engines if procs.alive(pid))


_SERVER = """\
import json, sys, time, tomllib
from omen_solver.web.jobs import Jobs, Limits
position = tomllib.loads(sys.argv[1])
job = Jobs(Limits(max_seconds=120)).start("solve", {"position": position}, 120)
print(job.process.pid, flush=True)
time.sleep(600)
"""


def test_a_web_search_ends_when_the_server_is_killed() -> None:
    """A search process of the web server (a full deal: minutes of work)."""
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(_SERVER), FULL_DEAL],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                               cwd=ROOT)
    worker = None
    try:
        assert process.stdout is not None
        worker = int(process.stdout.readline())
        procs.wait_until(lambda: "omen_solver.web.worker" in
                         Path(f"/proc/{worker}/cmdline").read_text(), 30, "the search started")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        assert procs.left_running([worker], 5) == [], "the search outlived the server"
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
        if worker is not None:
            procs.kill([worker] if procs.alive(worker) else [])


def test_a_worker_whose_parent_is_gone_ends_at_once() -> None:
    """:func:`die_with_parent` called after the parent has already ended (the race between
    a fork and the request to the kernel): the worker ends instead of running on."""
    script = textwrap.dedent("""\
        import os, sys, time
        from omen_solver.core.processes import die_with_parent
        parent = os.getpid()
        child = os.fork()
        if child == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for stream in (0, 1, 2):
                os.dup2(null, stream)
            while os.getppid() == parent:
                time.sleep(0.01)
            die_with_parent(parent)
            time.sleep(60)
            os._exit(3)
        print(child, flush=True)
        os._exit(0)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=True)
    child = int(done.stdout)
    try:
        assert procs.left_running([child], 5) == []
    finally:
        procs.kill([child] if procs.alive(child) else [])


@pytest.mark.slow
def test_survey_workers_end_when_the_survey_is_killed(tmp_path: Path) -> None:
    """The survey's local Dask cluster (its worker processes and the resource tracker): Dask
    watches the parent itself."""
    process = _start([sys.executable, "-m", "omen_solver", "survey", "--out",
                      str(tmp_path / "survey"), "--deals", "50", "--players", "4",
                      "--workers", "2", "--max-seconds", "5", "--no-plots"])
    _kill_9_leaves_nothing(process, 3)
