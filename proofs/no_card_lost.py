"""No card is lost or duplicated by any effect, over whole bouts."""

from __future__ import annotations

from omen_solver.omens.smt.enumeration import (
    EnumerationTheorem,
    Move,
    Mutant,
    Resolved,
    Space,
    deals,
    rebuild,
)
from omen_solver.omens.smt.monitors import ConservationMonitor
from omen_solver.omens.smt.theorem import rule
from omen_solver.omens.state import OmensState

ABSOLUTE, BETRAYAL, WRATH = 32, 29, 28
POOL = (9, 12, 13, 21, 23)
"""Lie 9, Fear 12, Luck 13, Dream 21, Jealousy 23: with The Absolute, Betrayal and Wrath, every
card that moves cards, one that resists discards and two that cause them."""


def space() -> Space:
    return Space(
        description="4 players, seat 1 leads, 2 cards in every hand; seat 1 holds The Absolute "
        "(32), seat 2 Betrayal (29), seat 3 Wrath (28), and the other five cards, Lie 9, Fear "
        "12, Luck 13, Dream 21 and Jealousy 23, are dealt every possible way; every legal "
        "sequence of moves to the end of the bout (Luck's discard and The Absolute's "
        "simultaneous exchange included), default options",
        deals=deals(4, [{0: [ABSOLUTE], 1: [BETRAYAL], 2: [WRATH]}], POOL, 2),
    )


def _wrath_loses(
    before: OmensState, move: Move, after: OmensState, resolved: Resolved
) -> OmensState:
    """The broken rule: the card Wrath sends back is lost instead of going to the hand."""
    del before, resolved
    for action in move:
        if action.choice[:1] == ("return",):
            card = int(action.choice[1])
            hands = tuple(tuple(c for c in hand if c != card) for hand in after.hands)
            return rebuild(after, hands=hands)
    return after


THEOREM = EnumerationTheorem(
    name="no-card-lost",
    title="No card is lost or duplicated by any effect",
    statement="In every state of every bout, whatever the immediate effects played (Dream, "
    "Jealousy, Wrath, Betrayal, The Absolute's exchange) and Luck's discard, "
    "every card is in exactly one place: a hand, in play, the discard pile, the box or the "
    "deck.",
    rests_on=(
        rule("000", "Special Card Effects (The Absolute, Betrayal, Wrath, Jealousy, Dream)"),
        rule("000", "How a Bout Is Resolved"),
        rule("000", "Game Sequence ('If your card was not discarded, take it back')"),
    ),
    space=space,
    monitor=ConservationMonitor,
    broken=(
        Mutant(
            "wrath-loses-the-card",
            "the card Wrath sends back is lost instead of going back to the hand",
            transform=_wrath_loses,
        ),
    ),
)
