"""Lines deeper than Python's recursion allows: every search and walk keeps its own stack
(``omen_solver.core.walk``), so depth is a question of budget, and a line longer than
``MAX_DEPTH`` is answered "unknown" with the reason, never a ``RecursionError``
(docs/robustness.md, "Depth").

Each walk runs here with Python's recursion limit set to a hundred or so frames above the
test's own: a walk that recursed once per ply could not get past a few dozen plies, and these
lines are thousands of plies long."""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any

import pytest

from omen_solver.core.budget import Status
from omen_solver.core.enumeration.perft import perft
from omen_solver.core.graph import _layout, build_graph
from omen_solver.core.search import naive_solve, solve
from omen_solver.core.search.alphabeta import TwoSidedSearch
from omen_solver.core.search.star import StarSearch
from omen_solver.core.walk import MAX_DEPTH, TooDeep, drive
from omen_solver.errors import BudgetExceeded
from omen_solver.integrations.openspiel import scan
from tests.core.core_toys import GustNim, TeamNim
from tests.frames import few_frames

DEEP = 3_000
"""Plies of the deep lines: thirty times what the frames allowed below would let a recursion
reach."""

SHALLOWER = 400
"""Plies for the walks whose work grows with the square of the depth (the naive walk finds its
line again at each step, by design) or fast with it (chance at every other ply)."""

TWO = ((0,), (1,))
THREE = ((0,), (1,), (2,))


def test_few_frames_stops_a_recursion() -> None:
    """The check is real: a recursion of a few hundred calls fails under it."""

    def down(n: int) -> int:
        return 0 if n == 0 else 1 + down(n - 1)

    with few_frames(), pytest.raises(RecursionError):
        down(500)


def test_alpha_beta_and_its_line_go_deeper_than_python_frames() -> None:
    """Nim taking 1 or 2: a pile that is a multiple of 3 is lost for the player to move. The
    principal variation runs to the last token, thousands of plies."""
    root = TeamNim(DEEP, max_take=2, teams_=TWO)
    for per_move in (True, False):
        with few_frames():
            result = solve(root, engine="reference", per_move=per_move)
        assert result.status is Status.SOLVED
        assert result.value == 0
        state: Any = root
        for text in result.principal_variation:
            state = state.child(state.string_to_action(text))
        assert state.is_terminal()
        assert len(result.principal_variation) >= DEEP // 2


def test_star_search_goes_deeper_than_python_frames() -> None:
    """Chance nodes every other ply (a gust takes a token): Star1/Star2 with return bounds
    give the value of the plain expectation search, on a line thousands of plies deep."""
    root = GustNim(SHALLOWER, teams_=TWO)
    with few_frames():
        star = StarSearch(root, (0,), constant_sum=True, bounds=(Fraction(0), Fraction(1)))
        value = star.search(root, star.low, star.high)
        plain = TwoSidedSearch(root, (0,), constant_sum=True, bounds=None)
        assert value == plain.search(root, plain.low, plain.high)


def test_max_n_and_the_naive_walk_go_deeper_than_python_frames() -> None:
    """Taking one token at a time, the last one falls to seat ``DEEP % players``."""
    three = TeamNim(DEEP, max_take=1, teams_=THREE)
    with few_frames():
        result = solve(three, concept="maxn", engine="reference")
    assert result.status is Status.SOLVED
    winner = (DEEP - 1) % 3
    assert result.values == tuple(Fraction(int(team == winner)) for team in range(3))
    two = TeamNim(SHALLOWER, max_take=1, teams_=TWO)
    with few_frames():
        naive = naive_solve(two)
    assert naive.status is Status.SOLVED
    assert naive.value == int((SHALLOWER - 1) % 2 == 0)


def test_perft_counts_a_tree_deeper_than_python_frames() -> None:
    """Sequences of takes of 1 or 2 that empty a pile of n: the Fibonacci number F(n + 1)."""
    fib = [0, 1]
    while len(fib) < DEEP + 2:
        fib.append(fib[-1] + fib[-2])
    with few_frames():
        counted = perft(TeamNim(DEEP, max_take=2, teams_=TWO))
    assert counted.status is Status.SOLVED
    assert counted.total is not None and counted.total.sequences == fib[DEEP + 1]


def test_graph_layout_and_adapter_scan_go_deeper_than_python_frames() -> None:
    chain = TeamNim(DEEP, max_take=1, teams_=TWO)
    graph = build_graph(chain, max_nodes=DEEP + 10)
    with few_frames():
        positions = _layout(graph)
        facts = scan(chain)
    assert positions[0][1] == 0 and min(y for _, y in positions.values()) == -DEEP
    assert facts.max_length == DEEP


def test_a_line_longer_than_the_maximum_depth_is_unknown() -> None:
    """Past ``MAX_DEPTH`` plies on one line every search answers "unknown" and says why."""
    two = TeamNim(MAX_DEPTH + 5, max_take=1, teams_=TWO)
    three = TeamNim(MAX_DEPTH + 5, max_take=1, teams_=THREE)
    reason = f"{MAX_DEPTH:,} actions deep"
    for result in (solve(two, engine="reference"), solve(two, engine="reference",
                                                         per_move=False),
                   solve(three, concept="maxn", engine="reference"), naive_solve(two)):
        assert result.status is Status.UNKNOWN
        assert result.note is not None and reason in result.note
    counted = perft(two)
    assert counted.status is Status.UNKNOWN and reason in (counted.reason or "")


def _node(log: list[str], depth: int, fail_at: int | None) -> Generator[Any, Any, int]:
    try:
        if depth == fail_at:
            raise ValueError(f"at {depth}")
        if depth == 0:
            return 1
        below = yield _node(log, depth - 1, fail_at)
        return below + 1
    finally:
        log.append(f"left {depth}")


def test_drive_returns_values_and_unwinds_like_a_recursion() -> None:
    """Values come back up; an exception goes up through every ``finally`` in order, as in a
    recursion; a line past the depth limit raises TooDeep in the node that went too deep."""
    log: list[str] = []
    assert drive(_node(log, 5_000, None)) == 5_001
    assert log[0] == "left 0" and log[-1] == "left 5000"
    log.clear()
    with pytest.raises(ValueError, match="at 2"):
        drive(_node(log, 4, 2))
    assert log == ["left 2", "left 3", "left 4"]
    log.clear()
    with pytest.raises(TooDeep) as deep:
        drive(_node(log, 50, None), max_depth=10)
    assert isinstance(deep.value, BudgetExceeded) and deep.value.depth == 10
    assert log == [f"left {depth}" for depth in range(40, 51)]
