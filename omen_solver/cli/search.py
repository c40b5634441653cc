"""Game-agnostic commands: ``perft``, ``graph``, ``solve`` and ``puzzles check``.

(``puzzles generate``, which is Omens-specific, is added by :mod:`omen_solver.cli.prove`.)

They work on any position file (:func:`omen_solver.core.positions.load_state`). Every search
has a budget; when it runs out the answer is "unknown" (exit status 1), never a guess. Long
walks show their progress on stderr when stderr is a terminal.

Exit status: 0 answered (and agrees with a stated answer); 1 unknown, or a stated answer
contradicted; 2 bad input (the message on stderr names the file and key).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.table import Table

from omen_solver.cli.args import MAX_DIGITS, whole_number
from omen_solver.core.budget import Progress
from omen_solver.core.enumeration import Budget, Status, perft
from omen_solver.core.game import GameState, TraceStep
from omen_solver.core.graph import (
    DEFAULT_MAX_NODES,
    FORMATS,
    build_graph,
    check_target,
    write_graph,
)
from omen_solver.core.positions import load_state, read_toml
from omen_solver.core.search import Concept, SimultaneousMode, SolveResult, solve
from omen_solver.core.search.solver import Engine
from omen_solver.errors import OmenSolverError, PositionError, one_line, shown
from omen_solver.puzzles.format import (
    Puzzle,
    check_actions,
    compare,
    read_puzzle,
    team_index,
)

__all__ = [
    "DEFAULT_CHECK_SECONDS",
    "DEFAULT_PERFT_SECONDS",
    "DEFAULT_SOLVE_SECONDS",
    "puzzle_commands",
    "register",
]

DEFAULT_SOLVE_SECONDS = 600.0
"""The time limit of ``solve`` when neither the command line nor the puzzle sets one."""
DEFAULT_CHECK_SECONDS = 120.0
"""The time limit per puzzle of ``puzzles check`` when neither sets one."""
DEFAULT_PERFT_SECONDS = 600.0
"""The time limit of ``perft`` when the command line sets none: past it the count is
"unknown" (exit status 1), never a wait without end."""

EXIT_OK, EXIT_FAILED = 0, 1
"""The longest number an option reads (Python's int() refuses numbers of over 4,300 digits;
a depth of 10**30 plies is read, and the budget answers for it)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _register_perft(subparsers)
    _register_graph(subparsers)
    _register_solve(subparsers)
    _register_puzzles(subparsers)


# -- shared options --------------------------------------------------------------------------


_positive_int = whole_number


def _seconds(text: str) -> float:
    stripped = text.strip()
    try:
        value = float(stripped) if stripped.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a positive number of seconds")
    return value


def _seats(text: str) -> tuple[int, ...]:
    parts = text.replace(" ", "").split(",")
    if not all(part.isascii() and part.isdigit() and len(part) <= MAX_DIGITS for part in parts):
        raise argparse.ArgumentTypeError(f"{shown(text)}: write seats such as 1,3")
    seats = tuple(int(part) for part in parts)
    if min(seats) < 1:
        raise argparse.ArgumentTypeError(f"{shown(text)}: seats are numbered from 1")
    return seats


def _add_budget(parser: argparse.ArgumentParser, seconds_default: str) -> None:
    parser.add_argument("--max-nodes", type=_positive_int, metavar="N",
                        help="stop after N nodes and answer 'unknown'")
    parser.add_argument("--max-seconds", type=_seconds, metavar="S",
                        help=f"stop after S seconds and answer 'unknown' ({seconds_default})")


def _add_stop(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--depth", type=_positive_int, metavar="N", help="cut after N plies")
    parser.add_argument(
        "--to", metavar="POINT",
        help="cut at a stopping point the game names, e.g. bout or round",
    )


def _add_solve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--concept", choices=[c.value for c in Concept],
                        help="solution concept (default: minimax with two teams; required "
                             "with three or more)")
    parser.add_argument("--team", type=_seats, metavar="SEATS",
                        help="the team asked about (paranoid: the team against all others), "
                             "as its seats, e.g. 1,3 (default: the team to move)")
    parser.add_argument("--simultaneous", choices=[m.value for m in SimultaneousMode],
                        help="value of matrix games at simultaneous nodes (default: mixed)")


