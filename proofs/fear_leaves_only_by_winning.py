"""Fear leaves play only as the winning card."""

from __future__ import annotations

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    claim = m.all_of(
        (m.has(i, "fear") & m.end.discarded[i]) == (m.has(i, "fear") & m.end.wins[i])
        for i in m.slots
    )
    return Query(claim)


THEOREM = SmtTheorem(
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
)
