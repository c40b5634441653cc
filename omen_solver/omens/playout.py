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
fixes both. (:mod:`omen_solver.omens.deals` draws a deal alone from a seed, for ``solve
--deal``; the deals here come from the stream that also drives the play, which is what makes
a puzzle's recorded seed and deal number find it again.)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator
from dataclasses import dataclass

from omen_solver.core.game import CHANCE
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.state import OmensState, Phase, derive_teams
from omen_solver.omens.table import Scope, Table, deal_sizes

__all__ = ["DealKind", "Reached", "deal_round", "play_forward", "random_move"]


class DealKind(enum.Enum):
    """Which deal of a game a random deal imitates."""

    START = "start"
    """The first round: one Absolute per player, teams and leader from the Absolutes."""
    LATER = "later"
    """A later round: every card in play shuffled together, any seat leading."""


def deal_round(table: Table, kind: DealKind, rng: random.Random) -> OmensState:
    """A freshly dealt round, at the start of its first bout (``table.scope`` must be
    ``round``: the position is solved for the round)."""
    if table.scope is not Scope.ROUND:
        raise ValueError(f"deals are made for the round scope, not {table.scope.value!r}")
    if kind is DealKind.START:
        state = OmensState.new_game(table)
        while state.phase == Phase.DEAL:
            state = state.apply_move(random_move(state, rng))
        return state
    absolutes = list(table.catalogue.absolutes)
    rng.shuffle(absolutes)
    dealt = absolutes[: table.players]
    teams = derive_teams(dealt)
    box = [] if table.rules.reshuffle_absolutes == "all" else absolutes[table.players :]
    deck = sorted(set(table.catalogue) - set(box))
    rng.shuffle(deck)
    hands: list[list[int]] = []
    for size in deal_sizes(table.players, teams, first_round=False):
        hands.append(deck[:size])
        deck = deck[size:]
    leader = rng.randrange(table.players)
    return OmensState.start_of_bout(table, hands, teams, leader, box=box)


def random_move(state: OmensState, rng: random.Random) -> tuple[OmensAction, ...]:
    """A random legal move (or chance outcome, as likely as the rules make it)."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        return (action,)
    return rng.choice(state.moves())


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
