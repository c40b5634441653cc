"""``omen-solver vectors perft DIR --engine COMMAND``: the perft suites through the protocol.

For every case of the perft files of ``DIR`` (``*/perft.json``: a position, its settings and
the recorded counts per depth, docs/vectors.md "Perft suites"), the engine counts the legal
action sequences again, in one of two ways:

- **a ``perft`` request**, if the engine answers it: ``{"cmd": "perft", "depth": 3}`` after the
  setup, answered with ``sequences``, ``at_depth``, ``ended``, ``nodes`` and (optional) the
  ``divide``, the sequences under each first action;
- **walking** its ``legal`` and ``play`` answers otherwise (or with ``walk=True``): depth first,
  setting the position up again and replaying the path to go back up the tree, one walk to the
  deepest depth allowed by ``max_nodes`` giving the counts of every smaller depth too (a node at
  depth ``k`` is one of the ``at_depth`` sequences of depth ``k`` and a node of every deeper
  cut; a terminal node at depth ``k`` is one of the ``ended`` sequences of every deeper cut).

Only the depths whose recorded tree has at most ``max_nodes`` nodes are counted. An engine with
fixed rule settings counts the cases recorded under them (the suites of both presets have
their perft file).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from omen_solver.errors import EngineError, EngineStartError, VectorFileError
from omen_solver.vectors.jsonfile import validated_files
from omen_solver.vectors.process import EngineProcess
from omen_solver.vectors.protocol import normalize_legal, normalize_move
from omen_solver.vectors.settings import EngineRules, declared
from omen_solver.vectors.views import VECTORS

__all__ = ["PerftCaseResult", "PerftReport", "check_perft", "load_perft_files"]

_KEYS: Final = ("sequences", "at_depth", "ended", "nodes")


def _protocol_games() -> tuple[str, ...]:
    """The games the protocol sets up: those with a vector view (a perft suite of another game
    is counted in process only)."""
    return tuple(game.name for game in VECTORS.games())


def load_perft_files(path: Path) -> list[tuple[Path, Mapping[str, Any]]]:
    """The perft files under ``path`` (a folder, searched recursively, or one file)."""
    found = []
    for candidate, data in validated_files(path):
        if data["format"] != "omen-solver-perft":
            continue
        if data["game"] not in _protocol_games():
            raise VectorFileError(
                f"{candidate}: key 'game': {data['game']!r} has no vector view; the protocol's "
                f"engines play {' and '.join(_protocol_games())}"
            )
        found.append((candidate, data))
    if not found:
        raise VectorFileError(f"{path}: no perft file (format 'omen-solver-perft') here")
    return found


@dataclass
class PerftCaseResult:
    case: str
    status: str
    """``passed``, ``failed`` or ``skipped``."""
    how: str = ""
    """``perft request`` or ``walked``."""
    depths: list[int] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    message: str = ""


@dataclass
class PerftReport:
    engine: str
    results: list[PerftCaseResult] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        return Counter(result.status for result in self.results)

    def ok(self) -> bool:
        counts = self.counts()
        return counts["failed"] == 0 and counts["passed"] > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            **{status: self.counts()[status] for status in ("passed", "failed", "skipped")},
            "cases": [
                {"case": r.case, "status": r.status, "how": r.how or None, "depths": r.depths,
                 "mismatches": r.mismatches, "message": r.message or None}
                for r in self.results
            ],
        }


class _Cursor:
    """Where the engine stands in the tree: set up again and replayed when the walk goes back
    up, one ``play`` when it goes one step down."""

    def __init__(self, engine: EngineProcess, game: str, case: Mapping[str, Any],
                 options: Mapping[str, Any]) -> None:
        self.engine = engine
        self.game = game
        self.case = case
        self.options = options
        self.path: list[str] | None = None
        self.requests = 0

    def setup(self) -> None:
        answer = self._ask("setup", game=self.game, options=self.options,
                           position=self.case["position"])
        if not answer["ok"]:
            raise _Refused(f"setup: {answer.get('error')}", bool(answer.get("unsupported")))
        self.path = []

    def goto(self, path: Sequence[str]) -> None:
        if self.path is None or list(path[:-1]) != self.path or len(path) == 0:
            self.setup()
            steps: Sequence[str] = path
        else:
            steps = path[-1:]
        for action in steps:
            answer = self._ask("play", action=action)
            if not answer["ok"]:
                raise _Refused(f"play {action!r} after {list(path)}: {answer.get('error')}")
        self.path = list(path)

    def legal(self) -> tuple[Any, list[str]]:
        answer = self._ask("legal")
        legal = normalize_legal(answer.get("legal")) if answer["ok"] else None
        if legal is None:
            raise _Refused(f"legal after {self.path}: {answer.get('error') or answer}")
        return answer.get("to_act"), legal

    def _ask(self, command: str, **fields: Any) -> dict[str, Any]:
        self.requests += 1
        return self.engine.request(command, **fields)


class _Refused(Exception):
    def __init__(self, text: str, unsupported: bool = False) -> None:
        super().__init__(text)
        self.unsupported = unsupported


def _walk(cursor: _Cursor, depth: int) -> tuple[dict[int, dict[str, int]], Counter[str]]:
    """Walk the tree to ``depth``: the counts of every depth up to it, and the divide at it."""
    levels = [0] * (depth + 1)
    terminals = [0] * (depth + 1)
    divide: Counter[str] = Counter()

    path: list[str] = []

    def enter() -> list[str]:
        """Count the node at ``path``; the actions below it (none at a leaf)."""
        level = len(path)
        levels[level] += 1
        if level < depth:
            cursor.goto(path)
            to_act, legal = cursor.legal()
            if to_act is not None:
                return legal
            terminals[level] += 1
        if path:
            divide[path[0]] += 1
        return []

    # Depth first, in the engine's order, with a stack of its own (a suite may ask for more
    # plies than Python's recursion allows): the actions left to try at each node of the path.
    pending: list[Iterator[str]] = [iter(enter())]
    while pending:
        action = next(pending[-1], None)
        if action is None:
            pending.pop()
            if path:
                path.pop()
            continue
        path.append(action)
        pending.append(iter(enter()))

    counts = {}
    for cut in range(1, depth + 1):
        at_depth = levels[cut]
        ended = sum(terminals[:cut])
        counts[cut] = {"sequences": at_depth + ended, "at_depth": at_depth, "ended": ended,
                       "nodes": sum(levels[: cut + 1])}
    return counts, divide


def _compare(case: Mapping[str, Any], counted: Mapping[int, Mapping[str, int]],
             divide: Mapping[str, int] | None, divide_depth: int | None) -> list[str]:
    found = []
    for row in case["depths"]:
        got = counted.get(row["depth"])
        if got is None:
            continue
        for key in _KEYS:
            if key in got and got[key] != row[key]:
                found.append(f"depth {row['depth']}: {key}: recorded {row[key]}, the engine "
                             f"counts {got[key]}")
    if divide is not None and divide_depth == case["divide"]["depth"]:
        want = {normalize_move(k): v for k, v in case["divide"]["counts"].items()}
        got_divide = {normalize_move(k): v for k, v in divide.items()}
        for action in sorted(set(want) | set(got_divide)):
            if want.get(action) != got_divide.get(action):
                found.append(f"divide at depth {divide_depth}: under {action!r}: recorded "
                             f"{want.get(action, 0)}, the engine counts "
                             f"{got_divide.get(action, 0)}")
    return found


def _one_case(engine: EngineProcess, game: str, case: Mapping[str, Any], rules: EngineRules,
              max_nodes: int, walk: bool, state: dict[str, bool]) -> PerftCaseResult:
    result = PerftCaseResult(case["id"], "passed")
    if rules.settings is not None and dict(rules.settings) != dict(case["options"]["settings"]):
        differ = sorted(k for k, v in case["options"]["settings"].items()
                        if rules.settings.get(k) != v)
        result.status = "skipped"
        result.message = f"recorded under other settings ({', '.join(differ)})"
        return result
    depths = [row["depth"] for row in case["depths"] if row["nodes"] <= max_nodes]
    if not depths:
        result.status, result.message = "skipped", f"every depth has more than {max_nodes} nodes"
        return result
    cursor = _Cursor(engine, game, case, case["options"])
    try:
        counted, divide, how = _count(cursor, depths, walk or not state["perft"], state)
    except _Refused as refused:
        result.status = "skipped" if refused.unsupported else "failed"
        result.message = str(refused)
        return result
    result.how, result.depths = how, sorted(counted)
    result.mismatches = _compare(case, counted, divide, max(depths))
    if result.mismatches:
        result.status = "failed"
    return result


def _count(cursor: _Cursor, depths: Sequence[int], walk: bool, state: dict[str, bool]
           ) -> tuple[dict[int, dict[str, int]], Mapping[str, int] | None, str]:
    if not walk:
        counted: dict[int, dict[str, int]] = {}
        divide: Mapping[str, int] | None = None
        for depth in depths:
            cursor.setup()
            answer = cursor._ask("perft", depth=depth)
            if not answer["ok"]:
                state["perft"] = False  # the engine has no perft request: walk from now on
                break
            counted[depth] = {key: answer[key] for key in _KEYS if isinstance(answer.get(key),
                                                                               int)}
            if depth == max(depths) and isinstance(answer.get("divide"), dict):
                divide = {str(k): v for k, v in answer["divide"].items()}
        else:
            return counted, divide, "perft request"
    walked, walked_divide = _walk(cursor, max(depths))
    return {d: walked[d] for d in depths}, walked_divide, "walked"


def check_perft(
    files: Sequence[tuple[Path, Mapping[str, Any]]],
    command: str,
    *,
    timeout: float = 10.0,
    start_timeout: float = 60.0,
    max_nodes: int = 5_000,
    walk: bool = False,
    games: Sequence[str] = (),
    match: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> PerftReport:
    """Count the selected perft cases through the engine ``command``."""
    todo = [(data["game"], case) for _, data in files for case in data["cases"]
            if (not games or data["game"] in games) and (match is None or match in case["id"])]
    if not todo:
        raise VectorFileError("no perft case matches the selection (--game, --match)")
    engine = EngineProcess(command, timeout, start_timeout)
    hello = engine.start()
    try:
        rules = declared(hello, sorted({game for game, _ in todo}))
    except ValueError as error:
        engine.stop(kill=True)
        raise EngineStartError(f"--engine {command!r}: {error}") from None
    report = PerftReport(engine.name)
    state = {"perft": True}
    try:
        for index, (game, case) in enumerate(todo):
            if progress is not None:
                progress(index, len(todo), case["id"])
            if engine.games and game not in engine.games:
                report.results.append(PerftCaseResult(
                    case["id"], "skipped", message=f"the engine does not play {game}"))
                continue
            if not engine.running:
                engine.start()
            try:
                result = _one_case(engine, game, case, rules[game], max_nodes, walk, state)
            except EngineError as error:
                result = PerftCaseResult(case["id"], "failed", message=f"engine: {error}")
                engine.stop(kill=True)
            report.results.append(result)
    except BaseException:
        engine.stop(kill=True)
        raise
    engine.stop()
    return report
