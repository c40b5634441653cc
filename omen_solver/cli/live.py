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

__all__ = [
    "ESTIMATE_NOTE",
    "NODES_NOTE",
    "LiveMoves",
    "bounds_text",
    "estimate_text",
    "live_moves",
    "moves_table",
    "value_text",
]

ESTIMATE_NOTE: Final = (
    "estimate: the asked team's win rate in the evaluation's playouts through the move [its "
    "95 % interval], the playouts, and the line the evaluation expects after the move: a "
    "guess that orders the moves nothing proved, never a proof (their status stays unknown)"
)
NODES_NOTE: Final = (
    "proof nodes: what the exact searches spent on the move, by turns that double, the moves "
    "with the smallest proof or disproof number first; moves that had the same turns show the "
    "same count"
)
LINE_SHOWN: Final = 4
"""Actions of an expected line shown in the table."""

REFRESH: Final = 0.25
"""Seconds between two redraws of the live table at most."""


def value_text(value: Fraction | None) -> str:
    return "-" if value is None else str(value)


def bounds_text(lower: Fraction | None, upper: Fraction | None) -> str:
    return f"[{'?' if lower is None else lower}, {'?' if upper is None else upper}]"


def estimate_text(move: MoveAnswer, long: bool = False) -> str:
    """``0.41 [0.37, 0.45]`` for a move with an estimate (``long``: ``0.41, 95 % interval
    [0.37, 0.45], 618 playouts``), else ``-``."""
    found = move.estimate
    if found is None or move.settled:
        return "-"
    if long:
        return (f"{found.win_rate:.2f}, 95 % interval [{found.low:.2f}, {found.high:.2f}], "
                f"{found.playouts:,} playouts")
    return f"{found.win_rate:.2f} [{found.low:.2f}, {found.high:.2f}]"


def playouts_text(move: MoveAnswer) -> str:
    """The evaluation's playouts through a move with an estimate, else ``-``."""
    found = move.estimate
    return "-" if found is None or move.settled else f"{found.playouts:,}"


def moves_table(moves: Sequence[MoveAnswer], title: str | None = None) -> Table:
    """One row per move: its status for the asked team, its value or bounds, the exact
    searches' nodes on it ("proof nodes"; a move leading to the same position as an earlier
    one: "as" that move, searched there); where an evaluation ran, the estimate of each move it
    did not settle, its playouts apart, and the line it expects (the first actions after the
    move)."""
    table = Table(title=title, title_justify="left", box=None, pad_edge=False,
                  show_edge=False)
    estimated = any(move.estimate is not None and not move.settled for move in moves)
    columns = [("action", "left"), ("status", "left"), ("value", "left"), ("bounds", "left"),
               ("proof nodes", "right")]
    if estimated:
        columns += [("estimate", "left"), ("playouts", "right"), ("expected line", "left")]
    for name, justify in columns:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    styles = {"won": "green", "lost": "red", "exact": "cyan", "unknown": "yellow"}
    for move in moves:
        status = move.status.value
        row: list[str | Text] = [
            escape(move.action), Text(status, style=styles[status]), value_text(move.value),
            bounds_text(move.lower, move.upper),
            f"{move.nodes:,}" if move.same_as is None else f"as {escape(move.same_as)}"]
        if estimated:
            line = move.estimate.line[1:] if move.estimate and not move.settled else ()
            shown = " ".join(line[:LINE_SHOWN]) + (" ..." if len(line) > LINE_SHOWN else "")
            row += [estimate_text(move), playouts_text(move), escape(shown) or "-"]
        table.add_row(*row)
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
