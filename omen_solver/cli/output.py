"""What the commands print: one console, one JSON style, one progress bar, tables of one line
per item that fit the width.

The width is the terminal's, or ``COLUMNS`` when the output is piped (80 without it): rich
reads both. The columns that name things (a file, a theorem) and the short ones (a status, a
number) are kept whole on the row's first line; the one column marked ``shrink`` takes what is
left and its text, never cut, goes on under itself on the next lines (a saved or piped output
keeps every word of the answer)."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.text import Text

from omen_solver.core.budget import Progress

__all__ = [
    "Cell", "Column", "Row", "console", "plural", "print_json", "print_rows", "print_wrapped",
    "progress",
]


class _Console(Console):
    """rich's console, but a reader that stops reading ends the command as every other
    output does (:data:`omen_solver.cli.EXIT_BROKEN_PIPE`), not with rich's exit status 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def console(stderr: bool = False, soft_wrap: bool = True) -> Console:
    """The console of stdout (or stderr): as wide as the terminal, or ``COLUMNS`` when piped.
    A line is never broken in two (a path, a list of moves: the terminal wraps it, a program
    reading the output finds it whole) unless ``soft_wrap`` is false (paragraphs of prose)."""
    return _Console(highlight=False, stderr=stderr, soft_wrap=soft_wrap)


def heading(line: str, max_seconds: float | None) -> None:
    """The first line of a command with a default budget, on a terminal only (piped output
    stays as it was): what it does and within which budget, and how to change that
    (``max_seconds``: what ``--max-seconds`` gave, ``None`` for the default)."""
    shown = console()
    if shown.is_terminal:
        how = "" if max_seconds is not None else " (the default; --max-seconds S to change)"
        shown.print(escape(line + how), soft_wrap=True)


def print_json(data: Any) -> None:
    """Every command's JSON: indented by 2, keys in the order the command builds them,
    characters as they are (not escaped)."""
    print(json.dumps(data, indent=2, ensure_ascii=False))


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 puzzle``, ``2 puzzles`` (``many`` for an irregular plural)."""
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


@dataclass(frozen=True)
class Column:
    """A column of :func:`print_rows`."""

    header: str
    right: bool = False
    """Aligned right (numbers)."""
    shrink: bool = False
    """Narrowed to what is left of the width, its text wrapped onto the next lines under
    itself when it is longer (at most one column)."""


Cell = str | tuple[str, str]
"""A cell's text, or its text and a rich style (``("agrees", "green")``)."""
Row = Sequence[Cell]

GAP = 2
"""Spaces between two columns."""


def print_rows(out: Console, columns: Sequence[Column], items: Sequence[Row],
               header: bool = True, sizing: Sequence[Row] | None = None) -> None:
    """Print one line per item, the columns aligned, within the console's width; the columns
    as wide as ``sizing`` needs (default: ``items``), so that groups printed one after the
    other line up."""
    texts = [[_text(cell) for cell in item] for item in items]
    sized = texts if sizing is None else [[_text(cell) for cell in item] for item in sizing]
    heads = [column.header for column in columns]
    widths = [max([cell_len(heads[i]) if header or sizing is not None else 0,
                   *(cell_len(t[i][0]) for t in sized)])
              for i in range(len(columns))]
    spare = out.width - sum(widths) - GAP * (len(columns) - 1)
    for i, column in enumerate(columns):
        if column.shrink and spare < 0:
            widths[i] = max(widths[i] + spare, min(widths[i], 10))
    lines = ([[(head, "bold") for head in heads]] if header else []) + texts
    for line in lines:
        parts = [_wrap(text, widths[i]) if column.shrink else [text]
                 for i, (column, (text, _)) in enumerate(zip(columns, line, strict=True))]
        for row in range(max(len(part) for part in parts)):
            shown = Text(no_wrap=True, overflow="ellipsis")
            for i, (column, (_, style)) in enumerate(zip(columns, line, strict=True)):
                cell = parts[i][row] if row < len(parts[i]) else ""
                pad = widths[i] - cell_len(cell)
                if column.right:
                    shown.append(" " * pad)
                shown.append(cell, style=style)
                if i < len(columns) - 1:
                    shown.append(("" if column.right else " " * pad) + " " * GAP)
            shown.rstrip()
            out.print(shown, soft_wrap=True)


def print_wrapped(out: Console, text: str, indent: str = "", hang: str = "    ") -> None:
    """Print a paragraph of prose broken into lines that fit the console's width: the first line
    starts with ``indent``, the next ones with ``indent + hang`` (words are never split, so a
    word longer than the width stands alone on its line)."""
    width = max(out.width, len(indent + hang) + 20)
    lines = textwrap.wrap(text, width=width, initial_indent=indent,
                          subsequent_indent=indent + hang, break_long_words=False,
                          break_on_hyphens=False) or [indent]
    for line in lines:
        out.print(escape(line), soft_wrap=True)


def _text(cell: Cell) -> tuple[str, str]:
    return (cell, "") if isinstance(cell, str) else cell


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, words kept whole (a word longer than the
    width stands alone on its line)."""
    if cell_len(text) <= width:
        return [text]
    return textwrap.wrap(text, width=max(width, 1), break_long_words=False,
                         break_on_hyphens=False) or [text]


@contextmanager
def progress(label: str, seconds: float | None = None) -> Iterator[Progress | None]:
    """A progress bar on stderr while a walk runs, if stderr is a terminal: the time spent
    against the time limit (when there is one), nodes and nodes per second."""
    stderr = Console(stderr=True)
    if not stderr.is_terminal:
        yield None
        return
    columns = [
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[nodes]:,} nodes, {task.fields[rate]:,.0f} nodes/s"),
    ]
    with RichProgress(*columns, console=stderr, transient=True) as bar:
        task = bar.add_task(escape(label), total=seconds, nodes=0, rate=0.0)

        def report(nodes: int, spent: float) -> None:
            rate = nodes / spent if spent > 0 else 0.0
            bar.update(task, completed=spent, nodes=nodes, rate=rate)

        yield report
