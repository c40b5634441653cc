"""Exact perfect-information solvers over the game protocol (see ``docs/search.md``).

* :func:`solve`: minimax (two teams, alpha-beta with a transposition table), max-n and
  paranoid, with chance nodes by expectation and simultaneous nodes as matrix games;
* :func:`naive_solve`: the reference (plain minimax / expectimax / max-n, no table, no pruning);
* :func:`solve_matrix_game`: exact zero-sum matrix games over :class:`~fractions.Fraction`.
"""

from omen_solver.core.budget import Budget, Status
from omen_solver.core.search.matrix import MatrixSolution, solve_matrix_game
from omen_solver.core.search.naive import naive_solve
from omen_solver.core.search.result import Concept, MatrixReport, SimultaneousMode, SolveResult
from omen_solver.core.search.solver import default_team, resolve_concept, solve
from omen_solver.errors import ConceptError

__all__ = [
    "Budget",
    "Concept",
    "ConceptError",
    "MatrixReport",
    "MatrixSolution",
    "SimultaneousMode",
    "SolveResult",
    "Status",
    "default_team",
    "naive_solve",
    "resolve_concept",
    "solve",
    "solve_matrix_game",
]
