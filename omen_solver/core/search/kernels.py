"""A game kernel's part in a solve: it supplies searches, the solve analyses the root.

A game's descriptor may name a search kernel (:class:`omen_solver.core.game.Kernel`). Asked
about a position, the kernel either answers it whole (a :class:`SolveResult`: Omen's endgame
search) or prepares its searches and hands them back as a :class:`KernelRoot`: the root as its
searches see it, the budget left for them, and a :class:`~.root.RootSearches` for each side.
:func:`solve_kernel_root` then runs the same root analysis as the reference's
(:class:`~.root.TwoSidedRoot`, :func:`~.root.solve_maxn`) on those searches, carries the
principal variation on through the later rounds the kernel offers (a whole game of rounds),
and gives the answer back to the kernel for its last word (:meth:`KernelRoot.finish`). The
kernel never calls the analysis: the solve reads from the top down.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Protocol

from omen_solver.core.budget import Budget, Progress, deep_recursion
from omen_solver.core.game import GameState
from omen_solver.core.search.maxn import TieBreak
from omen_solver.core.search.moves import Report
from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
from omen_solver.core.search.root import RootSearches, TwoSidedRoot, solve_maxn
from omen_solver.errors import BudgetExceeded

__all__ = ["KernelRoot", "NextRound", "solve_kernel_root"]


@dataclass(frozen=True)
class NextRound:
    """The start of the next round of a game, once the root's round is over: its root, the
    budget, mode and searches to analyse it with, and the value it is known to have."""

    root: GameState[Any]
    budget: Budget
    mode: SimultaneousMode
    searches: RootSearches
    value: Fraction | int


class KernelRoot(Protocol):
    """What a game kernel hands the solve: its view of the root and the searches to analyse
    it with."""

    @property
    def root(self) -> GameState[Any]:
        """The root as the kernel's searches see it (a state of the game protocol)."""
        ...

    @property
    def budget(self) -> Budget:
        """What is left of the solve's budget for the root's searches."""
        ...

    @property
    def bounds(self) -> tuple[Fraction, Fraction]:
        """The return bounds the kernel's searches keep to."""
        ...

    @property
    def rounds_after(self) -> bool:
        """Whether play may go on past the root's round (:meth:`next_round`)."""
        ...

    def searches(self, team: int) -> RootSearches:
        """The searches for the team of that index (the asked one, or under max-n each team
        in turn for its paranoid guarantee)."""
        ...

    def maxn_search(self, tie: TieBreak, budget: Budget) -> Any:
        """A max-n search of the root under a tie-break (the interface of
        :class:`~omen_solver.core.search.maxn.MaxnSearch`)."""
        ...

    def spent(self) -> tuple[int, int]:
        """The nodes and table entries of the searches the kernel ran before the root's (the
        values of a game's later rounds), which the answer counts."""
        ...

    def next_round(self, state: GameState[Any]) -> NextRound | None:
        """At the end of a line of play: the next round to analyse, or ``None`` when play
        stops there. May raise :class:`BudgetExceeded`."""
        ...

    def finish(self, result: SolveResult) -> SolveResult:
        """The kernel's last word on the answer (what ran, its tables, its estimates)."""
        ...


def solve_kernel_root(
    kernel: KernelRoot,
    concept: Concept,
    team: int,
    mode: SimultaneousMode,
    progress: Progress | None,
    *,
    per_move: bool = True,
    report: Report | None = None,
) -> SolveResult:
    """The root analysis of :func:`omen_solver.core.search.solve` run on a kernel's searches:
    max-n told straight, or one minimax or paranoid solve; then the principal variation
    carried on through the later rounds; then the kernel's last word."""
    with deep_recursion():
        if concept is Concept.MAXN:
            def paranoid(index: int, left: Budget) -> SolveResult:
                return _analysis(kernel, Concept.PARANOID, index, left, SimultaneousMode.MIXED,
                                 progress, kernel.searches(index), per_move=False).run()

            result = solve_maxn(kernel.root, team, kernel.budget, True, progress,
                                paranoid=paranoid, make=kernel.maxn_search)
        else:
            result = _analysis(kernel, concept, team, kernel.budget, mode, progress,
                               kernel.searches(team), per_move=per_move, report=report).run()
        if kernel.rounds_after:
            result = _through_later_rounds(kernel, result, progress)
        return kernel.finish(result)


def _analysis(
    kernel: KernelRoot,
    concept: Concept,
    team: int,
    budget: Budget,
    mode: SimultaneousMode,
    progress: Progress | None,
    searches: RootSearches,
    *,
    per_move: bool,
    report: Report | None = None,
    root: GameState[Any] | None = None,
) -> TwoSidedRoot:
    return TwoSidedRoot(
        kernel.root if root is None else root, concept, team, budget, mode, True, True,
        kernel.bounds, progress, per_move=per_move, report=report, searches=searches,
    )


def _through_later_rounds(
    kernel: KernelRoot, result: SolveResult, progress: Progress | None
) -> SolveResult:
    """A game's answer: the nodes of every round searched, and the principal variation carried
    on through the later rounds (each analysed like the first) while play goes on."""
    line = list(result.principal_variation)
    spent_nodes, spent_states = kernel.spent()
    nodes = result.nodes + spent_nodes
    states = result.states + spent_states
    if not result.solved:
        return replace(result, nodes=nodes, states=states)
    state = kernel.root
    try:
        for text in line:
            state = _follow(state, text)
        while (after := kernel.next_round(state)) is not None:
            part = _analysis(kernel, result.concept, result.team, after.budget, after.mode,
                             progress, after.searches, per_move=False, root=after.root).run()
            nodes += part.nodes
            if not part.solved or part.value != after.value or not part.principal_variation:
                break
            line.extend(part.principal_variation)
            state = after.root
            for text in part.principal_variation:
                state = _follow(state, text)
    except BudgetExceeded:
        pass
    return replace(result, principal_variation=tuple(line), nodes=nodes, states=states)


def _follow(state: GameState[Any], text: str) -> GameState[Any]:
    """The state after a move of a principal variation (a joint one at an exchange)."""
    if state.is_simultaneous_node():
        return state.joint_child(state.string_to_joint(text))
    return state.child(state.string_to_action(text))
