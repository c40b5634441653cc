"""The commands ``survey`` (the positions seeded games reach, solved exactly) and ``balance``
(whole games by self-play), ``docs/survey.md``.

Exit status: 0 done; 1 some result unknown (a search ran out of budget, a game unfinished), or
the Dask cluster failed or had no worker (the records so far are kept: run the same command
again to resume); 2 bad input (including an --out folder another run is writing to, and a
--scheduler that does not answer as a Dask scheduler); 130 interrupted (the results file
keeps every record so far: run the same command again to resume).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

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

from omen_solver.cli.args import count_between, node_count, seconds, whole_number
from omen_solver.cli.output import console, print_json
from omen_solver.errors import ClusterError, OmenSolverError
from omen_solver.omens.deals import FIRST, KINDS
from omen_solver.omens.rules import PRESETS
from omen_solver.omens.table import Scope
from omen_solver.survey.analysis import DEFAULT_LINE_STATES, SurveyConfig
from omen_solver.survey.balance import (
    GAMES_FILE,
    BalanceConfig,
    play_batch,
    summarise_games,
    write_balance_outputs,
)
from omen_solver.survey.balance import markdown as balance_markdown
from omen_solver.survey.captions import settings_line
from omen_solver.survey.policies import (
    DEFAULT_POLICY_NODES,
    DEFAULT_POLICY_SAMPLES,
    POLICIES,
    Policy,
)
from omen_solver.survey.report import (
    Summary,
    summarise,
    write_every_position,
    write_outputs,
)
from omen_solver.survey.runner import (
    CONNECT_TIMEOUT,
    DEFAULT_BATCH,
    RESULTS_FILE,
    WORKERS_TIMEOUT,
    run_survey,
    run_tasks,
)
from omen_solver.survey.store import ResultStore

__all__ = ["register"]

EXIT_OK, EXIT_UNKNOWN, EXIT_INTERRUPTED = 0, 1, 130
DEFAULT_DEALS: Final = 100
"""Deals per player count of a plain ``survey``: a few minutes on a 2-core machine."""
DEFAULT_UNTIL_CARDS: Final = 3
DEFAULT_SECONDS: Final = 60.0
DEFAULT_NODES: Final = 250_000
"""The node limit of each search of a plain ``survey`` (deterministic: the same answers on
any machine)."""
DEFAULT_GAMES: Final = 100
"""Games per player count and preset of a plain ``balance`` (a minute or so)."""
LINE_EVERY: Final = 15.0
"""Seconds between progress lines when stderr is not a terminal."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _register_survey(subparsers)
    _register_balance(subparsers)


def _players(text: str) -> tuple[int, ...]:
    try:
        found = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write player counts such as 4,5,6") from None
    if not found or any(p not in (4, 5, 6) for p in found):
        raise argparse.ArgumentTypeError(f"{text!r}: Omens is played by 4, 5 or 6 players")
    return found


_count = whole_number


def _deals(text: str) -> int | tuple[tuple[int, int], ...]:
    """``N``, or ``P:N,...`` (deals for each player count), each at least 1."""
    if ":" not in text:
        return _positive(text)
    found: dict[int, int] = {}
    for part in text.split(","):
        players, colon, count = part.partition(":")
        if not colon:
            raise argparse.ArgumentTypeError(f"{text!r}: write N, or PLAYERS:N,... such as "
                                             "4:1900,5:3400")
        (number,) = _players(players)
        found[number] = _positive(count)
    return tuple(sorted(found.items()))


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


_seconds = seconds
"""Positive and finite (a wait of ``inf`` or ``nan`` seconds on a cluster would never end)."""

MAX_BATCH = 1_000_000
"""The most records one Dask task may take (a batch larger than a run is the run)."""

