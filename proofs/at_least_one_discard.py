"""At least one card is discarded in every bout."""

from __future__ import annotations

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    return Query(m.count(m.end.discarded) >= 1)


THEOREM = SmtTheorem(
    name="at-least-one-discard",
    title="At least one card is discarded in every bout",
    statement="Every bout discards at least one card, whatever the cards in play and the "
    "options (a lone Sadness that does not win is discarded all the same).",
    rests_on=(
        rule("000", "How a Bout Is Resolved (Note: at least 1 card discarded)"),
        rule("000", "Special Card Effects: Fear"),
    ),
    query=query,
    broken=(Broken.WINNER_KEPT, Broken.FEAR_KEPT_WHEN_WINNING),
)
