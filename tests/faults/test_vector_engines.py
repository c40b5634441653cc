"""Hostile engines and hostile vector files behind ``omen-solver vectors check`` (docs/vectors.md,
"What `vectors check` promises"): an engine behind a wrapper that does not ``exec``, one that
starts a helper, Ctrl-C in the middle of a request, an endless line, deeply nested JSON, bytes
that are not UTF-8, a FIFO or an oversized file given as vectors. Each test starts its own
engines (small Python scripts that do not import the library, so they start at once), kills
only what it started, and is bounded by short time limits."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "vectors"
EXAMPLES = SHIPPED / "omens" / "rulebook" / "examples.json"

_ENGINE = '''\
import json, os, sys, time
PIDS = {pids!r}
with open(PIDS, "a") as out:
    out.write(f"{{os.getpid()}}\\n")
def answer(request, **fields):
    sys.stdout.write(json.dumps({{"id": request["id"], "ok": True, **fields}}) + "\\n")
    sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "hello":
        answer(request, name="hostile", games=["omens"])
    elif request["cmd"] == "setup":
        answer(request)
    elif request["cmd"] == "quit":
        answer(request)
        break
    else:
{misbehave}
'''


def _engine(tmp_path: Path, misbehave: str, name: str = "engine.py") -> tuple[str, Path]:
    """A Python engine that answers ``hello`` and ``setup``, then does ``misbehave`` (the body
    of the branch for every other request, ``request`` in hand); it appends its pid to the
    returned file."""
    pids = tmp_path / "pids"
    body = "".join(f"        {line}\n" for line in misbehave.strip().splitlines())
    script = tmp_path / name
    script.write_text(_ENGINE.format(pids=str(pids), misbehave=body), encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}", pids


def _one_vector(tmp_path: Path) -> Path:
    data = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    data["vectors"] = data["vectors"][:1]
    folder = tmp_path / "vectors"
    folder.mkdir()
    (folder / "one.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" not in status.read_text(encoding="utf-8")
    except OSError:
        return False


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text(encoding="utf-8").split()]


def _all_gone(pids: list[int], within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def reaped() -> list[int]:
    """Pids a test must see ended; any left (a failing test) are killed at the end."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_wrapper_that_does_not_exec_is_stopped_with_its_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int]
) -> None:
    """``sh wrap.sh`` runs the engine as its child (no ``exec``); the engine hangs on
    ``legal``. The time-out kills the whole group: the shell and the engine."""
    engine, pids = _engine(tmp_path, "time.sleep(600)")
    wrapper = tmp_path / "wrap.sh"
    wrapper.write_text(f"echo $$ >> {shlex.quote(str(pids))}\n{engine}\n", encoding="utf-8")
    started = time.monotonic()
    status = main(["vectors", "check", str(_one_vector(tmp_path)), "--engine",
                   f"sh {shlex.quote(str(wrapper))}", "--timeout", "1", "--min-played", "0"])
    assert time.monotonic() - started < 20
    reaped += _pids(pids)
    assert status == 1
    assert "no answer to 'legal' within 1 s" in capsys.readouterr().out
    assert len(reaped) == 2 and _all_gone(reaped)


def test_a_helper_holding_the_output_is_stopped_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int]
) -> None:
    """The engine starts a helper that inherits its stdout and outlives it; the engine itself
    answers everything correctly. Stopping the engine kills the helper (same group), so the
    run ends at once instead of waiting on a pipe the helper holds."""
    helper = (f"import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
              f"'import time; time.sleep(600)']); open({str(tmp_path / 'pids')!r}, 'a')"
              ".write(f'{p.pid}\\n')")
    engine, pids = _engine(tmp_path, "answer(request, to_act=None, legal=[])")
    script = Path(shlex.split(engine)[1])
    script.write_text(f"{helper}\n" + script.read_text(encoding="utf-8"), encoding="utf-8")
    started = time.monotonic()
    status = main(["vectors", "check", str(_one_vector(tmp_path)), "--engine", engine,
                   "--min-played", "0"])
    assert time.monotonic() - started < 20
    reaped += _pids(pids)
    assert status == 1  # the answers are wrong; what matters is that the run ends
    assert "FAIL omens.example" in capsys.readouterr().out
    assert len(reaped) == 2 and _all_gone(reaped)