MAX_WORKERS = 4096
"""The most worker processes a local cluster may be asked for."""


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
        description="Deal seeded random games, play each deal forward with a stated policy to "
                    "the position asked (by default the first bout start with at most 3 cards "
                    "in every hand), solve it exactly (every hand open) and aggregate: the "
                    "leading team's value by player count, the value of holding each card, the "
                    "immediate cards in every optimal line, and each rule option's impact. "
                    "--as-dealt surveys the deals themselves. Runs on a local Dask cluster (or "
                    f"--scheduler); results stream to OUT/{RESULTS_FILE}, so running the same "
                    "command again resumes; one run at a time per folder. Exit 0: done; 1: some "
                    "result unknown (or the cluster failed: run again to resume); 2: bad input "
                    "(a folder in use, a --scheduler that is no Dask scheduler); 130: "
                    "interrupted.",
    )
    parser.add_argument("--out", type=Path, default=Path("survey"), metavar="DIR",
                        help="folder for the results, tables and plots (default: survey)")
    parser.add_argument("--deals", type=_deals, default=DEFAULT_DEALS, metavar="N",
                        help=f"deals per player count (default {DEFAULT_DEALS}), or per count: "
                             "4:1900,5:3400,6:2200 (those player counts)")
    parser.add_argument("--players", type=_players, metavar="LIST",
                        help="player counts, e.g. 4,5,6 (the default)")
    parser.add_argument("--cards", type=_positive, metavar="K",
                        help="cards per hand at the deal, one Absolute among them at a game "
                             "start (default: the rulebook's deal: 5 each with 4 players, 5 and "
                             "4 with 5, 4 with 6)")
    parser.add_argument("--round", choices=KINDS, default=FIRST, dest="kind",
                        help="deal as at a game start (first, the default) or as at a later "
                             "round (later: every card but the boxed Absolutes reshuffled, a "
                             "random leader)")
    reach = parser.add_mutually_exclusive_group()
    reach.add_argument("--until-cards", type=_positive, metavar="K",
                       help="play each deal to the first bout start where every hand holds at "
                            f"most K cards (the default, K = {DEFAULT_UNTIL_CARDS})")
    reach.add_argument("--after-bouts", type=_count, metavar="B",
                       help="play each deal for B bouts and survey the next bout start")
    reach.add_argument("--as-dealt", action="store_true",
                       help="survey the deals themselves, without play")
    parser.add_argument("--policy", choices=POLICIES,
                        help="how every seat plays the deals forward: heuristic (the default), "
                             "advice (the hidden-hand advice with a fixed small budget) or "
                             "random; docs/survey.md")
    parser.add_argument("--policy-samples", type=_positive, metavar="N",
                        help="advice policy: deals solved per decision "
                             f"(default {DEFAULT_POLICY_SAMPLES})")
    parser.add_argument("--policy-nodes", type=node_count, metavar="N",
                        help="advice policy: node budget of each of those deals "
                             f"(default {DEFAULT_POLICY_NODES:,})")
    parser.add_argument("--scope", choices=[Scope.ROUND.value, Scope.GAME.value],
                        default=Scope.ROUND.value,
                        help="solve a round (default) or a game (only with --as-dealt)")
    add_rules_options(parser)
    parser.add_argument("--seed", type=int, default=0, help="the survey's seed (default 0)")
    parser.add_argument("--max-seconds", type=_seconds, default=DEFAULT_SECONDS, metavar="S",
                        help="time limit of each search, then 'unknown' "
                             f"(default {DEFAULT_SECONDS:g})")
    parser.add_argument("--max-nodes", type=node_count, default=DEFAULT_NODES, metavar="N",
                        help="node limit of each search (deterministic; default "
                             f"{DEFAULT_NODES:,})")
    parser.add_argument("--no-options", action="store_true",
                        help="skip option impact (one more search per option setting)")
    parser.add_argument("--no-lines", action="store_true",
                        help="skip the immediate cards in every optimal line")
    parser.add_argument("--line-states", type=_positive, default=DEFAULT_LINE_STATES, metavar="N",
                        help="positions the optimal-line walk visits before it says unknown "
                             f"(default {DEFAULT_LINE_STATES})")
    parser.add_argument("--write-positions", action="store_true",
                        help="write every surveyed position as a position file in "
                             "OUT/positions/ (omen-solver solve answers it)")
    add_dask_options(parser, "deals")
    parser.add_argument("--no-plots", action="store_true", help="write no PNG/SVG plots")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=_survey)


