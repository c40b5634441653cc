"""The mutation score of the conformance vectors: which engine mutants each shipped Omens suite
kills, through the vector protocol.

``python -m tools.vector_score [--out FILE] [--jobs N] [--numbers 1-50] [--only TEXT]
[--fuzz-rounds N]`` (from the project folder), then ``--table FILE`` for the tables of
``docs/vectors.md``.

Every mutant of :mod:`tools.mutants` (one syntactic change of the engine's rules) and every
deviation of :data:`tools.engines.DEVIATIONS` is an engine with a known deviation. Each runs in
a fresh process on a copy of the package (:func:`tools.engines.engine_copy`), where every
vector of both suites (``vectors/omens/rulebook``, ``vectors/omens/gamepark``; a vector the two
share is played once) is played through the protocol by :func:`play_vectors`: the requests of
``vectors check`` (``setup``, ``legal``, ``play``, ``state``) answered by the mutated engine's
protocol adapter (:class:`omen_solver.vectors.engine.Adapter`, as ``omen-solver vectors
engine`` answers them, without the pipe) and compared by the runner's own
:func:`omen_solver.vectors.runner.check_vector`. A vector the mutant fails (a mismatch, an
error, or more than :data:`VECTOR_SECONDS` seconds) **kills** it. Every vector is played, so
the result names every vector that kills each mutant.

A mutant **breaks a suite's settings** when an engine with that suite's preset built in plays
differently from this library somewhere: shown by a vector that holds under the preset and
kills it, or else by ``vectors fuzz`` under that preset (``--fuzz-rounds`` random lines through
the protocol, this library's engine the reference), which also shrinks what it finds to a
small position and line. The target (docs/vectors.md, "Mutation score"): every mutant that
breaks a suite's settings is killed by two vectors of that suite at least that hold under its
preset; a mutant whose change no vector and no fuzzing shows is read, and recorded as
equivalent with the reason (:data:`tools.mutants.READ_EQUIVALENT` and the syntactic
classification of :func:`tools.mutants.classify`).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import FrameType
from typing import Any, Final

from omen_solver.core.files import atomic_write, read_text
from omen_solver.core.processes import parent_death_signal
from omen_solver.errors import OmenSolverError
from tools.engines import DEVIATIONS, engine_command, engine_copy
from tools.mutants import ROOT, TARGETS, Mutant, all_mutants, classify

SUITES: Final = ("rulebook", "gamepark")
"""The shipped Omens suites, each under the preset of its name."""
VECTOR_SECONDS: Final = 5
"""Seconds one vector may take with a mutant (a loop that never ends kills it)."""
TIMED_OUT: Final = f"no answer within {VECTOR_SECONDS} s"
STALLS: Final = 3
"""Vectors without an answer in time after which a mutant's process stops playing."""
KEEP: Final = 5
"""Kills per suite after which the run stops playing that suite's vectors for a mutant."""
_IGNORE: Final = shutil.ignore_patterns("__pycache__")


# -- in the mutant's process -------------------------------------------------------------------


class _InProcess:
    """The engine side of the protocol in this process: each request is written as the JSON
    line ``vectors check`` sends and answered by the protocol adapter of the engine on
    ``sys.path`` (the mutant), as ``omen-solver vectors engine`` answers it."""

    def __init__(self) -> None:
        from omen_solver.vectors.engine import Adapter

        self.adapter = Adapter()
        self.next_id = 0

    def request(self, command: str, **fields: Any) -> dict[str, Any]:
        from omen_solver.vectors.engine import _answer

        self.next_id += 1
        line = json.dumps({"id": self.next_id, "cmd": command, **fields})
        answer, _ = _answer(self.adapter, line)
        result: dict[str, Any] = json.loads(json.dumps(answer))
        return result


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def suite_vectors(root: Path, validate: bool = True) -> dict[str, list[dict[str, Any]]]:
    """The vectors of each shipped suite (``root``: the project folder); ``validate``: each
    file checked against its schema (the run checks its snapshot once, and each mutant's
    process reads the files as they are)."""
    from omen_solver.vectors.runner import load_vector_files

    found: dict[str, list[dict[str, Any]]] = {}
    for suite in SUITES:
        folder = root / "vectors" / "omens" / suite
        if validate:
            files = [file.data for file in load_vector_files(folder)]
        else:
            files = [data for data in (json.loads(path.read_text(encoding="utf-8"))
                                       for path in sorted(folder.glob("*.json")))
                     if data.get("format") == "omen-solver-vectors"]
        found[suite] = [dict(v) for data in files for v in data["vectors"]]
    return found