def test_ctrl_c_ends_the_run_with_130_and_no_leftovers(tmp_path: Path, reaped: list[int]
                                                       ) -> None:
    """SIGINT to the runner while it waits for an engine that does not answer: exit status
    130 within seconds, the engine (in a session of its own, so the terminal's Ctrl-C does
    not reach it) and its helper killed."""
    engine, pids = _engine(tmp_path, "time.sleep(600)")
    wrapper = tmp_path / "wrap.sh"
    wrapper.write_text(f"echo $$ >> {shlex.quote(str(pids))}\n{engine}\n", encoding="utf-8")
    runner = subprocess.Popen(
        [sys.executable, "-m", "omen_solver", "vectors", "check", str(_one_vector(tmp_path)),
         "--engine", f"sh {shlex.quote(str(wrapper))}", "--timeout", "300"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            not pids.exists() or len(_pids(pids)) < 2
        ):
            time.sleep(0.05)
        reaped += _pids(pids)
        assert len(reaped) == 2, "the engine did not start"
        time.sleep(0.3)  # the runner is now waiting for the answer to 'legal'
        runner.send_signal(signal.SIGINT)
        _, err = runner.communicate(timeout=15)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    assert runner.returncode == 130
    assert b"interrupted" in err
    assert _all_gone(reaped)


@pytest.mark.parametrize(
    ("misbehave", "message"),
    [
        ("sys.stdout.write('x' * (17 * 1024 * 1024)); sys.stdout.flush(); time.sleep(600)",
         "answer too long: the answer to 'legal' has more than 16,777,216 bytes"),
        ("sys.stdout.write('[' * 100000 + '\\n'); sys.stdout.flush()",
         "with JSON nested more than 64 levels deep"),
        ("sys.stdout.write('{\"id\": ' + str(request['id']) + ', \"ok\": true, \"x\": '"
         " + '[' * 70 + ']' * 70 + '}\\n'); sys.stdout.flush()",
         "with JSON nested more than 64 levels deep"),
        ("sys.stdout.buffer.write(b'\\xff\\xfe not utf-8\\n'); sys.stdout.flush()",
         "a line that is not JSON: '\ufffd\ufffd not utf-8'"),
        ("sys.stderr.buffer.write(b'bad \\xff byte\\n'); sys.stderr.flush(); sys.exit(4)",
         "bad \ufffd byte"),
        ("sys.stdout.write(json.dumps({'id': request['id'], 'ok': False, 'error': "
         "'no such card'}) + '\\n'); sys.stdout.flush()",
         "refused 'legal': no such card"),
    ],
    ids=["endless-line", "nested-json", "nested-answer", "non-utf8-stdout", "non-utf8-stderr",
         "refusal-text"],
)
def test_hostile_answers_are_bounded_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int], misbehave: str,
    message: str,
) -> None:
    engine, pids = _engine(tmp_path, misbehave)
    started = time.monotonic()
    status = main(["vectors", "check", str(_one_vector(tmp_path)), "--engine", engine,
                   "--timeout", "5", "--min-played", "0"])
    assert time.monotonic() - started < 30
    reaped += _pids(pids)
    out = capsys.readouterr().out
    assert status == 1
    assert message in out
    assert _all_gone(reaped)


def test_only_the_failing_process_stderr_is_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int]
) -> None:
    """Every start prints its own pid to stderr and dies on ``legal``: each failure shows the
    stderr of the process that failed, not of the earlier ones."""
    engine, pids = _engine(tmp_path, "sys.exit(3)")
    script = Path(shlex.split(engine)[1])
    script.write_text("import os, sys; print('started', os.getpid(), file=sys.stderr, "
                      "flush=True)\n" + script.read_text(encoding="utf-8"), encoding="utf-8")
    folder = _one_vector(tmp_path)
    data = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    data["vectors"] = data["vectors"][1:3]
    (folder / "two.json").write_text(json.dumps(data), encoding="utf-8")
    status = main(["vectors", "check", str(folder), "--engine", engine, "--min-played", "0"])
    reaped += _pids(pids)
    out = capsys.readouterr().out
    assert status == 1 and len(reaped) == 3
    for pid in reaped:
        assert out.count(f"started {pid}") == 1
    assert _all_gone(reaped)


