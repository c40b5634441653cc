"""Fear leaves play only as the winning card."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    fear = m.cards("fear")
    claim = Implies(end.in_play & fear != 0, (end.discarded & fear != 0) == (end.win == fear))
    return Query(claim)


THEOREM = BoutTheorem(
    name="fear-leaves-only-by-winning",
    title="Fear leaves play only as the winning card",
    statement="Fear in play is discarded exactly when it wins the bout: no effect (Life, Lie, "
    "Truth, Harmony, Winter, ...) discards it otherwise, whatever the options.",
    rests_on=(
        rule("000", "Special Card Effects: Fear"),
        rule("cards", "12 Fear"),
    ),
    query=query,
    broken=(Broken.FEAR_UNPROTECTED, Broken.FEAR_ONLY_VS_EXTREMES),
    span=0,
)
