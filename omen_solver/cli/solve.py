"""``omen-solver solve``: solve any position or puzzle file exactly, every hand open, or a
seeded random Omens deal, from where play stands (``--moves``).

Every search has a budget (30 s by default, stated on the first line); when it runs out the
answer is "unknown" (exit status 1), never a guess, and the table of the root's moves says
what is proven: which win, which lose, the bounds of the rest. On a terminal the table is shown
live on stderr while the search runs; Ctrl-C prints what is proven so far and exits 130.
Exit status: 0 answered (and agrees with a stated answer); 1 unknown, or a stated answer
contradicted; 2 bad input (the message on stderr names the file, key or move); 130
interrupted.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from omen_solver.cli.args import (
    POSITION_HELP,
    add_budget,
    add_solve_options,
    memory_bytes,
    position,
    whole_number,
)
from omen_solver.cli.live import (
    ESTIMATE_NOTE,
    NODES_NOTE,
    LiveMoves,
    bounds_text,
    estimate_text,
    live_moves,
    moves_table,
)
from omen_solver.cli.output import console, print_json
from omen_solver.cli.overrides import (
    Override,
    add_rule_options,
    check_rules,
    describe_overrides,
    load_with_rules,
    rule_set,
)
from omen_solver.cli.requests import SolveRequest
from omen_solver.core.budget import Budget, Progress
from omen_solver.core.files import atomic_write
from omen_solver.core.game import GameState, TraceStep, game_of
from omen_solver.core.search import Concept, SimultaneousMode, SolveResult, solve
from omen_solver.core.search.moves import MoveAnswer, MovesReport
from omen_solver.core.search.solver import Engine
from omen_solver.errors import OmenSolverError, OptionError, PositionError
from omen_solver.errors import shown as shown_text
from omen_solver.puzzles.format import Puzzle, check_actions, compare, read_puzzle, team_index

__all__ = ["DEFAULT_SOLVE_SECONDS", "Solved", "describe_answer", "register", "solve_file"]

DEFAULT_SOLVE_SECONDS = 30.0
"""The time limit of ``solve`` when neither the command line nor the puzzle sets one: an
interactive tool answers within half a minute, and what it has not settled by then it
reports move by move."""

EXIT_OK, EXIT_FAILED = 0, 1

WHAT_IF_KEY = "puzzle.position"
"""What ``--moves`` changes of a puzzle: its position, played on from (a what-if)."""

QUESTION_KEYS = ("preset", "profile", "rules.", "puzzle.concept", "puzzle.team",
                 "puzzle.simultaneous", WHAT_IF_KEY)
"""File keys that make the question: a puzzle's stated answer is not compared with the
answer of another question (the budget, ``puzzle.max_nodes`` and ``puzzle.max_seconds``,
changes only how long the search may take)."""



@dataclass
class Solved:
    path: Path
    state: GameState[Any]
    puzzle: Puzzle | None
    result: SolveResult
    problems: list[str]
    budget: Budget = field(default_factory=Budget)
    played: tuple[str, ...] = ()
    """The ``--moves`` applied before the solve."""
    warning: str | None = None
    """Why the value is not expected within the budget (said before the search)."""
    overrides: list[Override] = field(default_factory=list)
    """What the command line replaced of the file's settings (or set of a deal's rules)."""
    simultaneous: SimultaneousMode = SimultaneousMode.MIXED
    estimates: dict[str, Any] | None = None
    """Omens: whether the moves left open were to get estimates, and their seed."""

    @property
    def changed_question(self) -> list[str]:
        """The file keys of the question that the command line changed."""
        return [o.key for o in self.overrides if o.changed and o.key.startswith(QUESTION_KEYS)]

    @property
    def agrees(self) -> bool | None:
        if self.puzzle is None or not self.result.solved or self.changed_question:
            return None
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": str(self.path),
            "question": None if self.puzzle is None else self.puzzle.question,
            "overrides": [override.to_json() for override in self.overrides],
            "simultaneous": self.simultaneous.value,
        }
        data["budget"] = {"max_nodes": self.budget.max_nodes,
                          "max_seconds": self.budget.max_seconds}
        if self.played:
            data["played"] = list(self.played)
        if self.warning:
            data["warning"] = self.warning
        if self.estimates is not None:
            data["estimates"] = self.estimates
        data.update(self.result.to_json())
        if self.puzzle is not None:
            data["stated"] = self.puzzle.answer
            data["agrees"] = self.agrees
            data["contradictions"] = self.problems
            data["compared"] = not self.changed_question
        return data


def position_text_argument(text: str) -> str:
    """``--position TEXT``: a position's one-line text (or a state's repr), nothing else."""
    from omen_solver.core.positions import position_text

    found = position_text(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            f"{shown_text(text)} is not a position's text: it starts with the game, 'omens' "
            "or 'omen' (docs/position-text.md); give a file as the first argument")
    return found


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "solve",
        description="Solve a position exactly under a stated solution concept; with a "
                    "[puzzle] table, answer its question and compare with its stated answer. "
                    "Omens positions are searched by the fast kernel (compiled when a C "
                    "compiler built it, else pure Python: same answers); --engine reference "
                    "selects the reference search over the explaining engine.",
    )
    parser.add_argument("file", type=position, nargs="?",
                        help=f"{POSITION_HELP}, or a puzzle file; or give --deal")
    parser.add_argument("--position", type=position_text_argument, metavar="TEXT",
                        help="a position's one-line text (docs/position-text.md), such as "
                             "a state's to_text() or repr pasted whole")
    deal = parser.add_argument_group("a random Omens deal instead of a file")
    deal.add_argument("--deal", type=whole_number, metavar="SEED",
                      help="solve the round of a seeded random deal (with --players)")
    deal.add_argument("--players", type=int, choices=(4, 5, 6), help="players of the deal")
    deal.add_argument("--round", choices=("first", "later"),
                      help="first: one Absolute each, teams from them (default); later: every "
                           "card shuffled, so several Absolutes or none")
    deal.add_argument("--cards", type=whole_number, metavar="K",
                      help="deal K cards to each hand instead of the full deal (a smaller "
                           "position; at a first round the Absolute and K-1 others)")
    deal.add_argument("--write", type=Path, metavar="FILE",
                      help="write the deal (and --moves) as a position file that 'solve FILE' "
                           "reads back with the same answer")
    rules = parser.add_argument_group(
        "rules", "over a file's own (reported as overrides) or of the deal (default: the "
                 "rulebook preset)")
    add_rule_options(rules, "the file's")
    parser.add_argument("--moves", nargs="+", default=[], metavar="MOVE",
                        help="solve the position after these actions, in the notation of "
                             "'omens play' (e.g. '2:18' '3:15 lower'; joint: '1:gives 9 & "
                             "3:gives 12')")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--explain", action="store_true",
                        help="replay the principal variation on the explaining engine and "
                             "show each step with the rule it applies")
    add_solve_options(parser)
    parser.add_argument("--engine", choices=[e.value for e in Engine], default="auto",
                        help="auto: the game's fast kernel where it applies (default); "
                             "kernel: insist on it; reference: the reference search")
    parser.add_argument("--search", choices=["portfolio", "alphabeta", "dfpn"], default=None,
                        help="the Omens kernel's search for a round: portfolio (default): "
                             "proof-number search (df-pn) and alpha-beta by turns, alpha-beta's a "
                             "sixteenth of df-pn's; alphabeta; "
                             "dfpn (alpha-beta only where the value is a fraction)")
    add_budget(parser, f"default: the puzzle's, else {DEFAULT_SOLVE_SECONDS:g}")
    add_kernel_options(parser)
    estimates = parser.add_argument_group(
        "estimates", "Omens: where the exact searches leave a move open, an evaluation (a tree "
                     "search of playouts that backs up proven values) gives it an estimate "
                     "with a share of the budget: a win rate with its interval, never a proof")
    estimates.add_argument("--seed", type=whole_number, metavar="N", default=None,
                           help="the evaluation's random seed (default 0): the same position, "
                                "seed, budget and threads give the same estimates (exactly so "
                                "with --max-nodes)")
    estimates.add_argument("--no-estimates", action="store_true",
                           help="the exact searches only, with the whole budget")
    parser.set_defaults(handler=_solve)


def _memory(text: str) -> int:
    from omen_solver.errors import ChoiceError
    from omen_solver.omens.kernel.tables import MemoryPlan

    size = memory_bytes(text)  # as every --max-memory: 2G, 512M, a bare number MiB
    try:
        MemoryPlan(size)
    except ChoiceError as error:
        raise argparse.ArgumentTypeError(error.problem) from None
    return size


def add_kernel_options(parser: argparse.ArgumentParser) -> None:
    """``--threads`` and ``--max-memory``: the Omens kernel's (refused elsewhere)."""
    parser.add_argument("--threads", type=whole_number, metavar="N", default=None,
                        help="threads of the compiled Omens kernel (default: the machine's "
                             "cores): root moves searched at once, and a move searched alone "
                             "proved on all of them; the same answers with any number")
    parser.add_argument("--max-memory", type=_memory, metavar="SIZE", default=None,
                        help="memory the Omens kernel's tables keep to, e.g. 2G, 512M (a bare "
                             "number is MiB) (default 2G); full tables drop what cost least")


