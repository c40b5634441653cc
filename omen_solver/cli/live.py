"""The table of a solve's root moves: printed with the answer, and shown live on a terminal
while the search runs (on stderr, replaced by the answer when it ends)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from time import monotonic
from typing import Final

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from omen_solver.core.budget import Progress
from omen_solver.core.search.moves import MoveAnswer, MovesReport

__all__ = ["LiveMoves", "bounds_text", "live_moves", "moves_table", "value_text"]

REFRESH: Final = 0.25
"""Seconds between two redraws of the live table at most."""


def value_text(value: Fraction | None) -> str:
    return "-" if value is None else str(value)


def bounds_text(lower: Fraction | None, upper: Fraction | None) -> str:
    return f"[{'?' if lower is None else lower}, {'?' if upper is None else upper}]"


def moves_table(moves: Sequence[MoveAnswer], title: str | None = None) -> Table:
    """One row per move: its status for the asked team, its value or bounds, its nodes (a
    move leading to the same position as an earlier one: "as" that move, searched there)."""
    table = Table(title=title, title_justify="left", box=None, pad_edge=False,
                  show_edge=False)
    for name, justify in (("action", "left"), ("status", "left"), ("value", "left"),
                          ("bounds", "left"), ("nodes", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    styles = {"won": "green", "lost": "red", "exact": "cyan", "unknown": "yellow"}
    for move in moves:
        status = move.status.value
        table.add_row(escape(move.action), Text(status, style=styles[status]),
                      value_text(move.value), bounds_text(move.lower, move.upper),
                      f"{move.nodes:,}" if move.same_as is None
                      else f"as {escape(move.same_as)}")
    return table


class LiveMoves:
    """The live view of a solve on stderr: a line of progress and the moves' table, redrawn
    at most every :data:`REFRESH` seconds. Keeps the latest snapshot (:attr:`last`), which
    an interrupted solve prints."""

    def __init__(self, label: str, seconds: float | None, live: Live | None) -> None:
        self.label = label
        self.seconds = seconds
        self.live = live
        self.last: MovesReport | None = None
        self.nodes = 0
        self.spent = 0.0
        self._drawn = 0.0

    def progress(self, nodes: int, spent: float) -> None:
        self.nodes, self.spent = nodes, spent
        self._draw()

    def report(self, snapshot: MovesReport) -> None:
        self.last = snapshot
        self._draw()

    def _draw(self, force: bool = False) -> None:
        if self.live is None:
            return
        now = monotonic()
        if not force and now - self._drawn < REFRESH:
            return
        self._drawn = now
        nodes = max(self.nodes, self.last.nodes if self.last else 0)
        spent = max(self.spent, self.last.seconds if self.last else 0.0)
        limit = f" of {self.seconds:g} s" if self.seconds else ""
        rate = nodes / spent if spent > 0 else 0.0
        line = f"{self.label}: {spent:.1f} s{limit}, {nodes:,} nodes, {rate:,.0f} nodes/s"
        parts: list[Text | Table] = [Text(line)]
        if self.last is not None:
            known = bounds_text(self.last.lower, self.last.upper)
            value = "" if self.last.value is None else f" = {self.last.value}"
            parts.append(Text(f"value{value} in {known}; turns of {self.last.turn:,} nodes"))
            parts.append(moves_table(self.last.moves))
        self.live.update(Group(*parts), refresh=True)


@contextmanager
def live_moves(label: str, seconds: float | None,
               enabled: bool = True) -> Iterator[tuple[LiveMoves, Progress | None]]:
    """A :class:`LiveMoves` drawing on stderr when it is a terminal (and ``enabled``), and the
    progress callback to give the search (``None`` when nothing is drawn)."""
    stderr = Console(stderr=True)
    if not enabled or not stderr.is_terminal:
        yield LiveMoves(label, seconds, None), None
        return
    with Live(console=stderr, transient=True, auto_refresh=False) as live:
        view = LiveMoves(label, seconds, live)
        yield view, view.progress
