"""Fear and Luck: Luck never discards Fear; a player holding only Fear keeps it."""

from __future__ import annotations

from z3 import And, Implies, Not

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    hands, end = m.require_round()
    fear = m.deck.catalogue.with_effect("fear")
    claims = [And(*[hands.luck_pick != card for card in fear])]
    for s in m.seats:
        # the hand Luck's discard is taken from (as it is, or once the cards came back)
        at_luck = end.items
        held_then = [item.luck_time[s] for item in at_luck]
        only_fear = And(
            m.any_of(held_then),
            *[
                Implies(held, m.deck.effect(item.value, "fear"))
                for held, item in zip(held_then, at_luck, strict=True)
            ],
        )
        victim = And(m.end.luck_discarded, m.end.luck_seat == s)
        claims.append(Implies(And(victim, only_fear), Not(end.luck_discards)))
        # Fear held in a hand is still held there after the bout (no exchange at the end)
        for card in fear:
            claims.append(Implies(m.held_mid(s, card), end.holds(s, card)))
    return Query(m.all_of(claims), [m.option("absolute_timing", "now")])


THEOREM = SmtTheorem(
    name="luck-spares-fear",
    title="Luck never discards Fear",
    statement="Luck's discard never takes Fear: a player whose hand holds only Fear when Luck "
    "strikes discards nothing and keeps Fear, and Fear held in a hand is still there after "
    "the bout, whoever chooses the card and whether it is taken before or after the cards "
    "come back (with The Absolute's exchange at its usual time).",
    rests_on=(
        rule("000", "Special Card Effects: Luck ('Fear cannot be discarded using Luck')"),
        rule("000", "Special Card Effects: Fear"),
    ),
    query=query,
    broken=(Broken.LUCK_MAY_DISCARD_FEAR,),
    hands=True,
)
