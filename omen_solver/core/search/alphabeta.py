"""Exact two-sided search: alpha-beta with a transposition table, for minimax and paranoid.

One side (a team for minimax, the named team for paranoid) maximises its return; every other
player minimises it. Values are exact :class:`~fractions.Fraction`.

* **Fail-soft alpha-beta.** ``search(state, alpha, beta)`` returns ``v`` with: ``v <= alpha``
  means the true value is at most ``v``; ``v >= beta`` means it is at least ``v``; otherwise
  ``v`` is exact.
* **Transposition table** keyed by :meth:`GameState.key`, holding a proven lower and upper
  bound and the best action found; bounds from different windows are intersected, so an entry
  is always a pair of true bounds and is exact once they meet.
* **Move ordering**: the table's best action first, then the two killer actions of the ply
  (the latest that caused a cut-off at that depth), then legal order (deterministic).
* **Chance nodes** by expectation. Without declared return bounds every outcome is searched
  with a full window, so the chance node's value is exact. With bounds ``[low, high]`` (the
  ``return_bounds`` hook) the outcome windows follow Ballard's Star1: the outcomes not yet
  searched are bounded by ``low`` and ``high``, which proves a cut as soon as one is certain.
* **Simultaneous nodes.** If the acting players are all on one side, it is a joint choice of
  that side (a max, or a min, over every joint action). Otherwise it is a matrix game: rows are
  the maximising side's joint choices, columns the others', entries the exact values of the
  children, and the node's value is the matrix game's (mixed) value, or its pure lower or upper
  value in those modes (:class:`SimultaneousMode`).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from omen_solver.core.budget import Budget, NodeMeter, Progress
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.search.matrix import MatrixSolution, solve_matrix_game
from omen_solver.core.search.result import SimultaneousMode
from omen_solver.core.walk import Step, drive
from omen_solver.errors import ConceptError, OmenSolverError

__all__ = ["NEG_INF", "POS_INF", "Bound", "TwoSidedSearch", "exact", "proven_bounds"]

NEG_INF = float("-inf")
POS_INF = float("inf")
Bound = Fraction | float
"""A value or a window edge: a :class:`Fraction`, or an infinity when no bound is known."""

_NO_MOVE = -1


def proven_bounds(
    value: Bound, alpha: Bound, beta: Bound, low: Bound, high: Bound
) -> tuple[Bound, Bound]:
    """A table entry's bounds ``(low, high)`` once a fail-soft search with the window
    ``(alpha, beta)`` has returned ``value``: at most ``value`` if it failed low, at least
    ``value`` if it failed high, else exactly ``value``."""
    if value <= alpha:
        return low, value if value < high else high
    if value >= beta:
        return value if value > low else low, high
    return value, value


def exact(value: Bound) -> Fraction:
    """A value the search proved exact (never an infinity), as a :class:`Fraction`."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    raise ArithmeticError(f"expected an exact value, got {value!r}")  # pragma: no cover


def lean(value: Fraction) -> Fraction | int:
    """A whole value as an ``int``: the search compares values constantly, and comparing two
    ``int`` is far cheaper than comparing two ``Fraction`` (the value is the same number)."""
    return value.numerator if value.denominator == 1 else value


