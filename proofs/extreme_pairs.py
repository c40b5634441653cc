"""Lie and Truth, Day and Night: the other pairs that discard each other."""

from __future__ import annotations

from z3 import And, Implies, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    yellows = m.named("Lie") | m.named("Truth")
    reds = m.named("Day") | m.named("Night")
    # the cards in play of the colour (Malice counts as each) are exactly the pair
    yellow = end.in_play & m.colour("yellow") == yellows
    red = end.in_play & m.colour("red") == reds
    claim = And(
        Implies(yellow, end.discarded & yellows == yellows),
        Implies(red, end.discarded & reds == reds),
    )
    return Query(claim, [Or(yellow, red)])


THEOREM = BoutTheorem(
    name="extreme-pairs",
    title="Lie and Truth, Day and Night discard each other",
    statement="When Lie and Truth are the only yellow cards in play, both are discarded (Lie "
    "takes the highest yellow, Truth the lowest); likewise Day and Night among the red cards, "
    "whatever the options.",
    rests_on=(
        rule("cards", "9 Lie; 16 Truth; 18 Day; 25 Night"),
        rule("000", "How a Bout Is Resolved ('the discarded card's effect is still applied')"),
    ),
    query=query,
    broken=(Broken.DISCARDED_LOSE_EFFECT,),
    span=0,
)
