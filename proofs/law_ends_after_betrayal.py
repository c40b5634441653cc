"""Law and Betrayal: once Betrayal takes Law, no later placement is constrained."""

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
from omen_solver.omens.smt.monitors import LawMonitor
from omen_solver.omens.smt.theorem import rule
from omen_solver.omens.state import OmensState

LAW, BETRAYAL = 15, 29
POOL = (4, 9, 20, 21, 26, 32)
"""Calm 4 and Lie 9 (below Law), Harmony 20, Dream 21, Sadness 26, The Absolute 32 (above)."""


def space() -> Space:
    layouts = [{0: [LAW], seat: [BETRAYAL]} for seat in (1, 2, 3)]
    return Space(
        description="4 players, seat 1 leads, 2 cards in every hand; seat 1 holds Law (15), "
        "seat 2, 3 or 4 holds Betrayal (29); the other six cards are Calm 4, Lie 9, Harmony "
        "20, Dream 21, Sadness 26 and The Absolute 32, dealt every possible way; every legal "
        "sequence of moves to the end of the bout, default options",
        deals=deals(4, layouts, POOL, 2),
    )


def _law_survives(
    before: OmensState, move: Move, after: OmensState, resolved: Resolved
) -> OmensState:
    """The broken rule: after Betrayal takes Law, its constraint is put back."""
    del resolved
    for action in move:
        if action.choice[:2] == ("take", LAW) and before.law is not None:
            return rebuild(after, law=before.law)
    return after


THEOREM = EnumerationTheorem(
    name="law-ends-after-betrayal",
    title="Once Betrayal takes Law, no later placement is constrained",
    statement="When Betrayal takes Law into its player's hand, Law's constraint ends at once: "
    "the card Betrayal gives in its place, and every later placement in the bout, may be any "
    "card of the hand, until Law is placed again.",
    rests_on=(
        rule(
            "000",
            "Special Card Effects: Betrayal ('If the card you took is Law, its "
            "constraint no longer applies')",
        ),
        rule("000", "Special Card Effects: Law"),
    ),
    space=space,
    monitor=lambda: LawMonitor("left"),
    broken=(
        Mutant(
            "law-survives-betrayal",
            "Law's constraint survives Betrayal taking Law",
            transform=_law_survives,
        ),
    ),
)
