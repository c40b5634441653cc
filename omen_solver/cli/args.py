"""Argument types and options shared by the sub-commands: numbers are read as a person writes
them, and every search command takes its budget the same way."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable
from pathlib import Path

from omen_solver.core.budget import MAX_NODES, MIB, Budget
from omen_solver.core.search import Concept, SimultaneousMode
from omen_solver.errors import OptionError, shown

__all__ = [
    "DEFAULT_WALK_MEMORY_MIB",
    "MAX_DIGITS",
    "MAX_MEMORY_BYTES",
    "MIB",
    "add_budget",
    "add_max_memory",
    "add_solve_options",
    "add_stop",
    "add_verbosity",
    "add_wait",
    "budget_json",
    "budget_of",
    "check_verbosity",
    "count_between",
    "describe_stop",
    "mebibytes",
    "memory_bytes",
    "node_count",
    "position",
    "refuse_given",
    "seats",
    "seconds",
    "whole_number",
]

MAX_DIGITS = 1000
"""Digits a number may have: past that, int() would spend its time on input no one means
(Python's int() refuses numbers of over 4,300 digits; a depth of 10**30 plies is read, and the
budget answers for it)."""


POSITION_HELP = "a position file (TOML), or a position's one-line text in quotes"
"""How every command that takes a position describes its argument (docs/position-text.md)."""


def position(text: str) -> Path | str:
    """A position argument: a position's one-line text (``"omens 7,15,30/..."``, or a state's
    ``repr`` pasted whole) as text, else the path of a position file."""
    from omen_solver.core.positions import position_text

    found = position_text(text)
    return Path(text) if found is None else found


def whole_number(text: str) -> int:
    """A whole number 0 or more, in ASCII digits only: int() would also read full-width digits
    such as "５"."""
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()) or len(stripped) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number 0 or more")
    return int(stripped)


MAX_SECONDS = 10**9
"""The most seconds a time limit may be (about 31 years): the system's clocks and waits
overflow not far above it (a wait of 1e300 s fails), and no one means more."""


def seconds(text: str) -> float:
    """A positive, finite number of seconds, at most :data:`MAX_SECONDS` (``nan``, ``inf``
    and ``0`` are refused: a wait on an engine or a worker must end)."""
    stripped = text.strip()
    try:
        value = float(stripped) if stripped.isascii() and len(stripped) <= MAX_DIGITS else (
            math.nan)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a positive number of seconds")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{shown(text)}: at most {MAX_SECONDS:,} seconds (about 31 years)")
    return value


def node_count(text: str) -> int:
    """A node limit: a whole number from 1 to ``MAX_NODES`` (10**18: the compiled kernel
    counts nodes in 64 bits)."""
    value = whole_number(text)
    if not 1 <= value <= MAX_NODES:
        raise argparse.ArgumentTypeError(
            f"{shown(text)}: a node limit is a whole number from 1 to {MAX_NODES:,} (leave the "
            "option out for none)")
    return value


def count_between(least: int, most: int, what: str) -> Callable[[str], int]:
    """An argument type: a whole number from ``least`` to ``most`` (``what`` names it in the
    message)."""

    def parse(text: str) -> int:
        value = whole_number(text)
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(
                f"{shown(text)}: {what} is a whole number from {least:,} to {most:,}")
        return value

    return parse


def seats(text: str) -> tuple[int, ...]:
    """Seats as a person numbers them, from 1: ``1,3``."""
    parts = text.replace(" ", "").split(",")
    if not all(part.isascii() and part.isdigit() and len(part) <= MAX_DIGITS for part in parts):
        raise argparse.ArgumentTypeError(f"{shown(text)}: write seats such as 1,3")
    found = tuple(int(part) for part in parts)
    if min(found) < 1:
        raise argparse.ArgumentTypeError(f"{shown(text)}: seats are numbered from 1")
    return found


def add_budget(parser: argparse.ArgumentParser, seconds_default: str) -> None:
    """``--max-nodes`` and ``--max-seconds``: past either the answer is "unknown"."""
    parser.add_argument("--max-nodes", type=node_count, metavar="N",
                        help="stop after N nodes and answer 'unknown'")
    parser.add_argument("--max-seconds", type=seconds, metavar="S",
                        help=f"stop after S seconds and answer 'unknown' ({seconds_default})")


def budget_of(args: argparse.Namespace, fallback: Budget | None = None) -> Budget:
    """The budget of ``--max-nodes`` and ``--max-seconds``, each else the fallback's."""
    fallback = fallback or Budget()
    nodes = args.max_nodes if args.max_nodes is not None else fallback.max_nodes
    limit = args.max_seconds if args.max_seconds is not None else fallback.max_seconds
    return Budget(nodes, limit)


DEFAULT_WALK_MEMORY_MIB = 2048
"""The memory ``perft`` and ``graph`` may hold by default (MiB): past it they stop."""

MEMORY_UNITS = {"": MIB, "K": 2**10, "M": MIB, "G": 2**30, "T": 2**40}
"""Every ``--max-memory`` reads a size the same way: ``2G``, ``512M``, ``1.5GiB``, ``800MB``
(binary units), a bare number being MiB (docs/search.md, "Budgets")."""

