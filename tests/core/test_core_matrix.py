"""Exact zero-sum matrix games (docs/search.md, "Simultaneous nodes")."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_solver.core.search import solve_matrix_game

F = Fraction


def test_matching_pennies_is_worth_zero_with_half_half() -> None:
    # Von Neumann & Morgenstern: matching pennies has value 0, each side mixing 1/2-1/2.
    solution = solve_matrix_game([[1, -1], [-1, 1]])
    assert solution.value == 0
    assert (solution.lower, solution.upper) == (-1, 1)
    assert solution.row_strategy == solution.column_strategy == (F(1, 2), F(1, 2))
    assert not solution.has_saddle


def test_rock_paper_scissors_is_worth_zero_with_thirds() -> None:
    solution = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert solution.value == 0
    assert solution.row_strategy == solution.column_strategy == (F(1, 3),) * 3


def test_two_by_two_without_saddle_follows_the_closed_form() -> None:
    # For [[a, b], [c, d]] without a saddle: value = (ad - bc) / (a + d - b - c).
    a, b, c, d = 3, -1, -2, 1
    solution = solve_matrix_game([[a, b], [c, d]])
    assert solution.value == F(a * d - b * c, a + d - b - c) == F(1, 7)
    assert solution.row_strategy == (F(3, 7), F(4, 7))


def test_saddle_point_is_pure() -> None:
    solution = solve_matrix_game([[1, 2], [3, 4]])
    assert solution.has_saddle and solution.value == 3
    assert solution.row_strategy == (0, 1) and solution.column_strategy == (1, 0)


def test_ragged_or_empty_matrix_is_refused() -> None:
    with pytest.raises(ValueError, match="row 1 has 1 entries"):
        solve_matrix_game([[1, 2], [3]])
    with pytest.raises(ValueError, match="at least one row"):
        solve_matrix_game([])


def z3_value(matrix: list[list[int]]) -> Fraction:
    """The row side's mixed value by z3's exact rational optimisation (an independent LP)."""
    optimizer = z3.Optimize()
    x = [z3.Real(f"x{i}") for i in range(len(matrix))]
    v = z3.Real("v")
    optimizer.add(*(xi >= 0 for xi in x), z3.Sum(x) == 1)
    for j in range(len(matrix[0])):
        optimizer.add(z3.Sum([x[i] * matrix[i][j] for i in range(len(matrix))]) >= v)
    optimizer.maximize(v)
    assert optimizer.check() == z3.sat
    value = optimizer.model()[v].as_fraction()
    return Fraction(value.numerator, value.denominator)


matrices = st.integers(1, 4).flatmap(
    lambda rows: st.integers(1, 4).flatmap(
        lambda cols: st.lists(
            st.lists(st.integers(-5, 5), min_size=cols, max_size=cols),
            min_size=rows, max_size=rows,
        )
    )
)


@settings(max_examples=150)
@given(matrices)
def test_value_is_certified_and_matches_z3(matrix: list[list[int]]) -> None:
    solution = solve_matrix_game(matrix)
    x, y = solution.row_strategy, solution.column_strategy
    columns = list(zip(*matrix, strict=True))
    # Both strategies are distributions and guarantee the value from each side.
    assert sum(x) == sum(y) == 1 and min(x) >= 0 and min(y) >= 0
    assert min(sum(p * e for p, e in zip(x, col, strict=True)) for col in columns) == solution.value
    assert max(sum(q * e for q, e in zip(y, row, strict=True)) for row in matrix) == solution.value
    assert solution.lower <= solution.value <= solution.upper
    assert solution.value == z3_value(matrix)