class _Deal:
    """What ``--deal`` dealt: the table, its preset and overrides, the deal itself."""

    def __init__(self, args: argparse.Namespace) -> None:
        from omen_solver.omens.deals import deal_position, random_deal
        from omen_solver.omens.rules import make_rules
        from omen_solver.omens.table import Table as OmensTable

        if args.players is None:
            raise OmenSolverError("--deal: say how many players with --players 4, 5 or 6")
        rules = rule_set("omens")
        assert rules is not None
        check_rules(rules, args.preset, args.rule)
        self.preset: str = args.preset or rules.default_preset
        self.overrides = dict(args.rule)
        self.table = OmensTable(args.players, make_rules(self.preset, self.overrides))
        kind = args.round or "first"
        self.deal = random_deal(self.table, args.deal, kind, args.cards)
        self.state = deal_position(self.table, self.deal)
        size = "" if args.cards is None else f", {args.cards} cards a hand"
        self.name = f"deal {args.deal} ({args.players} players, {kind} round{size})"
        self.reported = [Override("--preset", "preset", args.preset, None)] if args.preset else []
        self.reported += [Override("--rule", f"rules.{option}", setting, None)
                          for option, setting in self.overrides.items()]
        """The rules the command line set, as the answer reports them."""

    def to_json(self) -> dict[str, Any]:
        deal = self.deal
        return {
            "seed": deal.seed, "kind": deal.kind, "players": self.table.players,
            "hands": {str(seat + 1): list(hand) for seat, hand in enumerate(deal.hands)},
            "teams": [[seat + 1 for seat in team] for team in deal.teams],
            "leader": deal.leader + 1, "box": list(deal.box),
            "preset": self.preset, "rules": dict(self.overrides),
        }

    def lines(self) -> list[str]:
        deal = self.deal
        teams = " against ".join(_seat_text([s + 1 for s in t]) for t in deal.teams)
        shown_hands = [f"  seat {seat + 1}: {' '.join(map(str, hand))}"
                       for seat, hand in enumerate(deal.hands)]
        return [f"the deal: {teams}; seat {deal.leader + 1} leads", *shown_hands]

    def position_text(self, moves: list[str]) -> str:
        """The deal as a position file (docs/omens-positions.md), with ``moves`` played."""
        from omen_solver.omens.position import position_toml

        deal = self.deal
        data: dict[str, Any] = {
            "game": "omens", "title": self.name, "players": self.table.players,
            "teams": [[s + 1 for s in team] for team in deal.teams], "preset": self.preset,
            "box": list(deal.box),
        }
        if self.overrides:
            data["rules"] = dict(self.overrides)
        data["hands"] = {str(seat + 1): list(hand) for seat, hand in enumerate(deal.hands)}
        data["bout"] = {"leader": deal.leader + 1, **({"moves": list(moves)} if moves else {})}
        return position_toml(data)


