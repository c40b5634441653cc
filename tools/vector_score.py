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


def suite_vectors(root: Path) -> dict[str, list[dict[str, Any]]]:
    """The vectors of each shipped suite (``root``: the project folder)."""
    from omen_solver.vectors.runner import load_vector_files

    found: dict[str, list[dict[str, Any]]] = {}
    for suite in SUITES:
        files = load_vector_files(root / "vectors" / "omens" / suite)
        found[suite] = [dict(v) for file in files for v in file.data["vectors"]]
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
        return f"no answer within {VECTOR_SECONDS} s"
    except Exception as error:  # a mutant may crash the engine: a kill
        return f"{type(error).__name__}: {str(error)[:80]}"
    finally:
        signal.alarm(0)


def play_vectors(root: Path, only: set[str] | None = None) -> dict[str, dict[str, str]]:
    """Play the vectors of both suites through the protocol against the engine on
    ``sys.path`` (``only``: those ids): ``own``, every vector once under its own settings (an
    engine that switches settings), and per suite the vectors that hold under its preset, set
    up under the preset's settings (an engine with the preset built in, as ``vectors check``
    sets it up); the vectors failed, each with why."""
    from omen_solver.vectors.settings import holds, options_json, preset_settings

    failed: dict[str, dict[str, str]] = {"own": {}, **{suite: {} for suite in SUITES}}
    seen: set[str] = set()
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for suite, vectors in suite_vectors(root).items():
            settings = preset_settings("omens", suite)
            options = options_json("omens", settings, suite)
            for vector in vectors:
                vid = vector["id"]
                if only is not None and vid not in only:
                    continue
                if vid not in seen:
                    seen.add(vid)
                    why = _play(vector, None)
                    if why is not None:
                        failed["own"][vid] = why
                if holds(vector, "omens", settings) is not None:
                    continue
                if vector["options"]["settings"] == settings:
                    why = failed["own"].get(vid)
                else:
                    why = _play(vector, options)
                if why is not None:
                    failed[suite][vid] = why
    finally:
        signal.signal(signal.SIGALRM, previous)
    return failed


# -- the run -------------------------------------------------------------------------------------


def _run_one(name: str, changes: dict[str, str], snapshot: Path, timeout: float
             ) -> tuple[dict[str, dict[str, str]], float, str]:
    """The vectors an engine with ``changes`` fails (played in a fresh process on a copy)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omens-vscore-") as folder:
        engine_copy(Path(folder), changes, source=snapshot / "omen_solver")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join((folder, str(snapshot))),
                   PYTHONDONTWRITEBYTECODE="1")
        command = [sys.executable, "-c", "import json; from pathlib import Path; "
                   "from tools.vector_score import play_vectors; "
                   f"print(json.dumps(play_vectors(Path({str(snapshot)!r}))))"]
        try:
            done = subprocess.run(  # ends with this run, however it ends
                command, env=env, cwd=folder, capture_output=True, text=True, timeout=timeout,
                preexec_fn=parent_death_signal,
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
                        "and write the results with what fuzzing found to --out")
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
    originals = {t: ast.unparse(ast.parse((ROOT / t).read_text("utf-8"))) for t in TARGETS}
    with tempfile.TemporaryDirectory(prefix="omens-vscore-") as folder:
        snapshot = Path(folder)
        for name in ("omen_solver", "vectors", "tools", "proofs"):
            shutil.copytree(ROOT / name, snapshot / name, ignore=_IGNORE)
        members = {suite: {v["id"] for v in items}
                   for suite, items in suite_vectors(snapshot).items()}
        failed, _, problem = _run_one("baseline", {}, snapshot, args.timeout)
        if any(failed.values()) or problem:
            raise SystemExit(f"the unchanged engine fails vectors: {problem or failed}")
        results: list[dict[str, Any]] = []

        def one(info: dict[str, Any], changes: dict[str, str]) -> dict[str, Any]:
            same = all(ast.unparse(ast.parse(text)) == originals.get(path)
                       for path, text in changes.items())
            if same:
                return {**info, "equivalent": "the mutated source is the same program",
                        "kills": {}, "seconds": 0.0}
            failed, seconds, problem = _run_one(info["name"], changes, snapshot, args.timeout)
            row: dict[str, Any] = {**info, "seconds": round(seconds, 1), "problem": problem,
                                   "kills": {}}
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
                counts = ", ".join(f"{s} {len(row['kills'].get(s, {}).get('all', []))}"
                                   for s in SUITES)
                print(f"[{index}/{len(futures)}] {row['name']} ({row['file']}:"
                      f"{row.get('line', '')} {row['kind']}: {row['what'][:50]}): "
                      f"{row.get('equivalent') or counts}", flush=True)
    atomic_write(args.out, json.dumps(results, indent=1) + "\n")
    print(tables(results))
    return 0


def _fuzz_results(args: argparse.Namespace) -> int:
    """The second phase: fuzz the mutants short of two kills in a suite, under its preset."""
    results = json.loads(read_text(args.fuzz_from, OmenSolverError, 64 * 1024 * 1024))
    changes = {info["name"]: change for info, change in _targets()}
    todo = [(row, suite) for row in results for suite in SUITES
            if not row.get("equivalent") and len(row["kills"][suite]["holding"]) < 2
            and suite not in (row.get("fuzz") or {})]

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
    atomic_write(args.out, json.dumps(results, indent=1) + "\n")
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
    row["rules"] = sorted(_said(function)) if function else []
    row["options"] = sorted(_options(function)) if function else []
    if not any(kills.get("all") for kills in row["kills"].values()) and not row.get(
            "equivalent"):
        mutant = Mutant(row["number"], row["file"], row["line"], row["kind"], row["what"])
        row["equivalent"] = classify(mutant) or ""


def _function_at(tree: ast.AST, line: int) -> ast.FunctionDef | None:
    best: ast.FunctionDef | None = None
    for node in ast.walk(tree):
        if (isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or 0)
                and (best is None or node.lineno > best.lineno)):
            best = node
    return best


def _said(function: ast.FunctionDef) -> set[str]:
    """The rule ids a function writes in its explanations (``say("card.law.ends", ...)``)."""
    return {
        node.args[0].value for node in ast.walk(function)
        if isinstance(node, ast.Call) and node.args
        and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("say", "_say")
        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
    }


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


def tables(results: list[dict[str, Any]]) -> str:
    """The score per suite, per rule (the rule ids a mutated function says) and per option
    (the options it reads), and every mutant short of the target."""
    lines = ["| suite | mutants | equivalent | killed by 2+ vectors holding under the preset | "
             "by 1 | killed only under other settings | not broken under the preset | "
             "missed |", "|---|---|---|---|---|---|---|---|"]
    for suite in SUITES:
        counts = Counter(verdict(row, suite) for row in results)
        lines.append(f"| {suite} | {len(results)} | {counts['equivalent']} | "
                     f"{counts['killed']} | {counts['once']} | {counts['other settings']} | "
                     f"{counts['not broken']} | {counts['missed']} |")
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
    short = [row for row in results if any(
        verdict(row, suite) in ("once", "missed") for suite in SUITES)]
    if short:
        lines += ["", "Short of the target:"]
        for row in short:
            where = f"{row['file']}:{row.get('line', '')}"
            states = ", ".join(f"{suite} {verdict(row, suite)}" for suite in SUITES)
            lines.append(f"- {row['name']} {where} {row['kind']} ({row['what'][:60]}): "
                         f"{states}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
