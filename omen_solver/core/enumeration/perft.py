"""Perft: exact counts of the legal action sequences from a position.

The tree below a position is cut at a depth (a number of plies, see
:mod:`omen_solver.core.enumeration.tree` for what one ply is), at a stopping point named by the
game (``bout``, ``round``: see :mod:`omen_solver.core.enumeration.hooks`), or at both. Its
leaves are the counted sequences:

* ``at_depth``: the sequences of exactly ``depth`` plies (the count chess perft reports);
* ``ended``: the shorter ones that stop at a terminal state or at a stopping point;
* ``sequences = at_depth + ended``.

With no depth and no stopping point, every sequence runs to a terminal state. ``nodes`` is the
size of the cut tree (every prefix of every sequence, the root included) and ``states`` the
number of distinct states in it by :meth:`GameState.key`, so the size of the state space is
known alongside the size of the tree.

By default the counts of a subtree are computed once per ``(key, plies left)`` and reused at
every transposition: the counts are those of the full tree, the work is that of the graph.
``transpositions=False`` walks the whole tree (a check on the game's ``key``).

The memo and the set of distinct states grow with the walk: ``max_memory`` bounds them (a
:class:`~omen_solver.core.budget.MemoryCap` on the process's memory, and always a stop short of
an address-space limit); past it, or if the system refuses memory, the answer is "unknown"
with the reason, like a budget that runs out.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from omen_solver.core.budget import (
    Budget,
    MemoryCap,
    NodeMeter,
    Progress,
    Status,
)
from omen_solver.core.enumeration.hooks import StopPredicate, resolve_stop
from omen_solver.core.enumeration.tree import branches, child_states
from omen_solver.core.game import TERMINAL, GameState
from omen_solver.core.walk import Step, drive
from omen_solver.errors import BudgetExceeded, OmenSolverError

__all__ = ["PerftCount", "PerftResult", "perft"]


@dataclass(frozen=True, slots=True)
class PerftCount:
    """The counts of one (sub)tree."""

    sequences: int
    """Leaves of the cut tree: ``at_depth + ended``."""
    at_depth: int
    """Sequences of exactly the requested depth."""
    ended: int
    """Shorter sequences ending at a terminal state or a stopping point."""
    nodes: int
    """Positions in the cut tree, the root included."""

    def to_json(self) -> dict[str, int]:
        return {
            "sequences": self.sequences,
            "at_depth": self.at_depth,
            "ended": self.ended,
            "nodes": self.nodes,
        }


_Counts = tuple[int, int, int, int]
_LEAF_AT_DEPTH: _Counts = (1, 1, 0, 1)
_LEAF_ENDED: _Counts = (1, 0, 1, 1)


@dataclass(frozen=True, slots=True)
class PerftResult:
    """The answer of :func:`perft`. On ``UNKNOWN`` no count is given, only the work done."""

    status: Status
    depth: int | None
    stop: str | None
    total: PerftCount | None
    divide: tuple[tuple[str, PerftCount], ...]
    """The counts under each legal action (joint action, chance outcome) of the root."""
    states: int | None
    """Distinct states (by key) in the cut tree, the root included."""
    visited: int
    """Nodes the walk entered (less than ``total.nodes`` when transpositions are merged)."""
    seconds: float
    reason: str | None = None
    """Why the walk stopped early, when it did."""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": "complete" if self.status is Status.SOLVED else "unknown",
            "depth": self.depth,
            "to": self.stop,
            "sequences": None if self.total is None else self.total.sequences,
            "at_depth": None if self.total is None else self.total.at_depth,
            "ended": None if self.total is None else self.total.ended,
            "nodes": None if self.total is None else self.total.nodes,
            "states": self.states,
            "visited": self.visited,
            "seconds": round(self.seconds, 6),
            "divide": {text: count.to_json() for text, count in self.divide},
            "reason": self.reason,
        }


class _Counter(NodeMeter):
    """The count, a walk (:mod:`omen_solver.core.walk`), with its memo and the set of distinct
    keys."""

    def __init__(
        self,
        stop: StopPredicate | None,
        transpositions: bool,
        budget: Budget | None,
        progress: Progress | None,
        memory: MemoryCap,
    ) -> None:
        super().__init__(budget, progress, memory)
        self.stop = stop
        self.transpositions = transpositions
        self.memo: dict[tuple[Hashable, int | None], _Counts] = {}
        self.keys: set[Hashable] = set()

    def count(self, state: GameState[Any], left: int | None) -> _Counts:
        """The counts below a non-root ``state`` with ``left`` plies to go (``None``: no cut)."""
        return drive(self.node(state, left), self)

    def node(self, state: GameState[Any], left: int | None) -> Step[_Counts]:
        """:meth:`count` as a node of the walk."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        key = state.key()
        memo_key = (key, left)
        if self.transpositions:
            known = self.memo.get(memo_key)
            if known is not None:
                return known
        self.keys.add(key)
        player = state.current_player()
        if left == 0:
            counts = _LEAF_AT_DEPTH
        elif player == TERMINAL or (self.stop is not None and self.stop(state)):
            counts = _LEAF_ENDED
        else:
            counts = yield from self.below(state, player, None if left is None else left - 1)
        if self.transpositions:
            self.memo[memo_key] = counts
        return counts

    def below(self, state: GameState[Any], player: int, left: int | None) -> Step[_Counts]:
        sequences = at_depth = ended = 0
        nodes = 1
        for child in child_states(state, player):
            s, a, e, n = yield self.node(child, left)
            sequences += s
            at_depth += a
            ended += e
            nodes += n
        return sequences, at_depth, ended, nodes


