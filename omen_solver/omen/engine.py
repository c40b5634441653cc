"""The engine loop: apply an action, then play automatic frames until someone must decide.

Between frames the *state-based* rules are applied: the immediate reshuffle of the discard pile
into an empty deck (``reshuffle_timing = 'immediately'``) and the Priestesses' RITUAL
(``ritual_timing = 'state-based'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omen_solver.core.game import TERMINAL
from omen_solver.omen.draws import reshuffle_if_due
from omen_solver.omen.notation import Action
from omen_solver.omen.rituals import check_rituals
from omen_solver.omen.rules import RitualTiming
from omen_solver.omen.zones import Prompt

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["apply", "settle"]

AUTOMATIC_LIMIT = 100_000
"""Automatic frames in a row before the engine reports a rules loop (a bug or a card file whose
abilities trigger each other forever)."""


def _state_based(state: OmenState) -> OmenState:
    state = reshuffle_if_due(state)
    if state.rules.ritual_timing == RitualTiming.STATE_BASED:
        state = check_rituals(state, (state.active, 1 - state.active))
    return state


def settle(state: OmenState) -> OmenState:
    """Run automatic frames until a decision, a chance event or the end of the game."""
    for _ in range(AUTOMATIC_LIMIT):
        state = _state_based(state)
        if state.over or not state.stack:
            return state.but(over=True, prompt=Prompt(TERMINAL, ()))
        frame = state.stack[-1]
        prompt = frame.prompt(state)
        if prompt is not None:
            if not prompt.actions:
                raise RuntimeError(f"{type(frame).__name__} offers no action")
            return state.but(prompt=prompt)
        state = frame.run(state)
    raise RuntimeError(f"automatic play does not settle after {AUTOMATIC_LIMIT} steps: "
                       f"{state.stack[-3:]}")


def apply(state: OmenState, action: Action) -> OmenState:
    """The state after ``action`` (already checked legal), settled."""
    frame = state.stack[-1]
    return settle(frame.apply(state.but(trace=()), action))
