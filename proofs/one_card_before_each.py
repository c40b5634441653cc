"""Every player has exactly one card in front of them when a bout is resolved."""

from __future__ import annotations

from omen_solver.omens.proofs.enumeration.monitors import ResolutionMonitor
from omen_solver.omens.proofs.enumeration.walk import (
    EnumerationTheorem,
    Move,
    Mutant,
    Resolved,
    Space,
    deals,
    rebuild,
)
from omen_solver.omens.proofs.theorems.theorem import rule
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Placement

DREAM, WRATH, ABSOLUTE = 21, 28, 32
POOL = (4, 13, 23, 26, 29)
"""Calm 4, Luck 13, Jealousy 23, Sadness 26, Betrayal 29."""


def space() -> Space:
    return Space(
        description="4 players, seat 1 leads, 2 cards in every hand; seat 1 holds Dream (21), "
        "seat 2 Wrath (28), seat 3 The Absolute (32), and the other five cards, Calm 4, Luck "
        "13, Jealousy 23, Sadness 26 and Betrayal 29, are dealt every possible way; every "
        "legal sequence of moves to the end of the bout, default options",
        deals=deals(4, [{0: [DREAM], 1: [WRATH], 2: [ABSOLUTE]}], POOL, 2),
    )


def _dream_to_self(
    before: OmensState, move: Move, after: OmensState, resolved: Resolved
) -> OmensState:
    """The broken rule: Dream's target places its card in front of itself, not in front of
    the Dream player."""
    del resolved
    top = before.pending[-1] if before.pending else None
    if top is None or top[0] != "dream" or after.bouts_played != before.bouts_played:
        return after
    target = top[1]
    front = tuple(
        Placement(p.card, target, p.by) if p.by == target and p.before != target else p
        for p in after.in_play
    )
    return rebuild(after, front=front)


THEOREM = EnumerationTheorem(
    name="one-card-before-each",
    title="When a bout is resolved every player has one card in front and one in hand",
    statement="Under the default options, when a bout is resolved every player who held cards "
    "at its start has exactly one card lying in front of them (whatever Dream, Jealousy, "
    "Wrath, Betrayal and The Absolute did) and still holds at least one card: the premise of "
    "theorem round-progress.",
    rests_on=(
        rule("000", "Game Sequence ('play an Arcane card of their choice in front of them')"),
        rule("000", "Special Card Effects: Dream, Wrath, Betrayal, Jealousy"),
        rule("000", "Setup (hands of 4 or 5 cards); End of a Round (1 card ends the round)"),
    ),
    space=space,
    monitor=lambda: ResolutionMonitor(shape=True),
    broken=(
        Mutant(
            "dream-target-plays-to-self",
            "Dream's target places its card in front of itself instead of the Dream player",
            transform=_dream_to_self,
        ),
        Mutant(
            "dream-target-plays-again",
            "Dream's target also takes its own turn (option dream_target_turn = plays_again)",
            rules={"dream_target_turn": "plays_again"},
        ),
    ),
)
