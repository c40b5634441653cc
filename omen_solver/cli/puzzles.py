"""``omen-solver puzzles check`` (solve every puzzle of a folder, any game, and compare with
its stated answer) and ``puzzles generate`` (Omens puzzles: from stated constraints on the
cards, or deep ones from real deals played forward; docs/puzzles.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from omen_solver.cli.args import add_budget, add_verbosity, node_count
from omen_solver.cli.output import Cell, Column, console, plural, print_json, print_rows
from omen_solver.cli.overrides import describe_overrides
from omen_solver.cli.requests import SolveRequest
from omen_solver.cli.solve import Solved, describe_answer, solve_file
from omen_solver.core.budget import Budget
from omen_solver.errors import OmenSolverError, PositionError, one_line
from omen_solver.omens.deals import DealKind
from omen_solver.puzzles.constraint import KINDS, Recipe, generate, write_puzzle
from omen_solver.puzzles.deep import (
    DEFAULT_MAX_CARDS,
    DealProgress,
    DeepPuzzle,
    DeepRecipe,
    generate_deep,
    write_deep_puzzle,
)
from omen_solver.puzzles.format import read_puzzle
from omen_solver.shipped import shipped

__all__ = ["DEFAULT_CHECK_SECONDS", "register"]

DEFAULT_CHECK_SECONDS = 120.0
"""The time limit per puzzle of ``puzzles check`` when neither the command line nor the puzzle
sets one."""

EXIT_OK, EXIT_FAILED = 0, 1

DEEP: Final = "deep"
"""The kind of ``puzzles generate`` that plays random deals forward (the others are
:data:`omen_solver.puzzles.constraint.KINDS`)."""

DEEP_ONLY: Final = ("deal", "min_depth", "max_cards", "max_deals", "depth_nodes")
"""Options that only ``--kind deep`` reads (``None`` when not given)."""

_CONSTRAINT_ONLY: Final = {
    "lead": "--lead",
    "pool": "--pool",
    "require": "--require",
    "hand_size": "--hand-size",
    "max_candidates": "--max-candidates",
}
DEFAULT_DEPTH_NODES: Final = 300_000
DEFAULT_MAX_DEALS: Final = 200


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("puzzles")
    commands = parser.add_subparsers(dest="puzzles_command", metavar="COMMAND", required=True)
    check = commands.add_parser(
        "check", help="solve every puzzle under a folder and compare with its stated answer",
        description="Solve every *.toml puzzle under each folder PATH (recursively), and each "
                    "puzzle file PATH, and fail on any stated "
                    "answer the solver contradicts. Exit 0: all agree; 1: a contradiction or "
                    "an unknown; 2: a file could not be read.",
    )
    check.add_argument("dir", nargs="*", type=Path, metavar="PATH",
                       help="folders of puzzles, or puzzle files (default: the puzzles shipped "
                            "with omen-solver)")
    check.add_argument("--json", action="store_true", help="print JSON")
    add_verbosity(check, "the question, the whole answer and the best first actions of each "
                         "puzzle", "only the summary and the puzzles that do not agree")
    add_budget(check, f"per puzzle; default: the puzzle's, else {DEFAULT_CHECK_SECONDS:g}")
    check.set_defaults(handler=_check)
    _register_generate(commands)


# -- puzzles check ---------------------------------------------------------------------------


@dataclass
class _Row:
    path: Path
    status: str
    """``agrees``, ``CONTRADICTED``, ``unknown`` or ``error``."""
    solved: Solved | None = None
    error: str = ""


def _puzzle_files(paths: list[Path]) -> list[Path]:
    """The puzzle files of each path: a file itself, a folder's ``*.toml`` below it."""
    files: list[Path] = []
    for path in paths:
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            found = sorted(path.rglob("*.toml"))
            if not found:
                raise PositionError(f"{path}: no puzzle files (*.toml) in this folder or below")
            files += found
        else:
            raise PositionError(f"{path}: no such puzzle file or folder of puzzles")
    return files


