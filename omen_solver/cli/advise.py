"""``omen-solver advise FILE --seat S``: what to play when only one's own hand is known
(Monte Carlo over the deals consistent with an advice file, ``docs/advice.md``; the format is
read by :func:`omen_solver.survey.advice_file.load_view`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from omen_solver.cli.args import budget_json, refuse_given
from omen_solver.cli.output import console, print_json
from omen_solver.core.budget import Budget
from omen_solver.errors import PositionError
from omen_solver.survey.advice import (
    DEFAULT_EXACT_LIMIT,
    DEFAULT_SAMPLES,
    Advice,
    View,
    advise,
)
from omen_solver.survey.advice_file import load_view

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "advise",
        description="Perfect-information Monte Carlo: solve every deal consistent with what the "
                    "seat knows (or a uniform sample of them) exactly, and give each legal "
                    "action's win probability with a 95 % interval. With few consistent deals "
                    "every one is solved and the answer is exact over deals. Exit 0: answered; "
                    "1: some search unknown; 2: bad input.",
    )
    parser.add_argument("file", type=Path, help="advice file (TOML; docs/advice.md)")
    parser.add_argument("--seat", type=int, help="the seat to advise (default: the file's seat)")
    parser.add_argument("--samples", type=int, metavar="N",
                        help=f"deals to sample when there are many (default {DEFAULT_SAMPLES})")
    parser.add_argument("--exact-limit", type=int, metavar="N",
                        help="enumerate every deal when the hidden cards can be placed in at "
                             f"most N ways (default {DEFAULT_EXACT_LIMIT})")
    parser.add_argument("--seed", type=int, help="sampling seed (default 0)")
    parser.add_argument("--max-seconds", type=float, default=30.0, metavar="S",
                        help="time limit of the searches of one deal, every action (default 30)")
    parser.add_argument("--max-nodes", type=int, metavar="N",
                        help="node limit of the searches of one deal (deterministic)")
    parser.add_argument("--imperfect", action="store_true",
                        help="also solve the game of imperfect information exactly (OpenSpiel's "
                             "sequence form; tiny positions, the partners' hands known) and show "
                             "where PIMC over-values an action (strategy fusion); every deal "
                             "is solved, so --samples, --exact-limit and --seed do not apply")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=_advise)


def _advise(args: argparse.Namespace) -> int:
    if args.imperfect:
        refuse_given(args, ("samples", "exact_limit", "seed"),
                     "does not apply with --imperfect, which solves every consistent deal")
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    exact_limit = DEFAULT_EXACT_LIMIT if args.exact_limit is None else args.exact_limit
    if samples < 1 or exact_limit < 0:
        raise PositionError("--samples must be at least 1 and --exact-limit 0 or more")
    view = load_view(args.file, args.seat)
    budget = Budget(args.max_nodes, args.max_seconds)
    if args.imperfect:
        return _imperfect(args, view, budget)
    advice = advise(view, samples=samples, exact_limit=exact_limit, seed=args.seed or 0,
                    budget=budget)
    if args.json:
        print_json({"file": str(args.file), **advice.to_json(), "budget": budget_json(budget)})
    else:
        _show(args.file, advice)
    return 1 if advice.unknown else 0


def _imperfect(args: argparse.Namespace, view: View, budget: Budget) -> int:
    # Imported here: OpenSpiel loads only when asked for.
    from omen_solver.survey.imperfect import TOLERANCE, check_against_imperfect

    check = check_against_imperfect(view, budget)
    if args.json:
        print_json({"file": str(args.file), **check.advice.to_json(),
                    "imperfect": check.to_json(), "budget": budget_json(budget)})
        return 0
    out = _console()
    out.print(f"{escape(str(args.file))}: seat {check.seat + 1} to play; {check.deals} "
              f"consistent deals; the game of imperfect information has "
              f"{check.information_sets[0]} and {check.information_sets[1]} information sets "
              f"and is worth {check.value:.4f} to the seat's team")
    table = _table(out, "action", "PIMC", "imperfect information (exact)", "over-valued by")
    for action in sorted(check.actions, key=lambda a: -a.pimc):
        table.add_row(escape(action.action), f"{action.pimc:.4f}", f"{action.exact:.4f}",
                      f"{action.fusion:.4f}" if action.fusion > TOLERANCE else "-")
    out.print(table)
    verdict = ("PIMC's best action is exactly optimal" if check.agrees else
               "PIMC's best action is not optimal: strategy fusion")
    out.print(f"best action: PIMC {escape(check.pimc_best.action)}, exact "
              f"{escape(check.exact_best.action)} ({verdict})")
    return 0


def _console() -> Console:
    """As wide as the terminal, or ``COLUMNS`` when piped (long lines left to the terminal)."""
    return console(soft_wrap=True)


def _table(out: Console, *columns: str) -> RichTable:
    """A table with borders on a terminal, plain columns when piped."""
    return RichTable(*columns) if out.is_terminal else RichTable(*columns, box=None)


def _show(path: Path, advice: Advice) -> None:
    out = _console()
    team = ", ".join(str(s + 1) for s in advice.team)
    method = (f"exact over all {advice.deals} consistent deals" if advice.exact else
              f"{advice.deals} deals sampled uniformly ({advice.rejected} inconsistent ones "
              f"rejected) of {advice.assignments:,} ways to place the hidden cards")
    out.print(f"{escape(str(path))}: seat {advice.seat + 1} to play (team of seats {team}); "
              f"{method}")
    table = _table(out, "action", "win probability", "95 % interval", "deals", "unknown")
    for value in sorted(advice.actions, key=lambda a: -(a.probability or -1)):
        low, high = value.interval(advice.exact)
        p = value.probability
        table.add_row(escape(value.action), "-" if p is None else f"{p:.3f}",
                      "exact" if advice.exact and not value.unknown else f"[{low:.3f}, {high:.3f}]",
                      str(value.known), str(value.unknown))
    out.print(table)
    best = advice.best
    out.print(f"best action: {escape(best.action) if best else '-'}")
    if advice.unknown:
        out.print(f"{advice.unknown} searches ran out of budget: counted as unknown, not as "
                  "wins or losses")
