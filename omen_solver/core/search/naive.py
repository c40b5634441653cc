"""The naive reference solver: plain minimax, expectimax and max-n over the whole tree, with
no table, no pruning and no move ordering.

It exists to check the real solver (:func:`omen_solver.core.search.solve`): both must give the
same value, the same optimal root actions and a principal variation of the same value on every
position. It follows the same documented conventions (simultaneous nodes as matrix games,
max-n's first-in-legal-order tie-break) but shares none of the search code. It still counts
nodes and distinct states, and honours a budget, so a test can never hang on it.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from omen_solver.core.budget import Budget, NodeMeter, Status
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.search.alphabeta import MatrixGame
from omen_solver.core.search.matrix import MatrixSolution, solve_matrix_game
from omen_solver.core.search.maxn import TieBreak, security_choice
from omen_solver.core.search.result import Concept, MatrixReport, SimultaneousMode, SolveResult
from omen_solver.core.search.roots import labels, matrix_best_rows, matrix_report, saddle_cell
from omen_solver.core.search.solver import TeamName, resolve_concept
from omen_solver.core.walk import Step, drive
from omen_solver.errors import BudgetExceeded, ConceptError

__all__ = ["naive_solve"]

Vector = tuple[Fraction, ...]


def naive_solve(
    state: GameState[Any],
    *,
    concept: Concept | str | None = None,
    team: TeamName | None = None,
    budget: Budget | None = None,
    simultaneous: SimultaneousMode = SimultaneousMode.MIXED,
) -> SolveResult:
    """Solve by walking the whole tree; same arguments and answer shape as ``solve``."""
    chosen, team = resolve_concept(state, concept, team)
    walker = _Walker(state, chosen, team, simultaneous, budget)
    try:
        return walker.run(state)
    except BudgetExceeded as exceeded:
        return SolveResult(
            Status.UNKNOWN, chosen, state.teams(), team, None, None, None, None, (), (),
            exceeded.nodes, len(walker.seen), exceeded.seconds, note=exceeded.reason,
        )


class _Walker(NodeMeter):
    def __init__(
        self,
        root: GameState[Any],
        concept: Concept,
        team: int,
        mode: SimultaneousMode,
        budget: Budget | None,
    ) -> None:
        super().__init__(budget)
        self.concept = concept
        self.team = team
        self.mode = mode
        self.teams = root.teams()
        self.team_of = [root.team_of(p) for p in range(root.num_players())]
        self.maximising = [self.team_of[p] == team for p in range(root.num_players())]
        self.seen: set[Hashable] = set()
        self.total: Fraction | None = None

    # -- values ------------------------------------------------------------------------------

    def value(self, state: GameState[Any]) -> Fraction:
        """Minimax / paranoid value for the asked team."""
        return drive(self.value_node(state), self)

    def value_node(self, state: GameState[Any]) -> Step[Fraction]:
        """:meth:`value` as a node of a walk (:mod:`omen_solver.core.walk`)."""
        self._count(state)
        player = state.current_player()
        if player == TERMINAL:
            returns = state.team_returns()
            if self.concept is Concept.MINIMAX:
                total = returns[0] + returns[1]
                if self.total is not None and total != self.total:
                    raise ConceptError(f"{state}: the team returns are not constant-sum")
                self.total = total
            return returns[self.team]
        if player == CHANCE:
            expected = Fraction(0)
            for outcome, probability in state.chance_outcomes():
                expected += probability * (yield self.value_node(state.child(outcome)))
            return expected
        if player == SIMULTANEOUS and len(self._sides(state)) == 2:
            return (yield from self.matrix_node(state))[1].value
        options, make, maximising = self._options(state)
        values: list[Fraction] = []
        for option in options:
            values.append((yield self.value_node(make(option))))
        return max(values) if maximising else min(values)

    def vector(self, state: GameState[Any]) -> Vector:
        """Max-n value."""
        return drive(self.vector_node(state), self)

    def vector_node(self, state: GameState[Any]) -> Step[Vector]:
        """:meth:`vector` as a node of a walk."""
        self._count(state)
        player = state.current_player()
        if player == TERMINAL:
            return state.team_returns()
        if player == CHANCE:
            total = [Fraction(0)] * len(self.teams)
            for outcome, probability in state.chance_outcomes():
                for i, v in enumerate((yield self.vector_node(state.child(outcome)))):
                    total[i] += probability * v
            return tuple(total)
        if player == SIMULTANEOUS and len({self.team_of[p] for p in state.acting_players()}) > 1:
            return (yield from self._security(state))
        options, make, team = self._maxn_options(state)
        best: Vector | None = None
        for option in options:
            vector = yield self.vector_node(make(option))
            if best is None or vector[team] > best[team]:
                best = vector
        assert best is not None
        return best

    def _security(self, state: GameState[Any]) -> Step[Vector]:
        """Two teams choosing at once: each plays its security strategy (maxn.py)."""
        first, second = state.acting_players()
        rows, columns = state.legal_actions(first), state.legal_actions(second)
        table: list[list[Vector]] = []
        for r in rows:
            table.append([])
            for c in columns:
                table[-1].append((yield self.vector_node(state.joint_child((r, c)))))
        row = security_choice(table, self.team_of[first], TieBreak.FIRST)
        flipped = [[table[r][c] for r in range(len(rows))] for c in range(len(columns))]
        column = security_choice(flipped, self.team_of[second], TieBreak.FIRST)
        return table[row][column]

    def _count(self, state: GameState[Any]) -> None:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        if not state.is_terminal():
            self.seen.add(state.key())

    def _sides(self, state: GameState[Any]) -> set[bool]:
        return {self.maximising[p] for p in state.acting_players()}

    def _options(self, state: GameState[Any]) -> tuple[list[Any], Any, bool]:
        player = state.current_player()
        if player >= 0:
            return list(state.legal_actions()), state.child, self.maximising[player]
        return joint_actions(state), state.joint_child, self._sides(state).pop()

    def _maxn_options(self, state: GameState[Any]) -> tuple[list[Any], Any, int]:
        player = state.current_player()
        if player >= 0:
            return list(state.legal_actions()), state.child, self.team_of[player]
        teams = {self.team_of[p] for p in state.acting_players()}
        if len(teams) != 1:
            raise ConceptError(f"max-n: several teams choose at once at {state}")
        return joint_actions(state), state.joint_child, teams.pop()

    def matrix(self, state: GameState[Any]) -> tuple[MatrixGame, MatrixSolution]:
        return drive(self.matrix_node(state), self)

    def matrix_node(self, state: GameState[Any]) -> Step[tuple[MatrixGame, MatrixSolution]]:
        game = MatrixGame(state, self.maximising)
        entries: list[list[Fraction]] = []
        for r in range(len(game.rows)):
            entries.append([])
            for c in range(len(game.columns)):
                entries[-1].append((yield self.value_node(state.joint_child(game.joint(r, c)))))
        game.entries = entries
        solution = solve_matrix_game(game.entries)
        if self.mode is not SimultaneousMode.MIXED:
            value = solution.lower if self.mode is SimultaneousMode.LOWER else solution.upper
            solution = MatrixSolution(
                value, solution.lower, solution.upper, solution.row_strategy,
                solution.column_strategy,
            )
        return game, solution

    # -- the root ----------------------------------------------------------------------------

    def run(self, root: GameState[Any]) -> SolveResult:
        if self.concept is Concept.MAXN:
            return self._run_maxn(root)
        value = self.value(root)
        best: list[str] = []
        report: MatrixReport | None = None
        player = root.current_player()
        if player == SIMULTANEOUS and len(self._sides(root)) == 2:
            game, solution = self.matrix(root)
            rows = labels(game.rows, root.action_to_string)
            report = matrix_report(game.entries, solution, rows,
                                   labels(game.columns, root.action_to_string))
            best = [rows[i] for i in matrix_best_rows(game.entries, solution, self.mode)]
        elif player >= 0 or player == SIMULTANEOUS:
            options, make, _ = self._options(root)
            text = root.action_to_string if player >= 0 else root.joint_to_string
            best = [text(o) for o in options if self.value(make(o)) == value]
        values = None
        if self.concept is Concept.MINIMAX and self.total is not None:
            other = self.total - value
            values = (value, other) if self.team == 0 else (other, value)
        return SolveResult(
            Status.SOLVED, self.concept, self.teams, self.team, value, values, value, value,
            tuple(best), self._line(root, value), self.nodes, len(self.seen), self.elapsed(),
            root_matrix=report,
        )

    def _line(self, state: GameState[Any], value: Fraction) -> tuple[str, ...]:
        """The first optimal action in legal order at each step, to a chance or end node."""
        line: list[str] = []
        while state.current_player() not in (TERMINAL, CHANCE):
            if state.is_simultaneous_node() and len(self._sides(state)) == 2:
                game, solution = self.matrix(state)
                cell = saddle_cell(game.entries, solution, self.mode)
                if cell is None:
                    break
                joint = game.joint(*cell)
                line.append(state.joint_to_string(joint))
                state = state.joint_child(joint)
                continue
            options, make, _ = self._options(state)
            text = state.action_to_string if not state.is_simultaneous_node() else (
                state.joint_to_string
            )
            option = next(o for o in options if self.value(make(o)) == value)
            line.append(text(option))
            state = make(option)
        return tuple(line)

    def _run_maxn(self, root: GameState[Any]) -> SolveResult:
        vector = self.vector(root)
        best: list[str] = []
        line: list[str] = []
        state = root
        while state.current_player() not in (TERMINAL, CHANCE):
            if state.is_simultaneous_node() and len(
                {self.team_of[p] for p in state.acting_players()}
            ) > 1:
                break  # two teams choose at once: security strategies, no single line
            options, make, team = self._maxn_options(state)
            text = state.action_to_string if not state.is_simultaneous_node() else (
                state.joint_to_string
            )
            values = [self.vector(make(o)) for o in options]
            top = max(v[team] for v in values)
            if state is root:
                best = [text(o) for o, v in zip(options, values, strict=True) if v[team] == top]
            index = next(i for i, v in enumerate(values) if v[team] == top)
            line.append(text(options[index]))
            state = make(options[index])
        return SolveResult(
            Status.SOLVED, Concept.MAXN, self.teams, self.team, vector[self.team], vector,
            vector[self.team], vector[self.team], tuple(best), tuple(line), self.nodes,
            len(self.seen), self.elapsed(),
        )
