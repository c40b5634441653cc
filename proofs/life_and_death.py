"""Life and Death discard each other."""

from __future__ import annotations

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    pair = m.named("Life") | m.named("Death")
    # the green cards in play (Malice counts as green) are exactly Life and Death
    only = end.in_play & m.colour("green") == pair
    return Query(end.discarded & pair == pair, [only])


THEOREM = BoutTheorem(
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
    span=0,
)
