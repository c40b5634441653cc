"""``omen-solver advise FILE --seat S``: what to play when only one's own hand is known
(Monte Carlo over the deals consistent with an advice file, ``docs/advice.md``; the format is
read by :func:`omen_solver.survey.advice_file.load_view`). ``advise --deal SEED --players N
--moves M1 M2 ...`` (or a position file at the start of a bout, ``--moves``) replays a game
record instead, and what each seat saw follows from the rules (:class:`~omen_solver.survey.
advice.Tracker`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.table import Table as RichTable

from omen_solver.cli.args import (
    budget_json,
    count_between,
    node_count,
    position,
    refuse_given,
    seconds,
    whole_number,
)
from omen_solver.cli.output import console, print_json
from omen_solver.core.budget import Budget
from omen_solver.errors import OmenSolverError, PositionError
from omen_solver.errors import shown as shown_text
from omen_solver.survey.advice import (
    DEFAULT_DEAL_SECONDS,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_SAMPLES,
    DEFAULT_TOTAL_SECONDS,
    Advice,
    Tracker,
    View,
    advise,
)

__all__ = ["register"]

MAX_SAMPLES = 100_000
"""The most deals ``--samples`` draws and ``--exact-limit`` enumerates: drawing them takes
about 5 seconds per 100,000 before any search, whatever the time limit."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "advise",
        description="Perfect-information Monte Carlo: solve every deal consistent with what the "
                    "seat knows (or a uniform sample of them) exactly, and give each legal "
                    "action's win probability with a 95 % interval. With few consistent deals "
                    "every one is solved and the answer is exact over deals. Exit 0: answered; "
                    "1: some search unknown; 2: bad input.",
    )
    parser.add_argument("file", type=position, nargs="?",
                        help="advice file (TOML; docs/advice.md); with --moves, a position "
                             "file at the start of a bout; a position's one-line text (the "
                             "seat to act is advised); or give --deal")
    record = parser.add_argument_group(
        "a game record instead of an advice file",
        "replay the moves from the deal (or the position file) and advise the seat to play "
        "on what it saw by the rules (Secret, exchanges, Betrayal, Jealousy)")
    record.add_argument("--deal", type=whole_number, metavar="SEED",
                        help="the seeded random deal of 'solve --deal' (with --players)")
    record.add_argument("--players", type=int, choices=(4, 5, 6), help="players of the deal")
    record.add_argument("--cards", type=whole_number, metavar="K",
                        help="K cards a hand instead of the full deal")
    record.add_argument("--moves", nargs="+", default=None, metavar="MOVE",
                        help="the moves played since, in the notation of 'omens play'")
    parser.set_defaults(preset=None, rule=[], round=None)
    parser.add_argument("--seat", type=int,
                        help="the seat to advise (default: the file's seat; with --deal or "
                             "--moves, the seat to play)")
    parser.add_argument("--samples", type=count_between(1, MAX_SAMPLES, "a number of deals"),
                        metavar="N",
                        help=f"deals to sample when there are many (default {DEFAULT_SAMPLES})")
    parser.add_argument("--exact-limit", type=count_between(0, MAX_SAMPLES, "a number of deals"),
                        metavar="N",
                        help="enumerate every deal when the hidden cards can be placed in at "
                             f"most N ways (default {DEFAULT_EXACT_LIMIT})")
    parser.add_argument("--seed", type=int, help="sampling seed (default 0)")
    parser.add_argument("--max-seconds", type=seconds, metavar="S",
                        help="time limit of the whole advice, every deal's searches together "
                             f"(default {DEFAULT_TOTAL_SECONDS:g}); each deal gets an equal share "
                             "of what is left; deals not reached count as unknown")
    parser.add_argument("--deal-seconds", type=seconds, metavar="S",
                        help="time limit of one deal's searches at most (default "
                             f"{DEFAULT_DEAL_SECONDS:g})")
    parser.add_argument("--max-nodes", type=node_count, metavar="N",
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
    name, view = _view(args)
    total = DEFAULT_TOTAL_SECONDS if args.max_seconds is None else args.max_seconds
    budget = Budget(args.max_nodes, DEFAULT_DEAL_SECONDS if args.deal_seconds is None
                    else args.deal_seconds)
    if args.imperfect:
        refuse_given(args, ("max_seconds",), "does not apply with --imperfect (give "
                     "--deal-seconds or --max-nodes for its searches)")
        return _imperfect(args, name, view, budget)
    if not args.json:
        how = " (the default; --max-seconds S to change)" if args.max_seconds is None else ""
        _console().print(f"{escape(name)}: advising seat {view.seat + 1} within {total:g} s{how}",
                         soft_wrap=True)
    warning = _warning(view, total, samples)
    if warning:
        Console(stderr=True, highlight=False).print(f"note: {escape(warning)}", soft_wrap=True)
    with _progress(f"advising seat {view.seat + 1}") as report:
        advice = advise(view, samples=samples, exact_limit=exact_limit, seed=args.seed or 0,
                        budget=budget, total_seconds=total, progress=report)
    if args.json:
        data = {"file": name, **advice.to_json(),
                "budget": {**budget_json(budget), "total_seconds": total}}
        if warning:
            data["warning"] = warning
        print_json(data)
    else:
        _show(name, advice)
    return 1 if advice.unknown else 0


def _warning(view: View, total: float, samples: int) -> str | None:
    """Why a deal's share of the time is not expected to settle its moves (the solve's own
    model, :mod:`omen_solver.omens.kernel.reach`, on a deal of this size), and what to try."""
    from omen_solver.omens.kernel.reach import NOT_EXPECTED, expected
    from omen_solver.survey.advice import consistent_count

    deals = min(samples, max(1, consistent_count(view)))
    share = Budget(max_seconds=total / deals)
    probe = _probe(view)
    reach = expected(probe, share)
    if reach.chance >= NOT_EXPECTED:
        return None
    return (f"{reach.cards} cards are in the hands at the start of this bout: a deal's share "
            f"of the time ({total / deals:.2g} s) is not expected to settle its moves (a chance "
            f"of {reach.chance:.0%}). Advising anyway: in each deal every move gets what is "
            "proven and, where nothing is, an estimate, and each action's win probability is "
            "then an estimate; to settle more, advise at a later position (--moves ...), with "
            "fewer cards (--deal SEED --cards 3), fewer samples (--samples N) or more time "
            "(--max-seconds)")


def _probe(view: View) -> Any:
    """A position of the view's size (its hands filled from the unseen cards in order)."""
    from omen_solver.omens.state import OmensState

    unseen = list(view.unseen())
    hands = []
    for seat, size in enumerate(view.sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
            continue
        known = list(view.known.get(seat, ()))
        hidden = size - len(known)
        hands.append(sorted(known + unseen[:hidden]))
        del unseen[:hidden]
    return OmensState.start_of_bout(view.table, hands, view.teams, view.leader)


def _view(args: argparse.Namespace) -> tuple[str, View]:
    """What the seat knows: from an advice file, or by replaying a game record."""
    from omen_solver.survey.advice_file import load_view as read_view

    if args.deal is None and args.moves is None:
        refuse_given(args, ("players", "cards"), "describes a random deal (with --deal SEED)")
        if args.file is None:
            raise OmenSolverError("advise: give an advice file, or --deal SEED --players N "
                                  "(and --moves)")
        if isinstance(args.file, str):  # a position's text: the seat to act sees its hand
            args.moves = []
        else:
            return str(args.file), read_view(args.file, args.seat)
    if args.deal is not None:
        if args.file is not None:
            raise OmenSolverError(f"{args.file}: give a file or --deal SEED, not both")
        from omen_solver.cli.solve import _Deal

        dealt = _Deal(args)
        name, start = dealt.name, dealt.state
    else:
        refuse_given(args, ("players", "cards"), "describes a random deal (with --deal SEED)")
        if args.file is None:
            raise OmenSolverError("--moves: give the position file they start from, or "
                                  "--deal SEED --players N")
        name, start = str(args.file), _bout_start_file(args.file)
    tracker, state = _replayed(start, args.moves or [])
    seat = state.current_player() + 1 if args.seat is None else args.seat
    if not 1 <= seat <= state.num_players():
        raise OmenSolverError(f"--seat {args.seat}: seats are 1 to {state.num_players()}")
    count = len(args.moves or [])
    played = f" after {count} move{'s' if count > 1 else ''}" if count else ""
    return name + played, tracker.view(seat - 1)


def _bout_start_file(path: Path | str) -> Any:
    from omen_solver.core.positions import load_state
    from omen_solver.omens.state import OmensState

    state = load_state(path)
    if not isinstance(state, OmensState):
        raise PositionError(f"{path}: advise replays Omens rounds; this is a "
                            f"{type(state).__name__.removesuffix('State')} position")
    if state.in_play or state.pending or any(state.played_this_bout(s)
                                             for s in range(state.num_players())):
        raise PositionError(f"{path}: --moves replays from the start of a bout; this file "
                            "is in the middle of one (put its moves on the command line)")
    return state


def _replayed(start: Any, moves: list[str]) -> tuple[Tracker, Any]:
    """The moves played from ``start``, each checked, and who saw what."""
    tracker = Tracker(start)
    tracker.discarded = set(start.discard_pile)
    tracker.start_discarded = frozenset(start.discard_pile)
    state = start
    for number, text in enumerate(moves, start=1):
        try:
            if state.is_terminal():
                raise OmenSolverError("play is over")
            move = state.parse_move(text)
            after = state.apply_move(move)
        except OmenSolverError as error:
            raise OmenSolverError(f"--moves: move {number} {shown_text(text)}: {error}") from None
        tracker.observe(state, move, after)
        state = after
    return tracker, state


@contextmanager
def _progress(label: str) -> Iterator[Any]:
    """A bar of the deals searched on stderr, if it is a terminal."""
    stderr = Console(stderr=True)
    if not stderr.is_terminal:
        yield None
        return
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("deals"), TimeElapsedColumn()]
    with RichProgress(*columns, console=stderr, transient=True) as bar:
        task = bar.add_task(escape(label), total=None)

        def report(done: int, deals: int, spent: float) -> None:
            bar.update(task, completed=done, total=deals)

        yield report


def _imperfect(args: argparse.Namespace, name: str, view: View, budget: Budget) -> int:
    # Imported here: OpenSpiel loads only when asked for.
    from omen_solver.survey.imperfect import TOLERANCE, check_against_imperfect

    check = check_against_imperfect(view, budget)
    if args.json:
        print_json({"file": name, **check.advice.to_json(),
                    "imperfect": check.to_json(), "budget": budget_json(budget)})
        return 0
    out = _console()
    out.print(f"{escape(name)}: seat {check.seat + 1} to play; {check.deals} "
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


def _show(path: str, advice: Advice) -> None:
    out = _console()
    team = ", ".join(str(s + 1) for s in advice.team)
    method = (f"exact over all {advice.deals} consistent deals" if advice.exact else
              f"{advice.deals} deals sampled uniformly ({advice.rejected} inconsistent ones "
              f"rejected) of {advice.assignments:,} ways to place the hidden cards")
    out.print(f"{escape(path)}: seat {advice.seat + 1} to play (team of seats {team}); "
              f"{method}")
    estimated = advice.estimated
    columns = ["action", "win probability", "95 % interval", "settled"]
    columns += ["estimated", "unknown", "bounds"] if estimated else ["unknown", "bounds"]
    table = _table(out, *columns)
    for value in advice.ranked:
        least, most = value.bounds
        bounds = f"[{least:.3f}, {most:.3f}]" if value.unknown else "-"
        guess = value.estimate
        if guess is not None:
            low, high = value.estimate_interval()
            table.add_row(escape(value.action), f"{guess:.3f} (estimate)",
                          f"[{low:.3f}, {high:.3f}]", str(value.known), str(value.estimated),
                          str(value.unknown - value.estimated), bounds)
            continue
        low, high = value.interval(advice.exact)
        p = value.probability
        row = [escape(value.action), "-" if p is None else f"{p:.3f}",
               "exact" if advice.exact and not value.unknown else f"[{low:.3f}, {high:.3f}]",
               str(value.known)]
        row += ["0", str(value.unknown), bounds] if estimated else [str(value.unknown), bounds]
        table.add_row(*row)
    out.print(table)
    if estimated:
        out.print("estimate: the mean over the deals of the exact value where the deal's "
                  "search settled the action and of the evaluation's win rate where it did "
                  "not (a guess, not a proof); settled: the deals that proved the action's "
                  "value; estimated: the deals where an estimate stands in for it")
    if advice.unknown:
        out.print("bounds: the win probability over every deal searched, the deals not "
                  "settled anywhere within their proven bounds")
    if advice.searched < advice.deals:
        out.print(f"{advice.searched} of {advice.deals} deals searched within "
                  f"{advice.total_seconds:g} s; the rest count as unknown (--max-seconds S for "
                  "more)")
    best = advice.best
    how = " (by the estimates)" if best is not None and best.estimate is not None else ""
    out.print(f"best action: {escape(best.action) if best else '-'}{how}")
    if advice.unknown:
        out.print(f"{advice.unknown} searches ran out of budget before a proof: counted as "
                  "unknown, never as wins or losses (their estimates are guesses)")
