"""Luck strikes the player it lies in front of."""

from __future__ import annotations

from z3 import And, Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    # when Luck is discarded, the seat that must discard from hand is the one Luck lies in
    # front of, whoever placed it (Dream's target, Betrayal's victim, Jealousy's swap)
    claim = m.all_of(
        Implies(
            And(m.has(i, "luck"), m.end.discarded[i]),
            And(m.end.luck_discarded, m.end.luck_seat == m.bout.before[i]),
        )
        for i in m.slots
    )
    no_luck = Implies(~m.end.luck_discarded, m.end.luck_seat == -1)
    return Query(And(claim, no_luck), [m.option("card_owner", "position")])


THEOREM = SmtTheorem(
    name="luck-strikes-in-front",
    title="Luck strikes the player it lies in front of",
    statement="Under the default card_owner = position, when Luck is discarded the player who "
    "must discard a card from hand is the one Luck lies in front of, whoever placed it; when "
    "Luck is not discarded nobody does.",
    rests_on=(
        rule("cards", "13 Luck ('the player it lies in front of discards a card from hand')"),
        rule("000", "Special Card Effects: Luck"),
    ),
    query=query,
    broken=(Broken.LUCK_BY_PLACER,),
)
