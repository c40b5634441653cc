"""Harmony discarding itself."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    includes_self = m.option("extreme_includes_self", "yes")
    claim = m.all_of(
        Implies(
            m.named(i, "Harmony"),
            m.all_of(
                [
                    # "yes" (the default): Harmony is the lowest card in play -> discarded
                    Implies(includes_self & m.lowest(i), m.end.discarded[i]),
                    # "no": Harmony's effect never picks Harmony
                    Implies(~includes_self, ~m.end.hits[(i, i)]),
                ]
            ),
        )
        for i in m.slots
    )
    return Query(claim)


THEOREM = SmtTheorem(
    name="harmony-discards-itself",
    title="Harmony discards itself when it is the lowest card",
    statement="Harmony discards the lowest card in play, of any colour. Under the default "
    "extreme_includes_self = yes it counts itself, so whenever Harmony is the lowest card in "
    "play it is discarded; under 'no' its effect never picks Harmony.",
    rests_on=(
        rule("cards", "20 Harmony"),
        rule("000", "Details ('in play' refers to all cards placed in front of the players)"),
    ),
    query=query,
    broken=(Broken.EXTREMES_EXCLUDE_SELF,),
)