def _played(state: GameState[Any], moves: list[str]) -> GameState[Any]:
    """The state after ``moves`` (the notation of 'omens play'), each checked: a move that is
    not legal is named with its number."""
    parse = game_of(state).parse
    for number, text in enumerate(moves, start=1):
        try:
            if state.is_terminal():
                raise OmenSolverError("play is over")
            if parse is None:
                raise OmenSolverError(f"{type(state).__name__} moves are not read from text")
            state = state.child(parse(state, text))
        except OmenSolverError as error:
            raise OmenSolverError(f"--moves: move {number} {shown_text(text)}: {error}") from None
    return state


def solve_file(path: Path, request: SolveRequest, default_seconds: float) -> Solved:
    """Solve a file (``puzzles check``: each puzzle) as the command line asks."""
    state, puzzle, overrides = _read(path, request)
    return _solve_state(path, state, puzzle, request, default_seconds, overrides=overrides)


def _read(path: Path, request: SolveRequest
          ) -> tuple[GameState[Any], Puzzle | None, list[Override]]:
    """A position file's state and puzzle under ``--preset`` and ``--rule``, and what they
    replaced; the options of a random deal are refused with a file."""
    if request.deal_flags:
        name = request.deal_flags[0]
        raise OptionError(f"--{name} describes a random deal (with --deal SEED); {path} "
                          f"is a position file, which fixes the {name} itself")
    state, data, overrides = load_with_rules(path, request.preset, request.rules)
    puzzle = read_puzzle(path, data)
    if puzzle is not None:
        check_actions(puzzle, state)
    return state, puzzle, overrides