def _check(args: argparse.Namespace) -> int:
    paths: list[Path] = args.dir or [shipped("puzzles")]
    files = _puzzle_files(paths)
    root = paths[0] if len(paths) == 1 and paths[0].is_dir() else None
    rows = [_check_one(path, args) for path in files]
    if args.json:
        print_json([_row_json(row) for row in rows])
    else:
        where = " (shipped with omen-solver)" if not args.dir else ""
        title = f"under {root}{where}" if root is not None else "from " + ", ".join(map(str, paths))
        _show_rows(title, root, rows, args)
    for row in rows:
        if row.status == "error":
            print(f"omen-solver: error: {one_line(row.error)}", file=sys.stderr)
    statuses = {row.status for row in rows}
    if "error" in statuses:
        return 2
    return EXIT_FAILED if statuses & {"CONTRADICTED", "unknown"} else EXIT_OK


def _check_one(path: Path, args: argparse.Namespace) -> _Row:
    try:
        if read_puzzle(path) is None:
            raise PositionError(f"{path}: not a puzzle: the [puzzle] table is missing")
        solved = solve_file(path, SolveRequest.from_args(args), DEFAULT_CHECK_SECONDS)
    except OmenSolverError as error:
        return _Row(path, "error", error=str(error))
    if not solved.result.solved:
        return _Row(path, "unknown", solved)
    return _Row(path, "agrees" if not solved.problems else "CONTRADICTED", solved)


def _row_json(row: _Row) -> dict[str, Any]:
    data: dict[str, Any] = {"file": str(row.path), "status": row.status}
    if row.solved is not None:
        data.update(row.solved.to_json())
        data["status"] = row.status
    if row.error:
        data["error"] = row.error
    return data


_STYLES: Final = {"agrees": "green", "CONTRADICTED": "bold red", "unknown": "yellow",
                  "error": "red"}


_COLUMNS: Final = (Column("status"), Column("puzzle"), Column("nodes", right=True),
                   Column("seconds", right=True), Column("answer", shrink=True))


def _show_rows(title: str, root: Path | None, rows: list[_Row], args: argparse.Namespace) -> None:
    """One line per puzzle (``-q``: only those that do not agree; ``-v``: with the question,
    the whole answer and the best first actions)."""
    out = console()
    out.print(f"{plural(len(rows), 'puzzle')} {escape(title)}", soft_wrap=True)
    shown = [row for row in rows if not args.quiet or row.status != "agrees"]
    if args.verbose:
        for row in shown:
            print_rows(out, _COLUMNS, [_cells(row, root)], header=False)
            for line in _details(row):
                out.print(f"    {escape(line)}", soft_wrap=True)
    elif shown:
        print_rows(out, _COLUMNS, [_cells(row, root) for row in shown])
        for row in shown:
            if row.status == "CONTRADICTED" and row.solved is not None:
                out.print(f"[bold red]{escape(_shown(row.path, root))}[/]:")
                for problem in row.solved.problems:
                    out.print(f"  {escape(problem)}")
    counts = {status: sum(r.status == status for r in rows) for status in _STYLES}
    out.print(f"{plural(len(rows), 'puzzle')}: {counts['agrees']} agree, "
              f"{counts['CONTRADICTED']} contradicted, {counts['unknown']} unknown, "
              f"{counts['error']} unreadable", soft_wrap=True)


def _shown(path: Path, root: Path | None) -> str:
    """A puzzle's path, under the folder checked when one was."""
    return str(path if root is None else path.relative_to(root))


def _cells(row: _Row, root: Path | None) -> list[Cell]:
    solved = row.solved
    return [(row.status, _STYLES[row.status]), _shown(row.path, root),
            f"{solved.result.nodes:,}" if solved else "",
            f"{solved.result.seconds:.2f}" if solved else "", _short_answer(row)]


def _short_answer(row: _Row) -> str:
    """Who wins and with what, or why not, in a few words (``-v`` gives the whole)."""
    if row.solved is None:
        return row.error
    result = row.solved.result
    answer = describe_answer(result).split(" (")[0]
    if row.status == "CONTRADICTED":
        return f"{answer}; " + "; ".join(row.solved.problems)
    best = ", ".join(result.best_actions)
    return f"{answer}; best: {best}" if result.solved and best else answer


