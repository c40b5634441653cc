"""The fixed facts of an Omens game: players, cards, rule options, and what is being solved.

A :class:`Table` is shared by every state of a game; it precomputes what the engine asks about
cards on every move (effect keyword, colours, timing) so the hot path only does look-ups.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.rules import AbsoluteTiming, OmensRules, make_rules
from omen_solver.omens.vocabulary import Effect

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "Placement", "Scope", "Table", "deal_sizes"]

MIN_PLAYERS = 4
MAX_PLAYERS = 6


class Scope(enum.Enum):
    """How far play goes before a state is terminal."""

    BOUT = "bout"
    """Terminal when the current bout is resolved; the bout winner's team scores 1."""
    ROUND = "round"
    """Terminal when the round is won; the round winner's team scores 1 (the default)."""
    GAME = "game"
    """Terminal when a team has won 2 rounds; new rounds are dealt by chance nodes."""


class Placement(NamedTuple):
    """A card in play: its value, the seat it lies in front of, and the seat that placed it."""

    card: int
    before: int
    by: int


def deal_sizes(
    players: int, teams: tuple[tuple[int, ...], ...], first_round: bool
) -> tuple[int, ...]:
    """Hand size after the deal, per seat (rules file 000, "Setup" and "End of a Round").

    4 players: 5 cards; 6 players: 4 cards; 5 players: 5 for the three-player team and 4 for
    the two-player team. In the first round the dealt Absolute is one of them.
    """
    del first_round  # the totals are the same; only the source of one card differs
    if players == 4:
        return (5,) * 4
    if players == 6:
        return (4,) * 6
    sizes = [0] * players
    for team in teams:
        for seat in team:
            sizes[seat] = 5 if len(team) == 3 else 4
    return tuple(sizes)


@dataclass(frozen=True, eq=False)
class Table:
    """Players, catalogue, rules and scope, with per-card look-ups precomputed."""

    players: int
    rules: OmensRules = field(default_factory=make_rules)
    catalogue: Catalogue = field(default_factory=default_catalogue)
    scope: Scope = Scope.ROUND
    later_rounds: tuple[tuple[tuple[int, ...], ...], ...] = ()
    """With scope ``game``: the hands dealt for the rounds after the current one, in order
    (each a hand per seat), instead of chance deals: a game analysed for a given deal."""
    later_from: int = 1
    """The number of rounds won in all when ``later_rounds[0]`` is dealt."""
    effect: Mapping[int, str] = field(init=False)
    colours: Mapping[int, frozenset[str]] = field(init=False)
    now: frozenset[int] = field(init=False)
    fear: frozenset[int] = field(init=False)
    labels: Mapping[int, str] = field(init=False)

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Omens is played by 4 to 6 players, not {self.players}")
        cards = self.catalogue
        object.__setattr__(self, "effect", {v: c.effect for v, c in cards.items()})
        object.__setattr__(self, "colours", {v: c.colours for v, c in cards.items()})
        now = {v for v, c in cards.items() if c.is_now}
        if self.rules.absolute_timing == AbsoluteTiming.END:
            now -= set(cards.absolutes)
        object.__setattr__(self, "now", frozenset(now))
        object.__setattr__(self, "fear", frozenset(cards.with_effect(Effect.FEAR)))
        object.__setattr__(self, "labels", {v: c.label() for v, c in cards.items()})

    def name(self, card: int) -> str:
        """``Law (15)``."""
        return self.labels[card]

    def has_colour(self, card: int, colour: str) -> bool:
        return colour == "any" or colour in self.colours[card]

    def seat_after(self, seat: int) -> int:
        """The next seat clockwise: the player to one's left."""
        return (seat + 1) % self.players