def puzzle_overrides(puzzle: Puzzle | None, request: SolveRequest) -> list[Override]:
    """Where the command line's question or budget replaces a ``[puzzle]`` table's."""
    if puzzle is None:
        return []
    found = []
    team, concept, mode = request.team, request.concept, request.simultaneous
    if concept is not None:
        stated = None if puzzle.concept is None else puzzle.concept.value
        found.append(Override("--concept", "puzzle.concept", concept, stated))
    if team is not None:
        stated_team = None if puzzle.team is None else list(puzzle.team)
        found.append(Override("--team", "puzzle.team", sorted(team), stated_team))
    if mode is not None:
        found.append(Override("--simultaneous", "puzzle.simultaneous", mode,
                              puzzle.simultaneous.value))
    if request.max_nodes is not None:
        found.append(Override("--max-nodes", "puzzle.max_nodes", request.max_nodes,
                              puzzle.budget.max_nodes))
    if request.max_seconds is not None:
        found.append(Override("--max-seconds", "puzzle.max_seconds", request.max_seconds,
                              puzzle.budget.max_seconds))
    return found


def _budget(request: SolveRequest, puzzle: Puzzle | None, default_seconds: float) -> Budget:
    fallback = puzzle.budget if puzzle else Budget()
    return request.budget(Budget(fallback.max_nodes, fallback.max_seconds or default_seconds))


