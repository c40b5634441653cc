"""The bout goes to the player the winning card lies in front of."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    claim = m.all_of(Implies(m.end.wins[i], m.end.winner == m.bout.before[i]) for i in m.slots)
    return Query(claim, [m.option("card_owner", "position")])


THEOREM = SmtTheorem(
    name="winner-in-front",
    title="The winner is the player the winning card lies in front of",
    statement="Under the default card_owner = position, the bout is won by the player the "
    "winning card lies in front of, whoever placed it (Dream, Betrayal and Jealousy place "
    "cards in front of other players).",
    rests_on=(
        rule("cards", "What the printed clarifications settle (cards follow position)"),
        rule("000", "How a Bout Is Resolved"),
    ),
    query=query,
    broken=(Broken.WINNER_IS_PLACER,),
)