def _details(row: _Row) -> list[str]:
    """The lines ``-v`` adds under a puzzle."""
    solved = row.solved
    if solved is None:
        return [row.error]
    lines = []
    if solved.puzzle is not None:
        lines.append(f"question: {solved.puzzle.question}")
    lines.append(f"answer: {describe_answer(solved.result)}")
    if solved.result.solved:
        lines.append(f"best first actions: {', '.join(solved.result.best_actions) or '-'}")
    if solved.overrides:
        lines.append(describe_overrides(solved.overrides))
    lines += [f"contradicted: {problem}" for problem in solved.problems]
    return lines


# -- puzzles generate ------------------------------------------------------------------------


def _cards(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write card values such as 4,9,14") from None


def _requirement(text: str) -> tuple[int, tuple[int, ...]]:
    seat, _, cards = text.partition(":")
    if not seat.isdigit() or not cards:
        raise argparse.ArgumentTypeError(f"{text!r}: write SEAT:CARDS, such as 2:14 or 3:12,13")
    return int(seat) - 1, _cards(cards)


def _register_generate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "generate",
        help="generate Omens puzzles: from stated constraints, or deep ones from real deals",
        description="Find deals that satisfy the stated constraints on cards (a constraint "
        "problem) and on best play (solved exactly), and write them as puzzle files "
        "(docs/puzzles.md) into OUT. Kinds: unique-win (only one first play of seat 1 wins the "
        "round for its team), only-lead (seat 1's team wins only if seat 1 leads --lead), "
        "deep (random deals played forward: one play wins, not the natural one, in 3 bouts or "
        "more; rated by depth, tempting plays and nodes).",
    )
    parser.add_argument("out", type=Path, help="folder to write the puzzles into")
    parser.add_argument("--kind", choices=(*KINDS, DEEP), default="unique-win")
    parser.add_argument(
        "--lead",
        type=int,
        metavar="CARD",
        help="only-lead: the card seat 1 must lead to win (e.g. 14, Mirror)",
    )
    parser.add_argument("--players", type=int, default=4, choices=(4, 5, 6))
    parser.add_argument(
        "--hand-size",
        type=int,
        metavar="N",
        help="cards in every hand (2 to 4; default 2)",
    )
    parser.add_argument(
        "--pool",
        type=_cards,
        default=(),
        metavar="CARDS",
        help="the cards deals are made of, e.g. 4,9,12,14,20 (default: all)",
    )
    parser.add_argument(
        "--require",
        type=_requirement,
        action="append",
        default=[],
        metavar="SEAT:CARDS",
        help="cards a seat must hold, e.g. 2:26 (repeat)",
    )
    parser.add_argument("--count", type=int, default=3, help="puzzles to write (default 3)")
    parser.add_argument(
        "--seed", type=int, default=0,
        help="shuffles the pool, or (deep) draws the deals and the play (default 0)",
    )
    parser.add_argument(
        "--max-candidates",
        type=int,
        metavar="N",
        help="candidate deals tried at most (default 2000)",
    )
    parser.add_argument(
        "--max-nodes",
        type=node_count,
        metavar="N",
        help="solver budget per candidate (default 200,000; deep: per position, 1,000,000, "
        "or 200,000 with 6 players)",
    )
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    _add_deep_arguments(parser)
    parser.set_defaults(handler=_generate)