def _solve_state(
    path: Path,
    state: GameState[Any],
    puzzle: Puzzle | None,
    request: SolveRequest,
    default_seconds: float,
    shown: tuple[LiveMoves, Progress | None] | None = None,
    overrides: Sequence[Override] = (),
) -> Solved:
    overrides = [*overrides, *puzzle_overrides(puzzle, request)]
    asked_team, asked_concept, asked_mode = request.team, request.concept, request.simultaneous
    seats = asked_team if asked_team is not None else (puzzle.team if puzzle else None)
    if seats is not None:
        # Checked here so that the message names the option or the file's key.
        team_index(state, seats, "--team" if asked_team is not None else f"{path}: puzzle.team")
    concept = asked_concept or (puzzle.concept if puzzle else None)
    mode = SimultaneousMode(asked_mode) if asked_mode else (
        puzzle.simultaneous if puzzle else SimultaneousMode.MIXED
    )
    budget = _budget(request, puzzle, default_seconds)
    _check_kernel_options(state, request)
    with live_moves(f"solving {path}", budget.max_seconds, enabled=shown is None) as own:
        view, progress = shown or own
        try:
            estimate = request.estimates is True
            seed = request.seed
            if seed is not None and not estimate:
                raise OptionError("--seed: the seed of the estimates, which --no-estimates "
                                  "turns off")
            result = solve(state, concept=concept, team=seats, budget=budget,
                           simultaneous=mode, progress=progress, engine=request.engine,
                           algorithm=request.search, report=view.report,
                           threads=0 if request.threads is None else request.threads,
                           max_memory=request.max_memory, estimate=estimate, seed=seed)
        except OmenSolverError as error:
            # A concept that does not fit the position: name the file it came from, and the
            # flag that set a kernel setting the search refuses.
            flags = {"threads": "--threads", "max_memory": "--max-memory", "seed": "--seed"}
            text = (f"{flags[error.key]}: {error.problem}" if error.key in flags
                    else str(error))
            raise PositionError(f"{path}: {text}", value=error.value, rule=error.rule,
                                problem=text) from None
    solved = Solved(path, state, puzzle, result, [], budget, overrides=overrides,
                    simultaneous=mode)
    from omen_solver.omens.state import OmensState

    if isinstance(state, OmensState) and request.estimates is not None:
        solved.estimates = {"enabled": estimate, "seed": 0 if seed is None else seed,
                            "ran": "evaluation" in result.extra}
    if puzzle and result.solved and not solved.changed_question:
        solved.problems = compare(puzzle, state, result)
    return solved


def _solve(args: argparse.Namespace) -> int:
    request = SolveRequest.from_args(args)
    if args.position is not None:
        if args.file is not None:
            raise OmenSolverError(f"--position: give a position text or a file ({args.file}), "
                                  "not both")
        args.file = args.position
    if (args.file is None) == (args.deal is None):
        raise OmenSolverError("solve: give a position file or --deal SEED --players N (not both)")
    if args.write is not None and args.deal is None:
        raise OmenSolverError("--write: writes the position of --deal SEED --players N")
    dealt: _Deal | None = None
    puzzle: Puzzle | None = None
    state: GameState[Any]
    if args.deal is not None:
        dealt = _Deal(args)
        path, state, overrides = Path(dealt.name), dealt.state, dealt.reported
    else:
        path = args.file
        state, puzzle, overrides = _read(path, request)
    if args.moves:
        state = _played(state, args.moves)
        if puzzle is not None:  # a what-if: the puzzle's question, asked after the moves
            overrides = [*overrides, Override("--moves", WHAT_IF_KEY, list(args.moves), None)]
    if dealt is not None and args.write is not None:
        atomic_write(args.write, dealt.position_text(args.moves))
    budget = _budget(request, puzzle, DEFAULT_SOLVE_SECONDS)
    _check_question(path, state, puzzle, request)
    warning = _warning(state, args, request, budget)
    if not args.json:
        out = console()
        out.print(escape(_heading(path, request, budget, puzzle)))
        if overrides:
            out.print(escape(describe_overrides(overrides)))
        if dealt is not None:
            for line in dealt.lines():
                out.print(escape(line))
        if args.moves:
            out.print(f"after: {escape(' '.join(args.moves))}")
        if args.write is not None:
            out.print(f"written: {escape(str(args.write))}")
    if warning:
        Console(stderr=True, highlight=False).print(f"note: {escape(warning)}", soft_wrap=True)
    with live_moves(f"solving {path}", budget.max_seconds) as live:
        try:
            solved = _solve_state(path, state, puzzle, request, DEFAULT_SOLVE_SECONDS, live,
                                  overrides)
        except KeyboardInterrupt:
            _show_interrupted(live[0].last, args.json)
            raise
    solved.played = tuple(args.moves)
    solved.warning = warning
    explained = _explained_line(solved) if args.explain and solved.result.solved else None
    if args.json:
        data = solved.to_json()
        if dealt is not None:
            data["deal"] = dealt.to_json()
            if args.write is not None:
                data["written"] = str(args.write)
        hands = _hands(state)
        if hands is not None:
            data["hands"] = hands
        if explained is not None:
            data["explained"] = [
                {"move": move, "steps": [{"rule": s.rule, "text": s.text} for s in steps]}
                for move, steps in explained
            ]
        print_json(data)
    else:
        _show_solved(solved, heading=False)
        if explained is not None:
            _show_explained(explained)
    ok = solved.result.solved and not solved.problems
    return EXIT_OK if ok else EXIT_FAILED