def _play(vector: Mapping[str, Any], options: Mapping[str, Any] | None) -> str | None:
    """Why the engine on ``sys.path`` fails one vector through the protocol (None: it passes);
    ``options``: the settings of the setup request (default: the vector's own)."""
    from omen_solver.vectors.runner import check_vector

    signal.alarm(VECTOR_SECONDS)
    try:
        result = check_vector(_InProcess(), "omens", vector, options)  # type: ignore[arg-type]
        if result.status != "failed":
            return None
        first = result.mismatches[0] if result.mismatches else None
        return first.what if first else result.message[:80] or "failed"
    except _Timeout:
        return TIMED_OUT
    except Exception as error:  # a mutant may crash the engine: a kill
        return f"{type(error).__name__}: {str(error)[:80]}"
    finally:
        signal.alarm(0)


def play_vectors(root: Path, only: set[str] | None = None, keep: int = 0,
                 validate: bool = True) -> dict[str, dict[str, str]]:
    """Play the vectors of both suites through the protocol against the engine on
    ``sys.path`` (``only``: those ids); the vectors failed, each with why.

    Per suite, the vectors that hold under its preset, set up under the preset's settings (an
    engine with the preset built in, as ``vectors check`` sets it up): the suite's kills.
    ``keep``: stop a suite once that many of its vectors kill (0: play them all). Then
    ``own``: every vector once under its own settings (an engine that switches settings),
    played only where a suite has fewer than two kills (or ``keep`` is 0), and stopped after
    :data:`STALLS` vectors without an answer in time (the mutant loops)."""
    from omen_solver.vectors.settings import holds, options_json, preset_settings

    failed: dict[str, dict[str, str]] = {"own": {}, **{suite: {} for suite in SUITES}}
    played: dict[str, str | None] = {}  # under their own settings
    chosen = {suite: [v for v in vectors if only is None or v["id"] in only]
              for suite, vectors in suite_vectors(root, validate).items()}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for suite, vectors in chosen.items():
            settings = preset_settings("omens", suite)
            options = options_json("omens", settings, suite)
            for vector in vectors:
                if keep and len(failed[suite]) >= keep:
                    break
                if holds(vector, "omens", settings) is not None:
                    continue
                own = vector["options"]["settings"] == settings
                if own and vector["id"] in played:
                    why = played[vector["id"]]
                else:
                    why = _play(vector, None if own else options)
                if own:
                    played[vector["id"]] = why
                if why is not None:
                    failed[suite][vector["id"]] = why
        if keep and all(len(failed[suite]) >= 2 for suite in SUITES):
            failed["own"] = {vid: why for vid, why in played.items() if why is not None}
            return failed
        stalls = 0
        for vectors in chosen.values():
            for vector in vectors:
                vid = vector["id"]
                if vid in played or stalls >= STALLS:
                    continue
                why = played[vid] = _play(vector, None)
                stalls += why == TIMED_OUT
        failed["own"] = {vid: why for vid, why in played.items() if why is not None}
    finally:
        signal.signal(signal.SIGALRM, previous)
    return failed


# -- the run -------------------------------------------------------------------------------------


MEMORY: Final = 3 * 1024**3
"""Bytes of memory a mutant's process may take (a mutant that grows a list without end)."""


def _limited() -> None:
    """In a mutant's process before it starts: its memory bounded, and it ends with this run."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    parent_death_signal()


def _run_one(name: str, changes: dict[str, str], snapshot: Path, timeout: float,
             keep: int = KEEP) -> tuple[dict[str, dict[str, str]], float, str]:
    """The vectors an engine with ``changes`` fails (played in a fresh process on a copy, with
    at most :data:`MEMORY` bytes; ``keep``: as :func:`play_vectors`)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omens-vscore-") as folder:
        engine_copy(Path(folder), changes, source=snapshot / "omen_solver")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join((folder, str(snapshot))),
                   PYTHONDONTWRITEBYTECODE="1")
        command = [sys.executable, "-c", "import json; from pathlib import Path; "
                   "from tools.vector_score import play_vectors; "
                   f"print(json.dumps(play_vectors(Path({str(snapshot)!r}), keep={keep}, "
                   "validate=False)))"]
        try:
            done = subprocess.run(  # ends with this run, however it ends
                command, env=env, cwd=folder, capture_output=True, text=True, timeout=timeout,
                preexec_fn=_limited,
            )
        except subprocess.TimeoutExpired:
            return {}, timeout, f"no answer within {timeout:.0f} s"
    seconds = time.perf_counter() - started
    if done.returncode != 0 or not done.stdout.strip():
        last = (done.stderr.strip().splitlines() or ["?"])[-1][:160]
        return {}, seconds, f"the process failed: {last}"
    return json.loads(done.stdout.strip().splitlines()[-1]), seconds, ""


