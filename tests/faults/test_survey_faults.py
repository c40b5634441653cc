"""The survey under faults (docs/survey.md, "Faults"): two runs on one folder, planted links,
Dask services that are not schedulers, workers killed while the cluster starts, Ctrl-C during
start-up. Every scenario is bounded (timeouts on every wait) and local, and kills only the
processes it started. The ones that start a Dask cluster, wait out a timeout or start many
processes are behind --runslow."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psutil
import pytest

from omen_solver.core.files import FolderLock
from omen_solver.errors import FolderLocked
from omen_solver.survey.analysis import SurveyConfig
from omen_solver.survey.runner import RESULTS_FILE, run_survey

TINY = ["--deals", "3", "--players", "4", "--cards", "2", "--as-dealt", "--no-options",
        "--no-lines", "--no-plots", "--max-nodes", "200000"]
"""A survey of a few seconds, mostly the interpreter's start."""
CONFIG = SurveyConfig(players=(4,), deals=3, cards=2, options=False, lines=False,
                      max_nodes=200_000)
"""The same survey through the API (the CLI's default --max-seconds is 60)."""
WAIT = 240.0
"""Seconds any one command may take before the test fails instead of hanging."""


def _command(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "omen_solver", "survey", "--out", str(out), *TINY, *extra]


def _run(args: list[str], timeout: float = WAIT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def _records(out: Path) -> list[str]:
    lines = (out / RESULTS_FILE).read_text().splitlines()
    assert "survey" in json.loads(lines[0])
    assert all("survey" not in json.loads(line) for line in lines[1:])
    return [json.loads(line)["id"] for line in lines[1:]]


def test_a_second_run_on_a_folder_in_use_exits_at_once_naming_the_holder(tmp_path: Path) -> None:
    out = tmp_path / "s"
    with FolderLock(out, what="a test holding the folder"):
        started = time.monotonic()
        done = _run(_command(out, "--workers", "0"))
        assert done.returncode == 2
        assert time.monotonic() - started < 60
    assert f"process {os.getpid()} (a test holding the folder)" in done.stderr
    assert "--wait" in done.stderr and "Traceback" not in done.stderr
    assert not (out / RESULTS_FILE).exists()


@pytest.mark.slow
def test_wait_runs_once_the_folder_is_free(tmp_path: Path) -> None:
    out = tmp_path / "s"
    lock = FolderLock(out)
    lock.acquire()
    waiting = subprocess.Popen(_command(out, "--workers", "0", "--wait"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)
        assert waiting.poll() is None and not (out / RESULTS_FILE).exists()
        lock.release()
        _, err = waiting.communicate(timeout=WAIT)
    finally:
        lock.release()
        if waiting.poll() is None:
            waiting.kill()
            waiting.communicate()
    assert waiting.returncode == 0, err
    assert sorted(_records(out)) == ["4p-0", "4p-1", "4p-2"]


@pytest.mark.slow
@pytest.mark.parametrize("existing", [False, True])
def test_two_surveys_started_together_write_one_header_and_no_duplicate(
    tmp_path: Path, existing: bool
) -> None:
    """Two CLI runs at once, on a new folder and on one holding part of the survey: one runs,
    the other exits 2 naming it or (if the first was done by then) resumes and finds nothing
    left to do; either way one header line and one record per deal."""
    for attempt in range(3):
        out = tmp_path / f"s{attempt}"
        if existing:
            def stop(added: int) -> None:
                raise KeyboardInterrupt

            with pytest.raises(KeyboardInterrupt):
                run_survey(CONFIG, out, workers=0, batch=1, tick=stop)
            assert len(_records(out)) == 1
        args = _command(out, "--workers", "0", "--batch", "1", "--max-seconds", "60")
        both = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True) for _ in range(2)]
        results = [(p.wait(timeout=WAIT), p.communicate()[1]) for p in both]
        codes = sorted(code for code, _ in results)
        assert codes in ([0, 0], [0, 2]), results
        if codes == [0, 2]:
            err = next(err for code, err in results if code == 2)
            assert "in use by process" in err and "Traceback" not in err
        assert sorted(_records(out)) == ["4p-0", "4p-1", "4p-2"]


def test_two_api_runs_on_one_folder_never_both_write(tmp_path: Path) -> None:
    out = tmp_path / "s"
    errors: list[BaseException] = []
    hold = threading.Event()

    def slow(added: int) -> None:
        hold.wait(30)

    def first() -> None:
        try:
            run_survey(CONFIG, out, workers=0, batch=1, tick=slow)
        except BaseException as problem:  # pragma: no cover - reported below
            errors.append(problem)

    thread = threading.Thread(target=first)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not (out / RESULTS_FILE).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with pytest.raises(FolderLocked, match="in use by process"):
            run_survey(CONFIG, out, workers=0)
    finally:
        hold.set()
        thread.join(timeout=WAIT)
    assert not errors
    assert sorted(_records(out)) == ["4p-0", "4p-1", "4p-2"]