def _check_question(path: Path, state: GameState[Any], puzzle: Puzzle | None,
                    request: SolveRequest) -> None:
    """A concept or team that does not fit the position is refused before anything is said
    of the search (the note on its reach among it)."""
    from omen_solver.core.search.solver import resolve_concept

    asked_team, asked_concept = request.team, request.concept
    seats = asked_team if asked_team is not None else (puzzle.team if puzzle else None)
    if seats is not None:
        team_index(state, seats, "--team" if asked_team is not None else f"{path}: puzzle.team")
    concept = asked_concept or (puzzle.concept if puzzle else None)
    try:
        resolve_concept(state, concept, seats)
    except OmenSolverError as error:
        raise PositionError(f"{path}: {error}") from None


def _heading(path: Path, request: SolveRequest, budget: Budget,
             puzzle: Puzzle | None) -> str:
    """The first line: what is solved and within which budget."""
    if request.max_seconds is not None or request.max_nodes is not None:
        how = ""
    elif puzzle is not None and (puzzle.budget.max_nodes or puzzle.budget.max_seconds):
        how = " (the puzzle's budget, and the default time; --max-seconds S to change)"
    else:
        how = " (the default; --max-seconds S or --max-nodes N to change)"
    return f"{path}: solving within {budget.describe()}{how}"


def _check_kernel_options(state: GameState[Any], request: SolveRequest) -> None:
    """--threads, --max-memory, --seed and --no-estimates are the Omens kernel's: refused where
    it does not search."""
    from omen_solver.omens.state import OmensState

    given = [flag for flag, value in (("--threads", request.threads),
                                      ("--max-memory", request.max_memory),
                                      ("--seed", request.seed))
             if value is not None]
    if request.estimates is False:
        given.append("--no-estimates")
    if not given:
        return
    if not isinstance(state, OmensState):
        raise OmenSolverError(f"{', '.join(given)}: the Omens kernel's options; this is a "
                              f"{type(state).__name__.removesuffix('State')} position")
    if request.engine == "reference":
        raise OmenSolverError(f"{', '.join(given)}: the Omens kernel's options; --engine "
                              "reference does not use the kernel")


def _hands(state: GameState[Any]) -> dict[str, list[int]] | None:
    """Omens: each seat's hand (from 1) where the solve starts."""
    from omen_solver.omens.state import OmensState

    if isinstance(state, OmensState):
        return {str(seat + 1): list(hand) for seat, hand in enumerate(state.hands)}
    return None


