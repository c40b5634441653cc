"""The Absolute's exchange keeps every hand's size: one card each way."""

from __future__ import annotations

from z3 import And, Implies, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    step = m.steps[i]
    swaps = And(step.active, m.is_(step.card, "absolute"), step.partner != 0)
    mine = m.seat_hand(step.hands, step.resolver) & ~step.card
    theirs = m.seat_hand(step.hands, step.partner) & ~step.card
    claim = And(
        # one card of each hand goes to the other: each hand keeps its size
        step.give & mine != 0,
        step.give & theirs == 0,
        step.get & theirs != 0,
        step.get & mine == 0,
        m.seat_hand(step.hands_after, step.resolver) == (mine & ~step.give) | step.get,
        m.seat_hand(step.hands_after, step.partner) == (theirs & ~step.get) | step.give,
        # and no other hand changes
        *[
            Or(
                step.resolver == (1 << s),
                step.partner == (1 << s),
                step.hands_after[s] == step.hands[s] & ~step.card,
            )
            for s in m.seats
        ],
    )
    return Query(Implies(swaps, claim))


THEOREM = BoutTheorem(
    name="absolute-exchange",
    title="The Absolute's exchange keeps every hand's size",
    statement="When an Absolute's exchange is made (absolute_timing = now), its player and "
    "the partner each give one card of their own hand and receive the other's: every "
    "player's hand keeps its size (the Absolute's player is one card down for the Absolute "
    "itself). Each gift is chosen from the giver's own hand alone, both at once (the "
    "engine's simultaneous move under absolute_exchange = secret, checked by the whole-bout "
    "differential test).",
    rests_on=(
        rule(
            "000",
            "Special Card Effects: The Absolute ('Exchange the cards simultaneously and secretly')",
        ),
    ),
    query=query,
    broken=(Broken.ABSOLUTE_GIVE_ONLY,),
)
