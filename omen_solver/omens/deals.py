"""Random deals, seeded: the positions of a game start or of a later round (rules file 000,
"Setup" and "End of a Round").

* **First round** (:data:`FIRST`): each player gets one Absolute face up; teams and the first
  leader come from the Absolutes (:func:`omen_solver.omens.state.derive_teams`); with 4 or 5
  players the undealt Absolutes go back to the box; the other cards are shuffled and dealt up
  to the hand sizes of :func:`omen_solver.omens.table.deal_sizes`.
* **Later round** (:data:`LATER`): the teams are drawn as at a game start, then every card
  not in the box (option ``reshuffle_absolutes``) is shuffled and dealt, so a player may hold
  several Absolutes or none; the round is led by a seat drawn at random (the winner of the
  round before).

The same seed gives the same deal on every machine (:class:`random.Random`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from omen_solver.errors import OmenSolverError
from omen_solver.omens.state import OmensState, derive_teams
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Table, deal_sizes

__all__ = ["FIRST", "KINDS", "LATER", "Deal", "deal_position", "random_deal"]

FIRST: Final = "first"
LATER: Final = "later"
KINDS: Final = (FIRST, LATER)


@dataclass(frozen=True)
class Deal:
    """A dealt round: hands (seats from 0 inside the library), teams, leader, boxed cards."""

    hands: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...]
    leader: int
    box: tuple[int, ...]
    seed: int
    kind: str

    def describe(self) -> str:
        """``deal 7 (first round): seat 1 [..] ...`` with seats from 1."""
        hands = "  ".join(f"seat {s + 1} {list(h)}" for s, h in enumerate(self.hands))
        return f"deal {self.seed} ({self.kind} round): {hands}; seat {self.leader + 1} leads"


def random_deal(table: Table, seed: int, kind: str = FIRST, cards: int | None = None) -> Deal:
    """A seeded random deal for ``table``'s players and catalogue. ``cards`` deals fewer cards
    to each hand than the rules (a smaller position from the same kind of deal): at a first
    round the Absolute and ``cards - 1`` others."""
    if kind not in KINDS:
        raise OmenSolverError(f"deal kind {kind!r}: expected one of {', '.join(KINDS)}")
    if cards is not None and (isinstance(cards, bool) or not isinstance(cards, int) or cards < 1):
        raise OmenSolverError(f"cards per hand: expected a whole number from 1, not {cards!r}")
    players = table.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # pragma: no cover - Table checks it
        raise OmenSolverError(f"Omens is played by 4 to 6 players, not {players}")
    catalogue = table.catalogue
    absolutes = list(catalogue.absolutes)
    if len(absolutes) < players:
        raise OmenSolverError(
            f"the catalogue has {len(absolutes)} Absolutes; {players} players need one each"
        )
    rng = random.Random(seed)
    rng.shuffle(absolutes)
    absolute_of = absolutes[:players]
    box = tuple(sorted(absolutes[players:]))
    teams = derive_teams(absolute_of)
    sizes = deal_sizes(players, teams, first_round=kind == FIRST)
    if cards is not None:
        sizes = tuple(min(size, cards) for size in sizes)
    if kind == FIRST:
        deck = sorted(set(catalogue) - set(catalogue.absolutes))
        rng.shuffle(deck)
        hands = []
        for seat in range(players):
            dealt, deck = deck[: sizes[seat] - 1], deck[sizes[seat] - 1 :]
            hands.append(tuple(sorted([absolute_of[seat], *dealt])))
        leader = max(range(players), key=lambda seat: absolute_of[seat])
    else:
        if table.rules.reshuffle_absolutes == "all":
            box = ()
        deck = sorted(set(catalogue) - set(box))
        rng.shuffle(deck)
        hands = []
        for seat in range(players):
            dealt, deck = deck[: sizes[seat]], deck[sizes[seat] :]
            hands.append(tuple(sorted(dealt)))
        leader = rng.randrange(players)
    return Deal(tuple(hands), teams, leader, box, seed, kind)


def deal_position(table: Table, deal: Deal) -> OmensState:
    """The state at the first bout of the dealt round."""
    dealt = {card for hand in deal.hands for card in hand}
    out = sorted(set(table.catalogue) - dealt - set(deal.box))
    return OmensState.start_of_bout(
        table, deal.hands, deal.teams, deal.leader, out=out, box=deal.box
    )