def add_dask_options(parser: argparse.ArgumentParser, what: str) -> None:
    """Where the tasks run, and the one-writer lock (shared by survey and balance)."""
    parser.add_argument("--workers", type=count_between(0, MAX_WORKERS, "a number of workers"),
                        metavar="N",
                        help="worker processes of the local Dask cluster (default: one per "
                             "core); 0 runs in this process without Dask")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="use an existing Dask cluster, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--connect-timeout", type=_seconds, metavar="S",
                        help="--scheduler: seconds it may take to answer as a Dask scheduler "
                             f"(default {CONNECT_TIMEOUT:g}; then exit 2)")
    parser.add_argument("--workers-timeout", type=_seconds, metavar="S",
                        help="seconds the cluster may have no worker, at the start or while "
                             f"tasks wait (default {WORKERS_TIMEOUT:g}; then exit 1)")
    parser.add_argument("--batch", type=count_between(1, MAX_BATCH, "a batch"), metavar="N",
                        help=f"{what} per Dask task (default {DEFAULT_BATCH})")
    parser.add_argument("--wait", action="store_true",
                        help="if another run is writing to the same --out folder, wait for it "
                             "to end (default: exit 2 at once, naming it)")


def _require_extras(args: argparse.Namespace) -> None:
    """Dask (unless ``--workers 0``) and matplotlib (unless ``--no-plots``) are the survey
    extra's: missing, the command stops before it starts, naming it."""
    from omen_solver.core.extras import require

    command = args.command
    if args.workers != 0:
        require("distributed", "survey", f"{command} on a Dask cluster",
                "run in this process with --workers 0")
    if not args.no_plots:
        require("matplotlib", "survey", f"{command}'s plots", "write none with --no-plots")


def dask_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The runner's keywords from the Dask options (a flag that cannot apply is refused)."""
    if args.connect_timeout is not None and args.scheduler is None:
        raise OmenSolverError("--connect-timeout: applies to --scheduler only")
    if args.scheduler is not None and args.workers is not None:
        raise OmenSolverError("--workers: the workers of --scheduler are that cluster's own")
    if args.workers == 0 and args.workers_timeout is not None:
        raise OmenSolverError("--workers-timeout: applies to a Dask cluster, not to --workers 0")
    _require_extras(args)
    return {
        "workers": args.workers, "scheduler": args.scheduler,
        "batch": args.batch or DEFAULT_BATCH,
        "connect_timeout": args.connect_timeout or CONNECT_TIMEOUT,
        "workers_timeout": (WORKERS_TIMEOUT if args.workers_timeout is None
                            else args.workers_timeout),
    }


def run_json(args: argparse.Namespace, dask: dict[str, Any]) -> dict[str, Any]:
    """How the command ran (where the tasks ran, their size, the lock): ``"run"`` of the
    ``--json`` output. None of it changes a result; the output says what was used."""
    where = (f"scheduler {dask['scheduler']}" if dask["scheduler"] is not None
             else "this process" if dask["workers"] == 0 else "a local Dask cluster")
    return {
        "where": where, "workers": dask["workers"], "batch": dask["batch"],
        "connect_timeout": dask["connect_timeout"] if dask["scheduler"] is not None else None,
        "workers_timeout": None if dask["workers"] == 0 else dask["workers_timeout"],
        "wait": args.wait,
    }


