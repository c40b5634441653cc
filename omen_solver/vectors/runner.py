"""``omen-solver vectors check DIR --engine COMMAND``: drive an engine through the vectors.

The engine runs as a child process speaking the JSON-lines protocol of
:mod:`omen_solver.vectors.protocol` on its stdin and stdout (:mod:`omen_solver.vectors.process`
starts and stops it). Its ``hello`` says which rule settings it plays
(:mod:`omen_solver.vectors.settings`); the runner plays the vectors that hold under them (all
of them for an engine that can switch), sets up each position, then compares who acts and the
legal actions after the setup and after every action, and the state wherever the vector
states one. A vector stops at its first mismatch, which is reported with the vector id, the
step, what was expected and what the engine said. Every request has a time limit; an engine
that dies, hangs or answers something that is not a protocol answer is reported as such and
started again for the next vector. Too few vectors played is a failure too (``min_played``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from omen_solver.errors import EngineError, EngineStartError, VectorFileError
from omen_solver.vectors.jsonfile import validated_files
from omen_solver.vectors.process import EngineProcess
from omen_solver.vectors.protocol import normalize_legal, normalize_state
from omen_solver.vectors.settings import EngineRules, declared, holds

__all__ = [
    "CheckReport",
    "EngineError",
    "EngineProcess",
    "EngineStartError",
    "Mismatch",
    "VectorResult",
    "check_vectors",
    "load_vector_files",
    "selected_vectors",
]

_SHOWN: Final = 8
"""Actions listed at most in a legal-action mismatch (each side)."""
_CONSECUTIVE_FAILURES: Final = 3
"""Engine failures in a row (death, time-out, garbage) after which the run stops."""


@dataclass(frozen=True)
class VectorFile:
    path: Path
    data: Mapping[str, Any]


_SKIPPED_FORMATS: Final = ("omen-solver-perft", "omen-solver-coverage", "omen-solver-reference")


def load_vector_files(path: Path) -> list[VectorFile]:
    """The vector files under ``path`` (a folder, searched recursively, or one file), each
    validated against the schema; perft, coverage, reference and schema files are skipped."""
    files = [VectorFile(candidate, data) for candidate, data in validated_files(path)
             if data["format"] == "omen-solver-vectors"]
    if not files:
        raise VectorFileError(f"{path}: no vector file (format 'omen-solver-vectors') here")
    return files


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

    @property
    def played(self) -> bool:
        return self.status != "skipped"


def _refused(command: str, answer: Mapping[str, Any]) -> str:
    """The engine's own words when it answers ``"ok": false``."""
    error = answer.get("error")
    text = error if isinstance(error, str) and error else "(no 'error' text)"
    return f"refused {command!r}: {text[:400]}"


def _legal_mismatch(vector: str, step: int, action: str | None, expected: Mapping[str, Any],
                    answer: Mapping[str, Any]) -> list[Mismatch]:
    if not answer["ok"]:
        return [Mismatch(vector, step, action, "legal", expected, _refused("legal", answer))]
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
    if not answer["ok"]:
        return [Mismatch(vector, step, action, "state", expected, _refused("state", answer))]
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


def check_vector(engine: EngineProcess, game: str, vector: Mapping[str, Any],
                 options: Mapping[str, Any] | None = None) -> VectorResult:
    """Drive one vector through the engine (EngineError propagates). ``options``: what the
    setup request says (by default the vector's own)."""
    vid = vector["id"]
    result = VectorResult(vid, vector["rules"], "passed")
    setup = engine.request("setup", game=game, options=options or vector["options"],
                           position=vector["position"])
    if not setup["ok"]:
        if setup.get("unsupported"):
            reason = setup.get("error")
            result.status = "skipped"
            result.message = "unsupported: " + (str(reason)[:200] if reason else "(no reason)")
            return result
        result.status = "failed"
        result.mismatches.append(Mismatch(vid, 0, None, "setup", "ok",
                                          _refused("setup", setup)))
        return result
    steps: list[tuple[str | None, Mapping[str, Any]]] = [(None, vector["start"])]
    steps += [(step["action"], step) for step in vector["steps"]]
    for number, (action, expected) in enumerate(steps):
        if action is not None:
            played = engine.request("play", action=action)
            if not played["ok"]:
                result.mismatches.append(Mismatch(vid, number, action, "play",
                                                  "the action is legal",
                                                  _refused("play", played)))
                break
        found = _legal_mismatch(vid, number, action, expected, engine.request("legal"))
        if "state" in expected and not found:
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
    selected: int = 0
    """Vectors selected (the folder's, after --game and --match)."""
    min_played: int = 0
    rules: dict[str, str] = field(default_factory=dict)
    """Each game's settings as the engine declared them."""

    def counts(self) -> Counter[str]:
        return Counter(result.status for result in self.results)

    @property
    def played(self) -> int:
        return sum(result.played for result in self.results)

    def by_rule(self) -> dict[str, Counter[str]]:
        table: dict[str, Counter[str]] = {}
        for result in self.results:
            for rule in result.rules:
                table.setdefault(rule, Counter())[result.status] += 1
        return dict(sorted(table.items()))

    def too_few(self) -> str:
        """Why the run fails for playing too few vectors, and what to do ("" if it does
        not)."""
        if self.stopped or self.played >= self.min_played:
            return ""
        why = Counter(
            "unsupported" if r.message.startswith("unsupported") else
            "game" if r.message.startswith("the engine does not play") else "settings"
            for r in self.results if not r.played)
        parts = [text for count, text in (
            (why["unsupported"], f"the engine answered 'unsupported' to {why['unsupported']} "
                                 "setups"),
            (why["settings"], f"{why['settings']} do not hold under the settings it declares"),
            (why["game"], f"{why['game']} are of a game it does not play")) if count]
        return (f"played {self.played} of {self.selected} vectors, fewer than --min-played "
                f"{self.min_played}" + (f" ({'; '.join(parts)})" if parts else "") + ". Make "
                "the engine set up more of them (answer 'unsupported' only for what it cannot "
                "play), check the folder of the suite it is meant for (e.g. "
                "vectors/omens/rulebook for the rulebook preset; --game omens)"
                + (", make a suite for the settings it declares (omen-solver vectors export "
                   "--game omens --out DIR --preset NAME --rule NAME=SETTING)"
                   if why["settings"] else "")
                + ", or give --min-played N to accept fewer")

    def skip_reasons(self) -> list[tuple[str, int]]:
        """Why vectors were skipped, the most frequent reason first."""
        reasons = Counter(_reason_kind(r.message) for r in self.results if not r.played)
        return sorted(reasons.items(), key=lambda item: (-item[1], item[0]))

    def ok(self) -> bool:
        return not self.stopped and self.counts()["failed"] == 0 and not self.too_few()

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "options": dict(self.rules),
            "vectors": self.selected,
            "played": self.played,
            "min_played": self.min_played,
            "passed": self.counts()["passed"],
            "failed": self.counts()["failed"],
            "skipped": self.counts()["skipped"],
            "stopped": self.stopped or None,
            "too_few": self.too_few() or None,
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
            "skip_reasons": dict(self.skip_reasons()),
            "by_rule": {rule: dict(counts) for rule, counts in self.by_rule().items()},
        }


