"""Every bout has exactly one winner."""

from __future__ import annotations

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    winners = m.count(m.end.wins)
    one = (winners == 1) & (m.end.winner >= 0) & (m.end.winner < m.bout.players)
    # The one exception, both sides: Sadness alone in play with sadness_lone_card =
    # discarded_no_winner (a single card in play: never under the default rules).
    alone = (m.count(m.present(i) for i in m.slots) == 1) & m.in_play("sadness")
    lone_no_winner = alone & m.option("sadness_lone_card", "discarded_no_winner")
    claim = m.all_of([lone_no_winner == (winners == 0), lone_no_winner | one])
    return Query(claim)


THEOREM = SmtTheorem(
    name="one-winner",
    title="Every bout has exactly one winner",
    statement="Every bout has exactly one winning card, and its owner is a seat at the table. "
    "The only exception is Sadness alone in play under the option sadness_lone_card = "
    "discarded_no_winner, where nothing wins (and this is the only way nothing wins).",
    rests_on=(
        rule("000", "How a Bout Is Resolved"),
        rule("000", "Special Card Effects: Sadness"),
        rule("000", "Special Card Effects: Mirror"),
    ),
    query=query,
    broken=(Broken.SADNESS_ANY_BUT_HIGHEST,),
)
