"""Monitors for the bounded exhaustive checks: each one a reading of the rule text that
watches the engine play (see :mod:`~omen_solver.omens.proofs.enumeration.walk`).

They do not ask the engine what the rule is: the resolution monitor follows the cards in play
from the moves themselves and works out from the rulebook where each must be once the bout is
over. (Law's constraint, the cards' conservation and the rounds' progress are proved on the
symbolic model: theorems law-binds-later-placements, bout-end-conservation, round-progress.)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from omen_solver.omens.actions import Verb
from omen_solver.omens.proofs.enumeration.walk import Monitor, Move
from omen_solver.omens.rules import AbsoluteTiming
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Placement

__all__ = ["ResolutionMonitor"]


@dataclass(frozen=True)
class _Bout:
    sizes: tuple[int, ...]
    """Hand sizes at the start of the bout."""
    front: tuple[Placement, ...] | None
    """The cards in play when the bout was resolved (until the bout is over)."""
    luck: tuple[int, int] | None
    """(seat, card) discarded by Luck."""


class ResolutionMonitor(Monitor):
    """The end of every bout, checked once the bout is over (Luck's discard and the cards'
    return included). ``returns``: every card in play that was not discarded is back in the
    hand of the player it lay in front of, and in no other hand (rules file 000, "Game
    Sequence"; omens-cards.md clarifications). ``shape``: when the bout was resolved, every
    player who held cards at its start had exactly one card in front of them and still held
    a card (the premise of theorem round-progress)."""

    def __init__(self, *, returns: bool = False, shape: bool = False) -> None:
        super().__init__()
        self.returns = returns
        self.shape = shape

    def start(self, state: OmensState) -> Hashable:
        return _Bout(tuple(len(hand) for hand in state.hands), None, None)

    def step(
        self,
        memo: Hashable,
        before: OmensState,
        move: Move,
        after: OmensState,
        resolved: Sequence[tuple[Placement, ...]],
    ) -> tuple[Hashable, str | None]:
        assert isinstance(memo, _Bout)
        front = resolved[-1] if resolved else memo.front
        luck = memo.luck
        for action in move:
            if action.verb is Verb.DISCARDS:
                luck = (action.seat, action.card)
        if front is None:
            return memo, None
        if after.phase == Phase.END and not after.is_terminal():
            return _Bout(memo.sizes, front, luck), None
        problem = self._check(memo.sizes, front, luck, after)
        return _Bout(tuple(len(hand) for hand in after.hands), None, None), problem

    def _check(
        self,
        sizes: tuple[int, ...],
        front: tuple[Placement, ...],
        luck: tuple[int, int] | None,
        after: OmensState,
    ) -> str | None:
        summary = after.last_bout
        assert summary is not None
        gone = set(summary.discarded)
        kept = [p for p in front if p.card not in gone]
        self.tally["bouts checked"] += 1
        if self.returns and after.table.rules.absolute_timing == AbsoluteTiming.NOW:
            for p in kept:
                holders = [s for s, hand in enumerate(after.hands) if p.card in hand]
                if holders != [p.before]:
                    where = ", ".join(f"seat {s + 1}" for s in holders) or "no hand"
                    return (
                        f"{p.card} lay in front of seat {p.before + 1} (placed by seat "
                        f"{p.by + 1}) and was not discarded, but it is in {where}"
                    )
        if self.shape:
            for seat, size in enumerate(sizes):
                if not size:
                    continue
                lying = [p.card for p in front if p.before == seat]
                back = sum(1 for p in kept if p.before == seat)
                mid = len(after.hands[seat]) - back + (1 if luck and luck[0] == seat else 0)
                if len(lying) != 1 or mid < 1:
                    return (
                        f"when the bout was resolved seat {seat + 1} had {len(lying)} card(s) "
                        f"in front of it ({lying}) and {mid} in hand"
                    )
        return None