MAX_MEMORY_BYTES = 1 << 50
"""The most memory any ``--max-memory`` may give (1,024 TiB: the compiled kernel counts bytes
in 64 bits, and no machine has more)."""


def memory_bytes(text: str) -> int:
    """A memory size in bytes, written ``2G``, ``512M``, ``1.5GiB`` or ``800`` (MiB)."""
    stripped = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = stripped[-1:] if stripped[-1:] in MEMORY_UNITS else ""
    number = stripped[: len(stripped) - len(unit)].strip()
    try:
        value = float(number) if (number.isascii() and len(number) <= 30
                                  and number.replace(".", "", 1).isdigit()) else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not an amount of memory (write e.g. 2G, 512M; a bare number is "
            "MiB)")
    size = int(value * MEMORY_UNITS[unit])
    if size > MAX_MEMORY_BYTES:
        raise argparse.ArgumentTypeError(f"{shown(text)}: at most {MAX_MEMORY_BYTES >> 40:,} TiB")
    return size


def mebibytes(text: str) -> int:
    """A memory size (:func:`memory_bytes`) in whole MiB, at least 1."""
    size = memory_bytes(text)
    if size < MIB:
        raise argparse.ArgumentTypeError(f"{shown(text)}: give at least 1 MiB")
    return size // MIB


def add_max_memory(parser: argparse.ArgumentParser, then: str) -> None:
    """``--max-memory SIZE``: the resident memory a walk that keeps what it saw may reach."""
    parser.add_argument("--max-memory", type=mebibytes, metavar="SIZE",
                        default=DEFAULT_WALK_MEMORY_MIB,
                        help=f"stop once the process holds SIZE (e.g. 2G, 512M; a bare number "
                             f"is MiB) and {then} (default {DEFAULT_WALK_MEMORY_MIB // 1024}G; "
                             "under ulimit -v it also stops short of that limit)")


def add_wait(parser: argparse.ArgumentParser, folder: str) -> None:
    """``--wait``: one run writes into a folder at a time (its lock, ``FOLDER/.lock``); another
    stops at once (exit 2, naming the holder) unless it waits."""
    parser.add_argument("--wait", action="store_true",
                        help=f"if another run is writing into the same {folder} folder, wait for "
                             "it to end (default: stop at once, exit 2, naming it)")
def budget_json(budget: Budget) -> dict[str, object]:
    """The budget a search ran under, for the JSON of its answer."""
    return {"max_nodes": budget.max_nodes, "max_seconds": budget.max_seconds}


def add_stop(parser: argparse.ArgumentParser) -> None:
    """``--depth`` and ``--to``: where a walk of the tree stops."""
    parser.add_argument("--depth", type=whole_number, metavar="N", help="cut after N plies")
    parser.add_argument(
        "--to", metavar="POINT",
        help="cut at a stopping point the game names, e.g. bout or round",
    )


def add_verbosity(parser: argparse.ArgumentParser, verbose: str, quiet: str) -> None:
    """``-v`` (one line per item, and ``verbose`` under each) and ``-q`` (``quiet``)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-v", "--verbose", action="store_true", help=f"also {verbose}")
    group.add_argument("-q", "--quiet", action="store_true", help=quiet)


def check_verbosity(args: argparse.Namespace) -> None:
    """``-v`` and ``-q`` shape the text output: with ``--json``, which prints everything,
    they are refused."""
    if getattr(args, "json", False):
        for flag in ("verbose", "quiet"):
            if getattr(args, flag, False):
                raise OptionError(f"--{flag} shapes the text output; --json prints everything")


def refuse_given(args: argparse.Namespace, dests: Iterable[str], reason: str) -> None:
    """Refuse the options among ``dests`` that were given (not left at ``None``, ``False`` or
    empty), naming the first: ``--seed does not apply with --imperfect``."""
    for dest in dests:
        if getattr(args, dest, None) not in (None, False, [], ()):
            raise OptionError(f"--{dest.replace('_', '-')} {reason}")


def describe_stop(depth: int | None, to: str | None) -> str:
    """``depth 2 and to bout``, or ``to the end``: where a walk stops."""
    parts = [f"depth {depth}" if depth is not None else "", f"to {to}" if to else ""]
    return " and ".join(part for part in parts if part) or "to the end"


def add_solve_options(parser: argparse.ArgumentParser) -> None:
    """The question asked of a solver: concept, team, simultaneous nodes."""
    parser.add_argument("--concept", choices=[c.value for c in Concept],
                        help="solution concept (default: minimax with two teams; required "
                             "with three or more)")
    parser.add_argument("--team", type=seats, metavar="SEATS",
                        help="the team asked about (paranoid: the team against all others), "
                             "as its seats, e.g. 1,3 (default: the team to move)")
    parser.add_argument("--simultaneous", choices=[m.value for m in SimultaneousMode],
                        help="value of matrix games at simultaneous nodes (default: mixed)")
