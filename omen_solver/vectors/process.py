"""An engine behind the vector protocol, as a child process in a process group of its own.

The runner (:mod:`omen_solver.vectors.runner`) writes one request line to the engine's stdin and
waits, at most a time limit, for one answer line on its stdout. What this module guarantees,
whatever the engine does (docs/vectors.md, "What `vectors check` promises"):

- **Everything the engine starts is stopped.** The engine runs in a new session (its own
  process group), so a wrapper script that does not ``exec``, or a helper the engine starts,
  is in the group too; stopping the engine (after ``quit``, on a time-out, on Ctrl-C or any
  other exception) kills the whole group. A pipe is never closed under a thread blocked on
  it: the reader threads end by themselves on end of file, once every writer is dead.
- **Every read is bounded.** An answer line may be at most :data:`MAX_LINE` bytes (a longer one
  is "answer too long", and the rest of it is read and dropped, so the engine never blocks on a
  full pipe); stderr is kept as its last :data:`STDERR_LINES` lines, each cut to
  :data:`STDERR_CHARS` characters; bytes are decoded as UTF-8 with replacement, so a stray
  byte is shown, not fatal; a JSON answer may be nested at most :data:`MAX_DEPTH` levels.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, BinaryIO, Final

from omen_solver.core.processes import parent_death_signal
from omen_solver.errors import EngineError, EngineStartError, OptionError
from omen_solver.vectors.jsonfile import MAX_DEPTH, json_depth

__all__ = [
    "MAX_LINE",
    "EngineProcess",
]

MAX_LINE: Final = 16 * 1024 * 1024
"""The longest answer line an engine may write, in bytes (16 MiB)."""
STDERR_LINES: Final = 20
"""Lines of the engine's stderr kept (the last ones), shown when it fails."""
STDERR_CHARS: Final = 300
"""Characters kept of each stderr line."""
_CHUNK: Final = 65536
_EOF: Final = object()
_TOO_LONG: Final = object()
_STOP_GRACE: Final = 2.0
"""Seconds an engine has to exit after ``quit`` before its group is killed."""


def _lines(stream: BinaryIO, emit: Callable[[object], None], limit: int) -> None:
    """Read the unbuffered ``stream`` to its end, calling ``emit`` with each line (decoded,
    without its end), :data:`_TOO_LONG` for a line over ``limit`` bytes (whose rest is
    dropped), and :data:`_EOF` at the end; then close it. Runs in a reader thread, which owns
    the stream: nothing else reads or closes it."""
    fd = stream.fileno()
    pending = bytearray()
    dropping = False
    try:
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                break
            if not chunk:
                break
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                if end < 0:
                    if not dropping:
                        pending += chunk[start:]
                        if len(pending) > limit:
                            emit(_TOO_LONG)
                            pending.clear()
                            dropping = True
                    break
                if dropping:
                    dropping = False
                else:
                    pending += chunk[start:end]
                    if len(pending) > limit:
                        emit(_TOO_LONG)
                    else:
                        emit(pending.decode("utf-8", errors="replace").rstrip("\r"))
                pending.clear()
                start = end + 1
        if pending and not dropping:
            emit(pending.decode("utf-8", errors="replace"))
    finally:
        emit(_EOF)
        with contextlib.suppress(OSError):
            stream.close()


