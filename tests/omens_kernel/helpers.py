"""Random material for the kernel's differential tests: rule options, deals, play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from omen_solver.omens.deals import FIRST, LATER, deal_position, random_deal
from omen_solver.omens.rules import OmensRules, make_rules, option_specs
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

NOW_EFFECTS = ("law", "dream", "jealousy", "secret", "wrath", "betrayal", "absolute")
"""The immediate effects (omens-cards.md, timing column)."""


PRESETS = ("rulebook", "gamepark")


def random_rules(rng: random.Random, preset: str | None = None) -> OmensRules:
    """A preset (rulebook or gamepark, or the one named) with each option overridden half of
    the time."""
    overrides = {
        spec.name: rng.choice(list(spec.settings))
        for spec in option_specs()
        if rng.random() < 0.5
    }
    chosen = rng.choice(PRESETS)
    return make_rules(preset or chosen, overrides)


def random_round(rng: random.Random, players: int, scope: Scope = Scope.ROUND,
                 preset: str | None = None) -> OmensState:
    """A whole round from a seeded deal (a game start or a later round), random options."""
    table = Table(players, random_rules(rng, preset), scope=scope)
    deal = random_deal(table, rng.randrange(10**9), rng.choice([FIRST, LATER]))
    return deal_position(table, deal)


def random_small(rng: random.Random, players: int, cards: int,
                 preset: str | None = None) -> OmensState:
    """A bout start with ``cards`` random cards per hand (any of the 35), random options."""
    table = Table(players, random_rules(rng, preset))
    deck = list(table.catalogue)
    rng.shuffle(deck)
    hands = [sorted(deck[seat * cards : (seat + 1) * cards]) for seat in range(players)]
    seats = list(range(players))
    rng.shuffle(seats)
    teams = (
        [seats[0:2], seats[2:4], seats[4:6]] if players == 6 else [seats[:2], seats[2:]]
    )
    return OmensState.start_of_bout(table, hands, teams, rng.randrange(players))


MAX_LINE = 400
"""Actions of one random line at most: a round plays far fewer (6 players, 5 cards each, every
card with its choices); past that the line repeats a bout for ever."""


@dataclass
class Coverage:
    """What random play met: bouts, moves, the immediate effects played, exchanges."""

    bouts: int = 0
    rounds: int = 0
    moves: int = 0
    effects: set[str] = field(default_factory=set)
    exchanges: int = 0
    endless: int = 0
    """Random lines cut because a bout repeated for ever."""
    presets: set[str] = field(default_factory=set)

    def note(self, state: OmensState, text: str) -> None:
        self.moves += 1
        if "&" in text or "gives" in text:
            self.exchanges += 1


def walk(rng: random.Random, state: OmensState) -> Iterator[OmensState]:
    """The states of one random line of play to the end of ``state``'s scope (at most
    :data:`MAX_LINE` actions: a bout that repeats for ever is cut)."""
    for _ in range(MAX_LINE):
        yield state
        if state.is_terminal():
            return
        moves = state.moves()
        state = state.apply_move(moves[rng.randrange(len(moves))])