def test_links_planted_in_the_folder_are_never_followed(tmp_path: Path) -> None:
    """Symbolic links at the temporary names a run might use, and at its outputs, point at a
    file outside: the run writes its outputs in place of the links and never through them."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    out = tmp_path / "s"
    out.mkdir()
    names = ["summary.md.tmp", ".summary.md.tmp", "summary.json.tmp", "card-values.png.tmp",
             ".card-values.png.tmp", "summary.md", "leading-team.svg"]
    for name in names:
        (out / name).symlink_to(victim)
    done = _run([a for a in _command(out, "--workers", "0") if a != "--no-plots"])
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "keep me\n"
    assert not (out / "summary.md").is_symlink() and "Survey:" in (out / "summary.md").read_text()
    assert not (out / "leading-team.svg").is_symlink()
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


def test_a_link_at_the_results_file_or_the_lock_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    for name in (RESULTS_FILE, ".lock"):
        out = tmp_path / name.strip(".")
        out.mkdir()
        (out / name).symlink_to(victim)
        done = _run(_command(out, "--workers", "0"))
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and name in done.stderr
        assert victim.read_text() == "keep me\n"


# -- Dask at the edges ----------------------------------------------------------------------


@contextmanager
def _service(reply: bytes | None) -> Iterator[str]:
    """A local TCP service that answers every connection with ``reply`` (``None``: says
    nothing and keeps the connection open)."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            held.append(connection)
            if reply is not None:
                with suppress(OSError):
                    connection.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=10)
        for connection in held:
            connection.close()
        server.close()


def _closed_port() -> str:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return f"tcp://127.0.0.1:{port}"


@pytest.mark.parametrize("kind", [
    "bogus", "http",
    pytest.param("nothing", marks=pytest.mark.slow),
    pytest.param("silent", marks=pytest.mark.slow),
])
def test_a_scheduler_address_that_is_no_scheduler_exits_2_with_one_line(
    tmp_path: Path, kind: str
) -> None:
    """An unknown scheme, a port where nothing listens, a service that answers something else
    (a reply Dask would read as a frame of 3 EiB) and one that never answers: each exits 2
    with one line naming the address, within the connect timeout, and records nothing."""
    reply = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 10 if kind == "http" else None

    @contextmanager
    def address() -> Iterator[str]:
        if kind == "bogus":
            yield "bogus://x"
        elif kind == "nothing":
            yield _closed_port()
        else:
            with _service(reply) as found:
                yield found

    with address() as where:
        started = time.monotonic()
        done = _run(_command(tmp_path / "s", "--scheduler", where, "--connect-timeout", "3"))
        took = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("omen-solver: error: --scheduler " + where), done.stderr
    assert "Traceback" not in done.stderr and "EiB" not in done.stderr
    assert took < 60
    assert not (tmp_path / "s" / RESULTS_FILE).exists() or len(_records(tmp_path / "s")) == 0


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _kill_all(process: subprocess.Popen[str]) -> None:
    """Kill what this test started: the command and every process under it."""
    for child in _descendants(process.pid):
        with suppress(psutil.NoSuchProcess):
            child.kill()
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=WAIT)


def _workers(pid: int) -> list[psutil.Process]:
    found = []
    for child in _descendants(pid):
        try:
            if "multiprocessing.spawn" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    return found


@pytest.mark.slow
def test_a_scheduler_with_no_worker_ends_the_run_with_status_1(tmp_path: Path) -> None:
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(tmp_path / "scheduler.json")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "scheduler.json").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        address = json.loads((tmp_path / "scheduler.json").read_text())["address"]
        done = _run(_command(tmp_path / "s", "--scheduler", address, "--workers-timeout", "3"))
    finally:
        _kill_all(scheduler)
    assert done.returncode == 1, done.stderr
    assert "no worker" in done.stderr and "run the same command again" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_worker_killed_while_the_cluster_starts_costs_nothing(tmp_path: Path) -> None:
    """kill -9 of a worker process as soon as it appears: the start is redone and every deal
    is recorded once, with the results of a run in one process."""
    single = tmp_path / "one"
    assert _run(_command(single, "--workers", "0")).returncode == 0
    out = tmp_path / "s"
    process = subprocess.Popen(_command(out, "--workers", "2"), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    killed = []
    try:
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline and process.poll() is None:
            for worker in _workers(process.pid):
                worker.kill()
                killed.append(worker.pid)
                break
            time.sleep(0.05)
        _, err = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            _kill_all(process)
    assert killed
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert sorted(_records(out)) == sorted(_records(single))


@pytest.mark.slow
def test_ctrl_c_while_the_cluster_starts_exits_130_and_leaves_nothing(tmp_path: Path) -> None:
    process = subprocess.Popen(_command(tmp_path / "s", "--workers", "2"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not _workers(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = _descendants(process.pid)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            _kill_all(process)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "NameError" not in err
    assert "interrupted" in err
    time.sleep(2)
    assert not [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
