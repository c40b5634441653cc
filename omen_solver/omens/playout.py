"""Rounds played forward from random deals: the positions a real game passes through.

Two kinds of deal (rules file 000, "Setup" and "End of a Round"):

* ``start``: a game start. Each player is dealt one Absolute face up (the unused ones go to
  the box with 4 or 5 players), teams and the first leader follow from the Absolutes, and the
  other cards are dealt to the deal size: the engine's own chance nodes
  (:meth:`OmensState.new_game`), sampled.
* ``later``: a later round. The teams are those of a game start dealt the same way; every card
  but the boxed Absolutes (all of them under ``reshuffle_absolutes = "all"``) is shuffled and
  dealt to the deal size, so a player may hold several Absolutes or none; the round's leader
  (the previous round's winner) is a seat drawn at random.

:func:`play_forward` then plays the round on with random legal play (every legal move equally
likely, Luck's random discard as the rules draw it) and gives every position on the way where
a player is to play a card. One :class:`random.Random` draws the deal and the play, so a seed
fixes both. (The deals are :func:`omen_solver.omens.deals.deal_round`'s: they come from the
stream that also drives the play, which is what makes a puzzle's recorded seed and deal number
find it again.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from omen_solver.omens.actions import OmensAction
from omen_solver.omens.deals import random_move
from omen_solver.omens.state import OmensState

__all__ = ["Reached", "play_forward"]


@dataclass(frozen=True)
class Reached:
    """A position reached in a round played forward: a player is to play a card."""

    start: OmensState
    """The start of the bout in progress."""
    moves: tuple[tuple[OmensAction, ...], ...]
    """The moves made in the bout so far (each a single action or a joint exchange)."""
    state: OmensState
    """The position itself: ``start`` after ``moves``."""
    bouts: int
    """Bouts of the round played before this one."""


def play_forward(state: OmensState, rng: random.Random) -> Iterator[Reached]:
    """Every position where a player is to play a card (not to answer an effect), as the
    round from ``state`` (the start of a bout) is played on at random, until it is over."""
    bout_over = state.stop_predicate("bout")
    start, bouts = state, 0
    moves: list[tuple[OmensAction, ...]] = []
    while not state.is_terminal():
        if state.current_player() >= 0 and not state.pending:
            yield Reached(start, tuple(moves), state, bouts)
        move = random_move(state, rng)
        state = state.apply_move(move)
        moves.append(move)
        if bout_over(state):
            start, moves, bouts = state, [], bouts + 1
