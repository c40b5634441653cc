"""The one place surveys and advice call the exact solver.

Two teams are solved by minimax: the two values add up to the game's total (1: one team wins
the round). Three teams (6 players) are solved by paranoid search once per team: each team's
value is what it can guarantee against a coalition of the other two (max-n cannot value The
Absolute's secret exchange between two teams, a matrix game; paranoid can). The three values
need not add up to 1.

Two entry points:

* :func:`solve_exactly`: values **and** every optimal action, through the public
  :func:`omen_solver.core.search.solve` (whatever engine it picks);
* :func:`values_of`: **values only**, of a position and of positions after it, for the many
  searches of a survey (option impact) and of advice (each action in each deal). For Omens
  positions the search kernel answers (one search, and its transposition table, shared by all
  the positions asked about together), without the root analysis that finds every optimal
  action: about ten times fewer nodes for the same values. Where the kernel does not apply
  (``scope = "game"``, a rule setting it does not play) :func:`solve_exactly` answers.

Every search has a budget; one that runs out is :attr:`Outcome.known` ``False`` with the reason,
counted as unknown, never as a win or a loss.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from omen_solver.core.budget import Budget, deep_recursion
from omen_solver.core.enumeration.hooks import return_bounds
from omen_solver.core.game import GameState
from omen_solver.core.search import Concept, MatrixReport, default_team, solve
from omen_solver.core.search.moves import MovesReport
from omen_solver.errors import BudgetExceeded, KernelRefused
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope

__all__ = ["Outcome", "concept_for", "settle", "solve_exactly", "values_of"]

DEPTH_REASON = "the line of play is deeper than the search allows (play can loop)"


@dataclass(frozen=True)
class Outcome:
    """The exact values of a position for every team, or unknown."""

    values: tuple[Fraction, ...] | None
    """Each team's value (in the order of ``state.teams()``); ``None`` when unknown."""
    best_actions: tuple[str, ...]
    """Every optimal action (or joint action) of the side to move, canonical text (with three
    teams: from the search of the mover's team); empty from :func:`values_of`."""
    root_matrix: MatrixReport | None
    nodes: int
    seconds: float
    reason: str | None = None
    """Why the values are unknown (the budget, or a line of play that loops)."""
    bounds: tuple[tuple[Fraction, Fraction], ...] = ()
    """When unknown: each team's proven lower and upper bound (in the order of
    ``state.teams()``; at worst the game's own bounds, 0 and 1)."""

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
        outcome = _solve(state, budget)
    except RecursionError:
        outcome = Outcome(None, (), None, 0, 0.0, DEPTH_REASON)
    return _with_bounds(outcome, state)


def _with_bounds(outcome: Outcome, state: GameState[Any],
                 proven: dict[int, tuple[Fraction, Fraction]] | None = None) -> Outcome:
    """An unknown outcome with every team's bounds: those ``proven`` (team -> bounds), else
    the game's own (with two teams whose values add up to one total, each team's bounds give
    the other's)."""
    if outcome.known or outcome.bounds:
        return outcome
    low, high = return_bounds(state) or (Fraction(0), Fraction(1))
    teams = len(state.teams())
    proven = dict(proven or {})
    if teams == 2 and len(proven) == 1:
        (team, (lower, upper)), = proven.items()
        proven[1 - team] = (low + high - upper, low + high - lower)
    bounds = tuple(proven.get(team, (low, high)) for team in range(teams))
    return replace(outcome, bounds=bounds)


def _solve(state: GameState[Any], budget: Budget) -> Outcome:
    concept = concept_for(state)
    if concept is Concept.MINIMAX:
        result = solve(state, concept=concept, budget=budget)
        values = result.values if result.solved else None
        outcome = Outcome(values, result.best_actions, result.root_matrix, result.nodes,
                          result.seconds, None if values is not None else _reason(result))
        if values is None and result.lower is not None and result.upper is not None:
            outcome = _with_bounds(outcome, state, {result.team: (result.lower, result.upper)})
        return outcome
    mover = default_team(state)
    found: list[Fraction] = []
    best: tuple[str, ...] = ()
    matrix = None
    nodes, seconds = 0, 0.0
    for team, members in enumerate(state.teams()):
        seats = tuple(player + 1 for player in members)
        result = solve(state, concept=concept, team=seats, budget=budget)
        nodes, seconds = nodes + result.nodes, seconds + result.seconds
        if not result.solved or result.value is None:
            return Outcome(None, (), None, nodes, seconds, _reason(result))
        found.append(result.value)
        if team == mover:
            best, matrix = result.best_actions, result.root_matrix
    return Outcome(tuple(found), best, matrix, nodes, seconds)


def _reason(result: Any) -> str:
    return str(result.note or result.status.value)


# -- values from the per-move answers -----------------------------------------------------------


class _Decided(Exception):
    """The root's moves decide the value: the search stops there (no list of every optimal
    action is needed)."""

    def __init__(self, snapshot: MovesReport) -> None:
        super().__init__("decided")
        self.snapshot = snapshot


def _stop_when_decided(snapshot: MovesReport) -> None:
    if snapshot.value is not None:
        raise _Decided(snapshot)