class TwoSidedSearch(NodeMeter):
    """Alpha-beta for the players of ``maximisers`` against every other player."""

    def __init__(
        self,
        root: GameState[Any],
        maximisers: Sequence[int],
        *,
        constant_sum: bool,
        bounds: tuple[Fraction, Fraction] | None,
        simultaneous: SimultaneousMode = SimultaneousMode.MIXED,
        transpositions: bool = True,
        ordering: bool = True,
        budget: Budget | None = None,
        progress: Progress | None = None,
    ) -> None:
        super().__init__(budget, progress)
        teams = root.teams()
        self.maximising = [False] * root.num_players()
        for player in maximisers:
            self.maximising[player] = True
        self.representative = maximisers[0]
        self.max_team = root.team_of(self.representative)
        self.constant_sum = constant_sum
        if constant_sum and len(teams) != 2:
            raise ConceptError("a constant-sum check needs exactly two teams")
        self.total: Fraction | None = None
        self.bounds = bounds
        self.low: Bound = NEG_INF if bounds is None else lean(bounds[0])
        self.high: Bound = POS_INF if bounds is None else lean(bounds[1])
        self.mode = simultaneous
        self.transpositions = transpositions
        self.ordering = ordering
        self.table: dict[Hashable, tuple[Bound, Bound, int]] = {}
        self.seen: set[Hashable] = set()
        self.killers: dict[int, list[Any]] = {}
        """Per ply (from the search's start): the last two actions that caused a cut-off."""
        self.ply = 0
        self.gap_seen = False
        """Whether a matrix game without a saddle point was met (its pure values differ)."""

    @property
    def states(self) -> int:
        """Distinct non-terminal states searched."""
        return len(self.table) if self.transpositions else len(self.seen)

    def limit_nodes(self, limit: int | None) -> None:
        """Set the node limit, for a search asked again after it stopped at one (the root's
        moves are searched by turns): a stop leaves the ply counted, so it starts again."""
        super().limit_nodes(limit)
        self.ply = 0

    # -- the search -------------------------------------------------------------------------

    def terminal(self, state: GameState[Any]) -> Fraction | int:
        """The maximising side's return at a terminal state, with the declared checks."""
        if self.constant_sum:
            values = state.team_returns()
            first, second = lean(values[0]), lean(values[1])
            total = first + second
            if self.total is None:
                self.total = exact(total)
            elif total != self.total:
                raise ConceptError(
                    f"the two teams' returns add up to {self.total} in one terminal state and "
                    f"to {total} in {state}: the game is not constant-sum, so minimax does not "
                    "apply; use concept 'maxn' or 'paranoid'"
                )
            value = first if self.max_team == 0 else second
        else:
            value = lean(state.returns()[self.representative])
        if self.bounds is not None and not self.low <= value <= self.high:
            raise OmenSolverError(
                f"{state}: return {value} lies outside the declared return bounds "
                f"[{self.bounds[0]}, {self.bounds[1]}]"
            )
        return value

    def search(self, state: GameState[Any], alpha: Bound, beta: Bound) -> Bound:
        """Fail-soft alpha-beta value of ``state`` within the window ``(alpha, beta)``."""
        return drive(self.node(state, alpha, beta), self)

    def node(self, state: GameState[Any], alpha: Bound, beta: Bound) -> Step[Bound]:
        """:meth:`search` as a node of a walk (:mod:`omen_solver.core.walk`): the children
        are searched by yielding their nodes, so that no line's depth is Python's to limit."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        player = state.current_player()
        if player == TERMINAL:
            return self.terminal(state)
        key = state.key()
        entry = self.table.get(key)
        if entry is None:
            low, high, best = self.low, self.high, _NO_MOVE
            if not self.transpositions:
                self.seen.add(key)
        else:
            low, high, best = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
        if player >= 0:
            value, best = yield from self.decision(state, player, alpha, beta, best)
        elif player == CHANCE:
            value = yield from self.chance(state, alpha, beta)
        elif player == SIMULTANEOUS:
            value, best = yield from self.simultaneous(state, alpha, beta, best)
        else:
            raise ValueError(f"{type(state).__name__}.current_player() returned {player}")
        low, high = proven_bounds(value, alpha, beta, low, high)
        if self.transpositions:
            self.table[key] = (low, high, best)
        return value

    def order(self, actions: Sequence[Any], best: int) -> list[int]:
        """Indices of ``actions``: the table's best first, then this ply's killer actions,
        then the rest in legal order."""
        count = len(actions)
        if count == 0:
            raise ValueError("a decision node with no legal action")
        indices = list(range(count))
        if count == 1:
            return indices
        if self.ordering:
            for killer in reversed(self.killers.get(self.ply, ())):
                try:
                    index = actions.index(killer)
                except ValueError:
                    continue
                indices.remove(index)
                indices.insert(0, index)
        if best >= 0 and indices[0] != best:
            indices.remove(best)
            indices.insert(0, best)
        return indices

    def decision(
        self, state: GameState[Any], player: int, alpha: Bound, beta: Bound, best: int
    ) -> Step[tuple[Bound, int]]:
        actions = state.legal_actions()
        return (yield from self.choose(actions, state, alpha, beta, best,
                                       self.maximising[player]))

    def choose(
        self,
        actions: Sequence[Any],
        state: GameState[Any],
        alpha: Bound,
        beta: Bound,
        best: int,
        maximising: bool,
        joint: bool = False,
    ) -> Step[tuple[Bound, int]]:
        """The best of ``actions`` for one side (actions, or joint actions if ``joint``)."""
        make = state.joint_child if joint else state.child
        # A search that stops early (budget, error) is resumed only after limit_nodes, which
        # resets the ply: no `finally` here.
        self.ply += 1
        found = yield from self._choose(actions, make, alpha, beta, best, maximising)
        self.ply -= 1
        return found

    def _choose(
        self,
        actions: Sequence[Any],
        make: Any,
        alpha: Bound,
        beta: Bound,
        best: int,
        maximising: bool,
    ) -> Step[tuple[Bound, int]]:
        best_index = best
        if maximising:
            best_value: Bound = NEG_INF
            for index in self.order(actions, best):
                value = yield self.node(make(actions[index]), alpha, beta)
                if value > best_value:
                    best_value = value
                    best_index = index
                    if value > alpha:
                        if value >= beta:
                            self._reward(actions[index])
                            break
                        alpha = value
        else:
            best_value = POS_INF
            for index in self.order(actions, best):
                value = yield self.node(make(actions[index]), alpha, beta)
                if value < best_value:
                    best_value = value
                    best_index = index
                    if value < beta:
                        if value <= alpha:
                            self._reward(actions[index])
                            break
                        beta = value
        return best_value, best_index

    def _reward(self, action: Any) -> None:
        """Remember a cut-off action as a killer of this ply (two per ply, newest first)."""
        if self.ordering:
            killers = self.killers.setdefault(self.ply, [])
            if not killers or killers[0] != action:
                killers.insert(0, action)
                del killers[2:]

    def chance(self, state: GameState[Any], alpha: Bound, beta: Bound) -> Step[Bound]:
        outcomes = state.chance_outcomes()
        if self.bounds is None:
            total = Fraction(0)
            for outcome, probability in outcomes:
                found = yield self.node(state.child(outcome), NEG_INF, POS_INF)
                total += probability * exact(found)
            return total
        low, high = self.bounds
        done = Fraction(0)
        remaining = Fraction(1)
        for outcome, probability in outcomes:
            if probability == 0:
                continue  # worth nothing to the expectation (and Star1 divides by it)
            remaining -= probability
            # Star1: the outcomes after this one are worth at least `low`, at most `high`.
            child_alpha = (alpha - done - remaining * high) / probability
            child_beta = (beta - done - remaining * low) / probability
            window_low = child_alpha if child_alpha > low else low
            window_high = child_beta if child_beta < high else high
            if window_low >= window_high:
                # Already certain: every outcome left at `high` stays at most alpha, or every
                # one at `low` stays at least beta.
                edge = high if child_alpha >= high else low
                return done + (probability + remaining) * edge
            value: Bound = yield self.node(state.child(outcome), window_low, window_high)
            if value <= child_alpha:
                return done + probability * value + remaining * high
            if value >= child_beta:
                return done + probability * value + remaining * low
            done += probability * exact(value)
        return done

    def simultaneous(
        self, state: GameState[Any], alpha: Bound, beta: Bound, best: int
    ) -> Step[tuple[Bound, int]]:
        acting = state.acting_players()
        sides = {self.maximising[player] for player in acting}
        if len(sides) == 1:
            # Teammates choosing at once: one joint choice of their side.
            joints = joint_actions(state)
            return (yield from self.choose(joints, state, alpha, beta, best, sides.pop(),
                                           joint=True))
        value = yield from self.matrix_within(MatrixGame(state, self.maximising), alpha, beta)
        return value, _NO_MOVE

    def matrix_within(self, game: MatrixGame, alpha: Bound, beta: Bound) -> Step[Bound]:
        """The value of a matrix game node, or a bound on it outside ``(alpha, beta)``.

        Whole rows and columns are evaluated in turn: a row, then the column that answers it
        best, then the row that answers that column best, and so on. A fully known row proves
        the node is worth at least that row's minimum, a fully known column at most that
        column's maximum, in every mode (pure lower, mixed, pure upper alike), so the node
        fails high or low as soon as one of them passes the window. Otherwise every entry gets
        known and the matrix game is solved exactly.
        """
        rows, columns = len(game.rows), len(game.columns)
        known: list[list[Fraction | None]] = [[None] * columns for _ in range(rows)]
        rows_left, columns_left = list(range(rows)), list(range(columns))

        def entry(r: int, c: int) -> Step[Fraction]:
            value = known[r][c]
            if value is None:
                child = game.state.joint_child(game.joint(r, c))
                value = known[r][c] = exact((yield self.node(child, self.low, self.high)))
            return value

        lower: Bound = NEG_INF
        upper: Bound = POS_INF
        row = 0
        while rows_left and columns_left:
            rows_left.remove(row)
            row_values = []
            for c in range(columns):
                row_values.append((yield from entry(row, c)))
            lower = max(lower, min(row_values))
            if lower >= beta:
                return lower
            column = min(columns_left, key=row_values.__getitem__)
            columns_left.remove(column)
            column_values = []
            for r in range(rows):
                column_values.append((yield from entry(r, column)))
            upper = min(upper, max(column_values))
            if upper <= alpha:
                return upper
            if rows_left:
                row = max(rows_left, key=column_values.__getitem__)
        entries: list[list[Fraction]] = []
        for r in range(rows):
            entries.append([])
            for c in range(columns):
                entries[-1].append((yield from entry(r, c)))
        game.entries = entries
        game.solve(self.mode)
        return self.matrix_value(game.solution)

    def matrix_value(self, solution: MatrixSolution) -> Fraction:
        if self.mode is SimultaneousMode.LOWER:
            return solution.lower
        if self.mode is SimultaneousMode.UPPER:
            return solution.upper
        if not solution.has_saddle:
            self.gap_seen = True
        return solution.value

    def matrix(self, state: GameState[Any]) -> MatrixGame:
        """The matrix game at a simultaneous node where both sides act (entries exact)."""
        game = MatrixGame(state, self.maximising)
        game.entries = [
            [exact(self.search(state.joint_child(game.joint(r, c)), self.low, self.high))
             for c in range(len(game.columns))]
            for r in range(len(game.rows))
        ]
        game.solve(self.mode)
        return game

    # -- questions asked at the root and along the principal variation ---------------------

    def at_least(self, state: GameState[Any], value: Fraction) -> bool:
        """Whether the value of ``state`` is at least ``value``."""
        if value <= self.low:
            return True
        return self.search(state, self.low, value) >= value

    def at_most(self, state: GameState[Any], value: Fraction) -> bool:
        """Whether the value of ``state`` is at most ``value``."""
        if value >= self.high:
            return True
        return self.search(state, value, self.high) <= value

    def reaches(self, state: GameState[Any], value: Fraction, maximising: bool) -> bool:
        """Whether ``state`` is worth ``value`` to a chooser who maximises (or minimises) and
        whose best is ``value``: at least it for a maximiser, at most it for a minimiser."""
        return self.at_least(state, value) if maximising else self.at_most(state, value)

    def best_move(self, state: GameState[Any]) -> int:
        entry = self.table.get(state.key())
        return _NO_MOVE if entry is None else entry[2]

    def bounds_of(self, state: GameState[Any]) -> tuple[Bound, Bound]:
        """Proven bounds on the value of ``state`` from the table (for an early stop)."""
        if state.is_terminal():
            value = self.terminal(state)
            return value, value
        entry = self.table.get(state.key())
        return (self.low, self.high) if entry is None else (entry[0], entry[1])


class MatrixGame:
    """The matrix of a simultaneous node: rows for the maximising side's joint choices."""

    def __init__(self, state: GameState[Any], maximising: Sequence[bool]) -> None:
        self.state = state
        self.acting = state.acting_players()
        per_player = [state.legal_actions(player) for player in self.acting]
        self.row_slots = [k for k, p in enumerate(self.acting) if maximising[p]]
        self.column_slots = [k for k, p in enumerate(self.acting) if not maximising[p]]
        self.rows = list(itertools.product(*(per_player[k] for k in self.row_slots)))
        self.columns = list(itertools.product(*(per_player[k] for k in self.column_slots)))
        self.entries: list[list[Fraction]] = []
        self.solution: MatrixSolution

    def joint(self, row: int, column: int) -> tuple[Any, ...]:
        actions: list[Any] = [None] * len(self.acting)
        for slot, action in zip(self.row_slots, self.rows[row], strict=True):
            actions[slot] = action
        for slot, action in zip(self.column_slots, self.columns[column], strict=True):
            actions[slot] = action
        return tuple(actions)

    def solve(self, mode: SimultaneousMode) -> None:
        """Solve the filled matrix: exactly in the mixed mode, its pure values otherwise."""
        if mode is SimultaneousMode.MIXED:
            self.solution = solve_matrix_game(self.entries)
        else:
            self.solution = _pure_solution(self.entries, mode)

    def label(self, choice: Sequence[Any]) -> str:
        return " & ".join(self.state.action_to_string(action) for action in choice)


def _pure_solution(entries: list[list[Fraction]], mode: SimultaneousMode) -> MatrixSolution:
    """Only the pure values: in the pure modes the node is worth the lower or upper one."""
    row_minima = [min(row) for row in entries]
    column_maxima = [max(column) for column in zip(*entries, strict=True)]
    lower, upper = max(row_minima), min(column_maxima)
    value = lower if mode is SimultaneousMode.LOWER else upper
    rows = tuple(Fraction(int(i == row_minima.index(lower))) for i in range(len(entries)))
    columns = tuple(
        Fraction(int(j == column_maxima.index(upper))) for j in range(len(column_maxima))
    )
    return MatrixSolution(value, lower, upper, rows, columns)
