"""Life and Death discard each other."""

from __future__ import annotations

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    claim = m.discarded_card("Life") & m.discarded_card("Death")
    return Query(claim, [m.only_of_colour(["Life", "Death"], "green")])


THEOREM = SmtTheorem(
    name="life-and-death",
    title="Life and Death discard each other",
    statement="When Life and Death are the only green cards in play (no Malice), both are "
    "discarded: Life discards the highest green card (Death), Death the lowest (Life), and "
    "a discarded card's effect still applies, whatever the options.",
    rests_on=(
        rule("cards", "1 Life; 8 Death"),
        rule("000", "How a Bout Is Resolved ('the discarded card's effect is still applied')"),
    ),
    query=query,
    broken=(Broken.DISCARDED_LOSE_EFFECT,),
)
