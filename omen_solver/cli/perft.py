"""``omen-solver perft``: count the legal action sequences from any position file
(:func:`omen_solver.core.positions.load_state`).

The count has a budget (nodes, seconds, memory); when it runs out the answer is "unknown"
(exit status 1) with the reason, never a guess. A long walk shows its progress on stderr when
stderr is a terminal.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.markup import escape
from rich.table import Table

from omen_solver.cli.args import (
    POSITION_HELP,
    add_budget,
    add_max_memory,
    add_stop,
    budget_json,
    budget_of,
    describe_stop,
    position,
)
from omen_solver.cli.output import console, heading, print_json, progress
from omen_solver.core.budget import MIB
from omen_solver.core.enumeration import Budget, Status, perft
from omen_solver.core.positions import load_state

__all__ = ["DEFAULT_PERFT_SECONDS", "register"]

DEFAULT_PERFT_SECONDS = 30.0
"""The time limit of ``perft`` when the command line sets none: past it the count is
"unknown" (exit status 1), never a wait without end."""

EXIT_OK, EXIT_FAILED = 0, 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "perft",
        description="Count the legal action sequences from a position to a depth, to a "
                    "stopping point, or to the end, with the distinct states reached.",
    )
    parser.add_argument("file", type=position, help=POSITION_HELP)
    add_stop(parser)
    parser.add_argument("--divide", action="store_true",
                        help="show the count under each root action")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-merge", action="store_true",
                        help="walk every sequence instead of reusing transposed subtrees")
    add_budget(parser, f"default: {DEFAULT_PERFT_SECONDS:g}")
    add_max_memory(parser, "answer 'unknown'")
    parser.set_defaults(handler=_perft)


def _perft(args: argparse.Namespace) -> int:
    state = load_state(args.file)
    budget = budget_of(args, Budget(None, DEFAULT_PERFT_SECONDS))
    if not args.json:
        heading(f"{args.file}: counting within {budget.describe()}", args.max_seconds)
    with progress(f"perft {args.file}") as report:
        result = perft(state, args.depth, stop=args.to, transpositions=not args.no_merge,
                       budget=budget, progress=report, max_memory=args.max_memory * MIB)
    if args.json:
        data = {"file": str(args.file), **result.to_json(), "merged": not args.no_merge,
                "budget": {**budget_json(budget), "max_memory_mib": args.max_memory}}
        if not args.divide:
            data.pop("divide")
        print_json(data)
    else:
        _show_perft(args, result)
    return EXIT_OK if result.status is Status.SOLVED else EXIT_FAILED


def _show_perft(args: argparse.Namespace, result: Any) -> None:
    out = console()
    cut = describe_stop(args.depth, args.to)
    if result.total is None:
        out.print(f"{escape(str(args.file))} ({cut}): unknown: {result.reason} "
                      f"after {result.visited:,} nodes")
        return
    total = result.total
    out.print(f"{escape(str(args.file))} ({cut})")
    out.print(f"sequences: {total.sequences:,} ({total.at_depth:,} of full depth, "
                  f"{total.ended:,} ended earlier)")
    walked = "  (every sequence walked: --no-merge)" if args.no_merge else ""
    out.print(f"nodes: {total.nodes:,}  distinct states: {result.states:,}  "
              f"visited: {result.visited:,}  seconds: {result.seconds:.3f}{walked}")
    if args.divide:
        table = Table("action", "sequences", "nodes")
        for text, count in result.divide:
            table.add_row(escape(text), f"{count.sequences:,}", f"{count.nodes:,}")
        out.print(table)
