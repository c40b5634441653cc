"""Cards going back to hand follow position."""

from __future__ import annotations

from z3 import And, Implies, Not, Or

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    hands, end = m.require_round()
    b = m.bout
    claims = []
    for i in m.slots:
        kept = And(m.present(i), Not(m.end.discarded[i]))
        card = m.value(i)
        for s in m.seats:
            luck_took = And(end.luck_discards, m.end.luck_seat == s, hands.luck_pick == card)
            here = b.before[i] == s
            # in the hand of the player it lies in front of (unless Luck then took it from
            # there), and in no other hand
            claims.append(Implies(And(kept, here), Or(end.holds(s, card), luck_took)))
            claims.append(Implies(And(kept, Not(here)), Not(end.holds(s, card))))
    assumptions = [m.option("return_to", "position"), m.option("absolute_timing", "now")]
    return Query(m.all_of(claims), assumptions)


THEOREM = SmtTheorem(
    name="return-by-position",
    title="Cards not discarded go back to the player they lie in front of",
    statement="Every card in play that is not discarded ends the bout in the hand of the "
    "player it lies in front of, whoever placed it (under the official return_to = position, "
    "with The Absolute's exchange at its usual time); the only way it leaves that hand is "
    "Luck's discard taken after the cards come back.",
    rests_on=(
        rule("000", "Game Sequence ('If your card was not discarded, take it back')"),
        rule("cards", "What the printed clarifications settle (cards follow position)"),
    ),
    query=query,
    broken=(Broken.RETURN_TO_PLACER,),
    hands=True,
)
