"""``omen-solver vectors check DIR --engine COMMAND``: drive an engine through the vectors.

The engine runs as a child process speaking the JSON-lines protocol of
:mod:`omen_solver.vectors.protocol` on its stdin and stdout. For every vector the runner sets
up the position, then compares who acts and the legal actions after the setup and after every
action, and the state wherever the vector states one. A vector stops at its first mismatch,
which is reported with the vector id, the step, what was expected and what the engine said.
Every request has a time limit; an engine that dies, hangs or answers something that is not a
protocol answer is reported as such and started again for the next vector.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from omen_solver.errors import OmenSolverError
from omen_solver.vectors.jsonfile import VectorFileError, read_json, validate
from omen_solver.vectors.protocol import PROTOCOL_VERSION, normalize_legal, normalize_state

__all__ = [
    "CheckReport",
    "EngineError",
    "EngineProcess",
    "Mismatch",
    "VectorResult",
    "check_vectors",
    "load_vector_files",
]

_EOF: Final = object()
_SHOWN: Final = 8
"""Actions listed at most in a legal-action mismatch (each side)."""
_CONSECUTIVE_FAILURES: Final = 3
"""Engine failures in a row (death, time-out, garbage) after which the run stops."""


class EngineError(Exception):
    """The engine died, did not answer in time, or answered something else than the protocol."""


class EngineStartError(OmenSolverError):
    """The engine command cannot be started or does not answer ``hello``: bad input."""


@dataclass(frozen=True)
class VectorFile:
    path: Path
    data: Mapping[str, Any]


def load_vector_files(path: Path) -> list[VectorFile]:
    """The vector files under ``path`` (a folder, searched recursively, or one file), each
    validated against the schema; perft, coverage, reference and schema files are skipped."""
    if not path.exists():
        raise VectorFileError(f"{path}: no such file or folder")
    candidates = [path] if path.is_file() else sorted(path.rglob("*.json"))
    files = []
    for candidate in candidates:
        data = read_json(candidate)
        if isinstance(data, dict) and "$schema" in data:
            continue
        validate(data, str(candidate))
        if data["format"] == "omen-solver-vectors":
            files.append(VectorFile(candidate, data))
    if not files:
        raise VectorFileError(f"{path}: no vector file (format 'omen-solver-vectors') here")
    return files


class EngineProcess:
    """The engine as a child process: one request line out, one answer line back."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.stderr: deque[str] = deque(maxlen=20)
        self.name = ""
        self.games: tuple[str, ...] = ()
        self._next_id = 0
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise EngineStartError(f"--engine {self.command!r}: {error}") from None
        if not argv:
            raise EngineStartError("--engine: the command is empty")
        try:
            self._process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", bufsize=1,
            )
        except OSError as error:
            raise EngineStartError(
                f"--engine {self.command!r}: cannot start {argv[0]!r}: "
                f"{error.strerror or error}"
            ) from None
        self._lines = queue.Queue()
        assert self._process.stdout is not None and self._process.stderr is not None
        self._threads = [
            threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True),
            threading.Thread(target=self._drain, args=(self._process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        try:
            hello = self.request("hello", protocol=PROTOCOL_VERSION)
        except EngineError as error:
            self.stop()
            raise EngineStartError(f"--engine {self.command!r}: {error}") from None
        if not hello.get("ok"):
            self.stop()
            raise EngineStartError(
                f"--engine {self.command!r}: refused 'hello': {hello.get('error')!r}"
            )
        self.name = str(hello.get("name", argv[0]))
        games = hello.get("games", [])
        self.games = tuple(g for g in games if isinstance(g, str)) if isinstance(games,
                                                                                  list) else ()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(_EOF)

    def _drain(self, stream: IO[str]) -> None:
        for line in stream:
            self.stderr.append(line.rstrip("\n"))

    def _died(self) -> str:
        assert self._process is not None
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        tail = "\n    ".join(list(self.stderr)[-5:])
        status = "closed its output" if code is None else f"exited with status {code}"
        return f"the engine {status}" + (f"; its last words on stderr:\n    {tail}" if tail
                                          else "")

    def request(self, command: str, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its answer (at most ``timeout`` seconds)."""
        if self._process is None or self._process.stdin is None:
            raise EngineError("the engine is not running")
        self._next_id += 1
        message = {"id": self._next_id, "cmd": command, **fields}
        try:
            self._process.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(self._died()) from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineError(
                f"no answer to {command!r} within {self.timeout:g} s (--timeout)"
            ) from None
        if line is _EOF:
            raise EngineError(self._died())
        text = str(line).rstrip("\n")
        try:
            answer = json.loads(text)
        except json.JSONDecodeError:
            raise EngineError(f"answered {command!r} with a line that is not JSON: "
                              f"{text[:200]!r}") from None
        if not isinstance(answer, dict) or answer.get("id") != self._next_id:
            raise EngineError(
                f"answered {command!r} (id {self._next_id}) with {text[:200]!r}: expected a "
                f"JSON object with \"id\": {self._next_id} and \"ok\""
            )
        if not isinstance(answer.get("ok"), bool):
            raise EngineError(f"answered {command!r} without \"ok\": true or false: "
                              f"{text[:200]!r}")
        return answer

    def stop(self, *, kill: bool = False) -> None:
        """Ask the engine to quit (``kill``: end it at once, it is not answering)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if kill and process.poll() is None:
                process.kill()
            elif process.poll() is None and process.stdin is not None:
                process.stdin.write(json.dumps({"id": 0, "cmd": "quit"}) + "\n")
                process.stdin.flush()
                process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            process.kill()
            process.wait()
        for thread in self._threads:
            thread.join(timeout=2)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None and not stream.closed:
                with contextlib.suppress(OSError):
                    stream.close()


@dataclass(frozen=True)
class Mismatch:
    """Where an engine disagrees with a vector."""

    vector: str
    step: int
    """0: right after the setup; N: after the vector's N-th action."""
    action: str | None
    what: str
    expected: Any
    actual: Any

    def describe(self) -> str:
        where = "after the setup" if self.step == 0 else f"step {self.step} (after {self.action!r})"
        return (f"{self.vector}: {where}: {self.what}:\n    expected {_short(self.expected)}\n"
                f"    engine   {_short(self.actual)}")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 400 else text[:400] + " ..."


@dataclass
class VectorResult:
    vector: str
    rules: Sequence[str]
    status: str
    """``passed``, ``failed`` or ``skipped``."""
    mismatches: list[Mismatch] = field(default_factory=list)
    message: str = ""


def _legal_mismatch(vector: str, step: int, action: str | None, expected: Mapping[str, Any],
                    answer: Mapping[str, Any]) -> list[Mismatch]:
    found = []
    if answer.get("to_act") != expected["to_act"]:
        found.append(Mismatch(vector, step, action, "to_act", expected["to_act"],
                              answer.get("to_act")))
    want = normalize_legal(expected["legal"])
    got = normalize_legal(answer.get("legal"))
    if got is None:
        found.append(Mismatch(vector, step, action, "legal", expected["legal"],
                              answer.get("legal")))
    elif got != want:
        assert want is not None
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        found.append(Mismatch(
            vector, step, action, "legal actions",
            {"missing from the engine": missing[:_SHOWN]},
            {"not legal by the rules": extra[:_SHOWN],
             "counts": f"{len(got)} listed, {len(want)} expected"},
        ))
    return found


def _state_mismatch(game: str, vector: str, step: int, action: str | None,
                    expected: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Mismatch]:
    actual = answer.get("state")
    if not isinstance(actual, dict):
        return [Mismatch(vector, step, action, "state", expected, actual)]
    want = normalize_state(game, expected)
    got = normalize_state(game, actual)
    return [
        Mismatch(vector, step, action, f"state.{key}", want[key], got.get(key, "(missing)"))
        for key in want
        if got.get(key, "(missing)") != want[key]
    ]


def check_vector(engine: EngineProcess, game: str, vector: Mapping[str, Any]) -> VectorResult:
    """Drive one vector through the engine (EngineError propagates)."""
    vid = vector["id"]
    result = VectorResult(vid, vector["rules"], "passed")
    setup = engine.request("setup", game=game, options=vector["options"],
                           position=vector["position"])
    if not setup["ok"]:
        if setup.get("unsupported"):
            result.status, result.message = "skipped", str(setup.get("error", "unsupported"))
            return result
        result.status = "failed"
        result.mismatches.append(Mismatch(vid, 0, None, "setup", "ok", setup.get("error")))
        return result
    steps: list[tuple[str | None, Mapping[str, Any]]] = [(None, vector["start"])]
    steps += [(step["action"], step) for step in vector["steps"]]
    for number, (action, expected) in enumerate(steps):
        if action is not None:
            played = engine.request("play", action=action)
            if not played["ok"]:
                result.mismatches.append(Mismatch(vid, number, action, "play",
                                                  "the action is legal", played.get("error")))
                break
        found = _legal_mismatch(vid, number, action, expected, engine.request("legal"))
        if "state" in expected:
            found += _state_mismatch(game, vid, number, action, expected["state"],
                                     engine.request("state"))
        if found:
            result.mismatches += found
            break
    if result.mismatches:
        result.status = "failed"
    return result


@dataclass
class CheckReport:
    engine: str
    results: list[VectorResult] = field(default_factory=list)
    stopped: str = ""

    def counts(self) -> Counter[str]:
        return Counter(result.status for result in self.results)

    def by_rule(self) -> dict[str, Counter[str]]:
        table: dict[str, Counter[str]] = {}
        for result in self.results:
            for rule in result.rules:
                table.setdefault(rule, Counter())[result.status] += 1
        return dict(sorted(table.items()))

    def ok(self) -> bool:
        return not self.stopped and self.counts()["failed"] == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "passed": self.counts()["passed"],
            "failed": self.counts()["failed"],
            "skipped": self.counts()["skipped"],
            "stopped": self.stopped or None,
            "failures": [
                {
                    "vector": r.vector,
                    "message": r.message,
                    "mismatches": [
                        {"step": m.step, "action": m.action, "what": m.what,
                         "expected": m.expected, "actual": m.actual}
                        for m in r.mismatches
                    ],
                }
                for r in self.results if r.status == "failed"
            ],
            "skipped_vectors": [{"vector": r.vector, "reason": r.message}
                                for r in self.results if r.status == "skipped"],
            "by_rule": {rule: dict(counts) for rule, counts in self.by_rule().items()},
        }


def _vectors(files: Sequence[VectorFile], games: Sequence[str], match: str | None
             ) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for file in files:
        game = file.data["game"]
        if games and game not in games:
            continue
        for vector in file.data["vectors"]:
            if match is None or match in vector["id"]:
                yield game, vector


def check_vectors(
    files: Sequence[VectorFile],
    command: str,
    *,
    timeout: float = 10.0,
    games: Sequence[str] = (),
    match: str | None = None,
    max_failures: int | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    on_result: Callable[[VectorResult], None] | None = None,
) -> CheckReport:
    """Run the selected vectors through the engine ``command``."""
    todo = list(_vectors(files, games, match))
    if not todo:
        raise VectorFileError("no vector matches the selection (--game, --match)")
    engine = EngineProcess(command, timeout)
    engine.start()
    report = CheckReport(engine.name)
    failures_in_a_row = 0
    try:
        for index, (game, vector) in enumerate(todo):
            if progress is not None:
                progress(index, len(todo), vector["id"])
            if engine.games and game not in engine.games:
                result = VectorResult(vector["id"], vector["rules"], "skipped",
                                      message=f"the engine does not play {game}")
            else:
                result = _checked(engine, game, vector)
            report.results.append(result)
            if on_result is not None:
                on_result(result)
            failures_in_a_row = failures_in_a_row + 1 if result.message.startswith(
                "engine:") else 0
            if failures_in_a_row >= _CONSECUTIVE_FAILURES:
                report.stopped = (f"the engine failed {failures_in_a_row} vectors in a row; "
                                  "stopping")
                break
            if max_failures is not None and report.counts()["failed"] >= max_failures:
                report.stopped = f"{max_failures} failure(s) reached (--max-failures)"
                break
    finally:
        engine.stop()
    return report


def _checked(engine: EngineProcess, game: str, vector: Mapping[str, Any]) -> VectorResult:
    try:
        return check_vector(engine, game, vector)
    except EngineError as error:
        result = VectorResult(vector["id"], vector["rules"], "failed",
                              message=f"engine: {error}")
        engine.stop(kill=True)
        try:
            engine.start()
        except EngineStartError as again:
            result.message += f"; restarting it failed: {again}"
        return result
