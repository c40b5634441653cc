"""Sadness: without Mirror, the highest card cannot win and the second-highest wins."""

from __future__ import annotations

from z3 import BoolRef

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    # The second-highest card: exactly one card in play is higher.
    def second(i: int) -> BoolRef:
        higher = m.count(m.present(k) & (m.value(k) > m.value(i)) for k in m.slots if k != i)
        return m.present(i) & (higher == 1)

    claim = m.all_of(m.end.wins[i] == second(i) for i in m.slots)
    several = m.count(m.present(i) for i in m.slots) >= 2
    return Query(claim, [m.in_play("sadness"), ~m.in_play("mirror"), several])


THEOREM = SmtTheorem(
    name="sadness-second-highest",
    title="Sadness: the second-highest card wins",
    statement="Whenever Sadness is in play with at least one other card and Mirror is not, the "
    "second-highest card in play wins the bout and no other card does, whatever the options.",
    rests_on=(
        rule("000", "Special Card Effects: Sadness"),
        rule("000", "How a Bout Is Resolved"),
    ),
    query=query,
    broken=(Broken.SADNESS_IGNORED,),
)