def _fuzz_one(changes: dict[str, str], suite: str, rounds: int, seconds: float
              ) -> dict[str, Any]:
    """``vectors fuzz`` under a suite's preset against the engine with ``changes``: the first
    disagreement, shrunk (None if none was found)."""
    from omen_solver.vectors.fuzz import fuzz

    with tempfile.TemporaryDirectory(prefix="omens-vscore-fuzz-") as folder:
        engine_copy(Path(folder), changes)
        report = fuzz(engine_command(Path(folder)), preset=suite, rounds=rounds,
                      seconds=seconds, max_found=1)
    found = report.found[0].to_json() if report.found else None
    return {"rounds": report.played, "found": found}


def _targets() -> Iterator[tuple[dict[str, Any], dict[str, str]]]:
    """Every deviation and mutant: its description and the files it changes."""
    for deviation in DEVIATIONS.values():
        yield ({"name": deviation.name, "kind": "deviation", "what": deviation.what,
                "file": deviation.file}, {deviation.file: deviation.source()})
    for mutant, source in all_mutants():
        yield ({"name": f"mutant {mutant.number}", "number": mutant.number,
                "kind": mutant.kind, "what": mutant.what, "file": mutant.file,
                "line": mutant.line}, {mutant.file: source()})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vector_score")
    parser.add_argument("--out", type=Path, default=Path("vector-score.json"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant")
    parser.add_argument("--keep", type=int, default=KEEP,
                        help="stop playing a suite's vectors for a mutant once this many kill "
                        "it (0: play every vector; a suite killed fewer than twice is always "
                        "played whole, under the vectors' own settings too)")
    parser.add_argument("--reuse", type=Path, metavar="RESULTS",
                        help="take from a results file the mutants that make the same change "
                        "of the same line of the same function, and run only the others (the "
                        "engine changed elsewhere)")
    parser.add_argument("--fuzz-reuse", type=Path, metavar="RESULTS",
                        help="take from a results file the fuzzing of each mutant that makes "
                        "the same change of the same line (fuzzing plays no vector: a change "
                        "of the suites leaves it true), for the suites its vectors now kill "
                        "fewer than twice")
    parser.add_argument("--only", default="", help="mutants whose description contains TEXT")
    parser.add_argument("--numbers", default="",
                        help="only the mutants of these numbers (e.g. 86,93,120-200; 0: the "
                        "deviations)")
    parser.add_argument("--fuzz-rounds", type=int, default=300,
                        help="random lines per suite for a mutant the suite's vectors kill "
                        "fewer than twice (0: no fuzzing)")
    parser.add_argument("--fuzz-seconds", type=float, default=60.0)
    parser.add_argument("--fuzz-from", type=Path, metavar="RESULTS",
                        help="fuzz, under each suite's preset, the mutants of a results file "
                        "(of a run with --fuzz-rounds 0) that its vectors kill fewer than twice, "
                        "and write the results with what fuzzing found to --out (with "
                        "--fuzz-rounds 0: only read the mutated functions again)")
    parser.add_argument("--table", type=Path, metavar="RESULTS",
                        help="print the tables of a results file and stop")
    parser.add_argument("--docs", type=Path, metavar="FILE",
                        help="with --table: also rewrite the score's section of this page "
                        "(docs/vectors.md)")
    args = parser.parse_args(argv)
    if args.table is not None:
        text = tables(json.loads(read_text(args.table, OmenSolverError, 64 * 1024 * 1024)))
        print(text)
        if args.docs is not None:
            atomic_write(args.docs, with_section(read_text(args.docs, OmenSolverError,
                                                           16 * 1024 * 1024), text))
        return 0
    if args.fuzz_from is not None:
        return _fuzz_results(args)
    numbers: set[int] = set()
    for part in filter(None, (p.strip() for p in args.numbers.split(","))):
        low, _, high = part.partition("-")
        numbers.update(range(int(low), int(high or low) + 1))
    chosen = [(info, changes) for info, changes in _targets()
              if args.only in f"{info['file']}:{info.get('line', '')} {info['what']}"
              and (not numbers or info.get("number", 0) in numbers)]
    kept: list[dict[str, Any]] = []
    if args.reuse is not None:  # the same change of the same line of the same function
        # several mutants may make the same change of one line (two ``1`` of one line made
        # ``0``): they are taken in the order of their numbers, which is the order of the code
        before: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in json.loads(read_text(args.reuse, OmenSolverError, 64 * 1024 * 1024)):
            if "number" in row and "source" in row:
                before.setdefault(reading_key(row), []).append(row)
        fresh = []
        for info, changes in chosen:
            row = {**info, "kills": {}}
            if "line" in info:
                _annotate(row)
            same = before.get(reading_key(row), []) if "line" in info else []
            old_row = same.pop(0) if same else None
            if old_row is None:
                fresh.append((info, changes))
            else:
                kept.append({**old_row, **info, "source": row["source"]})
        chosen = fresh
        print(f"{len(kept)} results reused from {args.reuse}; {len(chosen)} to run", flush=True)
    originals = {t: ast.unparse(ast.parse((ROOT / t).read_text("utf-8"))) for t in TARGETS}
    with tempfile.TemporaryDirectory(prefix="omens-vscore-") as folder:
        snapshot = Path(folder)
        for name in ("omen_solver", "vectors", "tools", "proofs"):
            shutil.copytree(ROOT / name, snapshot / name, ignore=_IGNORE)
        members = {suite: {v["id"] for v in items}
                   for suite, items in suite_vectors(snapshot).items()}
        failed, _, problem = _run_one("baseline", {}, snapshot, args.timeout, 0)
        if any(failed.values()) or problem:
            raise SystemExit(f"the unchanged engine fails vectors: {problem or failed}")
        results: list[dict[str, Any]] = []

        def one(info: dict[str, Any], changes: dict[str, str]) -> dict[str, Any]:
            same = all(ast.unparse(ast.parse(text)) == originals.get(path)
                       for path, text in changes.items())
            if same:
                return {**info, "equivalent": "the mutated source is the same program",
                        "kills": {}, "seconds": 0.0}
            failed, seconds, problem = _run_one(info["name"], changes, snapshot, args.timeout,
                                                args.keep)
            row: dict[str, Any] = {**info, "seconds": round(seconds, 1), "problem": problem,
                                   "keep": args.keep, "kills": {}}
            for suite in SUITES:
                row["kills"][suite] = {
                    "all": sorted(v for v in failed.get("own", {}) if v in members[suite]),
                    "holding": sorted(failed.get(suite, {}))}
                if args.fuzz_rounds and len(row["kills"][suite]["holding"]) < 2:
                    row.setdefault("fuzz", {})[suite] = _fuzz_one(
                        changes, suite, args.fuzz_rounds, args.fuzz_seconds)
            return row

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(one, info, changes) for info, changes in chosen]
            for index, future in enumerate(futures, start=1):
                row = future.result()
                _annotate(row)
                results.append(row)
                counts = ", ".join(f"{s} {len(row['kills'].get(s, {}).get('holding', []))}"
                                   for s in SUITES) + (f"; {row['problem']}" if row.get(
                                       "problem") else "")
                print(f"[{index}/{len(futures)}] {row['name']} ({row['file']}:"
                      f"{row.get('line', '')} {row['kind']}: {row['what'][:50]}): "
                      f"{row.get('equivalent') or counts}", flush=True)
    results = sorted([*kept, *results], key=lambda row: (row.get("number", 0), row["name"]))
    for row in results:
        _annotate(row)
    if args.fuzz_reuse is not None:
        _take_fuzzing(results, json.loads(read_text(args.fuzz_reuse, OmenSolverError,
                                                    64 * 1024 * 1024)))
    atomic_write(args.out, _results_text(results))
    print(tables(results))
    return 0


def _take_fuzzing(results: list[dict[str, Any]], before: list[dict[str, Any]]) -> None:
    """Give each mutant of ``results`` the fuzzing ``before`` records for the same change of
    the same line (a deviation: of the same name), for each suite whose vectors kill it fewer
    than twice."""
    found: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in before:
        if "source" in row or "line" not in row:
            found.setdefault(reading_key(row), []).append(row)
    for row in results:
        same = found.get(reading_key(row), [])
        old = same.pop(0) if same else None
        if old is None or row.get("equivalent"):
            continue
        for suite, fuzzed in (old.get("fuzz") or {}).items():
            if len(row["kills"][suite]["holding"]) < 2:
                row.setdefault("fuzz", {})[suite] = fuzzed


def _results_text(results: list[dict[str, Any]]) -> str:
    """The results file: a JSON list, one mutant a line."""
    return "[\n" + ",\n".join(json.dumps(row, sort_keys=True) for row in results) + "\n]\n"


def _fuzz_results(args: argparse.Namespace) -> int:
    """The second phase: fuzz the mutants short of two kills in a suite, under its preset."""
    results = json.loads(read_text(args.fuzz_from, OmenSolverError, 64 * 1024 * 1024))
    for row in results:  # the engine's readings and rule names as they are now
        _annotate(row)
    changes = {info["name"]: change for info, change in _targets()}
    todo = [(row, suite) for row in results for suite in SUITES
            if not row.get("equivalent") and len(row["kills"][suite]["holding"]) < 2
            and suite not in (row.get("fuzz") or {}) and args.fuzz_rounds]
    # those no vector kills under any settings first, those killed under others last
    todo.sort(key=lambda item: verdict(item[0], item[1]) == "other settings")

    def one(item: tuple[dict[str, Any], str]) -> tuple[dict[str, Any], str, dict[str, Any]]:
        row, suite = item
        return row, suite, _fuzz_one(changes[row["name"]], suite, args.fuzz_rounds,
                                     args.fuzz_seconds)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for index, (row, suite, fuzzed) in enumerate(pool.map(one, todo), start=1):
            row.setdefault("fuzz", {})[suite] = fuzzed
            found = fuzzed["found"]["class"] if fuzzed["found"] else "nothing"
            print(f"[{index}/{len(todo)}] {row['name']} under {suite}: {fuzzed['rounds']} "
                  f"lines, {found}", flush=True)
            if index % 10 == 0 or index == len(todo):  # what is done so far is kept
                atomic_write(args.out, _results_text(results))
    atomic_write(args.out, _results_text(results))
    print(tables(results))
    return 0


def _annotate(row: dict[str, Any]) -> None:
    """The function a mutant changes, the rule ids that function says and the options it
    reads; and why a mutant nothing kills is equivalent, where the code shows it."""
    if "line" not in row:
        row.update(function="", rules=[], options=[])
        return
    tree = ast.parse((ROOT / row["file"]).read_text(encoding="utf-8"))
    function = _function_at(tree, row["line"])
    row["function"] = function.name if function else ""
    row["source"] = (ROOT / row["file"]).read_text(encoding="utf-8").splitlines()[
        row["line"] - 1].strip()
    row["rules"] = sorted(_said(function)) if function else []
    row["options"] = sorted(_options(function)) if function else []
    if not any(kills.get("all") or kills.get("holding") for kills in row["kills"].values()) and (
            not row.get("equivalent") or row.get("equivalent_by") == "reading"):
        mutant = Mutant(row["number"], row["file"], row["line"], row["kind"], row["what"])
        row["equivalent"] = classify(mutant) or ""
        row["equivalent_by"] = "reading" if row["equivalent"] else ""


def _function_at(tree: ast.AST, line: int) -> ast.FunctionDef | None:
    best: ast.FunctionDef | None = None
    for node in ast.walk(tree):
        if (isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or 0)
                and (best is None or node.lineno > best.lineno)):
            best = node
    return best


