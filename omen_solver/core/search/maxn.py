"""Max-n: every player maximises its own team's return, for any number of teams.

A node's value is the vector of team returns. At a decision node the mover takes the child
whose vector is best for its team; among equal ones, the **first in legal-action order** (the
documented, deterministic tie-break: max-n values can depend on it, since the tied children may
be worth different amounts to the other teams). Chance nodes take the expectation of the
vectors. A simultaneous node whose acting players are all on one team is that team's joint
choice (same rule over joint actions in :func:`itertools.product` order); one where several
teams act at once has no max-n value (it would need an equilibrium of a general-sum game), so
it is refused with :class:`ConceptError`. Values are stored per state key; there is no pruning
(shallow max-n pruning needs a bound on the sum of returns, which the protocol does not give).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from omen_solver.core.enumeration.budget import Budget, NodeMeter, Progress
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.search.result import ConceptError

__all__ = ["MaxnSearch", "Vector", "first_best", "simultaneous_team"]

Vector = tuple[Fraction, ...]


def first_best(values: Sequence[Vector], team: int) -> int:
    """The index of the first vector with the highest component ``team`` (the tie-break)."""
    best = 0
    for index in range(1, len(values)):
        if values[index][team] > values[best][team]:
            best = index
    return best


def simultaneous_team(state: GameState[Any], team_of: Sequence[int]) -> int:
    """The one team acting at a simultaneous node, or :class:`ConceptError`."""
    teams = sorted({team_of[player] for player in state.acting_players()})
    if len(teams) != 1:
        seats = ", ".join(str(p + 1) for p in state.acting_players())
        raise ConceptError(
            f"max-n: at {state} players of several teams (seats {seats}) choose at once; max-n "
            "gives such a node no value. Use concept 'paranoid' (one team against the others)"
        )
    return teams[0]


class MaxnSearch(NodeMeter):
    """Max-n values with a table of exact vectors keyed by state."""

    def __init__(
        self,
        root: GameState[Any],
        *,
        transpositions: bool = True,
        budget: Budget | None = None,
        progress: Progress | None = None,
    ) -> None:
        super().__init__(budget, progress)
        self.team_of = [root.team_of(player) for player in range(root.num_players)]
        self.transpositions = transpositions
        self.table: dict[Hashable, Vector] = {}
        self.seen: set[Hashable] = set()

    @property
    def states(self) -> int:
        return len(self.table) if self.transpositions else len(self.seen)

    def search(self, state: GameState[Any]) -> Vector:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        player = state.current_player()
        if player == TERMINAL:
            return state.team_returns()
        key = state.key()
        if self.transpositions:
            known = self.table.get(key)
            if known is not None:
                return known
        else:
            self.seen.add(key)
        if player >= 0:
            children = [self.search(state.child(a)) for a in state.legal_actions()]
            value = children[first_best(children, self.team_of[player])]
        elif player == CHANCE:
            value = self.expectation(state)
        elif player == SIMULTANEOUS:
            team = simultaneous_team(state, self.team_of)
            children = [self.search(state.joint_child(j)) for j in joint_actions(state)]
            value = children[first_best(children, team)]
        else:
            raise ValueError(f"{type(state).__name__}.current_player() returned {player}")
        if self.transpositions:
            self.table[key] = value
        return value

    def expectation(self, state: GameState[Any]) -> Vector:
        total: list[Fraction] | None = None
        for outcome, probability in state.chance_outcomes():
            vector = self.search(state.child(outcome))
            if total is None:
                total = [probability * v for v in vector]
            else:
                for index, v in enumerate(vector):
                    total[index] += probability * v
        if total is None:
            raise ValueError(f"{state}: a chance node with no outcome")
        return tuple(total)
