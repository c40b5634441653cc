"""``omen-solver solve``: solve any position or puzzle file exactly, every hand open, or a
seeded random Omens deal.

Every search has a budget; when it runs out the answer is "unknown" (exit status 1), never a
guess. Exit status: 0 answered (and agrees with a stated answer); 1 unknown, or a stated answer
contradicted; 2 bad input (the message on stderr names the file and key).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape

from omen_solver.cli.args import add_budget, add_solve_options, budget_of, whole_number
from omen_solver.cli.output import console, print_json, progress
from omen_solver.core.budget import Budget
from omen_solver.core.game import GameState, TraceStep, game_of
from omen_solver.core.positions import load_state, read_toml
from omen_solver.core.search import Concept, SimultaneousMode, SolveResult, solve
from omen_solver.core.search.solver import Engine
from omen_solver.errors import OmenSolverError, PositionError
from omen_solver.puzzles.format import Puzzle, check_actions, compare, read_puzzle, team_index

__all__ = ["DEFAULT_SOLVE_SECONDS", "Solved", "describe_answer", "register", "solve_file"]

DEFAULT_SOLVE_SECONDS = 600.0
"""The time limit of ``solve`` when neither the command line nor the puzzle sets one."""

EXIT_OK, EXIT_FAILED = 0, 1



@dataclass
class Solved:
    path: Path
    state: GameState[Any]
    puzzle: Puzzle | None
    result: SolveResult
    problems: list[str]

    @property
    def agrees(self) -> bool | None:
        if self.puzzle is None or not self.result.solved:
            return None
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": str(self.path),
            "question": None if self.puzzle is None else self.puzzle.question,
        }
        data.update(self.result.to_json())
        if self.puzzle is not None:
            data["stated"] = self.puzzle.answer
            data["agrees"] = self.agrees
            data["contradictions"] = self.problems
        return data


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve a position or puzzle exactly, every hand open (any game)",
        description="Solve a position exactly under a stated solution concept; with a "
                    "[puzzle] table, answer its question and compare with its stated answer. "
                    "Omens positions are searched by the fast kernel (compiled when a C "
                    "compiler built it, else pure Python: same answers); --engine reference "
                    "selects the reference search over the explaining engine.",
    )
    parser.add_argument("file", type=Path, nargs="?",
                        help="position or puzzle file (TOML); or give --deal")
    deal = parser.add_argument_group("a random Omens deal instead of a file")
    deal.add_argument("--deal", type=whole_number, metavar="SEED",
                      help="solve the round of a seeded random deal (with --players)")
    deal.add_argument("--players", type=int, choices=(4, 5, 6), help="players of the deal")
    deal.add_argument("--round", choices=("first", "later"), default="first",
                      help="first: one Absolute each, teams from them (default); later: every "
                           "card shuffled, so several Absolutes or none")
    deal.add_argument("--cards", type=whole_number, metavar="K",
                      help="deal K cards to each hand instead of the full deal (a smaller "
                           "position; at a first round the Absolute and K-1 others)")
    deal.add_argument("--preset", default="rulebook", help="rule preset (default: rulebook)")
    deal.add_argument("--rule", action="append", default=[], metavar="OPTION=SETTING",
                      help="override one rule option (repeatable)")
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
                             "alpha-beta and proof-number search (df-pn) by turns; alphabeta; "
                             "dfpn (alpha-beta only where the value is a fraction)")
    add_budget(parser, f"default: the puzzle's, else {DEFAULT_SOLVE_SECONDS:g}")
    parser.set_defaults(handler=_solve)


def _deal_state(args: argparse.Namespace) -> tuple[Path, GameState[Any]]:
    """The state of ``--deal SEED --players N`` and a name for it (an Omens deal)."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table as OmensTable

    if args.players is None:
        raise OmenSolverError("--deal: say how many players with --players 4, 5 or 6")
    overrides = {}
    for text in args.rule:
        name, sep, setting = text.partition("=")
        if not sep:
            raise OmenSolverError(
                f"--rule {text!r}: write OPTION=SETTING, e.g. luck_chooser=random"
            )
        overrides[name.strip()] = setting.strip()
    table = OmensTable(args.players, make_rules(args.preset, overrides))
    deal = random_deal(table, args.deal, args.round, args.cards)
    size = "" if args.cards is None else f", {args.cards} cards a hand"
    name = f"deal {args.deal} ({args.players} players, {args.round} round{size})"
    return Path(name), deal_position(table, deal)