def test_the_first_hello_has_its_own_time_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int]
) -> None:
    """An engine that takes 1.5 s to start (Node with TypeScript takes seconds) answers every
    request at once after that: --timeout 1 applies to the requests, --start-timeout to
    ``hello``."""
    engine, pids = _engine(tmp_path, "answer(request, to_act=None, legal=[])")
    script = Path(shlex.split(engine)[1])
    script.write_text("import time; time.sleep(1.5)\n" + script.read_text(encoding="utf-8"),
                      encoding="utf-8")
    folder = _one_vector(tmp_path)
    assert main(["vectors", "check", str(folder), "--engine", engine, "--timeout", "1",
                 "--start-timeout", "1"]) == 2
    assert "no answer to 'hello' within 1 s (--start-timeout)" in capsys.readouterr().err
    assert main(["vectors", "check", str(folder), "--engine", engine, "--timeout", "1",
                 "--start-timeout", "20"]) == 1
    assert "FAIL omens.example" in capsys.readouterr().out  # it started, then answered
    reaped += _pids(pids)
    assert _all_gone(reaped)


def test_a_fifo_or_an_oversized_file_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing writes to the FIFO: reading it would block for ever. It is refused without
    being read, given by name or found in a folder; so is a file over the size cap."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    assert main(["vectors", "check", str(fifo), "--engine", "unused"]) == 2
    assert f"{fifo}: not a regular file" in capsys.readouterr().err
    assert main(["vectors", "check", str(tmp_path), "--engine", "unused"]) == 2
    assert f"{fifo}: not a regular file" in capsys.readouterr().err
    fifo.unlink()
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(65 * 1024 * 1024)  # sparse: no disk used
    assert main(["vectors", "check", str(big), "--engine", "unused"]) == 2
    assert "68,157,440 bytes, more than the 67,108,864" in capsys.readouterr().err
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000, encoding="utf-8")
    assert main(["vectors", "check", str(nested), "--engine", "unused"]) == 2
    assert "JSON nested more than 64 levels deep" in capsys.readouterr().err
    assert time.monotonic() - started < 10


def test_the_last_words_on_stderr_are_read_to_the_end_before_they_are_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine that writes to stderr and exits at once: the failure shows what it wrote even
    when the thread reading its stderr is slower than the exit is seen (a loaded machine)."""
    from omen_solver.vectors.process import EngineProcess

    keep = EngineProcess._keep_stderr

    def slow(lines: Any) -> Any:
        kept = keep(lines)

        def later(line: object) -> None:
            time.sleep(0.3)
            kept(line)
        return later

    monkeypatch.setattr(EngineProcess, "_keep_stderr", staticmethod(slow))
    engine, pids = _engine(tmp_path, "sys.stderr.write('my last words\\n'); sys.stderr.flush(); "
                                     "sys.exit(4)")
    status = main(["vectors", "check", str(_one_vector(tmp_path)), "--engine", engine,
                   "--timeout", "5", "--min-played", "0"])
    reaped += _pids(pids)
    out = capsys.readouterr().out
    assert status == 1
    assert "my last words" in out
    assert _all_gone(reaped)


@pytest.mark.parametrize("where", ["hello", "legal"])
def test_a_number_too_long_to_read_is_named_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reaped: list[int], where: str
) -> None:
    """C4 of the fault run: an engine whose answer holds a 100,000-digit number (Python's
    int() refuses more than 4,300 digits) crashed the runner; it is now a failure of that
    engine, named, like any answer that is not the protocol's."""
    huge = "9" * 100_000
    engine, pids = _engine(tmp_path, "sys.stdout.write('{\"id\": ' + str(request['id']) + "
                                     f"', \"ok\": true, \"n\": {huge}}}\\n'); "
                                     "sys.stdout.flush()")
    if where == "hello":
        script = Path(shlex.split(engine)[1])
        text = script.read_text(encoding="utf-8").replace(
            'answer(request, name="hostile", games=["omens"])',
            f'answer(request, name="hostile", games=["omens"], n=int("{huge}"[:4000]) * '
            '10 ** 96000)')
        script.write_text("import sys; sys.set_int_max_str_digits(0)\n" + text,
                          encoding="utf-8")
    status = main(["vectors", "check", str(_one_vector(tmp_path)), "--engine", engine,
                   "--timeout", "10", "--min-played", "0"])
    reaped += _pids(pids)
    captured = capsys.readouterr()
    assert status in (1, 2)
    assert "100,000 digits" in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err
    assert _all_gone(reaped)
