"""The value of a whole game for a given deal of every round, on the kernel.

Rules file 000, "End of a Round": the first team to win 2 rounds wins the game; each new round
is dealt afresh and led by the round's winner (or by Pride's choice, option
``pride_next_round``). With the deals of the later rounds given (``Table.later_rounds``), a game
is a chain of rounds: the end of a round is worth the value of the game from the next round,
which depends only on the rounds won and on who leads it. :class:`GameChain` solves those
rounds on demand (memoised), each with a payoff table ``[winner + 1][next leader]``
(:class:`~omen_solver.omens.kernel.search.KernelSearch`); the current round is then analysed
like any position (:mod:`omen_solver.omens.kernel.solve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter
from typing import Protocol

from omen_solver.core.budget import Budget, Progress
from omen_solver.core.search.result import Concept, SimultaneousMode
from omen_solver.errors import KernelUnsupported
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import SearchParams, Value
from omen_solver.omens.kernel.view import KernelSearchLike
from omen_solver.omens.rules import PrideNextRound
from omen_solver.omens.table import Scope, Table

__all__ = ["GameChain", "round_table", "rounds_needed"]

Score = tuple[int, ...]
Payoff = list[list[Value]]


class SearchFactory(Protocol):
    """Makes the search of one round (``omen_solver.omens.kernel.solve.make_search``, passed
    in by the root driver so that this module does not import it back)."""

    def __call__(self, machine: Machine, maximising: Sequence[bool],
                 params: SearchParams) -> KernelSearchLike: ...


def rounds_needed(teams: int, rounds_won: Sequence[int]) -> int:
    """How many rounds after the current one a game can still need: play goes on while every
    team has fewer than 2 rounds, so at most ``teams + 1`` rounds are played in all."""
    return teams - sum(rounds_won)


def round_table(table: Table) -> Table:
    """The same game played one round at a time (the kernel's scope)."""
    return Table(table.players, table.rules, table.catalogue, Scope.ROUND)


class GameChain:
    """The values of the rounds after the current one, for one team's side."""

    def __init__(
        self,
        machine: Machine,
        table: Table,
        rounds_won: Sequence[int],
        team: int,
        concept: Concept,
        mode: SimultaneousMode,
        budget: Budget,
        progress: Progress | None,
        searches: SearchFactory,
    ) -> None:
        teams = len(machine.spec.teams)
        needed = rounds_needed(teams, rounds_won)
        if len(table.later_rounds) < needed:
            raise KernelUnsupported(
                f"a game needs the deal of every round that may still be played: {needed} "
                f"after this one, and the position gives {len(table.later_rounds)} (key "
                "later_rounds); without them the next deals are chance nodes"
            )
        self.machine = machine
        self.table = table
        self.first = sum(rounds_won)
        self.team = team
        self.concept = concept
        self.mode = mode
        self.budget = budget
        self.progress = progress
        self.searches = searches
        self.started = perf_counter()
        self.values: dict[tuple[Score, int], Value] = {}
        self.nodes = 0
        self.states = 0
        spec = machine.spec
        self.maximising = [spec.team_of[seat] == team for seat in range(spec.players)]

    def payoff(self, score: Score) -> Payoff:
        """``[winner + 1][next leader]`` for the round played at ``score``: 1 where the asked
        team has then won the game, 0 where another has (or nobody has: a round with no winner
        ends the game), else the value of the game from the next round."""
        spec = self.machine.spec
        players = spec.players
        rows: Payoff = [[0] * players]
        leaders_vary = self.table.rules.pride_next_round != PrideNextRound.NO
        for winner in range(players):
            team = spec.team_of[winner]
            after = tuple(n + (i == team) for i, n in enumerate(score))
            if after[team] >= 2:
                rows.append([1 if team == self.team else 0] * players)
            elif leaders_vary:
                rows.append([self.value(after, leader) for leader in range(players)])
            else:
                rows.append([self.value(after, winner)] * players)
        return rows

    def start(self, score: Score, leader: int) -> KState:
        """The first bout of the round played at ``score``, dealt as the position says."""
        spec = self.machine.spec
        hands = self.table.later_rounds[sum(score) - self.first - 1]
        return self.machine.start_of_bout([spec.mask_of(hand) for hand in hands], leader, score)

    def value(self, score: Score, leader: int) -> Value:
        """The value of the game from the round played at ``score``, led by ``leader``."""
        known = self.values.get((score, leader))
        if known is not None:
            return known
        params = SearchParams(constant_sum=self.concept is Concept.MINIMAX, mode=self.mode,
                              budget=self.left(), progress=self.progress,
                              payoff=self.payoff(score))
        search = self.searches(self.machine, self.maximising, params)
        try:
            found = search.search(self.start(score, leader), 0, 1)
        finally:
            self.nodes += search.nodes
            self.states += search.states
        self.values[(score, leader)] = found
        return found

    def left(self) -> Budget:
        """What is left of the budget."""
        return self.budget.remaining(self.nodes, perf_counter() - self.started)
