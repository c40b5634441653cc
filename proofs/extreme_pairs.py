"""Lie and Truth, Day and Night: the other pairs that discard each other."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    yellow = m.only_of_colour(["Lie", "Truth"], "yellow")
    red = m.only_of_colour(["Day", "Night"], "red")
    claim = m.all_of(
        [
            Implies(yellow, m.discarded_card("Lie") & m.discarded_card("Truth")),
            Implies(red, m.discarded_card("Day") & m.discarded_card("Night")),
        ]
    )
    return Query(claim, [yellow | red])


THEOREM = SmtTheorem(
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
)
