"""The winning card is always discarded, Fear included."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    return Query(m.all_of(Implies(m.end.wins[i], m.end.discarded[i]) for i in m.slots))


THEOREM = SmtTheorem(
    name="winner-discarded",
    title="The winning card is discarded, Fear included",
    statement="The card that wins a bout is always discarded, even when it is Fear.",
    rests_on=(
        rule("000", "How a Bout Is Resolved ('The winner discards their card')"),
        rule("000", "Special Card Effects: Fear ('The only way to discard Fear is to win')"),
        rule("000", "Special Card Effects: Mirror ('discarded as the winner')"),
    ),
    query=query,
    broken=(Broken.FEAR_KEPT_WHEN_WINNING, Broken.WINNER_KEPT),
)
