"""No card is lost or duplicated at the end of a bout."""

from __future__ import annotations

from z3 import And

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel, disjoint
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    before = m.union(end.mid_hands) | end.in_play
    # afterwards: every hand, the cards discarded from play, Luck's discard from a hand
    places = [*end.final_hands, end.discarded, end.luck_pick]
    # a card that was in a hand or in play is in exactly one place afterwards; no other card
    # appears anywhere
    return Query(And(disjoint(places), m.union(places) == before))


THEOREM = BoutTheorem(
    name="bout-end-conservation",
    title="No card is lost or duplicated at the end of a bout",
    statement="At the end of a bout every card that was in a hand or in play is afterwards in "
    "exactly one place: one hand, or the discard pile (discarded from play, or by Luck from a "
    "hand); no other card appears. This holds for every option setting, The Absolute's "
    "exchanges at the end of the bout included.",
    rests_on=(
        rule("000", "How a Bout Is Resolved"),
        rule("000", "Game Sequence ('If your card was not discarded, take it back')"),
        rule("000", "Special Card Effects: Luck"),
    ),
    query=query,
    broken=(Broken.DISCARDED_ALSO_RETURN,),
    span=0,
    exchange_lemma=True,
)