def config_from(args: argparse.Namespace) -> SurveyConfig:
    until = args.until_cards
    if not args.as_dealt and until is None and args.after_bouts is None:
        until = DEFAULT_UNTIL_CARDS
    policy = None
    advice_flags = [flag for flag, value in (("--policy-samples", args.policy_samples),
                                             ("--policy-nodes", args.policy_nodes))
                    if value is not None]
    if args.as_dealt:
        given = [flag for flag, value in (("--policy", args.policy),) if value is not None]
        if given or advice_flags:
            raise OmenSolverError(f"{(given + advice_flags)[0]}: a policy plays the deals "
                                  "forward; --as-dealt surveys them without play")
    else:
        name = args.policy or "heuristic"
        if advice_flags and name != "advice":
            raise OmenSolverError(f"{advice_flags[0]}: applies to --policy advice only")
        policy = Policy(name, args.policy_samples or DEFAULT_POLICY_SAMPLES,
                        args.policy_nodes or DEFAULT_POLICY_NODES)
    deals, by_count = (args.deals, ()) if isinstance(args.deals, int) else (0, args.deals)
    players = args.players or (tuple(p for p, _ in by_count) if by_count else (4, 5, 6))
    missing = [p for p in players if by_count and p not in dict(by_count)]
    if missing:
        raise OmenSolverError(f"--deals: no count for {missing[0]} players")
    return SurveyConfig(
        seed=args.seed, players=players, deals=deals, player_deals=by_count, cards=args.cards,
        kind=args.kind, scope=args.scope, preset=args.preset,
        overrides=tuple(sorted(dict(args.rule).items())),
        max_seconds=args.max_seconds, max_nodes=args.max_nodes, options=not args.no_options,
        lines=not args.no_lines, line_states=args.line_states, until_cards=until,
        after_bouts=args.after_bouts, policy=policy,
    )


class _RateColumn(ProgressColumn):
    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"- {self.unit}/s" if not speed else f"{speed:.2f} {self.unit}/s")


class _Lines:
    """Progress as plain lines when stderr is not a terminal: every :data:`LINE_EVERY`
    seconds, what is done, the rate, and the time left at that rate."""

    def __init__(self, name: str, unit: str, total: int, done: int) -> None:
        self.name, self.unit, self.total, self.done = name, unit, total, done
        self.start = time.monotonic()
        self.first = done
        self.shown = self.start

    def __call__(self, added: int) -> None:
        first = self.done == self.first
        self.done += added
        now = time.monotonic()
        if first or now - self.shown >= LINE_EVERY or self.done >= self.total:
            self.shown = now
            print(progress_line(self.name, self.unit, self.done - self.first,
                                self.total - self.first, now - self.start), file=sys.stderr,
                  flush=True)


def progress_line(name: str, unit: str, done: int, total: int, elapsed: float) -> str:
    """``survey: 40 of 300 deals in 12 s (3.3 deals/s), about 1 min 19 s left``."""
    text = f"{name}: {done} of {total} {unit} in {_duration(elapsed)}"
    if done and elapsed > 0:
        rate = done / elapsed
        text += f" ({rate:.2f} {unit}/s), about {_duration((total - done) / rate)} left"
    return text


def _duration(seconds: float) -> str:
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, rest = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


@contextmanager
def progress(name: str, unit: str, total: int, done: int) -> Iterator[Any]:
    """A bar with the time left on a terminal, plain lines otherwise; yields the tick."""
    console = Console(stderr=True)
    if not console.is_terminal:
        print(f"{name}: {done} of {total} {unit} already recorded; {total - done} to go",
              file=sys.stderr, flush=True)
        yield _Lines(name, unit, total, done)
        return
    bar = Progress(
        TextColumn(name), BarColumn(), MofNCompleteColumn(), _RateColumn(unit),
        TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
        console=console,
    )
    with bar:
        task = bar.add_task(unit, total=total, completed=done)
        yield lambda added: bar.advance(task, added)