def solve_file(path: Path, args: argparse.Namespace, default_seconds: float) -> Solved:
    if getattr(args, "deal", None) is not None:
        path, state = _deal_state(args)
        return _solve_state(path, state, None, args, default_seconds)
    state = load_state(path)
    puzzle = read_puzzle(path, read_toml(path))
    if puzzle is not None:
        check_actions(puzzle, state)
    return _solve_state(path, state, puzzle, args, default_seconds)


def _solve_state(
    path: Path,
    state: GameState[Any],
    puzzle: Puzzle | None,
    args: argparse.Namespace,
    default_seconds: float,
) -> Solved:
    seats = args.team if args.team is not None else (puzzle.team if puzzle else None)
    if seats is not None:
        # Checked here so that the message names the option or the file's key.
        team_index(state, seats, "--team" if args.team is not None else f"{path}: puzzle.team")
    concept = args.concept or (puzzle.concept if puzzle else None)
    mode = SimultaneousMode(args.simultaneous) if args.simultaneous else (
        puzzle.simultaneous if puzzle else SimultaneousMode.MIXED
    )
    fallback = puzzle.budget if puzzle else Budget()
    budget = budget_of(args, Budget(fallback.max_nodes, fallback.max_seconds or default_seconds))
    with progress(f"solving {path}", budget.max_seconds) as report:
        try:
            result = solve(state, concept=concept, team=seats, budget=budget,
                           simultaneous=mode, progress=report,
                           engine=getattr(args, "engine", "auto"),
                           algorithm=getattr(args, "search", None))
        except OmenSolverError as error:
            # A concept that does not fit the position: name the file it came from.
            raise PositionError(f"{path}: {error}") from None
    problems = compare(puzzle, state, result) if puzzle and result.solved else []
    return Solved(path, state, puzzle, result, problems)


def _solve(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.deal is None):
        raise OmenSolverError("solve: give a position file or --deal SEED --players N (not both)")
    solved = solve_file(args.file, args, DEFAULT_SOLVE_SECONDS)
    explained = _explained_line(solved) if args.explain and solved.result.solved else None
    if args.json:
        data = solved.to_json()
        if explained is not None:
            data["explained"] = [
                {"move": move, "steps": [{"rule": s.rule, "text": s.text} for s in steps]}
                for move, steps in explained
            ]
        print_json(data)
    else:
        _show_solved(solved)
        if explained is not None:
            _show_explained(explained)
    ok = solved.result.solved and not solved.problems
    return EXIT_OK if ok else EXIT_FAILED


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


def _seat_text(seats: list[int]) -> str:
    """``seat 2`` or ``seats 1, 3``."""
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"


def _verb(seats: list[int], singular: str, plural: str) -> str:
    return f"{_seat_text(seats)} {singular if len(seats) == 1 else plural}"


def describe_answer(result: SolveResult) -> str:
    """The answer in words: who wins (or the concept's outcome), or the bounds if unknown."""
    team = [p + 1 for p in result.teams[result.team]]
    if not result.solved:
        low = "?" if result.lower is None else str(result.lower)
        high = "?" if result.upper is None else str(result.upper)
        return f"unknown: the value of {_seat_text(team)} lies in [{low}, {high}]"
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


def _show_solved(solved: Solved) -> None:
    out = console()
    result = solved.result
    out.print(escape(str(solved.path)))
    if solved.puzzle is not None:
        out.print(f"question: {escape(solved.puzzle.question)}")
    out.print(f"answer: {escape(describe_answer(result))}")
    if result.solved:
        out.print(f"best actions: {escape(', '.join(result.best_actions) or '(none: no choice)')}")
        out.print(f"principal variation: {escape(' · '.join(result.principal_variation) or '-')}")
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
    if solved.agrees is True:
        out.print("stated answer: agrees")
    elif solved.agrees is False:
        out.print("stated answer: [bold red]CONTRADICTED[/]")
        for problem in solved.problems:
            out.print(f"  {escape(problem)}")
