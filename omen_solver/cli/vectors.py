"""``omen-solver vectors ...``: export the conformance vectors, check an engine against them,
and serve this library's engine over the vector protocol (docs/vectors.md)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from omen_solver.cli.args import count_between, seconds
from omen_solver.cli.output import console, print_json
from omen_solver.errors import OmenSolverError
from omen_solver.omen.game import OMEN
from omen_solver.omen.rules import PROFILES
from omen_solver.omens.game import OMENS
from omen_solver.omens.rules import PRESETS
from omen_solver.shipped import shipped
from omen_solver.vectors.engine import serve
from omen_solver.vectors.export import (
    GAMES,
    SETS,
    check_docs,
    docs_key,
    export,
    publication,
    update_docs,
)
from omen_solver.vectors.fuzz import describe_found, fuzz
from omen_solver.vectors.omens_mine import Suite
from omen_solver.vectors.perft_runner import check_perft, load_perft_files
from omen_solver.vectors.runner import CheckReport, VectorResult, check_vectors, load_vector_files
from omen_solver.vectors.settings import parse_declared

__all__ = ["register"]

EXIT_OK = 0
EXIT_MISMATCH = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "vectors",
        description="Conformance vectors (docs/vectors.md): positions, action sequences and "
        "what the rules require after every step, for Omens and Omen.",
    )
    commands = parser.add_subparsers(dest="vectors_command", metavar="COMMAND", required=True)

    exp = commands.add_parser(
        "export",
        help="mine and write a game's vectors, perft suite, coverage report and reference",
        description="Mine the vectors (printed examples, option witnesses, and for Omens a "
        "coverage-driven enumeration of small positions and seeded random lines, kept only "
        "where they cover something new), give each the settings it holds under, count the "
        "perft suite, and write OUT/GAME/*.json (Omens: a suite mined under the settings of "
        "--preset and --rule, in OUT/omens/SUITE/) and OUT/schema/*.json. The same version "
        "writes byte-identical files.",
    )
    exp.add_argument("--game", required=True, choices=GAMES, help="which game")
    exp.add_argument("--out", type=Path, required=True, metavar="DIR",
                     help="the folder to write (the shipped set is vectors/)")
    exp.add_argument("--witnesses", type=Path, metavar="DIR",
                     help="Omens: the option witnesses to mine (default: the witnesses "
                     "shipped with omen-solver, proofs/witnesses)")
    exp.add_argument("--only", action="append", default=[], metavar="SET",
                     help="write only this set (repeatable): "
                     + "; ".join(f"{g}: {', '.join(s)}" for g, s in SETS.items()))
    exp.add_argument("--preset", choices=tuple(PRESETS), metavar="NAME",
                     help="Omens: mine the suite under this preset (default rulebook; "
                     + ", ".join(PRESETS) + ")")
    exp.add_argument("--rule", action="append", default=[], type=_rule,
                     metavar="NAME=SETTING",
                     help="Omens: with this setting on top of the preset (repeatable; "
                     "docs/omens-options.md)")
    exp.add_argument("--suite", metavar="NAME",
                     help="Omens: the suite's name, its folder under OUT/omens/ (default: the "
                     "preset's name, or 'custom' with --rule)")
    exp.add_argument("--docs", type=Path, metavar="FILE",
                     help="also rewrite the coverage section of this page (docs/vectors.md)")
    exp.add_argument("--json", action="store_true", help="print the coverage report as JSON")
    exp.set_defaults(handler=_export)

    check = commands.add_parser(
        "check",
        help="run an engine through the vectors over the JSON-lines protocol",
        description="Start COMMAND as a child process speaking the vector protocol "
        "(docs/vectors.md), play every vector of DIR that holds under the rule settings the "
        "engine declares in its 'hello' (every vector if it can switch settings) and compare "
        "who acts, the legal actions and the states. The engine runs in a process group of "
        "its own, stopped with everything it started. Exit status: 0 every vector played "
        "passed and enough were played (--min-played), 1 mismatches or too few played, 2 bad "
        "input (a bad vector file, a command that does not start or answer 'hello'), 130 "
        "interrupted.",
    )
    check.add_argument("dir", type=Path, metavar="DIR", nargs="?",
                       help="a vector folder or file (default: the vectors shipped with "
                       "omen-solver)")
    check.add_argument("--engine", required=True, metavar="COMMAND",
                       help="the engine's command line, e.g. \"node my-adapter.js\"")
    check.add_argument("--game", action="append", default=[], choices=GAMES,
                       help="only this game's vectors (repeatable)")
    check.add_argument("--match", metavar="TEXT", help="only vectors whose id contains TEXT")
    check.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                       help="seconds the engine has to answer each request (default 10)")
    check.add_argument("--start-timeout", type=seconds, default=60.0, metavar="S",
                       help="seconds the engine has to answer 'hello' each time it is "
                       "started (default 60)")
    check.add_argument("--min-played", type=int, metavar="N",
                       help="fail (exit 1) if fewer than N vectors are played (default: half "
                       "of those selected)")
    check.add_argument("--max-failures", type=int, metavar="N",
                       help="stop after N failed vectors")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(handler=_check)

    counts = commands.add_parser(
        "perft",
        help="count the perft suites through an engine over the JSON-lines protocol",
        description="Start COMMAND as for 'vectors check' and, for every case of the perft "
        "files of DIR (*/perft.json) recorded under settings the engine plays, have it count "
        "the legal action sequences per depth: by a 'perft' request if it answers one, else "
        "by walking its 'legal' and 'play' answers (setting the position up again to go back "
        "up the tree). Only depths whose recorded tree has at most --max-nodes nodes are "
        "counted. Exit status: 0 every count agrees (and one case was counted at least), 1 a "
        "count differs or nothing was counted, 2 bad input, 130 interrupted.",
    )
    counts.add_argument("dir", type=Path, metavar="DIR", help="a vector folder or perft file")
    counts.add_argument("--engine", required=True, metavar="COMMAND",
                        help="the engine's command line, e.g. \"node my-adapter.js\"")
    counts.add_argument("--max-nodes", type=int, default=5_000, metavar="N",
                        help="count the depths whose recorded tree has at most N nodes "
                        "(default 5000)")
    counts.add_argument("--walk", action="store_true",
                        help="walk 'legal' and 'play' even if the engine answers 'perft'")
    counts.add_argument("--game", action="append", default=[], choices=GAMES,
                        help="only this game's cases (repeatable)")
    counts.add_argument("--match", metavar="TEXT", help="only cases whose id contains TEXT")
    counts.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                        help="seconds the engine has to answer each request (default 10)")
    counts.add_argument("--start-timeout", type=seconds, default=60.0, metavar="S",
                        help="seconds the engine has to answer 'hello' (default 60)")
    counts.add_argument("--json", action="store_true", help="print the report as JSON")
    counts.set_defaults(handler=_perft)

    fuzzing = commands.add_parser(
        "fuzz",
        help="differential fuzzing of an Omens engine over the JSON-lines protocol",
        description="Start COMMAND as for 'vectors check' and play seeded random Omens lines "
        "through it (whole games from the first deal, rounds from a full deal, mid-round "
        "positions with the effect cards dealt first; every action drawn from the legal "
        "actions), comparing who acts, the legal actions after every step and the state at "
        "every bout end with this library's engine under the settings the engine declares "
        "(a switchable engine: --preset). Each disagreement is shrunk to a small position "
        "and line (fewer players, cards and actions) and written into --out as a vector file "
        "that 'vectors check' plays. Stops after --rounds lines or --seconds, whichever comes "
        "first. Finding nothing is no proof of conformance. Exit status: 0 no disagreement "
        "(and one line played at least), 1 a disagreement (or nothing played), 2 bad input, "
        "130 interrupted.",
    )
    fuzzing.add_argument("--engine", required=True, metavar="COMMAND",
                         help="the engine's command line, e.g. \"node my-adapter.js\"")
    fuzzing.add_argument("--preset", choices=tuple(PRESETS), metavar="NAME",
                         help="the settings to fuzz a switchable engine under (default "
                         "rulebook; " + ", ".join(PRESETS) + "); an engine that declares its "
                         "settings is fuzzed under them (a --preset that differs is refused)")
    fuzzing.add_argument("--rounds", type=count_between(1, 10**9, "--rounds"), default=200,
                         metavar="N", help="random lines to play (default 200)")
    fuzzing.add_argument("--seed", type=int, default=0, metavar="S",
                         help="the seed of the positions and lines (default 0)")
    fuzzing.add_argument("--seconds", type=seconds, default=60.0, metavar="S",
                         help="time budget (default 60; shrinking the last disagreement may "
                         "take up to 10 s more)")
    fuzzing.add_argument("--out", type=Path, default=Path("fuzz-vectors"), metavar="DIR",
                         help="where to write a vector file per disagreement (default "
                         "fuzz-vectors)")
    fuzzing.add_argument("--max-found", type=count_between(1, 10**6, "--max-found"),
                         default=5, metavar="N", help="stop after N disagreements (default 5)")
    fuzzing.add_argument("--shrink-replays", type=count_between(0, 10**6, "--shrink-replays"),
                         default=400, metavar="N",
                         help="replays a shrink may take (default 400; 0: write each "
                         "disagreement as found)")
    fuzzing.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                         help="seconds the engine has to answer each request (default 10)")
    fuzzing.add_argument("--start-timeout", type=seconds, default=60.0, metavar="S",
                         help="seconds the engine has to answer 'hello' (default 60)")
    fuzzing.add_argument("--json", action="store_true", help="print the report as JSON")
    fuzzing.set_defaults(handler=_fuzz)

    engine = commands.add_parser(
        "engine",
        help="this library's engine behind the vector protocol (stdin/stdout)",
        description="Answer vector-protocol requests on stdin, one JSON object per line, with "
        "this library's engine; give it to 'vectors check --engine'. By default it can switch "
        "rule settings (it plays every vector); with --preset, --rule or --profile it plays "
        "those settings only, like an engine whose rule choices are built in, declares them "
        "in its 'hello' and answers 'unsupported' to a setup under other settings.",
    )
    engine.add_argument("--preset", choices=tuple(PRESETS), metavar="NAME",
                        help="Omens: play this preset only (" + ", ".join(PRESETS) + ")")
    engine.add_argument("--rule", action="append", default=[], type=_rule,
                        metavar="NAME=SETTING",
                        help="Omens: with this setting on top of the preset (repeatable; "
                        "docs/omens-options.md)")
    engine.add_argument("--profile", choices=tuple(PROFILES), metavar="NAME",
                        help="Omen: play this profile only (" + ", ".join(PROFILES) + ")")
    engine.set_defaults(handler=_engine)


def _rule(text: str) -> tuple[str, str]:
    name, equals, setting = text.partition("=")
    if not equals or not name.strip() or not setting.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write a rule option as NAME=SETTING")
    return name.strip(), setting.strip()


def _engine(args: argparse.Namespace) -> int:
    fixed = {}
    if args.preset is not None or args.rule:
        fixed[OMENS.name] = parse_declared(
            OMENS.name, {"preset": args.preset or "rulebook", "overrides": dict(args.rule)},
            "--preset/--rule")
    if args.profile is not None:
        fixed[OMEN.name] = parse_declared(OMEN.name, {"profile": args.profile}, "--profile")
    return serve(fixed=fixed)


@contextmanager
def _status(console: Console, quiet: bool) -> Iterator[Any]:
    if quiet or not console.is_terminal:
        yield lambda text: None
        return
    with console.status("") as status:
        yield lambda text: status.update(escape(text))


def _export(args: argparse.Namespace) -> int:
    part = publication(args.game)
    if args.witnesses is not None and part.witnesses_refusal:
        raise OmenSolverError(part.witnesses_refusal)
    witnesses = shipped("proofs") / "witnesses" if args.witnesses is None else args.witnesses
    suite = None
    if args.preset is not None or args.rule or args.suite is not None:
        if not part.suites:
            raise OmenSolverError(part.suite_refusal)
        preset = args.preset or "rulebook"
        name = args.suite or ("custom" if args.rule else preset)
        suite = Suite(name, preset, dict(args.rule))
    section = docs_key(args.game, suite)
    if args.docs is not None:
        check_docs(args.docs, section)
    stderr = Console(stderr=True)
    with _status(stderr, args.json) as say:
        result = export(args.game, args.out, witnesses=witnesses, only=args.only,
                        progress=say, suite=suite)
    report = result.coverage
    if args.docs is not None:
        if report is None:
            raise OmenSolverError("--docs needs the coverage report: do not leave 'coverage' "
                                  "out of --only")
        update_docs(args.docs, section, report)
    if args.json:
        print_json(report)
        return EXIT_OK
    out = console(soft_wrap=True)
    counts = ", ".join(f"{count} {name}" for name, count in result.counts.items())
    out.print(f"{args.game}: {counts}; {len(result.files)} files under {escape(str(args.out))}")
    if report is None:
        return EXIT_OK
    for name, entry in report["dimensions"].items():
        total, missing = entry["total"], entry["missing"]
        covered = f"{entry['covered']}" if total is None else f"{entry['covered']}/{total}"
        shown = ", ".join(m.split(":", 1)[1] for m in missing[:4])
        more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
        out.print(f"  {name:<10} {covered:>9}" + (f"  not covered: {escape(shown)}{more}"
                                                   if missing else ""))
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise OmenSolverError(f"--timeout must be positive, not {args.timeout}")
    if args.start_timeout <= 0:
        raise OmenSolverError(f"--start-timeout must be positive, not {args.start_timeout}")
    if args.max_failures is not None and args.max_failures <= 0:
        raise OmenSolverError(f"--max-failures must be positive, not {args.max_failures}")
    if args.min_played is not None and args.min_played < 0:
        raise OmenSolverError(f"--min-played must be 0 or more, not {args.min_played}")
    source = shipped("vectors") if args.dir is None else args.dir
    files = load_vector_files(source)
    stderr = Console(stderr=True)
    out = console(soft_wrap=True)
    if not args.json and args.dir is None:
        out.print(f"vectors from {escape(str(source))} (shipped with omen-solver)")

    def shown(result: VectorResult) -> None:
        if args.json or result.status != "failed":
            return
        out.print(f"[red]FAIL[/] {escape(result.vector)}"
                  + (f": {escape(result.message)}" if result.message else ""))
        for mismatch in result.mismatches:
            out.print(escape("  " + mismatch.describe()))

    with _progress(stderr, quiet=args.json) as progress:
        report = check_vectors(
            files, args.engine, timeout=args.timeout, start_timeout=args.start_timeout,
            games=args.game, match=args.match, max_failures=args.max_failures,
            min_played=args.min_played, progress=progress, on_result=shown,
        )
    if args.json:
        print_json({"dir": str(source), **report.to_json()})
    else:
        _summary(out, report)
    return EXIT_OK if report.ok() else EXIT_MISMATCH


def _fuzz(args: argparse.Namespace) -> int:
    if args.out.exists() and not args.out.is_dir():
        raise OmenSolverError(f"--out {args.out}: not a folder")
    stderr = Console(stderr=True)
    out = console(soft_wrap=True)
    with _progress(stderr, quiet=args.json) as progress:
        report = fuzz(args.engine, preset=args.preset, rounds=args.rounds, seed=args.seed,
                      seconds=args.seconds, out=args.out, timeout=args.timeout,
                      start_timeout=args.start_timeout, max_found=args.max_found,
                      shrink_replays=args.shrink_replays, progress=progress)
    if args.json:
        print_json(report.to_json())
        return EXIT_OK if report.ok() else EXIT_MISMATCH
    for found in report.found:
        out.print(f"[red]DISAGREE[/] {escape(found.disagreement.kind)}")
        for line in describe_found(found):
            out.print(escape("  " + line))
    starts = ", ".join(f"{count} {kind}" for kind, count in sorted(report.starts.items()))
    out.print(f"played {report.played} of {sum(report.starts.values())} random lines "
              f"({starts}; seed {report.seed}) in {report.seconds:.1f} s: {report.moves} "
              f"actions and {report.states} bout ends compared, {report.situations} of the "
              f"{report.situations_total} situations of the coverage met; {len(report.found)} "
              f"disagreement(s) (engine {escape(report.engine)}, settings "
              f"{escape(report.settings)})")
    for kind, count in report.by_class():
        out.print(f"disagreement {count}: {escape(kind)}")
    for reason, count in sorted(report.skipped.items()):
        out.print(f"skipped {count}: {escape(reason)} (the engine's setup answer)")
    if report.stopped:
        out.print(f"stopped: {escape(report.stopped)}")
    if not report.played:
        out.print("[red]FAIL[/]: no line was played (the engine answered 'unsupported' to every "
                  "setup); it needs to set up Omens positions under the declared settings")
    elif not report.found:
        out.print("no disagreement found (random play is no proof of conformance: run more "
                  "--rounds, other --seed values, and vectors check)")
    return EXIT_OK if report.ok() else EXIT_MISMATCH


def _perft(args: argparse.Namespace) -> int:
    for name in ("timeout", "start_timeout"):
        if getattr(args, name) <= 0:
            raise OmenSolverError(f"--{name.replace('_', '-')} must be positive, not "
                                  f"{getattr(args, name)}")
    if args.max_nodes < 1:
        raise OmenSolverError(f"--max-nodes must be at least 1, not {args.max_nodes}")
    files = load_perft_files(args.dir)
    stderr = Console(stderr=True)
    out = console(soft_wrap=True)
    with _progress(stderr, quiet=args.json) as progress:
        report = check_perft(files, args.engine, timeout=args.timeout,
                             start_timeout=args.start_timeout, max_nodes=args.max_nodes,
                             walk=args.walk, games=args.game, match=args.match,
                             progress=progress)
    if args.json:
        print_json(report.to_json())
        return EXIT_OK if report.ok() else EXIT_MISMATCH
    counts = report.counts()
    out.print(f"counted {counts['passed'] + counts['failed']} of {len(report.results)} perft "
              f"cases: {counts['passed']} agree, {counts['failed']} differ; "
              f"{counts['skipped']} skipped (engine {escape(report.engine)})")
    for result in report.results:
        if result.status == "failed":
            out.print(f"[red]FAIL[/] {escape(result.case)}"
                      + (f": {escape(result.message)}" if result.message else ""))
            for line in result.mismatches[:10]:
                out.print(f"  {escape(line)}")
        elif result.status == "passed":
            out.print(f"ok   {escape(result.case)}: depths {', '.join(map(str, result.depths))}"
                      f" ({result.how})")
    reasons = Counter(r.message for r in report.results if r.status == "skipped")
    for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0])):
        out.print(f"skipped {count}: {escape(reason)}")
    if not counts["passed"] + counts["failed"]:
        out.print("[red]FAIL[/]: no perft case was counted")
    return EXIT_OK if report.ok() else EXIT_MISMATCH


@contextmanager
def _progress(console: Console, quiet: bool) -> Iterator[Any]:
    if quiet or not console.is_terminal:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("vectors", total=None)

        def update(done: int, total: int, vector: str) -> None:
            bar.update(task, completed=done, total=total, description=escape(vector[:40]))

        yield update


def _summary(out: Console, report: CheckReport) -> None:
    counts = report.counts()
    rules = report.by_rule()
    settings = "; ".join(f"{game}: {text}" for game, text in report.rules.items())
    out.print(f"played {report.played} of {report.selected} vectors: {counts['passed']} "
              f"passed, {counts['failed']} failed; {counts['skipped']} skipped (engine "
              f"{escape(report.engine)}, settings {escape(settings)})")
    failing = {rule: c for rule, c in rules.items() if c["failed"]}
    if failing:
        table = Table("rule id", "passed", "failed", "skipped", title="failures by rule id")
        for rule, c in failing.items():
            table.add_row(rule, str(c["passed"]), str(c["failed"]), str(c["skipped"]))
        out.print(table)
    reasons = report.skip_reasons()
    for reason, count in reasons[:8]:
        out.print(f"skipped {count}: {escape(reason)}")
    if len(reasons) > 8:
        out.print(f"skipped {sum(c for _, c in reasons[8:])} for {len(reasons) - 8} other "
                  "reasons (--json lists them all)")
    if report.stopped:
        out.print(f"[yellow]stopped[/]: {escape(report.stopped)}")
    if report.too_few():
        out.print(f"[red]FAIL[/]: {escape(report.too_few())}")
    out.print(f"{len(rules)} rule ids in the vectors played or skipped")
    sys.stdout.flush()
