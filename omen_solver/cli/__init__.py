"""The ``omen-solver`` command line.

Each command group is one module of this package with a ``register(subparsers)`` function
(:data:`COMMAND_MODULES`); this module only assembles them and turns input errors into
a message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from omen_solver import __version__
from omen_solver.errors import OmenSolverError, OptionError, one_line

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
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

EXIT_CODES = (
    (EXIT_OK, "success"),
    (EXIT_FAILED, "a negative or unknown answer (a check failed, a budget ran out)"),
    (EXIT_BAD_INPUT, "bad input: one line on stderr names the file, key or move"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
)

COMMAND_MODULES: tuple[str, ...] = (
    "omen_solver.cli.omens",
    "omen_solver.cli.perft",
    "omen_solver.cli.graph",
    "omen_solver.cli.solve",
    "omen_solver.cli.puzzles",
    "omen_solver.cli.omen",
    "omen_solver.cli.prove",
    "omen_solver.cli.survey",
    "omen_solver.cli.advise",
    "omen_solver.cli.vectors",
    "omen_solver.cli.serve",
)
"""One module per command group, each with a ``register(subparsers)`` that adds its commands
and nothing else's; ``--help`` lists the commands in this order."""

Handler = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """argparse with one line on stderr for a usage error, like every other bad input."""

    def error(self, message: str) -> NoReturn:
        report_error(f"{message} (see '{self.prog} --help')", prog=self.prog)
        self.exit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
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
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(subparsers)
    _add_epilog(parser, parser.epilog or "")
    return parser


def _add_epilog(parser: argparse.ArgumentParser, epilog: str) -> None:
    """Every command's ``--help`` ends with the exit statuses (unless it states its own)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if not command.epilog:
                    command.epilog = epilog
                _add_epilog(command, epilog)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except (OmenSolverError, OptionError) as error:
        report_error(error)
        return EXIT_BAD_INPUT
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        report_error(f"{where}{error.strerror or error}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("omen-solver: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def report_error(error: object, prog: str = "omen-solver") -> None:
    """One line on stderr (see :func:`omen_solver.errors.one_line`)."""
    print(f"{prog}: error: {one_line(error)}", file=sys.stderr)
