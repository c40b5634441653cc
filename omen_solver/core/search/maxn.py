"""Max-n: every player maximises its own team's return, for any number of teams.

A node's value is the vector of team returns. At a decision node the mover takes the child
whose vector is best for its team. Among equal ones the **tie-break** decides
(:class:`TieBreak`: the first in legal-action order, or the last): max-n values can depend on
it, since tied children may be worth different amounts to the other teams, so a solve reports
both (:func:`omen_solver.core.search.solver.solve`). Chance nodes take the expectation of the
vectors. A simultaneous node whose acting players are all on one team is that team's joint
choice (the same rule over joint actions in :func:`itertools.product` order). Where players of
two teams choose at once (Omens: The Absolute's secret exchange with an opponent), max-n has no
value of its own (that would need an equilibrium of a general-sum game); the stated rule here is
that **each acting team plays its security strategy**: the choice that maximises its own worst
case over the other's choices (ties by the tie-break), and the node is worth the child both
choices lead to. Values are stored per state key; there is no pruning (shallow max-n pruning
needs a bound on the sum of returns, which the protocol does not give).
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from omen_solver.core.budget import Budget, NodeMeter, Progress
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.walk import Step, drive
from omen_solver.errors import ConceptError

__all__ = [
    "MaxnSearch",
    "TieBreak",
    "Vector",
    "first_best",
    "pick",
    "security_choice",
    "simultaneous_team",
]

Vector = tuple[Fraction, ...]


class TieBreak(enum.Enum):
    """Which of several children equally good for the mover's team max-n takes."""

    FIRST = "first"
    """The first in legal-action order (the default)."""
    LAST = "last"
    """The last in legal-action order."""


def pick(values: Sequence[Sequence[Any]], team: int, tie_break: TieBreak) -> int:
    """The index of the best vector for ``team`` under the tie-break."""
    best = 0
    last = tie_break is TieBreak.LAST
    for index in range(1, len(values)):
        here, top = values[index][team], values[best][team]
        if here > top or (last and here == top):
            best = index
    return best


def first_best(values: Sequence[Vector], team: int) -> int:
    """The index of the first vector with the highest component ``team``."""
    return pick(values, team, TieBreak.FIRST)


def security_choice(
    table: Sequence[Sequence[Sequence[Any]]], team: int, tie_break: TieBreak
) -> int:
    """The row a team plays as its security strategy in a table of vectors (rows: its own
    choices, columns: the other team's): the row whose worst entry for ``team`` is highest."""
    worst = [min(row, key=lambda vector: vector[team]) for row in table]
    return pick(worst, team, tie_break)


def simultaneous_team(state: GameState[Any], team_of: Sequence[int]) -> int:
    """The one team acting at a simultaneous node, or :class:`ConceptError` if several do
    (callers that handle several teams use :func:`security_choice` instead)."""
    teams = sorted({team_of[player] for player in state.acting_players()})
    if len(teams) != 1:
        seats = ", ".join(str(p + 1) for p in state.acting_players())
        raise ConceptError(
            f"max-n: at {state} players of several teams (seats {seats}) choose at once"
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
        tie_break: TieBreak = TieBreak.FIRST,
    ) -> None:
        super().__init__(budget, progress)
        self.team_of = [root.team_of(player) for player in range(root.num_players())]
        self.transpositions = transpositions
        self.tie_break = tie_break
        self.table: dict[Hashable, Vector] = {}
        self.seen: set[Hashable] = set()

    @property
    def states(self) -> int:
        return len(self.table) if self.transpositions else len(self.seen)

    def search(self, state: GameState[Any]) -> Vector:
        """The max-n value of ``state``: the vector of team returns."""
        return drive(self.node(state), self)

    def node(self, state: GameState[Any]) -> Step[Vector]:
        """:meth:`search` as a node of a walk (:mod:`omen_solver.core.walk`)."""
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
            children: list[Vector] = []
            for action in state.legal_actions():
                children.append((yield self.node(state.child(action))))
            value = children[pick(children, self.team_of[player], self.tie_break)]
        elif player == CHANCE:
            value = yield from self.expectation(state)
        elif player == SIMULTANEOUS:
            value = yield from self.simultaneous(state)
        else:
            raise ValueError(f"{type(state).__name__}.current_player() returned {player}")
        if self.transpositions:
            self.table[key] = value
        return value

    def simultaneous(self, state: GameState[Any]) -> Step[Vector]:
        acting = state.acting_players()
        teams = {self.team_of[player] for player in acting}
        if len(teams) == 1:
            children: list[Vector] = []
            for joint in joint_actions(state):
                children.append((yield self.node(state.joint_child(joint))))
            return children[pick(children, teams.pop(), self.tie_break)]
        first, second = acting
        rows, columns = state.legal_actions(first), state.legal_actions(second)
        table: list[list[Vector]] = []
        for r in rows:
            table.append([])
            for c in columns:
                table[-1].append((yield self.node(state.joint_child((r, c)))))
        row = security_choice(table, self.team_of[first], self.tie_break)
        flipped = [[table[r][c] for r in range(len(rows))] for c in range(len(columns))]
        column = security_choice(flipped, self.team_of[second], self.tie_break)
        return table[row][column]

    def expectation(self, state: GameState[Any]) -> Step[Vector]:
        total: list[Fraction] | None = None
        for outcome, probability in state.chance_outcomes():
            vector = yield self.node(state.child(outcome))
            if total is None:
                total = [probability * v for v in vector]
            else:
                for index, v in enumerate(vector):
                    total[index] += probability * v
        if total is None:
            raise ValueError(f"{state}: a chance node with no outcome")
        return tuple(total)
