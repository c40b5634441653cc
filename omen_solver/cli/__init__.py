"""The ``omen-solver`` command line.

Each command group is one module of this package with a ``register(subparsers)`` function;
:data:`COMMANDS` lists every command with the function that imports its group's module and
registers it. This module only assembles them and turns input errors into a message on stderr
and exit status 2.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import signal
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from omen_solver import OMEN, OMENS, __version__
from omen_solver.cli.signals import Stop, stop_on_signals
from omen_solver.core.game import Feature, games
from omen_solver.core.suggest import did_you_mean
from omen_solver.errors import OmenSolverError, OptionError, StaleBuildWarning, one_line

__all__ = [
    "COMMANDS",
    "COMMAND_GROUPS",
    "EXIT_BAD_INPUT",
    "EXIT_BROKEN_PIPE",
    "EXIT_CODES",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "GAME_COMMANDS",
    "Command",
    "build_parser",
    "main",
    "report_error",
]

EXIT_OK = 0
"""Success: the command did what was asked (and a stated answer, if any, agrees)."""
EXIT_FAILED = 1
"""A negative or unknown answer: a check failed (a puzzle contradicted, a theorem not proved)
or a search ran out of budget and answers "unknown"."""
EXIT_BAD_INPUT = 2
"""The input was bad: the message on stderr says which file, key and what is wrong."""
EXIT_INTERRUPTED = 130
"""Interrupted (Ctrl-C): nothing is reported as a result."""

EXIT_TERMINATED = 143
"""Terminated (SIGTERM, as ``kill`` sends): stopped as on Ctrl-C; nothing is reported as a
result."""

EXIT_BROKEN_PIPE = 141
"""The reader of the output stopped reading (a pipe into ``head``): the command stops quietly,
with the status of a command ended by SIGPIPE, as shells report it (``yes | head`` gives
141): its output was not all read."""

EXIT_CODES = (
    (EXIT_OK, "success"),
    (EXIT_FAILED, "a negative or unknown answer (a check failed, a budget ran out)"),
    (EXIT_BAD_INPUT, "bad input: one line on stderr names the file, key or move"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
    (EXIT_TERMINATED, "terminated (SIGTERM)"),
    (EXIT_BROKEN_PIPE, "the output's reader stopped reading (a pipe into head)"),
)

Register = Callable[[Any], None]
"""Adds a command group's commands to the top-level ``subparsers``."""


# Each group's module is imported when one of its commands runs, not before: importing them
# all would load every engine (and z3, Dask, rich) for ``--help`` and ``--version``. The
# imports are plain ones, inside these functions, so that the type checker, the import-cycle
# test and a reader follow them as any other import (docs/architecture.md, "The command line").


def _omens(subparsers: Any) -> None:
    from omen_solver.cli import omens
    omens.register(subparsers)


def _perft(subparsers: Any) -> None:
    from omen_solver.cli import perft
    perft.register(subparsers)


def _graph(subparsers: Any) -> None:
    from omen_solver.cli import graph
    graph.register(subparsers)


def _solve(subparsers: Any) -> None:
    from omen_solver.cli import solve
    solve.register(subparsers)


def _puzzles(subparsers: Any) -> None:
    from omen_solver.cli import puzzles
    puzzles.register(subparsers)


def _omen(subparsers: Any) -> None:
    from omen_solver.cli import omen
    omen.register(subparsers)


def _prove(subparsers: Any) -> None:
    from omen_solver.cli import prove
    prove.register(subparsers)


def _survey(subparsers: Any) -> None:
    from omen_solver.cli import survey
    survey.register(subparsers)


def _advise(subparsers: Any) -> None:
    from omen_solver.cli import advise
    advise.register(subparsers)


def _vectors(subparsers: Any) -> None:
    from omen_solver.cli import vectors
    vectors.register(subparsers)


def _serve(subparsers: Any) -> None:
    from omen_solver.cli import serve
    serve.register(subparsers)


@dataclass(frozen=True)
class Command:
    """A top-level command: its name, the function that registers its group, its line in
    ``--help``."""

    name: str
    register: Register
    help: str


GAME_COMMANDS: Feature[Command] = Feature("commands")
"""Each game's own command group, registered on the game (``--help`` lists them first, in the
order the games are registered); every other command works on any game."""

GAME_COMMANDS.register(OMENS, Command(
    "omens", _omens, "Omens (Présages): legal actions, explained play, rule options, catalogues"))
GAME_COMMANDS.register(OMEN, Command(
    "omen", _omen, "Omen: legal actions, explained play, profiles, cards"))