def _warning(state: GameState[Any], args: argparse.Namespace, request: SolveRequest,
             budget: Budget) -> str | None:
    """Omens on the kernel: why the exact value is not expected within the budget (a measured
    model, :mod:`omen_solver.omens.kernel.reach`), and what to try that the command line does
    not already ask for."""
    from omen_solver.omens.state import OmensState

    if not isinstance(state, OmensState) or request.engine == "reference":
        return None
    import os

    from omen_solver.omens.kernel.reach import out_of_reach

    threads = request.threads if request.threads is not None else (os.cpu_count() or 1)
    given = {"deal": args.deal, "cards": args.cards, "moves": args.moves}
    return out_of_reach(state, budget, threads=threads, given=given)


def _show_interrupted(last: MovesReport | None, as_json: bool) -> None:
    """What was proven when Ctrl-C stopped the search (never a result: exit status 130)."""
    if as_json:
        data: dict[str, Any] = {"status": "interrupted"}
        if last is not None:
            data.update({
                "lower": None if last.lower is None else str(last.lower),
                "upper": None if last.upper is None else str(last.upper),
                "value": None if last.value is None else str(last.value),
                "nodes": last.nodes, "moves": [m.to_json() for m in last.moves],
            })
        print_json(data)
        return
    out = console()
    if last is None:
        out.print("interrupted before any move was searched")
        return
    value = "" if last.value is None else f"; the value is {last.value}"
    out.print(f"interrupted: proven so far, the value lies in "
              f"{bounds_text(last.lower, last.upper)}{value} ({last.nodes:,} nodes)")
    _show_moves(last.moves)


def _show_moves(moves: tuple[MoveAnswer, ...]) -> None:
    if moves:
        console().print(moves_table(moves, "moves, best first for the side to move:"))
        if any(move.estimate is not None and not move.settled for move in moves):
            console().print(escape(NODES_NOTE))
            console().print(escape(ESTIMATE_NOTE))


def _best_estimate(result: SolveResult) -> MoveAnswer | None:
    """Of an unknown answer with estimates: the move listed first among those not settled
    (the moves come best first for the side choosing), unless a proven move is first."""
    if result.solved or not result.moves:
        return None
    first = result.moves[0]
    if first.settled or first.estimate is None:
        return None
    return first


def _explained_line(solved: Solved) -> list[tuple[str, list[TraceStep]]]:
    """The principal variation replayed on the game's explaining engine, step by step."""
    state = solved.state
    explain = game_of(state).explain
    if explain is None:
        raise OmenSolverError(f"{type(state).__name__} cannot explain its moves")
    line = []
    for text in solved.result.principal_variation:
        state, steps = explain(state, text)
        line.append((text, steps))
    return line


def _show_explained(line: list[tuple[str, list[TraceStep]]]) -> None:
    out = console()
    out.print("the principal variation, explained:")
    for move, steps in line:
        out.print(f"  {escape(move)}")
        for step in steps:
            out.print(f"      {escape(str(step))}")


SEPARATED_BY = ("bout", "turn")
"""The stopping points that separate a line of play in the text (Omens: bouts; Omen: turns)."""


def line_text(state: GameState[Any], line: Sequence[str]) -> str:
    """A line of play as text, ``·`` between moves and ``|`` where a bout (Omen: a turn)
    ends."""
    game = game_of(state)
    point = next((p for p in SEPARATED_BY if p in game.stop_points), None)
    if point is None or game.stop_predicate is None or game.parse is None:
        return " · ".join(line)
    ended = game.stop_predicate(state, point)
    parts: list[list[str]] = [[]]
    for move in line:
        parts[-1].append(move)
        try:
            state = state.child(game.parse(state, move))
        except (OmenSolverError, ValueError):  # shown as it is; the solver found it legal
            return " · ".join(line)
        if ended(state):
            parts.append([])
            ended = game.stop_predicate(state, point)
    return " | ".join(" · ".join(part) for part in parts if part)


def _seat_text(seats: list[int]) -> str:
    """``seat 2`` or ``seats 1, 3``."""
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"


def _verb(seats: list[int], singular: str, plural: str) -> str:
    return f"{_seat_text(seats)} {singular if len(seats) == 1 else plural}"


