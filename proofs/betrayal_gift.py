"""Betrayal: Law taken ends its constraint before the gift; the receiver resolves the gift."""

from __future__ import annotations

from z3 import And, If, Implies, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    take, gift = m.steps[i], m.steps[i + 1]
    before = m.states[i]
    takes = And(take.active, m.is_(take.card, "betrayal"), take.x != 0)
    victim = m.where(before, take.x)
    hand = m.seat_hand(gift.hands, gift.placer)
    own = If(m.option("betrayal_give_back", "forbidden"), hand & ~take.x, hand)
    law_taken = And(before.law != 0, take.x == before.law)
    receiver = If(m.option("now_resolver", "position"), victim, take.resolver)
    claim = And(
        # the gift is the next placement: from the Betrayal player's hand, in front of the
        # player whose card was taken
        gift.gift,
        gift.placer == take.resolver,
        gift.lies == victim,
        # taking Law ends its constraint before the gift is chosen: any card may be given
        Implies(law_taken, gift.allowed == own),
        # "They then resolve the card's effect" (option now_resolver)
        Or(gift.resolver == 0, gift.resolver == receiver),
    )
    return Query(Implies(takes, claim))


THEOREM = BoutTheorem(
    name="betrayal-gift",
    title="Betrayal: Law taken is free before the gift; the receiver resolves the gift",
    statement="When Betrayal takes a card, the very next placement is its player's gift, in "
    "front of the player whose card was taken. If the card taken is Law, its constraint has "
    "ended before the gift is chosen, so any card of the hand may be given (the card just "
    "taken too, unless betrayal_give_back = forbidden). An immediate effect of the gift is "
    "resolved by the player who receives it (under now_resolver = placer, by the giver).",
    rests_on=(
        rule(
            "000",
            "Special Card Effects: Betrayal ('They then resolve the card's effect'; "
            "'If the card you took is Law, its constraint no longer applies')",
        ),
        rule("cards", "What the printed clarifications settle (Betrayal)"),
    ),
    query=query,
    broken=(Broken.GIFT_RESOLVED_BY_GIVER, Broken.LAW_SURVIVES_BETRAYAL),
    span=2,
)