def _said(function: ast.FunctionDef) -> set[str]:
    """The rules of a function: the families of the rule ids it writes in its explanations
    (``say("card.law.ends", ...)``: ``card.law``), or else the rulebook sections its docstring
    cites (``rules file 000, "Law"``: ``000 Law``)."""
    found = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        where = {"say": 0, "_say": 1}.get(name)
        if where is None or len(node.args) <= where:
            continue
        rule = node.args[where]
        if isinstance(rule, ast.Constant) and isinstance(rule.value, str):
            found.add(".".join(rule.value.split(".")[:2]))
    if not found:
        cited = re.findall(r'"([A-Z][^"]+)"', ast.get_docstring(function) or "")
        found = {"000 " + " ".join(section.split()) for section in cited}
    return found


def _options(function: ast.FunctionDef) -> set[str]:
    """The rule options a function reads (``table.rules.NAME``)."""
    return {node.attr for node in ast.walk(function)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and node.value.attr == "rules"}


# -- the tables ------------------------------------------------------------------------------

SECTION_START: Final = ("<!-- vector-score (generated by python -m tools.vector_score --table "
                        "tools/vector-score.json --docs docs/vectors.md; do not edit) -->")
SECTION_END: Final = "<!-- end vector-score -->"


def section(page: str) -> str:
    """The score's section of a page, as it stands (without the markers)."""
    start = page.index(SECTION_START) + len(SECTION_START) + 1
    return page[start: page.index(SECTION_END, start)]