def _budget(args: argparse.Namespace, fallback: Budget | None = None) -> Budget:
    fallback = fallback or Budget()
    nodes = args.max_nodes if args.max_nodes is not None else fallback.max_nodes
    seconds = args.max_seconds if args.max_seconds is not None else fallback.max_seconds
    return Budget(nodes, seconds)


@contextmanager
def _progress(label: str, seconds: float | None = None) -> Iterator[Progress | None]:
    """A progress bar on stderr while a walk runs, if stderr is a terminal: the time spent
    against the time limit (when there is one), nodes and nodes per second."""
    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = [
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[nodes]:,} nodes, {task.fields[rate]:,.0f} nodes/s"),
    ]
    with RichProgress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(escape(label), total=seconds, nodes=0, rate=0.0)

        def report(nodes: int, spent: float) -> None:
            rate = nodes / spent if spent > 0 else 0.0
            bar.update(task, completed=spent, nodes=nodes, rate=rate)

        yield report


def _out() -> Console:
    console = Console(highlight=False)
    if not console.is_terminal:
        # Piped output is read by programs and people alike: keep long cells whole.
        console = Console(highlight=False, width=200)
    return console


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


# -- perft -----------------------------------------------------------------------------------


def _register_perft(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "perft", help="count the legal action sequences from a position (any game)",
        description="Count the legal action sequences from a position to a depth, to a "
                    "stopping point, or to the end, with the distinct states reached.",
    )
    parser.add_argument("file", type=Path, help="position file (TOML)")
    _add_stop(parser)
    parser.add_argument("--divide", action="store_true",
                        help="show the count under each root action")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-merge", action="store_true",
                        help="walk every sequence instead of reusing transposed subtrees")
    _add_budget(parser, f"default: {DEFAULT_PERFT_SECONDS:g}")
    parser.set_defaults(handler=_perft)


def _perft(args: argparse.Namespace) -> int:
    state = load_state(args.file)
    with _progress(f"perft {args.file}") as progress:
        result = perft(state, args.depth, stop=args.to, transpositions=not args.no_merge,
                       budget=_budget(args, Budget(None, DEFAULT_PERFT_SECONDS)),
                       progress=progress)
    if args.json:
        data = {"file": str(args.file), **result.to_json()}
        if not args.divide:
            data.pop("divide")
        _print_json(data)
    else:
        _show_perft(args, result)
    return EXIT_OK if result.status is Status.SOLVED else EXIT_FAILED


def _show_perft(args: argparse.Namespace, result: Any) -> None:
    out = _out()
    cut = " and ".join(
        part for part in (
            f"depth {args.depth}" if args.depth is not None else "",
            f"to {args.to}" if args.to else "",
        ) if part
    ) or "to the end"
    if result.total is None:
        out.print(f"{escape(str(args.file))} ({cut}): unknown: {result.reason} "
                  f"after {result.visited:,} nodes")
        return
    total = result.total
    out.print(f"{escape(str(args.file))} ({cut})")
    out.print(f"sequences: {total.sequences:,} ({total.at_depth:,} of full depth, "
              f"{total.ended:,} ended earlier)")
    out.print(f"nodes: {total.nodes:,}  distinct states: {result.states:,}  "
              f"visited: {result.visited:,}  seconds: {result.seconds:.3f}")
    if args.divide:
        table = Table("action", "sequences", "nodes")
        for text, count in result.divide:
            table.add_row(escape(text), f"{count.sequences:,}", f"{count.nodes:,}")
        out.print(table)


# -- graph -----------------------------------------------------------------------------------


def _register_graph(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "graph", help="export the action tree or state graph (GraphML, DOT, SVG, PNG)",
        description="Write the action tree below a position (or, with --merge, the state "
                    "graph with transpositions merged) as GraphML, DOT, or a picture.",
    )
    parser.add_argument("file", type=Path, help="position file (TOML)")
    _add_stop(parser)
    parser.add_argument("--out", type=Path, required=True, metavar="PATH", help="output file")
    parser.add_argument("--format", choices=FORMATS, help="default: from the suffix of --out")
    parser.add_argument("--merge", action="store_true", help="one node per distinct state")
    parser.add_argument("--max-nodes", type=_positive_int, metavar="N", default=DEFAULT_MAX_NODES,
                        help=f"refuse graphs larger than N nodes (default {DEFAULT_MAX_NODES})")
    parser.set_defaults(handler=_graph)