def _survey(args: argparse.Namespace) -> int:
    config = config_from(args)
    dask = dask_settings(args)
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise OmenSolverError(f"--out {out}: exists and is not a folder")
    total = config.total
    with ResultStore(out / RESULTS_FILE, config, wait=args.wait) as store:
        try:
            with progress("survey", "deals", total, len(store)) as tick:
                run_survey(config, out, tick=tick, store=store, **dask)
        except KeyboardInterrupt:
            print(f"omen-solver: interrupted: {len(store)} of {total} deals are recorded in "
                  f"{out / RESULTS_FILE}; run the same command again to resume",
                  file=sys.stderr)
            return EXIT_INTERRUPTED
        except (ClusterError, TimeoutError) as problem:
            print(f"omen-solver: {problem}; {len(store)} of {total} deals are recorded in "
                  f"{out / RESULTS_FILE}; run the same command again to resume",
                  file=sys.stderr)
            return EXIT_UNKNOWN
        summary = summarise(config, store.records())
        written = write_outputs(summary, out, plots=not args.no_plots)
        if args.write_positions:
            count = write_every_position(config, store.records(), out / "positions")
            written.append(out / "positions")
            print(f"omen-solver: {count} position files in {out / 'positions'}",
                  file=sys.stderr)
    if args.json:
        print_json({**summary.to_json(), "run": run_json(args, dask)})
    else:
        _show(summary, written, plots=not args.no_plots)
    if summary.any_unknown:
        print(f"omen-solver: {summary.status()} Unknown: {summary.reasons_in_short()} "
              f"(by option setting: {out / 'summary.md'})", file=sys.stderr)
        return EXIT_UNKNOWN
    return EXIT_OK


def _show(summary: Summary, written: list[Path], *, plots: bool) -> None:
    out = Console(highlight=False)
    out.print(escape(settings_line(summary)))
    table = Table("players", "leading team's value [95 % interval] (positions)",
                  title="The leading team under best play")
    for players, rate in summary.leading.items():
        table.add_row(str(players), rate.text())
    out.print(table)
    if summary.options:
        impact = Table("option", "positions changed", "share [95 % interval]",
                       title="Option impact")
        for option in sorted(summary.options, key=lambda o: (-o.changed, o.name)):
            impact.add_row(option.name, str(option.changed), option.rate.text())
        out.print(impact)
    folder = written[0].parent if written else Path()
    what = "Tables, card values and plots" if plots else "Tables and card values"
    out.print(f"{what} in {escape(str(folder))}/ (summary.md, summary.json)")


def show_markdown(text: str) -> None:
    """A report written as Markdown (``balance.md``) shown as ``survey`` shows its own: each
    ``## section``'s table as a table titled by it, prose as wrapped lines, images by name."""
    out = console(soft_wrap=False)
    title = ""
    lines = text.splitlines()
    at = 0
    while at < len(lines):
        line = lines[at].strip()
        at += 1
        if line.startswith("## "):
            title = line.removeprefix("## ")
        elif line.startswith("|"):
            rows = [line]
            while at < len(lines) and lines[at].strip().startswith("|"):
                rows.append(lines[at].strip())
                at += 1
            table = Table(*_cells(rows[0]), title=title or None)
            for row in rows[2:]:
                table.add_row(*map(escape, _cells(row)))
            out.print(table)
            title = ""
        elif line.startswith("!["):
            out.print(f"plot: {escape(line[line.index('](') + 2:].rstrip(')'))}")
        elif line:
            out.print(escape(line.replace("`", "")))


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table's row, without their code quotes."""
    return [cell.strip().replace("`", "") for cell in row.strip().strip("|").split("|")]


# -- balance ------------------------------------------------------------------------------------


def _presets(text: str) -> tuple[str, ...]:
    found = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [name for name in found if name not in PRESETS]
    if not found or unknown:
        raise argparse.ArgumentTypeError(
            f"{text!r}: presets are {', '.join(sorted(PRESETS))} (comma-separated)")
    return found