def with_section(page: str, text: str) -> str:
    """The page with the score's section replaced by ``text``."""
    start = page.index(SECTION_START) + len(SECTION_START) + 1
    return page[:start] + text + "\n" + page[page.index(SECTION_END, start):]


def verdict(row: Mapping[str, Any], suite: str) -> str:
    """A mutant against one suite: ``equivalent``, ``killed`` (two vectors of the suite that
    hold under its preset at least), ``once`` (one), ``other settings`` (killed only by
    vectors recorded under other settings, and fuzzing under the preset found nothing),
    ``not broken`` (no vector kills it and fuzzing under the preset found nothing), or
    ``missed`` (fuzzing under the preset found a difference the suite does not catch twice)."""
    if row.get("equivalent"):
        return "equivalent"
    kills = row["kills"].get(suite, {"all": [], "holding": []})
    if len(kills["holding"]) >= 2:
        return "killed"
    fuzzed = (row.get("fuzz") or {}).get(suite)
    if fuzzed is not None and fuzzed.get("found"):
        return "missed" if not kills["holding"] else "once"
    if kills["holding"]:
        return "once"
    return "other settings" if kills["all"] else "not broken"


_PILE: Final = (
    "invisible to the protocol: the discard pile is not reported (a bout's `discarded` is its "
    "outcome's, with Luck's card), and no rule reads it: a new round shuffles every card but "
    "the box"
)
_BOUTS: Final = (
    "invisible to the protocol: the count of bouts played numbers the bout summaries and "
    "`bouts_played`; the protocol reports neither and no rule reads it"
)
_ACTING: Final = (
    "invisible to the protocol: it asks acting_players() only where current_player() says a "
    "simultaneous decision (The Absolute's secret exchange)"
)
_ONLY_EXCHANGE: Final = (
    "equivalent under absolute_timing = now (both presets): at The Absolute's exchange the "
    "exchange is the only obligation pending (each is popped before the effect that pushes "
    "the next); under absolute_timing = end with two Absolutes in one bout another Absolute's "
    "obligation lies under it, and no vector has two"
)
_NO_CARDS: Final = (
    "in the branch of round.end.no_cards (nobody holds a card when a bout should start), which "
    "no position the vector format accepts reaches (docs/vectors.md); "
    "test_a_bout_with_no_card_in_any_hand_ends_the_round (tests/omens/test_options.py) kills it"
)
_HAND_ORDER: Final = (
    "invisible to the protocol: a hand is compared as a set (the order of its cards is no "
    "rule), and the legal actions are listed sorted either way"
)
_SD: Final = "omen_solver/omens/state.py"
_ONE_PENDING: Final = (
    "equivalent where at most one obligation is pending (the first and the last are one), "
    "which is so but under absolute_timing = end (neither preset), whose Absolutes staged at "
    "the end of a bout lie under the one resolved (the reading of the obligation stack, "
    "docs/proofs.md); no vector resolves two Absolutes at the end of one bout"
)
EXPLAINED: Final[dict[tuple[str, str, str, str, str], str]] = {
    (_SD, "_luck_discard", "drop statement", "work.discard((card,))",
     "work.discard((card,))"): _PILE,
    (_SD, "_start_end_of_bout", "drop statement", "work.discard(outcome.discarded)",
     "work.discard(outcome.discarded)"): _PILE,
    (_SD, "discard", "drop statement", "self.out = tuple(sorted((*self.out, *cards)))",
     "self.out = tuple(sorted((*self.out, *cards)))"): _PILE,
    **{(_SD, "_start_end_of_bout", kind, what, "work.bouts += 1"): _BOUTS
       for kind, what in (("drop statement", "work.bouts += 1"), ("off by one", "1 -> 2"),
                          ("off by one", "1 -> 0"))},
    (_SD, "_stage_return", "drop statement", "work.front = []", "work.front = []"): (
        "equivalent for play: the cards in play, each already put back in a hand, stay listed "
        "until the next bout's reset clears them, and no stage between reads them; the "
        "protocol does not report the cards in play"),
    (_SD, "_stage_exchanges", "drop statement", "work.end_abs = ()", "work.end_abs = ()"): (
        "equivalent (read): the Absolutes to resolve at the end are read only by "
        "_stage_exchanges, once a bout, and the next bout's reset clears them"),
    (_SD, "_reset_bout", "drop statement", "work.outcome = None", "work.outcome = None"): (
        "equivalent for play: _start_end_of_bout sets the outcome again before anything reads "
        "it; only the state's identity keeps the stale one, which the protocol does not see "
        "(test_the_next_bout_is_the_position_its_hands_make, tests/omens, kills it)"),
    (_SD, "_reset_bout", "drop statement", "work.luck_victim = None",
     "work.luck_victim = None"): (
        "equivalent for play: _start_end_of_bout clears Luck's victim again before Luck can "
        "be discarded and before the round end reads it; only the state's identity keeps the "
        "stale one, which the protocol does not see "
        "(test_the_next_bout_is_the_position_its_hands_make, tests/omens, kills it)"),
    (_SD, "add_to_hand", "swap order", "hand.append(card) <-> hand.sort()", "hand.append(card)"
     ): _HAND_ORDER,
    (_SD, "add_to_hand", "drop statement", "hand.sort()", "hand.sort()"): _HAND_ORDER,
    (_SD, "acting_players", "drop statement", "return super().acting_players()",
     "return super().acting_players()"): _ACTING,
    (_SD, "acting_players", "and/or", "And -> Or",
     "if self._pending and self._pending[-1][0] == EXCHANGE:"): _ACTING,
    (_SD, "acting_players", "off by one", "1 -> 0",
     "if self._pending and self._pending[-1][0] == EXCHANGE:"): _ONLY_EXCHANGE,
    (_SD, "acting_players", "off by one", "1 -> 0", "_, player, target, _ = self._pending[-1]"
     ): _ONLY_EXCHANGE,
    (_SD, "_start_end_of_bout", "drop statement", "work.phase = Phase.OVER",
     "work.phase = Phase.OVER"): _NO_CARDS,
    (_SD, "_start_end_of_bout", "drop statement", "return", "return"): _NO_CARDS,
    (_SD, "current_player", "drop statement", "return TERMINAL", "return TERMINAL"): (
        "invisible to the protocol: it asks is_terminal() before current_player(), and the "
        "legal actions of a state that is over are none either way"),
    (_SD, "resolve", "drop statement", "self.observer.bout_resolved(self.freeze(), outcome)",
     "self.observer.bout_resolved(self.freeze(), outcome)"): (
        "equivalent for play: the observer (the proofs' monitors) is told of the bout; play "
        "does not read it"),
    (_SD, "current_player", "off by one", "1 -> 0", "kind, seat, _, _ = self._pending[-1]"
     ): _ONE_PENDING,
    (_SD, "_actions", "off by one", "1 -> 0", "kind, seat, a, _ = self._pending[-1]"
     ): _ONE_PENDING,
    (_SD, "_actions", "off by one", "1 -> 0", "self._pending[-1],"): _ONE_PENDING,
    (_SD, "_drop_void_pending", "off by one", "1 -> 0",
     "while work.pending and work.pending[-1][0] in (RESOLVE, END_ABSOLUTE):"): _ONE_PENDING,
    (_SD, "_drop_void_pending", "off by one", "1 -> 0", "top = work.pending[-1]"
     ): _ONE_PENDING,
    (_SD, "_actions", "and/or", "Or -> And", "if player is None or player not in (seat, a):"
     ): (
        "invisible to the protocol: the exchange's actions are asked for its two seats only "
        "(its joint actions), never for a seat outside it "
        "(test_absolute_exchange_has_no_moves_for_a_seat_outside_it, tests/omens, kills it)"),
    (_SD, "winning_team", "and/or", "Or -> And",
     "if self._phase != Phase.OVER or self._winner is None:"): (
        "differs only where play is over with no winner, a void round (no card left in any "
        "hand), which no vector reaches (round.end.no_cards, docs/vectors.md); "
        "test_sadness_lone_card (tests/omens/test_options.py) kills it"),
}
"""Why a mutant short of the target, or one nothing kills, is left so, read one by one: keyed
by the file, the function, the kind of change, the change and the source line (as
:data:`tools.mutants.READ_EQUIVALENT`; a deviation by its name)."""