MAX_DIGITS: Final = 1000
"""Digits a number in an answer may have (Python's int() refuses more than 4,300 and would
spend its time on fewer that no engine means)."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text):,} digits (at most {MAX_DIGITS:,})")
    return int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name}, which is not JSON")


class EngineProcess:
    """The engine as a child process: one request line out, one answer line back.

    ``timeout`` bounds every answer; ``start_timeout`` the first one of each start (``hello``:
    an engine may take seconds to start)."""

    def __init__(self, command: str, timeout: float, start_timeout: float | None = None,
                 *, max_line: int = MAX_LINE) -> None:
        for name, value in (("timeout", timeout), ("start_timeout", start_timeout)):
            if value is not None and (isinstance(value, bool) or not isinstance(
                    value, int | float) or not 0 < value < math.inf):
                # A timeout of NaN or infinity would wait on a silent engine for ever.
                raise OptionError(f"{name}: a positive, finite number of seconds, not "
                                  f"{value!r}")
        self.command = command
        self.timeout = timeout
        self.start_timeout = max(timeout, start_timeout or timeout)
        self.max_line = max_line
        self.stderr: deque[str] = deque(maxlen=STDERR_LINES)
        """The last lines of stderr of the engine process now running (or last run)."""
        self.hello: dict[str, Any] = {}
        self.name = ""
        self.games: tuple[str, ...] = ()
        self._next_id = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._answers: queue.Queue[object] = queue.Queue()
        self._threads: list[threading.Thread] = []

    # -- starting ---------------------------------------------------------------------------

    def argv(self) -> list[str]:
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise EngineStartError(f"--engine {self.command!r}: {error}") from None
        if not argv:
            raise EngineStartError("--engine: the command is empty")
        return argv

    def start(self) -> dict[str, Any]:
        """Start the engine and say ``hello``; return its answer (EngineStartError if it does
        not start or answer)."""
        argv = self.argv()
        try:
            # The engine also ends if this process is killed outright (kill -9) and cannot
            # stop its group.
            process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, start_new_session=True, preexec_fn=parent_death_signal,
            )
        except OSError as error:
            raise EngineStartError(
                f"--engine {self.command!r}: cannot start {argv[0]!r}: "
                f"{error.strerror or error}"
            ) from None
        self._process = process
        self._answers = queue.Queue()
        self.stderr = deque(maxlen=STDERR_LINES)
        assert process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout, process.stderr
        # The reader threads own these streams from now on and close them at their end.
        process.stdout = process.stderr = None
        self._threads = [
            threading.Thread(target=_lines, args=(stdout, self._answers.put, self.max_line),
                             daemon=True, name="engine-stdout"),
            threading.Thread(target=_lines, args=(stderr, self._keep_stderr(self.stderr),
                                                  self.max_line),
                             daemon=True, name="engine-stderr"),
        ]
        for thread in self._threads:
            thread.start()
        try:
            hello = self.request("hello", timeout=self.start_timeout, protocol=1)
        except EngineError as error:
            self.stop(kill=True)
            raise EngineStartError(f"--engine {self.command!r}: {error}") from None
        except BaseException:
            self.stop(kill=True)
            raise
        if not hello.get("ok"):
            self.stop(kill=True)
            raise EngineStartError(
                f"--engine {self.command!r}: refused 'hello': {hello.get('error')!r}"
            )
        self.hello = hello
        self.name = str(hello.get("name", argv[0]))[:200]
        games = hello.get("games", [])
        self.games = tuple(g for g in games if isinstance(g, str)) if isinstance(
            games, list) else ()
        return hello

    @staticmethod
    def _keep_stderr(lines: deque[str]) -> Callable[[object], None]:
        def keep(line: object) -> None:
            if line is _TOO_LONG:
                lines.append("(a line of more than 16 MiB, not shown)")
            elif isinstance(line, str):
                lines.append(line[:STDERR_CHARS] + (" ..." if len(line) > STDERR_CHARS else ""))
        return keep

    # -- talking ----------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._process is not None

    def _died(self) -> str:
        process = self._process
        status = "closed its output"
        deadline = time.monotonic() + 1.0
        if process is not None:
            while _running(process) and time.monotonic() < deadline:
                time.sleep(0.01)
            status = _exit_status(process) or status
        # its last words may still be in the pipe: let the stderr reader reach the end first
        for thread in self._threads:
            if thread.name == "engine-stderr":
                thread.join(timeout=max(0.0, deadline - time.monotonic()) + 0.5)
        tail = "\n    ".join(list(self.stderr)[-5:])
        return f"the engine {status}" + (f"; its last words on stderr:\n    {tail}" if tail
                                          else "")

    def request(self, command: str, *, timeout: float | None = None,
                **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its answer (at most ``timeout`` seconds, by default
        the engine's)."""
        process = self._process
        if process is None or process.stdin is None:
            raise EngineError("the engine is not running")
        self._next_id += 1
        message = {"id": self._next_id, "cmd": command, **fields}
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            process.stdin.write(data)
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(self._died()) from None
        limit = self.timeout if timeout is None else timeout
        try:
            line = self._answers.get(timeout=limit)
        except queue.Empty:
            raise EngineError(
                f"no answer to {command!r} within {limit:g} s "
                f"({'--start-timeout' if command == 'hello' else '--timeout'})"
            ) from None
        if line is _EOF:
            raise EngineError(self._died())
        if line is _TOO_LONG:
            raise EngineError(f"answer too long: the answer to {command!r} has more than "
                              f"{self.max_line:,} bytes without a line end")
        return self._parse(command, str(line))

    def _parse(self, command: str, text: str) -> dict[str, Any]:
        shown = text[:200]
        try:
            answer = json.loads(text, parse_int=_integer, parse_constant=_no_constant)
        except json.JSONDecodeError:
            raise EngineError(f"answered {command!r} with a line that is not JSON: "
                              f"{shown!r}") from None
        except ValueError as problem:  # a number too long, NaN or an infinity
            raise EngineError(f"answered {command!r} with {problem}: {text[:60]!r}") from None
        except RecursionError:
            answer = None
            depth = None
        else:
            depth = json_depth(answer)
        if depth is None or depth > MAX_DEPTH:
            raise EngineError(f"answered {command!r} with JSON nested more than {MAX_DEPTH} "
                              f"levels deep: {text[:60]!r}")
        if not isinstance(answer, dict) or answer.get("id") != self._next_id:
            raise EngineError(
                f"answered {command!r} (id {self._next_id}) with {shown!r}: expected a "
                f"JSON object with \"id\": {self._next_id} and \"ok\""
            )
        if not isinstance(answer.get("ok"), bool):
            raise EngineError(f"answered {command!r} without \"ok\": true or false: "
                              f"{shown!r}")
        return answer

    # -- stopping ---------------------------------------------------------------------------

    def stop(self, *, kill: bool = False) -> None:
        """Stop the engine and everything it started: ask it to quit (unless ``kill``), give
        it :data:`_STOP_GRACE` seconds, then kill its process group. Never blocks for long,
        also when interrupted (the group is killed in any case)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if not kill and _running(process) and process.stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    process.stdin.write(b'{"id": 0, "cmd": "quit"}\n')
                    process.stdin.flush()
                with contextlib.suppress(OSError):
                    process.stdin.close()  # end of input: the engine's last request
                deadline = time.monotonic() + _STOP_GRACE
                while _running(process) and time.monotonic() < deadline:
                    time.sleep(0.01)
        finally:
            # The child is not reaped before this, so its pid (the group's id) is still taken.
            _kill_group(process)
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=_STOP_GRACE)
            for thread in self._threads:
                # The readers end on end of file once every process holding the pipe is dead;
                # one that something outside the group still holds is left to end by itself.
                thread.join(timeout=0.5)


def _running(process: subprocess.Popen[bytes]) -> bool:
    """Whether the child has not exited yet (without reaping it: its pid stays reserved)."""
    if process.returncode is not None:
        return False
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return found is None


def _exit_status(process: subprocess.Popen[bytes]) -> str | None:
    """How the child ended, if it has (it stays unreaped)."""
    if process.returncode is not None:
        code = process.returncode
        return (f"exited with status {code}" if code >= 0
                else f"was killed by signal {-code}")
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return None
    if found is None:
        return None
    if found.si_code == os.CLD_EXITED:
        return f"exited with status {found.si_status}"
    return f"was killed by signal {found.si_status}"


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the engine's process group (its session: the engine and all it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        process.kill()