def _generate(args: argparse.Namespace) -> int:
    if args.kind == DEEP:
        return _run_deep(args)
    _check_kind_options(args)
    max_nodes = 200_000 if args.max_nodes is None else args.max_nodes
    if max_nodes <= 0:
        raise OmenSolverError("--max-nodes must be positive")
    require: dict[int, tuple[int, ...]] = {}
    for seat, cards in args.require:
        require[seat] = tuple(sorted({*require.get(seat, ()), *cards}))
    recipe = Recipe(
        kind=args.kind,
        players=args.players,
        hand_size=2 if args.hand_size is None else args.hand_size,
        lead=args.lead,
        pool=tuple(args.pool),
        require=require,
        count=args.count,
        seed=args.seed,
        max_candidates=2000 if args.max_candidates is None else args.max_candidates,
        budget=Budget(max_nodes=max_nodes),
    )
    found, tried = generate(recipe)
    stem = args.kind if args.lead is None else f"{args.kind}-{args.lead}"
    paths = []
    for number, puzzle in enumerate(found, start=1):
        path = args.out / f"{stem}-seed{args.seed}-{number}.toml"
        write_puzzle(recipe, puzzle, path)
        paths.append(path)
    reason = None if paths else _why_none(recipe, tried)
    asked = {"kind": recipe.kind, "players": recipe.players, "hand_size": recipe.hand_size,
             "lead": recipe.lead, "pool": list(recipe.pool),
             "require": {str(seat + 1): list(cards) for seat, cards in recipe.require.items()},
             "count": recipe.count, "seed": recipe.seed,
             "max_candidates": recipe.max_candidates, "max_nodes": recipe.budget.max_nodes}
    if args.json:
        print_json({"recipe": asked, "written": [str(p) for p in paths], "puzzles": [
            {"file": str(path), "hands": {str(seat + 1): list(hand)
                                          for seat, hand in enumerate(puzzle.hands)},
             "best": list(puzzle.best)} for path, puzzle in zip(paths, found, strict=True)],
            "candidates": tried, "reason": reason})
    else:
        out = console(soft_wrap=True)
        out.print(f"{recipe.kind}: {recipe.players} players, {recipe.hand_size} cards a hand, "
                  f"seed {recipe.seed}")
        for path, puzzle in zip(paths, found, strict=True):
            out.print(f"{escape(str(path))}: best first play {', '.join(puzzle.best)}")
        tail = f": {reason}" if reason else ""
        out.print(f"{plural(len(paths), 'puzzle')} written from {plural(tried, 'candidate deal')}"
                  f"{escape(tail)}")
    return EXIT_OK if paths else EXIT_FAILED


def _why_none(recipe: Recipe, tried: int) -> str:
    """Why no puzzle was found: no deal fits the card constraints, or the candidates ran out."""
    if tried == 0:
        return ("no deal satisfies the card constraints (--players, --hand-size, --pool, "
                "--require): loosen them")
    condition = (f"seat 1's team win only by leading {recipe.lead}"
                 if recipe.kind == "only-lead" else "exactly one first play of seat 1 win")
    if tried >= recipe.max_candidates:
        return (f"in none of the first {tried:,} candidate deals does {condition} (or the "
                "solver needed more than --max-nodes): raise --max-candidates or --max-nodes, "
                "or change --seed or the constraints")
    return (f"all {tried:,} deals the card constraints allow were tried; in none does "
            f"{condition} (or the solver needed more than --max-nodes)")

# -- puzzles generate --kind deep ------------------------------------------------------------