def _graph(args: argparse.Namespace) -> int:
    state = load_state(args.file)
    check_target(args.out)
    graph = build_graph(state, args.depth, stop=args.to, merge=args.merge,
                        max_nodes=args.max_nodes)
    written = write_graph(graph, args.out, args.format)
    kind = "state graph" if args.merge else "action tree"
    _out().print(f"{escape(str(args.out))}: {kind} as {written}, {graph.number_of_nodes():,} "
                 f"nodes, {graph.number_of_edges():,} edges")
    return EXIT_OK


# -- solve -----------------------------------------------------------------------------------


@dataclass
class _Solved:
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


def _register_solve(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    deal.add_argument("--deal", type=_positive_int, metavar="SEED",
                      help="solve the round of a seeded random deal (with --players)")
    deal.add_argument("--players", type=int, choices=(4, 5, 6), help="players of the deal")
    deal.add_argument("--round", choices=("first", "later"), default="first",
                      help="first: one Absolute each, teams from them (default); later: every "
                           "card shuffled, so several Absolutes or none")
    deal.add_argument("--cards", type=_positive_int, metavar="K",
                      help="deal K cards to each hand instead of the full deal (a smaller "
                           "position; at a first round the Absolute and K-1 others)")
    deal.add_argument("--preset", default="rulebook", help="rule preset (default: rulebook)")
    deal.add_argument("--rule", action="append", default=[], metavar="OPTION=SETTING",
                      help="override one rule option (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--explain", action="store_true",
                        help="replay the principal variation on the explaining engine and "
                             "show each step with the rule it applies")
    _add_solve_options(parser)
    parser.add_argument("--engine", choices=[e.value for e in Engine], default="auto",
                        help="auto: the game's fast kernel where it applies (default); "
                             "kernel: insist on it; reference: the reference search")
    parser.add_argument("--search", choices=["portfolio", "alphabeta", "dfpn"], default=None,
                        help="the Omens kernel's search for a round: portfolio (default): "
                             "alpha-beta and proof-number search (df-pn) by turns; alphabeta; "
                             "dfpn (alpha-beta only where the value is a fraction)")
    _add_budget(parser, f"default: the puzzle's, else {DEFAULT_SOLVE_SECONDS:g}")
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


def _solve_file(path: Path, args: argparse.Namespace, default_seconds: float) -> _Solved:
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
) -> _Solved:
    seats = args.team if args.team is not None else (puzzle.team if puzzle else None)
    if seats is not None:
        # Checked here so that the message names the option or the file's key.
        team_index(state, seats, "--team" if args.team is not None else f"{path}: puzzle.team")
    concept = args.concept or (puzzle.concept if puzzle else None)
    mode = SimultaneousMode(args.simultaneous) if args.simultaneous else (
        puzzle.simultaneous if puzzle else SimultaneousMode.MIXED
    )
    fallback = puzzle.budget if puzzle else Budget()
    budget = _budget(args, Budget(fallback.max_nodes, fallback.max_seconds or default_seconds))
    with _progress(f"solving {path}", budget.max_seconds) as progress:
        try:
            result = solve(state, concept=concept, team=seats, budget=budget,
                           simultaneous=mode, progress=progress,
                           engine=getattr(args, "engine", "auto"),
                           algorithm=getattr(args, "search", None))
        except OmenSolverError as error:
            # A concept that does not fit the position: name the file it came from.
            raise PositionError(f"{path}: {error}") from None
    problems = compare(puzzle, state, result) if puzzle and result.solved else []
    return _Solved(path, state, puzzle, result, problems)


def _solve(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.deal is None):
        raise OmenSolverError("solve: give a position file or --deal SEED --players N (not both)")
    solved = _solve_file(args.file, args, DEFAULT_SOLVE_SECONDS)
    explained = _explained_line(solved) if args.explain and solved.result.solved else None
    if args.json:
        data = solved.to_json()
        if explained is not None:
            data["explained"] = [
                {"move": move, "steps": [{"rule": s.rule, "text": s.text} for s in steps]}
                for move, steps in explained
            ]
        _print_json(data)
    else:
        _show_solved(solved)
        if explained is not None:
            _show_explained(explained)
    ok = solved.result.solved and not solved.problems
    return EXIT_OK if ok else EXIT_FAILED