def describe_answer(result: SolveResult) -> str:
    """The answer in words: who wins (or the concept's outcome), or the bounds if unknown."""
    team = [p + 1 for p in result.teams[result.team]]
    if not result.solved:
        low, high, seats = result.lower, result.upper, _seat_text(team)
        if low is None and high is None:
            return f"unknown: no bound on the value of {seats} was proven within the budget"
        if high is None:
            return f"unknown: the value of {seats} is at least {low}"
        if low is None:
            return f"unknown: the value of {seats} is at most {high}"
        return f"unknown: the value of {seats} lies in [{low}, {high}]"
    values = "" if result.values is None else f"; team values {', '.join(map(str, result.values))}"
    if result.concept is Concept.PARANOID:
        return (f"{_verb(team, 'guarantees', 'guarantee')} {result.value} against all other "
                "teams (paranoid)")
    winner = result.winner
    lead = "no team is ahead" if winner is None else (
        _verb([p + 1 for p in result.teams[winner]], "wins", "win")
    )
    report = result.extra.get("maxn") if result.concept is Concept.MAXN else None
    if report and report["depends_on_tie_break"]:
        lead = f"{lead} when ties go to the first action, but the outcome depends on ties"
    return f"{lead} ({result.concept.value}; {_seat_text(team)}: {result.value}{values})"


def _show_solved(solved: Solved, heading: bool = True) -> None:
    out = console()
    result = solved.result
    if heading:
        out.print(escape(str(solved.path)))
        if solved.overrides:
            out.print(escape(describe_overrides(solved.overrides)))
    if solved.puzzle is not None:
        out.print(f"question: {escape(solved.puzzle.question)}")
    out.print(f"answer: {escape(describe_answer(result))}")
    if result.solved:
        out.print(f"best actions: {escape(', '.join(result.best_actions) or '(none: no choice)')}")
        line = line_text(solved.state, result.principal_variation)
        out.print(f"principal variation: {escape(line or '-')}")
    if result.pure_lower is not None or result.pure_upper is not None:
        same = result.pure_lower == result.pure_upper == result.value
        tail = " (revealing a simultaneous choice first changes nothing here)" if same else ""
        out.print(f"pure strategies: lower {result.pure_lower}, upper {result.pure_upper}{tail}")
    if result.root_matrix is not None:
        matrix = result.root_matrix
        strategy = ", ".join(f"{r}: {p}" for r, p in zip(matrix.rows, matrix.row_strategy,
                                                           strict=True))
        out.print(f"root matrix game: value {matrix.value}; strategy {escape(strategy)}")
    if result.note:
        out.print(f"note: {escape(result.note)}")
    best = _best_estimate(result)
    if best is not None:
        out.print(f"best estimate: {escape(best.action)}, win rate "
                  f"{escape(estimate_text(best, long=True))} (an estimate, not a proof)")
    if not heading:
        _show_moves(result.moves)
    for line in result.extra.get("details", ()):
        out.print(escape(line))
    engine = result.extra.get("engine")
    memory = result.extra.get("table_bytes")
    tail = f"  engine: {engine}" if engine else ""
    if result.extra.get("algorithm"):
        tail += f"  search: {result.extra['algorithm']}"
    if memory:
        tail += f"  table: {memory / 2**20:,.0f} MiB"
    out.print(f"nodes: {result.nodes:,}  states: {result.states:,}  "
              f"seconds: {result.seconds:.3f}{tail}")
    refused = result.extra.get("kernel_refused")
    if refused:
        out.print(f"(the search kernel was not used: {escape(str(refused))})")
    if solved.puzzle is not None and solved.changed_question:
        out.print("stated answer: not compared: the command line changes the question ("
                  f"{escape(', '.join(solved.changed_question))})")
    elif solved.agrees is True:
        out.print("stated answer: agrees")
    elif solved.agrees is False:
        out.print("stated answer: [bold red]CONTRADICTED[/]")
        for problem in solved.problems:
            out.print(f"  {escape(problem)}")
