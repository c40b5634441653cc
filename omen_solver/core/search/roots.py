"""What the solvers say about a simultaneous node where both sides act, shared so that the
table-driven solver and the naive reference report it the same way.

* ``best_actions``: with a saddle point, every row (the asked side's joint choice) that
  guarantees the value in pure strategies; without one, the support of the optimal mixed
  strategy that the exact simplex finds (reported in full in ``root_matrix``).
* The principal variation goes through the node only with a pure answer: the first row that
  guarantees the pure value and the first column that holds it there (``LOWER`` mode and
  saddles), or the first column then the first row (``UPPER`` mode). Without a saddle in
  ``MIXED`` mode it stops there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from omen_solver.core.search.matrix import MatrixSolution
from omen_solver.core.search.result import MatrixReport, SimultaneousMode

__all__ = ["matrix_best_rows", "matrix_report", "saddle_cell"]


def matrix_report(
    entries: Sequence[Sequence[Fraction]],
    solution: MatrixSolution,
    row_labels: Sequence[str],
    column_labels: Sequence[str],
) -> MatrixReport:
    return MatrixReport(
        tuple(row_labels),
        tuple(column_labels),
        tuple(tuple(row) for row in entries),
        solution.value,
        solution.lower,
        solution.upper,
        solution.row_strategy,
        solution.column_strategy,
    )


def matrix_best_rows(
    entries: Sequence[Sequence[Fraction]], solution: MatrixSolution, mode: SimultaneousMode
) -> list[int]:
    """The rows reported as the asked side's best choices (see the module docstring)."""
    if mode is SimultaneousMode.MIXED and not solution.has_saddle:
        return [i for i, p in enumerate(solution.row_strategy) if p > 0]
    if mode is SimultaneousMode.UPPER:
        # The column side commits first: rows are judged against the column it picks.
        column = _first_column_holding(entries, solution.upper)
        return [i for i, row in enumerate(entries) if row[column] == solution.upper]
    return [i for i, row in enumerate(entries) if min(row) == solution.lower]


def _first_column_holding(entries: Sequence[Sequence[Fraction]], value: Fraction) -> int:
    columns = list(zip(*entries, strict=True))
    return next(j for j, column in enumerate(columns) if max(column) == value)


def saddle_cell(
    entries: Sequence[Sequence[Fraction]], solution: MatrixSolution, mode: SimultaneousMode
) -> tuple[int, int] | None:
    """The cell the principal variation goes through, or ``None`` when play must mix."""
    if mode is SimultaneousMode.UPPER:
        column = _first_column_holding(entries, solution.upper)
        row = next(i for i, r in enumerate(entries) if r[column] == solution.upper)
        return row, column
    if mode is SimultaneousMode.MIXED and not solution.has_saddle:
        return None
    row = next(i for i, r in enumerate(entries) if min(r) == solution.lower)
    column = next(j for j, x in enumerate(entries[row]) if x == solution.lower)
    return row, column


def labels(items: Sequence[Sequence[Any]], text: Callable[[Any], str]) -> list[str]:
    return [" & ".join(text(action) for action in item) for item in items]
