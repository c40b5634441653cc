"""Law: while Law lies in play every later placement from hand respects it when it can."""

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

LAW = 15
POOL = (4, 9, 20, 21, 26, 28, 29)
"""Calm 4, Lie 9 (below Law), Harmony 20, Dream 21, Sadness 26, Wrath 28, Betrayal 29."""


def space() -> Space:
    return Space(
        description="4 players, seat 1 leads, 2 cards in every hand; seat 1 holds Law (15); "
        "the other seven cards are dealt from Calm 4, Lie 9, Harmony 20, Dream 21, Sadness 26, "
        "Wrath 28 and Betrayal 29, every possible way; every legal sequence of moves to the "
        "end of the bout, default options",
        deals=deals(4, [{0: [LAW]}], POOL, 2),
    )


def _next_only(before: OmensState, move: Move, after: OmensState, resolved: Resolved) -> OmensState:
    """The broken rule: Law binds only the next card placed after it."""
    del resolved
    law = before.law
    if law is None or after.law is None or after.bouts_played != before.bouts_played:
        return after
    placed = [a for a in move if a.card != law[0]]
    return rebuild(after, law=None) if placed else after


THEOREM = EnumerationTheorem(
    name="law-binds-later-placements",
    title="While Law lies in play, every later placement follows it when it can",
    statement="Once Law's player has chosen 'higher' or 'lower', every card placed from a hand "
    "later in the bout while Law lies in play (a turn, Dream's placement, Wrath's replacement, "
    "Betrayal's gift) follows the constraint if the hand has a card that does, and may be any "
    "card otherwise.",
    rests_on=(
        rule(
            "000",
            "Special Card Effects: Law ('Everyone must, if possible, play a card lower or higher')",
        ),
        rule("cards", "15 Law"),
    ),
    space=space,
    monitor=lambda: LawMonitor("in_play"),
    broken=(
        Mutant("law-binds-next-only", "Law binds only the next card placed", transform=_next_only),
        Mutant(
            "law-binds-turns-only",
            "Law binds only normal turns, not Dream's placement, Wrath's replacement or "
            "Betrayal's gift (option law_binds = turns_only)",
            rules={"law_binds": "turns_only"},
        ),
    ),
)
