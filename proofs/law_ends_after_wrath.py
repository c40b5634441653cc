"""Law and Wrath: once Wrath sends Law back to a hand, no later placement is constrained."""

from __future__ import annotations

from omen_solver.omens.smt.enumeration import EnumerationTheorem, Mutant
from omen_solver.omens.smt.monitors import LawMonitor, law_against, law_restored_after
from omen_solver.omens.smt.theorem import rule

WRATH = 28

THEOREM = EnumerationTheorem(
    name="law-ends-after-wrath",
    title="Once Wrath sends Law back, no later placement is constrained",
    statement="After Wrath sends Law back to its player's hand, every later placement in the "
    "bout (the replacement card, later turns, Dream's placement, Betrayal's gift) may be any "
    "card of the hand (but the very card Wrath sent back, as option wrath_replay says), until "
    "Law is placed again.",
    rests_on=(
        rule("000", "Special Card Effects: Wrath ('the constraint set by Law no longer applies')"),
        rule("000", "Special Card Effects: Law"),
    ),
    space=lambda: law_against(WRATH, "Wrath"),
    monitor=lambda: LawMonitor("left"),
    broken=(
        Mutant(
            "law-survives-wrath",
            "Law's constraint survives Wrath sending Law back to a hand",
            transform=law_restored_after("return"),
        ),
    ),
)