def _reason_kind(message: str) -> str:
    """A skip reason without what varies from vector to vector (for the summary)."""
    if message.startswith(("its expectations change with ", "recorded with ")):
        return message.split(" (", 1)[0]
    return message


def selected_vectors(files: Sequence[VectorFile], games: Sequence[str], match: str | None
                     ) -> list[tuple[str, Mapping[str, Any]]]:
    """The vectors to run, each once: a vector that several suites ship (the same id and the
    same content but for ``covers``, what it was kept for in its suite) counts once; the same
    id with other content is bad input."""
    seen: dict[str, tuple[Path, Mapping[str, Any]]] = {}
    todo = []
    for file in files:
        game = file.data["game"]
        if games and game not in games:
            continue
        for vector in file.data["vectors"]:
            if match is not None and match not in vector["id"]:
                continue
            earlier = seen.get(vector["id"])
            if earlier is not None:
                if _content(earlier[1]) != _content(vector):
                    raise VectorFileError(
                        f"{file.path}: vector {vector['id']!r} differs from the vector of the "
                        f"same id in {earlier[0]}"
                    )
                continue
            seen[vector["id"]] = (file.path, vector)
            todo.append((game, vector))
    return todo


def _content(vector: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in vector.items() if key != "covers"}


def check_vectors(
    files: Sequence[VectorFile],
    command: str,
    *,
    timeout: float = 10.0,
    start_timeout: float = 60.0,
    games: Sequence[str] = (),
    match: str | None = None,
    max_failures: int | None = None,
    min_played: int | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    on_result: Callable[[VectorResult], None] | None = None,
) -> CheckReport:
    """Run the selected vectors through the engine ``command``. ``min_played``: fewer vectors
    played fails the run (default: half of those selected)."""
    todo = selected_vectors(files, games, match)
    if not todo:
        raise VectorFileError("no vector matches the selection (--game, --match)")
    engine = EngineProcess(command, timeout, start_timeout)
    hello = engine.start()
    try:
        rules = declared(hello, sorted({game for game, _ in todo}))
    except ValueError as error:
        engine.stop(kill=True)
        raise EngineStartError(f"--engine {command!r}: {error}") from None
    report = CheckReport(engine.name, selected=len(todo),
                         min_played=(len(todo) + 1) // 2 if min_played is None else min_played,
                         rules={game: r.describe() for game, r in rules.items()
                                if not engine.games or game in engine.games})
    failures_in_a_row = 0
    try:
        for index, (game, vector) in enumerate(todo):
            if progress is not None:
                progress(index, len(todo), vector["id"])
            result = _one(engine, rules[game], game, vector)
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
    except BaseException:
        engine.stop(kill=True)
        raise
    engine.stop()
    return report


def _one(engine: EngineProcess, rules: EngineRules, game: str, vector: Mapping[str, Any]
         ) -> VectorResult:
    if engine.games and game not in engine.games:
        return VectorResult(vector["id"], vector["rules"], "skipped",
                            message=f"the engine does not play {game}")
    if rules.settings is not None:
        why = holds(vector, game, rules.settings)
        if why is not None:
            return VectorResult(vector["id"], vector["rules"], "skipped", message=why)
    return _checked(engine, game, vector, rules.setup_options(vector))


def _checked(engine: EngineProcess, game: str, vector: Mapping[str, Any],
             options: Mapping[str, Any]) -> VectorResult:
    if not engine.running:
        try:
            engine.start()
        except EngineStartError as error:
            return VectorResult(vector["id"], vector["rules"], "failed",
                                message=f"engine: it did not start again: {error}")
    try:
        return check_vector(engine, game, vector, options)
    except EngineError as error:
        result = VectorResult(vector["id"], vector["rules"], "failed",
                              message=f"engine: {error}")
        engine.stop(kill=True)
        return result