def settle(state: GameState[Any], budget: Budget) -> Outcome:
    """The values of ``state`` by the solver's per-move answers
    (:mod:`omen_solver.core.search.moves`): the root's moves are searched by turns on shared
    tables, and the search stops as soon as they decide the value (one winning move is
    enough), without going on to list every optimal action. ``budget`` bounds each search (one
    with two teams, one per team with three). When it runs out, the bounds the moves proved
    are kept (:attr:`Outcome.bounds`).

    Two teams: the asked team is the first; the other's value is the round's total (1: a
    round has a winner) less it, as the value-only searches assume (:func:`values_of`).
    """
    concept = concept_for(state)
    teams = state.teams()
    asked = list(range(1 if concept is Concept.MINIMAX else len(teams)))
    found: list[Fraction] = []
    nodes, seconds = 0, 0.0
    for team in asked:
        seats = tuple(player + 1 for player in teams[team])
        try:
            with deep_recursion():
                result = solve(state, concept=concept, team=seats, budget=budget,
                               report=_stop_when_decided)
        except _Decided as decided:
            snapshot = decided.snapshot
            nodes, seconds = nodes + snapshot.nodes, seconds + snapshot.seconds
            assert snapshot.value is not None
            found.append(snapshot.value)
            continue
        except RecursionError:
            return _with_bounds(Outcome(None, (), None, nodes, seconds, DEPTH_REASON), state)
        nodes, seconds = nodes + result.nodes, seconds + result.seconds
        value = result.value if result.solved else None
        if value is None and result.lower is not None and result.lower == result.upper:
            value = result.lower
        if value is None:
            outcome = Outcome(None, (), None, nodes, seconds, _reason(result))
            # the teams already settled are exact; the teams not yet asked keep the game's
            # bounds
            proven = {index: (known, known) for index, known in enumerate(found)}
            if result.lower is not None and result.upper is not None:
                proven[team] = (result.lower, result.upper)
            return _with_bounds(outcome, state, proven)
        found.append(value)
    if concept is Concept.MINIMAX:
        found.append(Fraction(1) - found[0])
    return Outcome(tuple(found), (), None, nodes, seconds)


# -- values only ----------------------------------------------------------------------------


def values_of(states: Sequence[GameState[Any]], budget: Budget) -> list[Outcome]:
    """The values of each of ``states`` (positions of one table and one set of teams, e.g. the
    positions after each action of one deal). ``budget`` bounds the searches of all of them
    together; once it runs out, that position and the rest are unknown."""
    if not states:
        return []
    searches = _kernel_searches(states[0], budget)
    if searches is None:
        return [solve_exactly(state, budget) for state in states]
    outcomes: list[Outcome] = []
    stopped: str | None = None
    for state in states:
        if stopped is not None:
            outcomes.append(_with_bounds(Outcome(None, (), None, 0, 0.0, stopped), state))
            continue
        try:
            outcome = searches.values(state)
        except KernelRefused:
            outcome = solve_exactly(state, budget)
        else:
            stopped = outcome.reason
        outcomes.append(_with_bounds(outcome, state))
    return outcomes


class _KernelValues:
    """One kernel search per team (one for two teams), reused for every position asked."""

    def __init__(self, state: OmensState, budget: Budget) -> None:
        from omen_solver.omens.kernel.convert import from_engine
        from omen_solver.omens.kernel.machine import Machine
        from omen_solver.omens.kernel.params import SearchParams
        from omen_solver.omens.kernel.solve import make_search
        from omen_solver.omens.kernel.spec import compile_table

        teams = state.teams()
        self.spec = compile_table(state.table, teams)
        self.convert = from_engine
        machine = Machine(self.spec)
        players = state.num_players()
        count = 1 if len(teams) == 2 else len(teams)
        self.minimax = len(teams) == 2
        self.searches = [
            make_search(machine, [seat in teams[team] for seat in range(players)],
                        SearchParams(constant_sum=self.minimax, budget=budget))
            for team in range(count)
        ]

    def values(self, state: GameState[Any]) -> Outcome:
        """The values of ``state`` (raises :class:`KernelRefused` for a position the kernel
        does not start from)."""
        if not isinstance(state, OmensState):
            raise KernelRefused(f"{type(state).__name__} is not an Omens position")
        k = self.convert(self.spec, state)
        found: list[Fraction] = []
        before = self._nodes()
        start = time.perf_counter()
        try:
            with deep_recursion():
                for search in self.searches:
                    found.append(Fraction(search.search(k, 0, 1)))
        except BudgetExceeded as exceeded:
            return Outcome(None, (), None, self._nodes() - before,
                           time.perf_counter() - start, exceeded.reason)
        except RecursionError:
            return Outcome(None, (), None, self._nodes() - before,
                           time.perf_counter() - start, DEPTH_REASON)
        nodes, seconds = self._nodes() - before, time.perf_counter() - start
        if self.minimax:
            total = self.searches[0].total
            other = Fraction(1 if total is None else total) - found[0]
            found.append(other)
        return Outcome(tuple(found), (), None, nodes, seconds)

    def _nodes(self) -> int:
        return sum(search.nodes for search in self.searches)


def _kernel_searches(state: GameState[Any], budget: Budget) -> _KernelValues | None:
    """The kernel's value searches for ``state``'s table, or ``None`` where it does not apply."""
    if not isinstance(state, OmensState) or state.table.scope is Scope.GAME:
        return None
    try:
        return _KernelValues(state, budget)
    except KernelRefused:
        return None
