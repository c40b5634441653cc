"""``omen-solver prove``: check the rule theorems of ``proofs/`` (``docs/proofs.md``).

Each theorem is reported ``proved``, ``refuted`` (with a counterexample position file a person
can replay with ``omen-solver omens play``) or ``unknown`` (with z3's reason, or why an
enumeration stopped); each of its broken variants must come out ``refuted``. Exit status: 0
when every theorem is proved and every broken variant refuted; 1 otherwise; 2 on bad input.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from omen_solver.cli.args import add_wait, node_count, refuse_given
from omen_solver.cli.output import (
    Cell,
    Column,
    console,
    plural,
    print_json,
    print_rows,
    print_wrapped,
)
from omen_solver.core.files import FolderLock
from omen_solver.core.processes import start_worker
from omen_solver.core.smt import DEFAULT_SETTINGS, Outcome, SolverSettings
from omen_solver.errors import OmenSolverError
from omen_solver.omens.proofs.theorems.library import load_theorems, select
from omen_solver.omens.proofs.theorems.runner import Report, VariantReport, run
from omen_solver.omens.proofs.theorems.theorem import Finding, Theorem
from omen_solver.shipped import shipped
from omen_solver.vectors.witness import (
    SEARCHES,
    Witness,
    find_witnesses,
    read_summary,
    write_witnesses,
)

__all__ = ["register"]

EXIT_OK, EXIT_FAILED = 0, 1

_T = TypeVar("_T")

_STYLE = {Outcome.PROVED: "green", Outcome.REFUTED: "bold red", Outcome.UNKNOWN: "yellow"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "prove",
        description="Check every theorem (or the ones named): proved, refuted with a "
        "counterexample position file, or unknown with z3's reason. Every broken variant (a "
        "deliberately wrong rule) must be refuted. Exit 0: all proved and all broken variants "
        "refuted; 1: anything else; 2: bad input.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="theorems to check (default: all)")
    parser.add_argument(
        "--dir", type=Path,
        help="folder of theorem files (default: the theorems shipped with omen-solver)",
    )
    parser.add_argument(
        "--counterexamples",
        type=Path,
        metavar="DIR",
        help="where counterexample positions are written (default: counterexamples/ in the "
        "folder of theorems, or in the current folder if that one cannot be written)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list, one object per theorem"
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the theorems (with -v, their statements) without checking them",
    )
    parser.add_argument(
        "--query",
        action="store_true",
        help="print each named theorem's query and rule lines without checking it",
    )
    parser.add_argument(
        "--rlimit",
        type=int,
        metavar="N",
        help=f"z3's deterministic resource limit per check (default {DEFAULT_SETTINGS.rlimit:,})",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="theorems checked at once, each in its own process (default: 2, or 1 on one core)",
    )
    parser.add_argument(
        "--timeout-ms",
        type=int,
        metavar="MS",
        help=f"z3's wall-clock safety net per check (default {DEFAULT_SETTINGS.timeout_ms})",
    )
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also each theorem's statement and broken variants")
    parser.set_defaults(handler=_prove)
    _register_witnesses(subparsers)


def _register_witnesses(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "witnesses",
        description="For every Omens rule option (or the ones named), search small deals for "
        "the first position and moves where two of its settings differ (every pair of "
        "settings); write one position file per setting, a summary and the table of "
        "docs/omens-option-witnesses.md.",
    )
    parser.add_argument("options", nargs="*", metavar="OPTION", help="options (default: all)")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("proofs/witnesses"),
        help="folder for the witness files (default: proofs/witnesses)",
    )
    parser.add_argument(
        "--docs",
        type=Path,
        default=Path("docs/omens-option-witnesses.md"),
        help="the table to write (default: docs/omens-option-witnesses.md)",
    )
    parser.add_argument("--no-docs", action="store_true", help="do not write the table")
    parser.add_argument(
        "--max-nodes",
        type=node_count,
        default=200_000,
        metavar="N",
        help="node budget per deal and setting pair (default 200,000)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    add_wait(parser, "--out")
    parser.set_defaults(handler=_witnesses)


def _witnesses(args: argparse.Namespace) -> int:
    known = list(SEARCHES)
    for name in args.options:
        if name not in known:
            raise OmenSolverError(
                f"no rule option named {name!r}; the options are {', '.join(known)}"
            )
    if args.max_nodes <= 0:
        raise OmenSolverError("--max-nodes must be positive")
    chosen = args.options or known
    # One run at a time: a run for some options merges its results into the summary.
    with FolderLock(args.out, wait=args.wait):
        previous = _previous(args.out / "summary.json", chosen) if args.options else []
        results = [
            witness
            for name in _with_progress(chosen, "options", str, quiet=args.json)
            for witness in find_witnesses(name, max_nodes=args.max_nodes)
        ]
        if args.options:
            results = [*previous, *results]
            order = {name: index for index, name in enumerate(known)}
            results.sort(key=lambda w: order[w.option])
        written = write_witnesses(results, args.out, None if args.no_docs else args.docs)
    if args.json:
        print_json([w.to_json() for w in results])
        return EXIT_OK
    out = console(soft_wrap=True)
    for witness in results:
        if witness.option not in chosen:
            continue
        if witness.found:
            needs = f" (with {witness.companions})" if witness.companions else ""
            out.print(
                f"[green]{escape(witness.option)}[/]{escape(needs)}: {escape(witness.difference)}"
            )
        else:
            out.print(
                f"[yellow]{escape(witness.option)}[/]: no difference within the bounds "
                f"({witness.deals:,} deals)"
            )
    out.print(f"{len(written)} files written under {escape(str(args.out))}")
    return EXIT_OK


def _with_progress(
    items: Sequence[_T], what: str, name: Callable[[_T], str], *, quiet: bool
) -> Iterator[_T]:
    """The items, with a progress bar on stderr while they are worked through (only on a
    terminal): which one is being worked on, how many are done."""
    stderr = Console(stderr=True)
    if quiet or not stderr.is_terminal:
        yield from items
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=stderr, transient=True) as progress:
        task = progress.add_task(what, total=len(items))
        for item in items:
            progress.update(task, description=f"{what}: {name(item)}")
            yield item
            progress.advance(task)


def _previous(summary: Path, replaced: list[str]) -> list[Witness]:
    """The witnesses of a summary file, but those being searched again."""
    if not summary.exists():  # anything else there is read (and refused if not a file)
        return []
    return [w for w in read_summary(summary) if w.option not in replaced]


_CHECKING = ("counterexamples", "rlimit", "jobs", "timeout_ms")
"""The options of a check, which ``--list`` and ``--query`` do not run."""


def _prove(args: argparse.Namespace) -> int:
    source = shipped("proofs") if args.dir is None else args.dir
    theorems = select(load_theorems(source), args.names)
    if args.list or args.query:
        if args.list and args.query:
            raise OmenSolverError("--query prints what --list lists and more: give one of them")
        refuse_given(args, _CHECKING, f"does not apply with {'--list' if args.list else '--query'}"
                     ", which checks nothing")
        if args.query and args.json:
            raise OmenSolverError("--json lists the theorems (--list), --query prints them "
                                  "as text: give one of them")
        where = " (shipped with omen-solver)" if args.dir is None else ""
        if args.list:
            return _list(theorems, args.json, source, where, args.verbose)
        return _queries(theorems)
    rlimit = DEFAULT_SETTINGS.rlimit if args.rlimit is None else args.rlimit
    timeout_ms = DEFAULT_SETTINGS.timeout_ms if args.timeout_ms is None else args.timeout_ms
    jobs = min(2, os.cpu_count() or 1) if args.jobs is None else args.jobs
    if rlimit <= 0 or timeout_ms <= 0:
        raise OmenSolverError("--rlimit and --timeout-ms must be positive")
    if jobs <= 0:
        raise OmenSolverError("--jobs must be positive")
    settings = SolverSettings(DEFAULT_SETTINGS.seed, timeout_ms, rlimit)
    folder = args.counterexamples or counterexample_folder(source)
    started = time.perf_counter()
    reports = _run_all(theorems, source, settings, folder, jobs, quiet=args.json)
    total = time.perf_counter() - started
    if args.json:
        print_json([{**report.to_json(), "file": str(_file_of(source, report.theorem))}
                    for report in reports])
    else:
        where = " (shipped with omen-solver)" if args.dir is None else ""
        console().print(f"{plural(len(reports), 'theorem')} from {escape(str(source))}{where}")
        _show(reports, total, settings, folder, verbose=args.verbose)
    return EXIT_OK if all(report.ok for report in reports) else EXIT_FAILED


def _file_of(folder: Path, theorem: Theorem) -> Path:
    """The file a theorem was read from (its name, with ``_`` for ``-``)."""
    return folder / f"{theorem.name.replace('-', '_')}.py"


def counterexample_folder(theorems: Path) -> Path:
    """``counterexamples/`` beside the theorems, or in the current folder when the theorems'
    folder cannot be written (an installed package)."""
    beside = theorems / "counterexamples"
    writable = beside if beside.is_dir() else theorems
    return beside if os.access(writable, os.W_OK) else Path("counterexamples")


def _run_all(
    theorems: list[Theorem],
    folder: Path,
    settings: SolverSettings,
    counterexamples: Path,
    jobs: int,
    *,
    quiet: bool,
) -> list[Report]:
    """Check the theorems, ``jobs`` at a time (each in a process of its own: a theorem's
    answer does not depend on what ran before it, every query has a fresh z3 context)."""
    if jobs == 1 or len(theorems) == 1:
        return [
            run(theorem, settings=settings, counterexamples=counterexamples)
            for theorem in _with_progress(theorems, "theorems", lambda t: t.name, quiet=quiet)
        ]
    # Each worker ends with this process, however it ends (kill -9 included), z3 with it;
    # on Ctrl-C this process stops them (below).
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=start_worker,
                               initargs=(os.getpid(),))
    futures: list[Future[_Result]] = [
        pool.submit(_run_one, folder, theorem.name, settings, counterexamples)
        for theorem in theorems
    ]
    names = {id(f): t.name for f, t in zip(futures, theorems, strict=True)}
    try:
        for future in _with_progress(futures, "theorems", lambda f: names[id(f)], quiet=quiet):
            future.result()
    except BaseException:
        # Ctrl-C (or a failure): stop the workers too; nothing interrupted is reported
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        raise
    pool.shutdown()
    return [_report(t, f.result()) for t, f in zip(theorems, futures, strict=True)]


_Result = tuple[Finding, Path | None, list[tuple[Finding, Path | None]]]
"""What a worker sends back: the theorem's finding and file, each variant's."""


def _run_one(folder: Path, name: str, settings: SolverSettings, out: Path) -> _Result:
    """One theorem, in a worker process (loaded again there: theorem files are code)."""
    (theorem,) = select(load_theorems(folder), [name])
    report = run(theorem, settings=settings, counterexamples=out)
    variants = [(v.finding, v.counterexample_path) for v in report.variants]
    return report.finding, report.counterexample_path, variants


def _report(theorem: Theorem, result: _Result) -> Report:
    finding, path, variants = result
    return Report(
        theorem,
        finding,
        tuple(
            VariantReport(variant, found, where)
            for variant, (found, where) in zip(theorem.variants(), variants, strict=True)
        ),
        path,
    )


def _list(theorems: list[Theorem], as_json: bool, source: Path, where: str,
          verbose: bool = False) -> int:
    if as_json:
        data: list[dict[str, Any]] = [
            {
                "name": t.name,
                "file": str(_file_of(source, t)),
                "title": t.title,
                "method": t.method,
                "statement": t.statement,
                "rests_on": [str(r) for r in t.rests_on],
                "broken": [v.name for v in t.variants()],
            }
            for t in theorems
        ]
        print_json(data)
        return EXIT_OK
    out = console(soft_wrap=True)
    out.print(f"{plural(len(theorems), 'theorem')} from {escape(str(source))}{where}")
    columns = [Column("theorem"), Column("method"), Column("title", shrink=True)]
    rows: list[list[Cell]] = [[(t.name, "bold"), t.method, t.title] for t in theorems]
    if not verbose:
        print_rows(out, columns, rows)
        return EXIT_OK
    for theorem, row in zip(theorems, rows, strict=True):
        print_rows(out, columns, [row], header=False, sizing=rows)
        print_wrapped(out, theorem.statement, indent="    ", hang="")
    return EXIT_OK


def _queries(theorems: list[Theorem]) -> int:
    out = console(soft_wrap=True)
    for theorem in theorems:
        out.print(f"[bold]{escape(theorem.name)}[/]: {escape(theorem.statement)}")
        for ref in theorem.rests_on:
            out.print(f"  rests on {escape(str(ref))}")
        for variant in theorem.variants():
            out.print(f"  broken variant {escape(variant.name)}: {escape(variant.text)}")
        out.print(escape(theorem.query_text()))
    return EXIT_OK


def _status(outcome: Outcome) -> str:
    return f"[{_STYLE[outcome]}]{outcome.name.lower()}[/]"


BROKEN_EXPLAINED = (
    "Each z3 theorem holds for every card, seat, player count and rule option at once (an "
    "enumeration theorem: on every move sequence of its space). 'Broken variants refuted': "
    "each is also checked under deliberately wrong rules, where it must fail: so no proof is "
    "vacuous, and each counterexample is a position file that 'omen-solver omens play FILE' "
    "replays with the real rules."
)


def _show(
    reports: list[Report], total: float, settings: SolverSettings, folder: Path | None = None,
    *, verbose: bool = False,
) -> None:
    """One line per theorem (``-v``: with its statement and each broken variant)."""
    out = console()
    columns = (Column("status"), Column("theorem"), Column("seconds", right=True),
               Column("broken variants"), Column("what it says", shrink=True))
    lines: list[list[Cell]] = []
    for report in reports:
        refuted = sum(v.ok for v in report.variants)
        colour = "green" if refuted == len(report.variants) else "bold red"
        outcome = report.finding.outcome
        lines.append([(outcome.name.lower(), _STYLE[outcome]), report.theorem.name,
                      f"{report.seconds:.2f}",
                      (f"{refuted}/{len(report.variants)} refuted", colour),
                      report.theorem.title])
    if verbose:
        for line, report in zip(lines, reports, strict=True):
            print_rows(out, columns, [line], header=False)
            out.print(f"    {escape(report.theorem.title)}: {escape(report.theorem.statement)}")
            for variant in report.variants:
                out.print(f"    broken: {escape(variant.variant.name)}: "
                          f"{variant.finding.outcome.name.lower()}", soft_wrap=True)
    else:
        print_rows(out, columns, lines)
    for report in reports:
        _details(out, report)
    proved = sum(r.finding.outcome is Outcome.PROVED for r in reports)
    variants = [v for r in reports for v in r.variants]
    console(soft_wrap=False).print(escape(BROKEN_EXPLAINED))
    if folder is not None and any(v.counterexample_path for v in variants):
        out.print(f"Counterexamples: {escape(str(folder))}/<theorem>--<broken variant>.toml")
    out.print(
        f"{plural(len(reports), 'theorem')}: {proved} proved, "
        f"{sum(r.finding.outcome is Outcome.REFUTED for r in reports)} refuted, "
        f"{sum(r.finding.outcome is Outcome.UNKNOWN for r in reports)} unknown; "
        f"broken variants: {sum(v.ok for v in variants)}/{len(variants)} refuted; "
        f"{total:.1f} s ({settings.describe()})"
    )


def _details(out: Console, report: Report) -> None:
    finding = report.finding
    name = escape(report.theorem.name)
    if finding.outcome is Outcome.UNKNOWN:
        out.print(f"[yellow]{name}: unknown[/] ({escape(finding.reason)})")
    if report.counterexample_path is not None:
        out.print(
            f"[bold red]{name}: refuted[/]; counterexample: "
            f"{escape(str(report.counterexample_path))}"
        )
    for variant in report.variants:
        if variant.ok:
            continue
        reason = f" ({escape(variant.finding.reason)})" if variant.finding.reason else ""
        out.print(
            f"  [bold red]{name} / {escape(variant.variant.name)}: "
            f"{variant.finding.outcome.name.lower()}[/]{reason}: the broken rule "
            f"'{escape(variant.variant.text)}' was not refuted"
        )
