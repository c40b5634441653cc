"""The one place surveys and advice call the exact solver.

Everything goes through the public entry point :func:`omen_solver.core.search.solve`, always
with a budget, so that a faster engine behind that entry point speeds surveys and advice up with
no change here. Two teams are solved by minimax; three teams (6 players) by max-n, where every
team plays for itself (ties broken by legal-action order, ``docs/search.md``). A search that runs
out of budget is :attr:`Outcome.known` ``False``: counted as unknown, never as a win or a loss.

Two teams are solved by minimax: the two values add up to 1. Three teams (6 players) are solved
by paranoid search once per team: each team's value is what it can guarantee against a coalition
of the other two (max-n cannot value The Absolute's secret exchange between two teams, a matrix
game; paranoid can). The three values need not add up to 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from omen_solver.core.enumeration.budget import Budget
from omen_solver.core.game import GameState
from omen_solver.core.search import Concept, MatrixReport, default_team, solve

__all__ = ["Outcome", "concept_for", "solve_exactly"]


@dataclass(frozen=True)
class Outcome:
    """The exact values of a position for every team, or unknown."""

    values: tuple[Fraction, ...] | None
    """Each team's value (in the order of ``state.teams()``); ``None`` when unknown."""
    best_actions: tuple[str, ...]
    """Every optimal action (or joint action) of the side to move, canonical text (with three
    teams: from the search of the mover's team)."""
    root_matrix: MatrixReport | None
    nodes: int
    seconds: float

    @property
    def known(self) -> bool:
        return self.values is not None


def concept_for(state: GameState[Any]) -> Concept:
    """Minimax with two teams, paranoid (once per team) with three."""
    return Concept.MINIMAX if len(state.teams()) == 2 else Concept.PARANOID


def solve_exactly(state: GameState[Any], budget: Budget) -> Outcome:
    """Solve ``state`` with every hand open, within ``budget`` (per search).

    A line of play deeper than the solver's recursion allows (a rule setting under which play
    can loop, e.g. Wrath sending back a card that is played again) is unknown too.
    """
    try:
        return _solve(state, budget)
    except RecursionError:
        return Outcome(None, (), None, 0, 0.0)


def _solve(state: GameState[Any], budget: Budget) -> Outcome:
    concept = concept_for(state)
    if concept is Concept.MINIMAX:
        result = solve(state, concept=concept, budget=budget)
        values = result.values if result.solved else None
        return Outcome(
            values, result.best_actions, result.root_matrix, result.nodes, result.seconds
        )
    mover = default_team(state)
    found: list[Fraction] = []
    best: tuple[str, ...] = ()
    matrix = None
    nodes, seconds = 0, 0.0
    for team in range(len(state.teams())):
        result = solve(state, concept=concept, team=team, budget=budget)
        nodes, seconds = nodes + result.nodes, seconds + result.seconds
        if not result.solved or result.value is None:
            return Outcome(None, (), None, nodes, seconds)
        found.append(result.value)
        if team == mover:
            best, matrix = result.best_actions, result.root_matrix
    return Outcome(tuple(found), best, matrix, nodes, seconds)