def perft(
    state: GameState[Any],
    depth: int | None = None,
    *,
    stop: str | StopPredicate | None = None,
    transpositions: bool = True,
    budget: Budget | None = None,
    progress: Progress | None = None,
    max_memory: int | None = None,
) -> PerftResult:
    """Count the legal action sequences from ``state``, with a divide by root action.

    ``depth`` cuts the tree after that many plies; ``stop`` cuts it at a stopping point, given
    by name (asked of the game, e.g. ``"bout"``) or as a predicate on states. The root itself
    is never a stopping point. Without either, sequences run to terminal states (the budget
    then guards against a tree too large to walk). ``max_memory`` (bytes) bounds the
    process's resident memory while the walk keeps its memo. When the budget or the memory
    runs out the result is ``UNKNOWN`` and carries no count, only the reason.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise OmenSolverError(f"depth: expected a whole number of plies ≥ 0, got {depth!r}")
    predicate = resolve_stop(state, stop)
    stop_name = stop if isinstance(stop, str) else None
    counter = _Counter(predicate, transpositions, budget, progress, MemoryCap(max_memory))
    try:
        total, divide = _count_root(counter, state, depth)
    except BudgetExceeded as exceeded:
        return PerftResult(
            Status.UNKNOWN, depth, stop_name, None, (), None, exceeded.nodes, exceeded.seconds,
            reason=exceeded.reason,
        )
    except MemoryError:
        counter.memo.clear()  # room to answer
        counter.keys.clear()
        return PerftResult(
            Status.UNKNOWN, depth, stop_name, None, (), None, counter.nodes, counter.elapsed(),
            reason="out of memory: the system refused more (lower the depth, or raise the "
            "memory it may use)",
        )
    return PerftResult(
        Status.SOLVED, depth, stop_name, total, divide, len(counter.keys), counter.nodes,
        counter.elapsed(),
    )


def _count_root(
    counter: _Counter, state: GameState[Any], depth: int | None
) -> tuple[PerftCount, tuple[tuple[str, PerftCount], ...]]:
    counter.nodes += 1
    counter.keys.add(state.key())
    if depth == 0:
        return PerftCount(*_LEAF_AT_DEPTH), ()
    if state.current_player() == TERMINAL:
        return PerftCount(*_LEAF_ENDED), ()
    left = None if depth is None else depth - 1
    divide = []
    sequences = at_depth = ended = 0
    nodes = 1
    for branch in branches(state):
        s, a, e, n = counter.count(branch.child, left)
        divide.append((branch.text, PerftCount(s, a, e, n)))
        sequences += s
        at_depth += a
        ended += e
        nodes += n
    return PerftCount(sequences, at_depth, ended, nodes), tuple(divide)