COMMANDS: tuple[Command, ...] = (
    *(GAME_COMMANDS.of(game) for game in GAME_COMMANDS.games()),
    Command("perft", _perft, "count the legal action sequences from a position (any game)"),
    Command("graph", _graph, "export the action tree or state graph (GraphML, DOT, SVG, PNG)"),
    Command("solve", _solve, "solve a position or puzzle exactly, every hand open (any game)"),
    Command("puzzles", _puzzles, "best-play puzzles: check, generate"),
    Command("prove", _prove, "prove the rule theorems of proofs/ (z3 and bounded enumeration)"),
    Command("witnesses", _prove,
            "find where each rule option's settings play differently (position files)"),
    Command("survey", _survey,
            "solve the positions seeded Omens games reach, and aggregate (on Dask)"),
    Command("balance", _survey,
            "play seeded whole Omens games by self-play and count who wins (on Dask)"),
    Command("advise", _advise,
            "what to play when only your own hand is known (Monte Carlo over deals)"),
    Command("vectors", _vectors,
            "conformance vectors for other engines: export them, check an engine"),
    Command("serve", _serve,
            "the analysis board in the browser: play, edit, solve and puzzle (docs/web.md)"),
)
"""Every top-level command, in the order of ``--help``. Each group's ``register`` adds its
commands and nothing else's; it is called only when one of its commands runs (or for the full
parser), so ``--help`` and ``--version`` start without loading the engines."""

COMMAND_GROUPS: tuple[Register, ...] = tuple(dict.fromkeys(c.register for c in COMMANDS))
"""The command groups, each once (:data:`COMMANDS` says which commands each one adds)."""

Handler = Callable[[argparse.Namespace], int]


_INVALID_CHOICE = re.compile(r"invalid choice: '(.*)' \(choose from (.*)\)$")


class _Parser(argparse.ArgumentParser):
    """argparse with one line on stderr for a usage error, like every other bad input, and the
    closest known names for a misspelt command, choice or option."""

    def error(self, message: str) -> NoReturn:
        report_error(f"{_with_suggestion(message)} (see '{self.prog} --help')", prog=self.prog)
        self.exit(EXIT_BAD_INPUT)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        words = sys.argv[1:] if args is None else list(args)
        parsed, extras = self.parse_known_args(position_after_moves(words), namespace)
        if extras:
            leaf: argparse.ArgumentParser = getattr(parsed, "command_parser", self)
            flags = [f for a in leaf._actions for f in a.option_strings if f.startswith("--")]
            unknown = next((word for word in extras if word.startswith("-")), "")
            hint = did_you_mean(unknown.partition("=")[0], flags) if unknown else ""
            leaf.error(f"unrecognized arguments: {' '.join(extras)}" + (f"; {hint}" if hint
                                                                           else ""))
        return parsed


def position_after_moves(words: Sequence[str]) -> list[str]:
    """The command line with a position written after ``--moves`` taken as the position:
    ``solve --moves 1:13 FILE`` is ``solve FILE --moves 1:13``. ``--moves`` takes every word up
    to the next option; its last word is the position when it names a file or is a
    position's text (``omens ...``), which no move is."""
    found = list(words)
    for at, word in enumerate(words):
        if word != "--moves":
            continue
        end = at + 1
        while end < len(words) and not words[end].startswith("-"):
            end += 1
        last = words[end - 1]
        if end - at > 2 and _names_a_position(last):
            found = [*words[:at], last, *words[at:end - 1], *words[end:]]
            break
    return found


def _names_a_position(word: str) -> bool:
    if word.split(" ", 1)[0] in {game.name for game in games()}:
        return True
    try:
        return os.path.isfile(word)
    except (OSError, ValueError):
        return False


def _with_suggestion(message: str) -> str:
    """argparse's "invalid choice" with the closest choices."""
    found = _INVALID_CHOICE.search(message)
    if found is None:
        return message
    choices = [choice.strip().strip("'") for choice in found.group(2).split(",")]
    hint = did_you_mean(found.group(1), choices)
    return f"{message}; {hint}" if hint else message


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The top-level sub-commands: each must be listed in :data:`COMMANDS`, whose line it
    takes for ``--help``."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        listed = {command.name: command for command in COMMANDS}.get(name)
        if listed is None:
            raise LookupError(f"command {name!r} is not listed in omen_solver.cli.COMMANDS")
        kwargs.setdefault("help", listed.help)
        parser: argparse.ArgumentParser = super().add_parser(name, **kwargs)
        return parser