def _add_deep_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``--kind deep``."""
    group = parser.add_argument_group(
        "--kind deep",
        "positions from random deals played forward: the player to move wins the round only "
        "with one play, not the highest card nor a play that wins the bout, and only in "
        "--min-depth bouts or more (docs/puzzles.md)",
    )
    group.add_argument(
        "--deal",
        choices=[kind.value for kind in DealKind],
        help="start: a game start (one Absolute each, teams and leader from them; default); "
        "later: a later round (every card shuffled, any leader)",
    )
    group.add_argument(
        "--min-depth", type=int, metavar="BOUTS",
        help="bouts the winning line needs at least (default 3)",
    )
    group.add_argument(
        "--max-cards", type=int, metavar="N",
        help="cards in hands and in play at a position examined, at most (default "
        + ", ".join(f"{n} with {p} players" for p, n in DEFAULT_MAX_CARDS.items()) + ")",
    )
    group.add_argument(
        "--max-deals", type=int, metavar="N",
        help=f"deals played forward at most (default {DEFAULT_MAX_DEALS})",
    )
    group.add_argument(
        "--depth-nodes", type=node_count, metavar="N",
        help=f"budget of the bout-counting search per position (default {DEFAULT_DEPTH_NODES:,})",
    )


def _check_kind_options(args: argparse.Namespace) -> None:
    """Options of one kind given with another are a mistake, said as such."""
    if args.kind == DEEP:
        for name, flag in _CONSTRAINT_ONLY.items():
            if getattr(args, name, None) not in (None, (), []):
                raise OmenSolverError(f"{flag} applies to --kind unique-win or only-lead, not deep")
        return
    for name in DEEP_ONLY:
        if getattr(args, name, None) is not None:
            flag = "--" + name.replace("_", "-")
            raise OmenSolverError(f"{flag} applies to --kind deep only")


def _positive(value: int | None, flag: str, default: int) -> int:
    if value is None:
        return default
    if value < 1:
        raise OmenSolverError(f"{flag} {value}: must be at least 1")
    return value


def _deep_recipe(args: argparse.Namespace) -> DeepRecipe:
    """The recipe of the command line (errors name the option)."""
    _check_kind_options(args)
    recipe = DeepRecipe(
        players=args.players,
        deal=DealKind(args.deal or DealKind.START.value),
        count=args.count,
        seed=args.seed,
        max_deals=_positive(args.max_deals, "--max-deals", DEFAULT_MAX_DEALS),
        max_cards=args.max_cards,
        min_depth=_positive(args.min_depth, "--min-depth", 3),
        budget=None if args.max_nodes is None else Budget(
            max_nodes=_positive(args.max_nodes, "--max-nodes", 1)
        ),
        depth_budget=Budget(
            max_nodes=_positive(args.depth_nodes, "--depth-nodes", DEFAULT_DEPTH_NODES)
        ),
    )
    recipe.check()
    return recipe


@contextmanager
def _deal_bar(total: int, quiet: bool) -> Iterator[DealProgress | None]:
    """A progress bar on stderr while deals are examined (only on a terminal)."""
    stderr = Console(stderr=True)
    if quiet or not stderr.is_terminal:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=stderr, transient=True) as bar:
        task = bar.add_task("deals", total=total)

        def report(done: int, found: int) -> None:
            bar.update(task, completed=done, description=f"deals ({plural(found, 'puzzle')} found)")

        yield report


def _file_name(recipe: DeepRecipe, number: int) -> str:
    return f"deep-{recipe.players}p-{recipe.deal.value}-seed{recipe.seed}-{number}.toml"


def _run_deep(args: argparse.Namespace) -> int:
    """Generate, write each puzzle as it is found, report. Exit 0 if at least one puzzle was
    written, else 1."""
    recipe = _deep_recipe(args)
    folder: Path = args.out
    paths: list[Path] = []

    def write(puzzle: DeepPuzzle) -> None:
        path = folder / _file_name(recipe, len(paths) + 1)
        write_deep_puzzle(puzzle, path)
        paths.append(path)

    with _deal_bar(recipe.max_deals, args.json) as progress:
        found, tally = generate_deep(recipe, progress, write)
    rejected = {reason: count for reason, count in tally.items()
                if reason not in ("deals", "positions")}
    if args.json:
        print_json({
            "written": [str(path) for path in paths],
            "ratings": [_rating(puzzle) for puzzle in found],
            "deals": tally["deals"],
            "positions": tally["positions"],
            "not_kept": rejected,
        })
    else:
        out = console(soft_wrap=True)
        for path, puzzle in zip(paths, found, strict=True):
            rating = puzzle.rating
            out.print(
                f"{escape(str(path))}: {puzzle.best} (depth {rating.depth} bouts, "
                f"{rating.tempting} tempting, {rating.nodes:,} nodes)"
            )
        reasons = ", ".join(f"{count:,} {reason}" for reason, count in rejected.items() if count)
        out.print(
            f"{plural(len(paths), 'puzzle')} written from {plural(tally['deals'], 'deal')}; "
            f"{plural(tally['positions'], 'position')} examined"
            + (f" (not kept: {reasons})" if reasons else "")
        )
    return 0 if paths else 1


def _rating(puzzle: DeepPuzzle) -> dict[str, object]:
    rating = puzzle.rating
    return {
        "best": puzzle.best,
        "depth": rating.depth,
        "tempting": rating.tempting,
        "nodes": rating.nodes,
        "tempting_plays": [t.move for t in puzzle.tempting],
    }
