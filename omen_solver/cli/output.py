"""What the commands print: one console, one JSON style, one progress bar."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress

from omen_solver.core.budget import Progress

__all__ = ["console", "print_json", "progress"]


def console() -> Console:
    """The console of stdout (piped output, read by programs and people alike, keeps long
    cells whole)."""
    shown = Console(highlight=False)
    if not shown.is_terminal:
        shown = Console(highlight=False, width=200)
    return shown


def heading(line: str, args: Any) -> None:
    """The first line of a command with a default budget, on a terminal only (piped output
    stays as it was): what it does and within which budget, and how to change that."""
    shown = console()
    if shown.is_terminal:
        how = "" if getattr(args, "max_seconds", None) is not None else (
            " (the default; --max-seconds S to change)")
        shown.print(escape(line + how), soft_wrap=True)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


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
