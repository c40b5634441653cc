"""No card is lost or duplicated at the end of a bout."""

from __future__ import annotations

from z3 import And, If, Or, Sum

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    hands, end = m.require_round()
    card = m.card("card")  # any card of the deck: the claim holds for each of them
    was_held = Or(*[m.held_mid(s, card) for s in m.seats])
    was_in_play = m.card_in_play_term(card)
    from_play = m.any_of(And(m.present(i), m.value(i) == card, m.end.discarded[i]) for i in m.slots)
    by_luck = And(end.luck_discards, hands.luck_pick == card)
    places = Sum(
        *[If(end.holds(s, card), 1, 0) for s in m.seats],
        If(from_play, 1, 0),
        If(by_luck, 1, 0),
    )
    # a card that was in a hand or in play is in exactly one place afterwards; no other
    # card appears anywhere
    claim = places == If(Or(was_held, was_in_play), 1, 0)
    return Query(claim, [m.card_domain(card)])


THEOREM = SmtTheorem(
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
    hands=True,
)
