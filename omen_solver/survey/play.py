"""Deals played forward to the positions real games reach (``docs/survey.md``).

A survey that plays its deals does so from the deal (a game start or a later round) with a
stated, seeded policy (:mod:`omen_solver.survey.policies`) for every seat, until the first
start of a bout where

* every hand holds at most ``K`` cards (``--until-cards K``), or
* ``B`` bouts have been played (``--after-bouts B``).

That bout start is the surveyed position. A round that ends before it is not surveyed: it is
counted apart, with its winner (rules file 000, "Goal of the Game": a hand of one card wins the
round, which can come before every hand is down to ``K``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from omen_solver.errors import OmenSolverError
from omen_solver.omens.state import OmensState
from omen_solver.survey.policies import Counts, Policy, Seats

__all__ = ["Line", "Reach", "bout_start", "line_seed", "play_to"]


@dataclass(frozen=True)
class Reach:
    """Where a deal's play stops: ``cards`` (every hand at most this many) or ``bouts``."""

    cards: int | None = None
    bouts: int | None = None

    def __post_init__(self) -> None:
        if (self.cards is None) == (self.bouts is None):
            raise OmenSolverError("a reach point is either --until-cards K or --after-bouts B")
        if self.cards is not None and self.cards < 2:
            raise OmenSolverError(
                f"--until-cards {self.cards}: a hand of 1 card at a bout start has already won "
                "the round (rules file 000, 'Goal of the Game'); choose 2 or more")
        if self.bouts is not None and self.bouts < 0:
            raise OmenSolverError(f"--after-bouts {self.bouts}: must be 0 or more")

    def reached(self, state: OmensState, bouts: int) -> bool:
        if self.cards is not None:
            return max(len(hand) for hand in state.hands) <= self.cards
        return bouts >= (self.bouts or 0)

    def label(self) -> str:
        if self.cards is not None:
            return f"the first bout start with at most {self.cards} cards in every hand"
        return f"the start of bout {(self.bouts or 0) + 1} (after {self.bouts} bouts)"

    def short(self) -> str:
        return f"K={self.cards}" if self.cards is not None else f"B={self.bouts}"


@dataclass(frozen=True)
class Line:
    """A deal played forward: the position reached (``None``: the round ended first)."""

    state: OmensState | None
    moves: tuple[str, ...]
    """Every move from the deal, canonical text (a line ``solve`` can replay)."""
    bouts: int
    """Bouts played before the position (or in the whole round when it ended first)."""
    counts: Counts
    winner_team: int | None = None
    """When the round ended first: the index of the team that won it (``None``: nobody)."""

    def to_json(self) -> dict[str, Any]:
        return {"moves": list(self.moves), "bouts": self.bouts, "play": self.counts.to_json()}


def bout_start(state: OmensState) -> bool:
    """No card in play and nothing pending: a bout is about to start."""
    return (not state.is_terminal() and not state.in_play and not state.pending
            and not any(state.played_this_bout(seat) for seat in range(state.num_players())))


def line_seed(seed: int, players: int, index: int, kind: str) -> str:
    """The seed of the play of deal ``(seed, players, index)``: its own generator, so a deal
    and its line are the same in any process and any order."""
    return f"omens-line:{seed}:{players}:{index}:{kind}"


def play_to(state: OmensState, reach: Reach, policy: Policy, rng: random.Random) -> Line:
    """Play ``state`` (the start of a round) forward with ``policy`` until ``reach``."""
    seats = Seats(policy, rng)
    seats.start(state)
    moves: list[str] = []
    first = state.bouts_played
    while not state.is_terminal():
        if bout_start(state) and reach.reached(state, state.bouts_played - first):
            return Line(state, tuple(moves), state.bouts_played - first, seats.counts)
        move = seats.move(state)
        after = state.apply_move(move)
        seats.observe(state, move, after)
        moves.append(state.move_to_string(move))
        state = after
    winner = state.winner
    team = None if winner is None else state.team_of(winner)
    return Line(None, tuple(moves), state.bouts_played - first, seats.counts, team)
