"""Mirror and Sadness: with Mirror in play the lowest card wins, whatever else is in play."""

from __future__ import annotations

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    # Some card wins, and every winning card is the lowest card in play: for every card,
    # value, seat and option setting at once (Sadness included).
    lowest_wins = m.all_of(m.end.wins[i] == m.lowest(i) for i in m.slots)
    return Query(claim=lowest_wins, assumptions=[m.in_play("mirror")])


THEOREM = SmtTheorem(
    name="mirror-lowest-wins",
    title="With Mirror in play the lowest card wins",
    statement="Whenever Mirror is in play, the lowest card in play wins the bout, and no other "
    "card does, whatever else is in play (Sadness included) and whatever the rule options.",
    rests_on=(
        rule("000", "Special Card Effects: Mirror"),
        rule("000", "Special Card Effects: Sadness"),
        rule("000", "How a Bout Is Resolved"),
    ),
    query=query,
    broken=(Broken.SADNESS_OVER_MIRROR, Broken.MIRROR_IGNORED),
)