def reading_key(row: Mapping[str, Any]) -> tuple[str, str, str, str, str]:
    if "line" not in row:
        return (row["file"], "", "deviation", row["name"], "")
    return (row["file"], row.get("function", ""), row["kind"], row["what"],
            row.get("source", ""))


def survived(row: Mapping[str, Any]) -> bool:
    """No vector of either suite kills the mutant, under any settings, and fuzzing under
    either preset found nothing (a mutant to read)."""
    if row.get("equivalent"):
        return False
    kills = row["kills"].values()
    fuzzed = (row.get("fuzz") or {}).values()
    return not any(k.get("all") or k.get("holding") for k in kills) and not any(
        f.get("found") for f in fuzzed)


def explained(row: Mapping[str, Any], suite: str = "") -> str:
    """Why a mutant is left short of the target in ``suite`` or left alive: its reading in
    :data:`EXPLAINED` ("" if none)."""
    return EXPLAINED.get(reading_key(row), "")


def tables(results: list[dict[str, Any]]) -> str:
    """The score per suite, per rule (the rule ids a mutated function says) and per option
    (the options it reads), and every mutant short of the target."""
    lines = ["| suite | mutants | equivalent | killed by 2+ vectors holding under the preset | "
             "by 1 | killed only under other settings | not broken under the preset | "
             "missed | score: killed by 2+ of those the preset shows broken |",
             "|---|---|---|---|---|---|---|---|---|"]
    for suite in SUITES:
        counts = Counter(verdict(row, suite) for row in results)
        broken = counts["killed"] + counts["once"] + counts["missed"]
        lines.append(f"| {suite} | {len(results)} | {counts['equivalent']} | "
                     f"{counts['killed']} | {counts['once']} | {counts['other settings']} | "
                     f"{counts['not broken']} | {counts['missed']} | {counts['killed']} of "
                     f"{broken} ({100 * counts['killed'] / max(broken, 1):.1f} %) |")
    fuzzed = [(row, suite, found) for row in results
              for suite, found in (row.get("fuzz") or {}).items()]
    if fuzzed:
        hits = sorted(found["found"]["round"] for _, _, found in fuzzed if found["found"])
        lines += ["", f"Fuzzed under the suite's preset, each mutant a suite kills fewer than "
                  f"twice: {len(fuzzed)} (mutant, suite) pairs, "
                  f"{max(found['rounds'] for _, _, found in fuzzed)} random lines at most "
                  f"each; a difference found in {len(hits)}"
                  + (f" (at line {', '.join(map(str, hits))})" if hits else "") + "."]
    for title, key in (("rule id", "rules"), ("option", "options")):
        lines += ["", f"| {title} | mutants | equivalent | " + " | ".join(
            f"{suite}: killed 2+ / broken" for suite in SUITES) + " |",
            "|---|---|---|" + "---|" * len(SUITES)]
        groups: dict[str, list[Mapping[str, Any]]] = {}
        for row in results:
            for name in row.get(key) or ["(none)"]:
                groups.setdefault(name, []).append(row)
        for name, rows in sorted(groups.items()):
            cells = []
            for suite in SUITES:
                verdicts = Counter(verdict(row, suite) for row in rows)
                broken = verdicts["killed"] + verdicts["once"] + verdicts["missed"]
                cells.append(f"{verdicts['killed']} / {broken}")
            equivalent = sum(1 for row in rows if row.get("equivalent"))
            lines.append(f"| `{name}` | {len(rows)} | {equivalent} | " + " | ".join(cells)
                         + " |")
    for title, listed in (
            ("Short of the target (killed by fewer than two vectors of a suite whose preset "
             "it breaks):", [row for row in results if any(
                 verdict(row, suite) in ("once", "missed") for suite in SUITES)]),
            ("Alive (no vector kills it under any settings, and fuzzing under either preset "
             "found nothing), each read:", [row for row in results if survived(row)])):
        if listed:
            lines += ["", title, ""]
        for row in listed:
            where = f"{row['file'].removeprefix('omen_solver/')}:{row.get('line', '')}"
            states = ", ".join(f"{suite} {verdict(row, suite)}" for suite in SUITES)
            function = f" in `{row['function']}`" if row.get("function") else ""
            lines.append(f"- {row['name']} ({where}{function}, {row['kind']}: "
                         f"`{row['what'][:60]}`): {states}; "
                         f"{explained(row) or 'not read yet'}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
