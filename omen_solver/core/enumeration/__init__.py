"""Enumeration of action trees: perft with a divide, distinct states, budgets, and what a game's
descriptor may add (stopping points, return bounds). See ``docs/search.md``."""

from omen_solver.core.budget import Budget, NodeMeter, Status
from omen_solver.core.enumeration.hooks import (
    resolve_stop,
    return_bounds,
    stop_points,
)
from omen_solver.core.enumeration.perft import PerftCount, PerftResult, perft
from omen_solver.core.enumeration.tree import Branch, branches, child_states, joint_actions
from omen_solver.errors import BudgetExceeded

__all__ = [
    "Branch",
    "Budget",
    "BudgetExceeded",
    "NodeMeter",
    "PerftCount",
    "PerftResult",
    "Status",
    "branches",
    "child_states",
    "joint_actions",
    "perft",
    "resolve_stop",
    "return_bounds",
    "stop_points",
]
