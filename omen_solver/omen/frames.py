"""The frame protocol: one pending piece of a turn on the state's stack.

A frame is an immutable value (part of the state key). Its :meth:`Frame.prompt` says who
decides next and among which actions (or the chance outcomes), or returns ``None`` when the
frame proceeds on its own; then :meth:`Frame.run` does that automatic work. :meth:`Frame.apply`
carries out a chosen action. Both return a new state whose stack has the frame replaced,
removed, or covered by the frames it starts (which run first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from omen_solver.core.game import CHANCE
from omen_solver.omen.notation import Action
from omen_solver.omen.zones import Prompt

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["Frame", "chance", "decide"]


class Frame:
    """Base class of the frames; subclasses are frozen dataclasses."""

    __slots__ = ()

    def prompt(self, state: OmenState) -> Prompt | None:
        """The decision or chance event at this frame, or ``None`` to :meth:`run` it."""
        return None

    def run(self, state: OmenState) -> OmenState:
        raise NotImplementedError(f"{type(self).__name__} has no automatic step")

    def apply(self, state: OmenState, action: Action) -> OmenState:
        raise NotImplementedError(f"{type(self).__name__} takes no action")


def decide(player: int, actions: Iterable[Action]) -> Prompt:
    """A decision of ``player`` among ``actions`` (duplicates merged, sorted)."""
    return Prompt(player, tuple(sorted(set(actions))))


def chance(weights: Iterable[tuple[Action, int]]) -> Prompt:
    """A chance event: each outcome with probability proportional to its weight."""
    counts: Counter[Action] = Counter()
    for action, weight in weights:
        counts[action] += weight
    total = sum(counts.values())
    outcomes = sorted(counts)
    return Prompt(
        CHANCE, tuple(outcomes), tuple(Fraction(counts[action], total) for action in outcomes)
    )
