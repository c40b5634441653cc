"""The command ``survey``: many random deals, solved exactly.

Exit status: 0 done; 1 some result unknown (a search ran out of budget); 2 bad input;
130 interrupted (the survey's results file keeps every deal recorded so far: run the same
command again to resume).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from omen_solver.cli.args import whole_number
from omen_solver.cli.output import console, print_json
from omen_solver.errors import OmenSolverError
from omen_solver.omens.rules import PRESETS
from omen_solver.omens.table import Scope
from omen_solver.survey.analysis import DEFAULT_LINE_STATES, SurveyConfig
from omen_solver.survey.report import any_unknown, summarise, write_outputs
from omen_solver.survey.runner import DEFAULT_BATCH, RESULTS_FILE, run_survey
from omen_solver.survey.store import ResultStore

__all__ = ["register"]

EXIT_OK, EXIT_UNKNOWN, EXIT_INTERRUPTED = 0, 1, 130


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _register_survey(subparsers)


def _players(text: str) -> tuple[int, ...]:
    try:
        found = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write player counts such as 4,5,6") from None
    if not found or any(p not in (4, 5, 6) for p in found):
        raise argparse.ArgumentTypeError(f"{text!r}: Omens is played by 4, 5 or 6 players")
    return found


_count = whole_number


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
    return value


def _rule(text: str) -> tuple[str, str]:
    name, equals, setting = text.partition("=")
    if not equals or not name.strip() or not setting.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write a rule option as NAME=SETTING")
    return name.strip(), setting.strip()


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", choices=sorted(PRESETS), default="rulebook",
                        help="rule preset (default: rulebook)")
    parser.add_argument("--rule", type=_rule, action="append", default=[], metavar="NAME=SETTING",
                        help="set one rule option (repeatable; see docs/omens-options.md)")


def _register_survey(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "survey",
        description="Solve seeded random deals exactly (every hand open) and aggregate: the "
                    "leading team's value by player count, the value of holding each card, the "
                    "immediate cards in every optimal line, and each rule option's impact. Runs "
                    "on a local Dask cluster (or --scheduler); results stream to "
                    f"OUT/{RESULTS_FILE}, so running the same command again resumes. Exit 0: "
                    "done; 1: some result unknown; 2: bad input; 130: interrupted.",
    )
    parser.add_argument("--out", type=Path, default=Path("survey"), metavar="DIR",
                        help="folder for the results, tables and plots (default: survey)")
    parser.add_argument("--deals", type=_count, default=100, metavar="N",
                        help="deals per player count (default 100)")
    parser.add_argument("--players", type=_players, default=(4, 5, 6), metavar="LIST",
                        help="player counts, e.g. 4,5,6 (the default)")
    parser.add_argument("--cards", type=_positive, metavar="K",
                        help="cards per hand, one Absolute among them (default: the rulebook's "
                             "deal: 5 each with 4 players, 5 and 4 with 5, 4 with 6)")
    parser.add_argument("--scope", choices=[Scope.ROUND.value, Scope.GAME.value],
                        default=Scope.ROUND.value, help="solve a round (default) or a game")
    add_rules_options(parser)
    parser.add_argument("--seed", type=int, default=0, help="the survey's seed (default 0)")
    parser.add_argument("--max-seconds", type=_seconds, default=60.0, metavar="S",
                        help="time limit of each search, then 'unknown' (default 60)")
    parser.add_argument("--max-nodes", type=_positive, metavar="N",
                        help="node limit of each search (deterministic)")
    parser.add_argument("--no-options", action="store_true",
                        help="skip option impact (one more search per option setting)")
    parser.add_argument("--no-lines", action="store_true",
                        help="skip the immediate cards in every optimal line")
    parser.add_argument("--line-states", type=_positive, default=DEFAULT_LINE_STATES, metavar="N",
                        help="positions the optimal-line walk visits before it says unknown "
                             f"(default {DEFAULT_LINE_STATES})")
    parser.add_argument("--workers", type=_count, metavar="N",
                        help="worker processes of the local Dask cluster (default: one per "
                             "core); 0 runs in this process without Dask")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="use an existing Dask cluster, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--batch", type=_positive, default=DEFAULT_BATCH, metavar="N",
                        help=f"deals per Dask task (default {DEFAULT_BATCH})")
    parser.add_argument("--no-plots", action="store_true", help="write no PNG/SVG plots")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=_survey)


def config_from(args: argparse.Namespace) -> SurveyConfig:
    return SurveyConfig(
        seed=args.seed, players=args.players, deals=args.deals, cards=args.cards,
        scope=args.scope, preset=args.preset, overrides=tuple(sorted(dict(args.rule).items())),
        max_seconds=args.max_seconds, max_nodes=args.max_nodes, options=not args.no_options,
        lines=not args.no_lines, line_states=args.line_states,
    )


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("- deals/s" if not speed else f"{speed:.2f} deals/s")


@contextmanager
def _bar(total: int, done: int) -> Iterator[Any]:
    stderr = Console(stderr=True)
    progress = Progress(
        TextColumn("survey"), BarColumn(), MofNCompleteColumn(), _RateColumn(),
        TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
        console=stderr, disable=not stderr.is_terminal,
    )
    with progress:
        task = progress.add_task("deals", total=total, completed=done)
        yield lambda added: progress.advance(task, added)


def _survey(args: argparse.Namespace) -> int:
    config = config_from(args)
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise OmenSolverError(f"--out {out}: exists and is not a folder")
    store = ResultStore(out / RESULTS_FILE, config)
    total = len(config.players) * config.deals
    try:
        with _bar(total, len(store.records)) as tick:
            run_survey(config, out, workers=args.workers, scheduler=args.scheduler,
                       batch=args.batch, tick=tick, store=store)
    except KeyboardInterrupt:
        print(f"omen-solver: interrupted: {len(store.records)} of {total} deals are recorded in "
              f"{out / RESULTS_FILE}; run the same command again to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    records = store.ordered()
    summary = summarise(config, records)
    written = write_outputs(summary, out, plots=not args.no_plots)
    if args.json:
        print_json(summary.to_json())
    else:
        _show(summary, written)
    unknown = any_unknown(records)
    if unknown:
        reasons = "; ".join(f"{why} ({count})" for why, count in summary.unknown_reasons.items())
        print(f"omen-solver: {unknown} of {len(records)} deals have an unknown result, counted "
              f"apart, not as wins, losses or changes: {reasons}", file=sys.stderr)
        return EXIT_UNKNOWN
    return EXIT_OK


def _show(summary: Any, written: list[Path]) -> None:
    out = console()
    table = Table("players", "leading team's value [95 % interval] (deals)",
                  title="The leading team under best play")
    for players, rate in summary.leading.items():
        table.add_row(str(players), rate.text())
    out.print(table)
    if summary.options:
        impact = Table("option", "deals changed", "share [95 % interval]",
                       title="Option impact")
        for option in sorted(summary.options, key=lambda o: (-o.changed, o.name)):
            impact.add_row(option.name, str(option.changed), option.rate.text())
        out.print(impact)
    folder = written[0].parent if written else Path()
    out.print(f"{summary.deals} deals, {summary.unknown} unknown; tables, card values and plots "
              f"in {escape(str(folder))}/ (summary.md, summary.json)")
