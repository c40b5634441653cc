"""The ``omen-solver`` command line.

Each area of the library contributes its sub-commands through a ``register(subparsers)``
function in its own ``cli`` module; this module only assembles them and turns input errors into
a message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from omen_solver import __version__
from omen_solver.errors import OmenSolverError, OptionError

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "build_parser", "main"]

EXIT_FAILED = 1
"""A check ran and failed (a puzzle contradicted, a theorem not proved)."""
EXIT_BAD_INPUT = 2
"""The input was bad: the message on stderr says which file, key and what is wrong."""

COMMAND_MODULES: tuple[str, ...] = (
    "omen_solver.omens.cli",
    "omen_solver.search_cli",
    "omen_solver.omen.cli",
    "omen_solver.prove_cli",
    "omen_solver.vectors.cli",
)

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="omen-solver",
        description=(
            "Verify the rules of Omens (Présages) and Omen, explain how a bout or a turn "
            "resolves, enumerate action trees, solve positions exactly and prove rule "
            "interactions."
        ),
    )
    parser.add_argument("--version", action="version", version=f"omen-solver {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except (OmenSolverError, OptionError) as error:
        print(f"omen-solver: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        print(f"omen-solver: error: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("omen-solver: interrupted", file=sys.stderr)
        return 130