def _explained_line(solved: _Solved) -> list[tuple[str, list[TraceStep]]]:
    """The principal variation replayed on the game's explaining engine, step by step."""
    state = solved.state
    explain = getattr(state, "explain", None)
    parse = getattr(state, "parse_move", None)
    if explain is None or parse is None:
        raise OmenSolverError(f"{type(state).__name__} cannot explain its moves")
    line = []
    for text in solved.result.principal_variation:
        state, steps = state.explain(state.parse_move(text))  # type: ignore[attr-defined]
        line.append((text, steps))
    return line


def _show_explained(line: list[tuple[str, list[TraceStep]]]) -> None:
    out = _out()
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


def _show_solved(solved: _Solved) -> None:
    out = _out()
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


# -- puzzles check ---------------------------------------------------------------------------


_PUZZLE_COMMANDS: weakref.WeakKeyDictionary[
    argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]
] = weakref.WeakKeyDictionary()


def puzzle_commands(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """The sub-commands of ``puzzles``, so other areas can add theirs (``puzzles generate``)."""
    parser = subparsers.choices.get("puzzles")
    if parser is None or parser not in _PUZZLE_COMMANDS:
        raise LookupError("the puzzles command is registered by omen_solver.cli.search first")
    return _PUZZLE_COMMANDS[parser]


def _register_puzzles(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("puzzles", help="best-play puzzles: check, generate")
    commands = parser.add_subparsers(dest="puzzles_command", metavar="COMMAND", required=True)
    _PUZZLE_COMMANDS[parser] = commands
    check = commands.add_parser(
        "check", help="solve every puzzle under a folder and compare with its stated answer",
        description="Solve every *.toml puzzle under DIR (recursively) and fail on any stated "
                    "answer the solver contradicts. Exit 0: all agree; 1: a contradiction or "
                    "an unknown; 2: a file could not be read.",
    )
    check.add_argument("dir", nargs="?", type=Path, default=Path("puzzles"),
                       help="folder of puzzles (default: puzzles)")
    check.add_argument("--json", action="store_true", help="print JSON")
    _add_solve_options(check)
    _add_budget(check, f"per puzzle; default: the puzzle's, else {DEFAULT_CHECK_SECONDS:g}")
    check.set_defaults(handler=_check)


@dataclass
class _Row:
    path: Path
    status: str
    """``agrees``, ``CONTRADICTED``, ``unknown`` or ``error``."""
    solved: _Solved | None = None
    error: str = ""


def _check(args: argparse.Namespace) -> int:
    root: Path = args.dir
    if not root.is_dir():
        raise PositionError(f"{root}: no such folder of puzzles")
    files = sorted(root.rglob("*.toml"))
    if not files:
        raise PositionError(f"{root}: no puzzle files (*.toml) in this folder or below")
    rows = [_check_one(path, args) for path in files]
    if args.json:
        _print_json([_row_json(row) for row in rows])
    else:
        _show_rows(root, rows)
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
        solved = _solve_file(path, args, DEFAULT_CHECK_SECONDS)
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


def _show_rows(root: Path, rows: list[_Row]) -> None:
    out = _out()
    table = Table("puzzle", "question", "answer", "best first actions", "status", "nodes",
                  "seconds", title=f"puzzles under {escape(str(root))}")
    styles = {"agrees": "green", "CONTRADICTED": "bold red", "unknown": "yellow", "error": "red"}
    for row in rows:
        solved = row.solved
        question = solved.puzzle.question if solved and solved.puzzle else ""
        answer = describe_answer(solved.result) if solved else row.error
        table.add_row(
            escape(str(row.path.relative_to(root))), escape(question), escape(answer),
            escape(", ".join(solved.result.best_actions)) if solved else "",
            f"[{styles[row.status]}]{row.status}[/]",
            f"{solved.result.nodes:,}" if solved else "",
            f"{solved.result.seconds:.2f}" if solved else "",
        )
    out.print(table)
    for row in rows:
        if row.status == "CONTRADICTED" and row.solved is not None:
            out.print(f"[bold red]{escape(str(row.path))}[/]:")
            for problem in row.solved.problems:
                out.print(f"  {escape(problem)}")
    counts = {status: sum(r.status == status for r in rows) for status in styles}
    out.print(f"{len(rows)} puzzles: {counts['agrees']} agree, {counts['CONTRADICTED']} "
              f"contradicted, {counts['unknown']} unknown, {counts['error']} unreadable")
