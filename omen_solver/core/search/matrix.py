"""Exact solution of a two-sided zero-sum matrix game over :class:`~fractions.Fraction`.

A simultaneous node where both sides choose at once is a matrix game: the row side maximises the
entry, the column side minimises it, neither sees the other's choice. Three numbers describe it:

* the **pure lower value** (maximin): the best the row side can guarantee with a pure choice
  that the column side answers knowing it;
* the **pure upper value** (minimax): the same for the column side;
* the **value** (von Neumann's minimax theorem): what each side guarantees with mixed
  strategies. ``lower ≤ value ≤ upper``; all three are equal exactly when there is a saddle.

The value and optimal strategies come from a linear programme solved by the simplex method in
exact rational arithmetic, with Bland's rule (so it terminates and is deterministic). The
answer is then certified: the row strategy guarantees at least the value against every column
and the column strategy at most the value against every row. A failed certificate raises
instead of returning a wrong number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MatrixSolution", "solve_matrix_game"]

Matrix = Sequence[Sequence[Fraction]]


@dataclass(frozen=True, slots=True)
class MatrixSolution:
    """The solution of a zero-sum matrix game, from the row (maximising) side."""

    value: Fraction
    lower: Fraction
    """Pure-strategy lower value: ``max`` over rows of the row's ``min``."""
    upper: Fraction
    """Pure-strategy upper value: ``min`` over columns of the column's ``max``."""
    row_strategy: tuple[Fraction, ...]
    column_strategy: tuple[Fraction, ...]

    @property
    def has_saddle(self) -> bool:
        """Whether pure strategies suffice (``lower == upper``)."""
        return self.lower == self.upper


def _check_shape(matrix: Matrix) -> None:
    if not matrix or not matrix[0]:
        raise ValueError("a matrix game needs at least one row and one column")
    width = len(matrix[0])
    for index, row in enumerate(matrix):
        if len(row) != width:
            raise ValueError(f"matrix row {index} has {len(row)} entries, expected {width}")


def solve_matrix_game(matrix: Matrix) -> MatrixSolution:
    """Solve the zero-sum game where the row side gets ``matrix[row][column]``."""
    _check_shape(matrix)
    rows = [[Fraction(x) for x in row] for row in matrix]
    row_minima = [min(row) for row in rows]
    column_maxima = [max(column) for column in zip(*rows, strict=True)]
    lower, upper = max(row_minima), min(column_maxima)
    if lower == upper:
        return MatrixSolution(
            lower, lower, upper,
            _pure(len(rows), row_minima.index(lower)),
            _pure(len(column_maxima), column_maxima.index(upper)),
        )
    value, row_strategy, column_strategy = _simplex_solution(rows)
    solution = MatrixSolution(value, lower, upper, row_strategy, column_strategy)
    _certify(rows, solution)
    return solution


def _pure(size: int, index: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(int(i == index)) for i in range(size))


def _simplex_solution(
    rows: list[list[Fraction]],
) -> tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Value and strategies through the classic LP: shift entries positive, then
    maximise ``sum(y)`` subject to ``A y <= 1, y >= 0``; ``value = 1 / sum(y) - shift``,
    the column strategy is ``y / sum(y)`` and the row strategy the normalised duals."""
    shift = 1 - min(min(row) for row in rows)
    m, n = len(rows), len(rows[0])
    # Tableau columns: n structural variables, m slacks, then the right-hand side.
    tableau = [
        [x + shift for x in row] + [Fraction(int(i == k)) for k in range(m)] + [Fraction(1)]
        for i, row in enumerate(rows)
    ]
    objective = [Fraction(-1)] * n + [Fraction(0)] * (m + 1)
    basis = list(range(n, n + m))
    while True:
        entering = next((j for j in range(n + m) if objective[j] < 0), None)
        if entering is None:
            break
        leaving = _ratio_test(tableau, basis, entering)
        _pivot(tableau, objective, leaving, entering)
        basis[leaving] = entering
    total = objective[-1]
    y = [Fraction(0)] * n
    for i, variable in enumerate(basis):
        if variable < n:
            y[variable] = tableau[i][-1]
    duals = objective[n : n + m]
    column_strategy = tuple(v / total for v in y)
    row_strategy = tuple(d / sum(duals) for d in duals)
    return 1 / total - shift, row_strategy, column_strategy


def _ratio_test(tableau: list[list[Fraction]], basis: list[int], entering: int) -> int:
    best: tuple[Fraction, int, int] | None = None
    for i, row in enumerate(tableau):
        if row[entering] > 0:
            candidate = (row[-1] / row[entering], basis[i], i)
            if best is None or candidate < best:
                best = candidate
    if best is None:  # pragma: no cover - impossible with positive entries
        raise ArithmeticError("unbounded matrix-game LP: entries were not made positive")
    return best[2]


def _pivot(
    tableau: list[list[Fraction]], objective: list[Fraction], leaving: int, entering: int
) -> None:
    pivot_row = tableau[leaving]
    pivot = pivot_row[entering]
    pivot_row[:] = [x / pivot for x in pivot_row]
    for row in (*tableau, objective):
        if row is pivot_row or row[entering] == 0:
            continue
        factor = row[entering]
        row[:] = [x - factor * p for x, p in zip(row, pivot_row, strict=True)]


def _certify(rows: list[list[Fraction]], solution: MatrixSolution) -> None:
    x, y, value = solution.row_strategy, solution.column_strategy, solution.value
    guaranteed = min(
        sum((x[i] * rows[i][j] for i in range(len(rows))), Fraction(0))
        for j in range(len(rows[0]))
    )
    conceded = max(sum((y[j] * row[j] for j in range(len(row))), Fraction(0)) for row in rows)
    valid = all(p >= 0 for p in (*x, *y)) and sum(x) == 1 and sum(y) == 1
    if not (valid and guaranteed == value == conceded):
        raise ArithmeticError(
            f"matrix game solution failed its certificate: value {value}, row strategy "
            f"guarantees {guaranteed}, column strategy concedes {conceded}"
        )