def _register_balance(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "balance",
        description="Play seeded whole games, from a game start to two rounds won, every seat "
                    "by the stated policy, and count the share won by the team of each seat, "
                    "by team size and by the first leader's team, with 95 % intervals, the "
                    "presets side by side. One game a Dask task (in batches); results stream "
                    f"to OUT/{GAMES_FILE}, so running the same command again resumes. Exit 0: "
                    "done; 1: some game unfinished (or the cluster failed: run again to "
                    "resume); 2: bad input; 130: interrupted.",
    )
    parser.add_argument("--out", type=Path, default=Path("balance"), metavar="DIR",
                        help="folder for the results, tables and plot (default: balance)")
    parser.add_argument("--games", type=_positive, default=DEFAULT_GAMES, metavar="N",
                        help=f"games per player count and preset (default {DEFAULT_GAMES})")
    parser.add_argument("--players", type=_players, default=(4, 5, 6), metavar="LIST",
                        help="player counts, e.g. 4,5,6 (the default)")
    parser.add_argument("--presets", type=_presets, default=("rulebook", "gamepark"),
                        metavar="LIST", help="rule presets side by side (default: "
                                             "rulebook,gamepark)")
    parser.add_argument("--rule", type=_rule, action="append", default=[], metavar="NAME=SETTING",
                        help="set one rule option on top of every preset (repeatable)")
    parser.add_argument("--policy", choices=POLICIES, default="heuristic",
                        help="how every seat plays (default heuristic; docs/survey.md)")
    parser.add_argument("--policy-samples", type=_positive, metavar="N",
                        help="advice policy: deals solved per decision "
                             f"(default {DEFAULT_POLICY_SAMPLES})")
    parser.add_argument("--policy-nodes", type=node_count, metavar="N",
                        help="advice policy: node budget of each of those deals "
                             f"(default {DEFAULT_POLICY_NODES:,})")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    add_dask_options(parser, "games")
    parser.add_argument("--no-plots", action="store_true", help="write no PNG/SVG plot")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=_balance)


def balance_config_from(args: argparse.Namespace) -> BalanceConfig:
    advice_flags = [flag for flag, value in (("--policy-samples", args.policy_samples),
                                             ("--policy-nodes", args.policy_nodes))
                    if value is not None]
    if advice_flags and args.policy != "advice":
        raise OmenSolverError(f"{advice_flags[0]}: applies to --policy advice only")
    policy = Policy(args.policy, args.policy_samples or DEFAULT_POLICY_SAMPLES,
                    args.policy_nodes or DEFAULT_POLICY_NODES)
    return BalanceConfig(seed=args.seed, players=args.players, games=args.games,
                         presets=args.presets, overrides=tuple(sorted(dict(args.rule).items())),
                         policy=policy)


def _balance(args: argparse.Namespace) -> int:
    config = balance_config_from(args)
    dask = dask_settings(args)
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise OmenSolverError(f"--out {out}: exists and is not a folder")
    total = len(config.items()) * config.games
    with ResultStore(out / GAMES_FILE, config, key="balance", wait=args.wait) as store:
        items = ((preset, players, index) for preset, players in config.items()
                 for index in range(config.games)
                 if not store.done(f"{preset}/{players}p-{index}"))
        try:
            with progress("balance", "games", total, len(store)) as tick:
                run_tasks(config, store, items, play_batch, tick=tick, **dask)
        except KeyboardInterrupt:
            print(f"omen-solver: interrupted: {len(store)} of {total} games are recorded in "
                  f"{out / GAMES_FILE}; run the same command again to resume", file=sys.stderr)
            return EXIT_INTERRUPTED
        except (ClusterError, TimeoutError) as problem:
            print(f"omen-solver: {problem}; {len(store)} of {total} games are recorded in "
                  f"{out / GAMES_FILE}; run the same command again to resume", file=sys.stderr)
            return EXIT_UNKNOWN
        summary = summarise_games(config, store.records())
        write_balance_outputs(summary, out, plots=not args.no_plots)
    if args.json:
        print_json({**summary.to_json(), "run": run_json(args, dask)})
    else:
        show_markdown(balance_markdown(summary))
    if summary.unfinished():
        print(f"omen-solver: {summary.status()}", file=sys.stderr)
        return EXIT_UNKNOWN
    return EXIT_OK
