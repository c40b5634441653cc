"""``omen-solver puzzles generate --kind deep``: deep puzzles from real deals (the options and
the run; the command itself is registered with the other kinds of ``puzzles generate``)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from omen_solver.core.budget import Budget
from omen_solver.errors import OmenSolverError
from omen_solver.omens.playout import DealKind
from omen_solver.puzzles.deep import (
    DEFAULT_MAX_CARDS,
    DealProgress,
    DeepPuzzle,
    DeepRecipe,
    generate_deep,
    write_deep_puzzle,
)

__all__ = ["DEEP", "DEEP_ONLY", "add_deep_arguments", "check_kind_options", "run_deep"]

DEEP: Final = "deep"
"""The kind of ``puzzles generate`` this module runs."""

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


def add_deep_arguments(parser: argparse.ArgumentParser) -> None:
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
        "--depth-nodes", type=int, metavar="N",
        help=f"budget of the bout-counting search per position (default {DEFAULT_DEPTH_NODES:,})",
    )


def check_kind_options(args: argparse.Namespace) -> None:
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


def deep_recipe(args: argparse.Namespace) -> DeepRecipe:
    """The recipe of the command line (errors name the option)."""
    check_kind_options(args)
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
    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("deals", total=total)

        def report(done: int, found: int) -> None:
            bar.update(task, completed=done, description=f"deals ({found} puzzle(s) found)")

        yield report


def file_name(recipe: DeepRecipe, number: int) -> str:
    return f"deep-{recipe.players}p-{recipe.deal.value}-seed{recipe.seed}-{number}.toml"


def run_deep(args: argparse.Namespace) -> int:
    """Generate, write each puzzle as it is found, report. Exit 0 if at least one puzzle was
    written, else 1."""
    recipe = deep_recipe(args)
    out: Path = args.out
    paths: list[Path] = []

    def write(puzzle: DeepPuzzle) -> None:
        path = out / file_name(recipe, len(paths) + 1)
        write_deep_puzzle(puzzle, path)
        paths.append(path)

    with _deal_bar(recipe.max_deals, args.json) as progress:
        found, tally = generate_deep(recipe, progress, write)
    rejected = {reason: count for reason, count in tally.items()
                if reason not in ("deals", "positions")}
    if args.json:
        print(json.dumps({
            "written": [str(path) for path in paths],
            "ratings": [_rating(puzzle) for puzzle in found],
            "deals": tally["deals"],
            "positions": tally["positions"],
            "not_kept": rejected,
        }, indent=2))
    else:
        console = Console(highlight=False, soft_wrap=True)
        for path, puzzle in zip(paths, found, strict=True):
            rating = puzzle.rating
            console.print(
                f"{escape(str(path))}: {puzzle.best} (depth {rating.depth} bouts, "
                f"{rating.tempting} tempting, {rating.nodes:,} nodes)"
            )
        reasons = ", ".join(f"{count:,} {reason}" for reason, count in rejected.items() if count)
        console.print(
            f"{len(paths)} puzzle(s) written from {tally['deals']:,} deal(s); "
            f"{tally['positions']:,} position(s) examined"
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
