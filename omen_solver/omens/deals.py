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

Three ways to draw one, each its own stream of random numbers, kept so that what was drawn
before is drawn again (the same seed gives the same deal on every machine,
:class:`random.Random`):

* :func:`random_deal` ``(table, seed, kind)``: a deal alone from a seed (``solve --deal``,
  the benchmarks, the web board);
* :func:`draw_deal` ``(seed, players, index)``: the survey's deals, each named by its seed,
  player count and index and drawn from a generator of its own, so the same deal comes out
  whichever process draws it; hands may be smaller than the rules' (``cards``);
* :func:`deal_round` ``(table, kind, rng)``: a deal from the generator that then plays the
  round on (:mod:`omen_solver.omens.playout`), so that a puzzle's seed finds it again; a game
  start is dealt by the engine's own chance nodes, sampled.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.core.game import CHANCE
from omen_solver.errors import DealError, OmenSolverError
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.rules import OmensRules, ReshuffleAbsolutes
from omen_solver.omens.state import OmensState, Phase, derive_teams
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Scope, Table, deal_sizes

__all__ = [
    "FIRST",
    "KINDS",
    "LATER",
    "MIN_HAND",
    "Deal",
    "DealKind",
    "check_size",
    "deal_position",
    "deal_round",
    "draw_deal",
    "hand_sizes",
    "random_deal",
    "random_move",
]

FIRST: Final = "first"
LATER: Final = "later"
KINDS: Final = (FIRST, LATER)


class DealKind(enum.Enum):
    """Which deal of a game a deal drawn by :func:`deal_round` imitates."""

    START = "start"
    """The first round: one Absolute per player, teams and leader from the Absolutes."""
    LATER = "later"
    """A later round: every card in play shuffled together, any seat leading."""


MIN_HAND = 2
"""A hand of 1 card at the start of a bout has already won the round (rules file 000, "Goal")."""


@dataclass(frozen=True)
class Deal:
    """A dealt round: hands (seats from 0 inside the library), teams, leader, boxed cards, and
    how it was drawn (``seed``, ``kind``; ``players`` and ``index`` name a survey's deal)."""

    hands: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...]
    leader: int
    box: tuple[int, ...]
    seed: int
    kind: str = FIRST
    index: int = 0

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def ident(self) -> str:
        """``4p-17``: players and index; unique within a survey (one seed per survey)."""
        return f"{self.players}p-{self.index}"

    def describe(self) -> str:
        """``deal 7 (first round): seat 1 [..] ...`` with seats from 1."""
        hands = "  ".join(f"seat {s + 1} {list(h)}" for s, h in enumerate(self.hands))
        return f"deal {self.seed} ({self.kind} round): {hands}; seat {self.leader + 1} leads"

    def state(
        self, rules: OmensRules, scope: Scope, catalogue: Catalogue | None = None
    ) -> OmensState:
        """The position at the first bout of the round, under ``rules`` and ``scope``."""
        return deal_position(Table(self.players, rules, catalogue or default_catalogue(), scope),
                             self)

    def holder(self, card: int) -> int | None:
        """The seat (from 0) whose hand holds ``card``, if any."""
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
        if table.rules.reshuffle_absolutes == ReshuffleAbsolutes.ALL:
            box = ()
        deck = sorted(set(catalogue) - set(box))
        rng.shuffle(deck)
        hands = []
        for seat in range(players):
            dealt, deck = deck[: sizes[seat]], deck[sizes[seat] :]
            hands.append(tuple(sorted(dealt)))
        leader = rng.randrange(players)
    return Deal(tuple(hands), teams, leader, box, seed, kind)


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


def draw_deal(seed: int, players: int, index: int, cards: int | None = None,
              catalogue: Catalogue | None = None, kind: str = FIRST,
              reshuffle_all: bool = False) -> Deal:
    """The survey's deal ``(seed, players, index)`` at a game start with ``cards`` per hand
    (``None``: the rulebook's), from a generator of its own.

    ``kind = "later"``: a later round. The teams are drawn as at a game start (the Absolutes
    dealt then decide them); then every card but the boxed Absolutes (all of them when
    ``reshuffle_all``, option ``reshuffle_absolutes = "all"``) is shuffled and dealt, so a
    player may hold several Absolutes or none, and a seat drawn at random leads (the winner of
    the round before). A later deal comes from a generator of its own too, so the first deals
    of a seed stay what they were.
    """
    check_size(players, cards)
    if kind not in KINDS:
        raise DealError(f"deal kind {kind!r}: expected one of {', '.join(KINDS)}")
    catalogue = catalogue or default_catalogue()
    if kind == LATER:
        return _later_deal(seed, players, index, cards, catalogue, reshuffle_all)
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
    return Deal(tuple(hands), teams, leader, box, seed, FIRST, index)


def _later_deal(seed: int, players: int, index: int, cards: int | None, catalogue: Catalogue,
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
    return Deal(tuple(hands), teams, rng.randrange(players), box, seed, LATER, index)


def random_move(state: OmensState, rng: random.Random) -> tuple[OmensAction, ...]:
    """A random legal move (or chance outcome, as likely as the rules make it)."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        return (action,)
    return rng.choice(state.moves())


def deal_round(table: Table, kind: DealKind, rng: random.Random) -> OmensState:
    """A freshly dealt round from ``rng``, at the start of its first bout (``table.scope`` must
    be ``round``: the position is solved for the round)."""
    if table.scope is not Scope.ROUND:
        raise ValueError(f"deals are made for the round scope, not {table.scope.value!r}")
    if kind is DealKind.START:
        state = OmensState.new_game(table)
        while state.phase == Phase.DEAL:
            state = state.child(random_move(state, rng))
        return state
    absolutes = list(table.catalogue.absolutes)
    rng.shuffle(absolutes)
    dealt = absolutes[: table.players]
    teams = derive_teams(dealt)
    every = table.rules.reshuffle_absolutes == ReshuffleAbsolutes.ALL
    box = [] if every else absolutes[table.players :]
    deck = sorted(set(table.catalogue) - set(box))
    rng.shuffle(deck)
    hands: list[list[int]] = []
    for size in deal_sizes(table.players, teams, first_round=False):
        hands.append(deck[:size])
        deck = deck[size:]
    leader = rng.randrange(table.players)
    return OmensState.start_of_bout(table, hands, teams, leader, box=box)


def deal_position(table: Table, deal: Deal) -> OmensState:
    """The state at the first bout of the dealt round."""
    dealt = {card for hand in deal.hands for card in hand}
    out = sorted(set(table.catalogue) - dealt - set(deal.box))
    return OmensState.start_of_bout(
        table, deal.hands, deal.teams, deal.leader, out=out, box=deal.box
    )
