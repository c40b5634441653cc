"""Seeded random Omens deals, as at the start of a game (rules file 000, "Setup").

Each player is dealt one Absolute face up; the teams and the leader follow from the Absolutes
(:func:`omen_solver.omens.state.derive_teams`; the highest Absolute leads). The rest of each hand
comes from the 29 other cards. The hand size is a parameter: the rulebook's deal (5 cards each
with 4 players, 4 with 6, 5 and 4 with 5) or any smaller size for every seat, so that surveys can
be run where the exact solver is fast and re-run on full deals when it is faster still.

A deal is named by ``(seed, players, index)`` and drawn from its own generator, so the same deal
comes out whichever process draws it and in whatever order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.errors import DealError
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.rules import OmensRules
from omen_solver.omens.state import OmensState, derive_teams
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Scope, Table, deal_sizes

__all__ = [
    "FIRST",
    "KINDS",
    "LATER",
    "Deal",
    "DealError",
    "draw_deal",
    "hand_sizes",
    "position_toml",
]

MIN_HAND = 2
"""A hand of 1 card at the start of a bout has already won the round (rules file 000, "Goal")."""


@dataclass(frozen=True)
class Deal:
    """One dealt position: hands (0-based seats inside), teams, leader and the box."""

    seed: int
    players: int
    index: int
    hands: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...]
    leader: int
    box: tuple[int, ...]
    kind: str = "first"

    @property
    def ident(self) -> str:
        """``4p-17``: players and index; unique within a survey (one seed per survey)."""
        return f"{self.players}p-{self.index}"

    def state(
        self, rules: OmensRules, scope: Scope, catalogue: Catalogue | None = None
    ) -> OmensState:
        """The position at the first bout of the game, under ``rules`` and ``scope``."""
        catalogue = catalogue or default_catalogue()
        held = {card for hand in self.hands for card in hand}
        out = sorted(set(catalogue) - held - set(self.box))
        table = Table(self.players, rules, catalogue, scope)
        return OmensState.start_of_bout(
            table, self.hands, self.teams, self.leader, out=out, box=self.box
        )

    def holder(self, card: int) -> int | None:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [list(hand) for hand in self.hands],
            "teams": [[seat + 1 for seat in team] for team in self.teams],
            "leader": self.leader + 1,
            "box": list(self.box),
        }


def hand_sizes(
    players: int, teams: tuple[tuple[int, ...], ...], cards: int | None
) -> tuple[int, ...]:
    """The rulebook's deal when ``cards`` is ``None``, else ``cards`` for every seat."""
    full = deal_sizes(players, teams, first_round=True)
    if cards is None:
        return full
    return (cards,) * players


def check_size(players: int, cards: int | None) -> None:
    """Bad players or hand size raise :class:`DealError` naming the value."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DealError(f"players {players}: Omens is played by {MIN_PLAYERS} to {MAX_PLAYERS}")
    largest = 5 if players < 6 else 4
    if cards is not None and not MIN_HAND <= cards <= largest:
        raise DealError(
            f"cards {cards}: a hand holds {MIN_HAND} to {largest} cards with {players} players"
        )


FIRST: Final = "first"
LATER: Final = "later"
KINDS: Final = (FIRST, LATER)
"""A game start, or a later round (rules file 000, "End of a Round")."""


def draw_deal(seed: int, players: int, index: int, cards: int | None = None,
              catalogue: Catalogue | None = None, kind: str = FIRST,
              reshuffle_all: bool = False) -> Deal:
    """The deal ``(seed, players, index)`` with ``cards`` per hand (``None``: the rulebook's).

    ``kind = "later"``: a later round. The teams are drawn as at a game start (the Absolutes
    dealt then decide them); then every card but the boxed Absolutes (all of them when
    ``reshuffle_all``, option ``reshuffle_absolutes = "all"``) is shuffled and dealt, so a
    player may hold several Absolutes or none, and the round is led by a seat drawn at random
    (the winner of the round before). A later deal comes from its own generator, so the first
    deals of a seed stay what they were.
    """
    check_size(players, cards)
    if kind not in KINDS:
        raise DealError(f"deal kind {kind!r}: expected one of {', '.join(KINDS)}")
    catalogue = catalogue or default_catalogue()
    if kind == LATER:
        return _later(seed, players, index, cards, catalogue, reshuffle_all)
    rng = random.Random(f"omens-deal:{seed}:{players}:{index}")
    absolutes = list(catalogue.absolutes)
    dealt = rng.sample(absolutes, players)
    teams = derive_teams(dealt)
    sizes = hand_sizes(players, teams, cards)
    main = sorted(set(catalogue) - set(absolutes))
    rng.shuffle(main)
    hands: list[tuple[int, ...]] = []
    position = 0
    for seat in range(players):
        take = sizes[seat] - 1
        hands.append(tuple(sorted([dealt[seat], *main[position : position + take]])))
        position += take
    leader = max(range(players), key=lambda seat: dealt[seat])
    box = tuple(sorted(set(absolutes) - set(dealt)))
    return Deal(seed, players, index, tuple(hands), teams, leader, box, FIRST)


def _later(seed: int, players: int, index: int, cards: int | None, catalogue: Catalogue,
           reshuffle_all: bool) -> Deal:
    rng = random.Random(f"omens-deal:{seed}:{players}:{index}:later")
    absolutes = list(catalogue.absolutes)
    dealt = rng.sample(absolutes, players)
    teams = derive_teams(dealt)
    box = () if reshuffle_all else tuple(sorted(set(absolutes) - set(dealt)))
    deck = sorted(set(catalogue) - set(box))
    rng.shuffle(deck)
    hands: list[tuple[int, ...]] = []
    position = 0
    for size in hand_sizes(players, teams, cards):
        hands.append(tuple(sorted(deck[position : position + size])))
        position += size
    return Deal(seed, players, index, tuple(hands), teams, rng.randrange(players), box, LATER)


def position_toml(
    deal: Deal, preset: str, rules: dict[str, str], scope: Scope, title: str, description: str
) -> str:
    """The deal as a position file (``docs/omens-positions.md``) a person can solve again."""
    lines = [
        f"title = {_quote(title)}",
        f"description = {_quote(description)}",
        'game = "omens"',
        f"players = {deal.players}",
        f"teams = {[[s + 1 for s in team] for team in deal.teams]}",
        f"preset = {_quote(preset)}",
        f"scope = {_quote(scope.value)}",
        f"box = {list(deal.box)}",
    ]
    if rules:
        lines += ["", "[rules]", *(f"{name} = {_quote(value)}" for name, value in rules.items())]
    lines += ["", "[hands]"]
    lines += [f"{seat + 1} = {list(hand)}" for seat, hand in enumerate(deal.hands)]
    lines += ["", "[bout]", f"leader = {deal.leader + 1}", ""]
    return "\n".join(lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