def build_parser(command: str | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """The parser of every command; or, ``lazy``, of ``command``'s group alone (of none if it
    is None), the other commands listed by name and help line only."""
    parser = _Parser(
        prog="omen-solver",
        description=(
            "Verify the rules of Omens (Présages) and Omen, explain how a bout or a turn "
            "resolves, enumerate action trees, solve positions exactly and prove rule "
            "interactions."
        ),
        epilog="exit status: "
        + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES)
        + ".",
    )
    parser.add_argument("--version", action="version", version=f"omen-solver {__version__}")
    parser.register("action", "parsers", _Commands)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    wanted = {c.register for c in COMMANDS if not lazy or c.name == command}
    loaded: set[Register] = set()
    for listed in COMMANDS:
        if listed.register in wanted:
            if listed.register not in loaded:
                listed.register(subparsers)
                loaded.add(listed.register)
        else:
            subparsers.add_parser(listed.name, add_help=False)
    _add_epilog(parser, parser.epilog or "")
    _mark_leaves(parser)
    return parser


def _mark_leaves(parser: argparse.ArgumentParser) -> None:
    """Each command's parser is in its namespace (``command_parser``), so that an unknown
    option is compared with that command's options."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                command.set_defaults(command_parser=command)
                _mark_leaves(command)


def _add_epilog(parser: argparse.ArgumentParser, epilog: str) -> None:
    """Every command's ``--help`` ends with the exit statuses (unless it states its own)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if not command.epilog:
                    command.epilog = epilog
                _add_epilog(command, epilog)


def _command_in(argv: Sequence[str]) -> str | None:
    """The command named on a command line (the first word that is not an option)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command line (``sys.argv`` by default) and return its exit status."""
    _tolerant_output()
    try:
        with _plain_warnings():
            return _main(sys.argv[1:] if argv is None else list(argv))
    except BrokenPipeError:
        # The reader stopped reading (``omen-solver omens cards | head``): say nothing more.
        # Output still buffered would fail again at exit; it goes nowhere instead.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE


@contextmanager
def _plain_warnings() -> Iterator[None]:
    """While a command runs, the warnings meant for its user (a stale compiled kernel) are one
    line, ``omen-solver: warning: ...``, without Python's file, line and source; every other
    warning is shown as Python shows it."""
    shown = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if issubclass(category, StaleBuildWarning):
            print(f"omen-solver: warning: {message}", file=sys.stderr if file is None else file)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = shown


def _tolerant_output() -> None:
    """Text the output's encoding cannot write (``PYTHONIOENCODING=ascii``) is written with
    replacement characters instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def _main(words: list[str]) -> int:
    parser = build_parser(_command_in(words), lazy=True)
    if not words:
        parser.print_help()
        return EXIT_OK
    args = parser.parse_args(words)
    handler: Handler = args.handler
    from omen_solver.cli.args import check_verbosity  # with the command: not for --help
    stop = Stop()
    raised = False
    try:
        with stop_on_signals() as stop:
            check_verbosity(args)
            status = handler(args)
    except KeyboardInterrupt:
        raised = True
    except BrokenPipeError:
        raise
    except (OmenSolverError, OptionError, OSError) as error:
        if stop.signal is None:
            report_error(_where(error) if isinstance(error, OSError) else error)
            return EXIT_BAD_INPUT
        raised = True
    except Exception:
        if stop.signal is None:
            raise
        raised = True  # raised by the interrupt on its way out (see signals.py)
    if raised:
        _forget_interrupt()
    if stop.signal == signal.SIGTERM:
        print("omen-solver: terminated (SIGTERM)", file=sys.stderr)
        return EXIT_TERMINATED
    if raised or stop.signal is not None:
        if raised:  # else the command said itself what it kept (the survey)
            print("omen-solver: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status


def _forget_interrupt() -> None:
    """Let the interpreter exit with our status after an interrupt it saw pass.

    CPython notes a :class:`KeyboardInterrupt` that leaves code run by ``exec`` of a string
    (dataclasses and named tuples are made that way while modules load) and, at exit, kills
    itself with SIGINT (status -2) even though the interrupt was caught; running such code
    once more, without an interrupt, clears that note."""
    exec("None")


def _where(error: OSError) -> str:
    where = f"{error.filename}: " if error.filename else ""
    return f"{where}{error.strerror or error}"


def report_error(error: object, prog: str = "omen-solver") -> None:
    """One line on stderr (see :func:`omen_solver.errors.one_line`)."""
    print(f"{prog}: error: {one_line(error)}", file=sys.stderr)
