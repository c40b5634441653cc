"""Law and Betrayal: once Betrayal takes Law, no later placement is constrained."""

from __future__ import annotations

from omen_solver.omens.smt.enumeration import EnumerationTheorem, Mutant
from omen_solver.omens.smt.monitors import LawMonitor, law_against, law_restored_after
from omen_solver.omens.smt.theorem import rule

BETRAYAL = 29

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
    space=lambda: law_against(BETRAYAL, "Betrayal"),
    monitor=lambda: LawMonitor("left"),
    broken=(
        Mutant(
            "law-survives-betrayal",
            "Law's constraint survives Betrayal taking Law",
            transform=law_restored_after("take"),
        ),
    ),
)
