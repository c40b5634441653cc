"""Winter against Fear: Winter discards every yellow card but Fear."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    # Every yellow card in play (Malice counts as yellow) is discarded, except Fear, which
    # is discarded only if it wins.
    claim = m.all_of(
        Implies(m.colour(i, "yellow"), m.end.discarded[i] == (~m.has(i, "fear") | m.end.wins[i]))
        for i in m.slots
    )
    return Query(claim, [m.name_in_play("Winter")])


THEOREM = SmtTheorem(
    name="winter-spares-fear",
    title="Winter discards every yellow card but Fear",
    statement="With Winter in play, every yellow card in play is discarded (Malice, which "
    "counts as every colour, included), except Fear, which stays unless it wins the bout.",
    rests_on=(
        rule("cards", "27 Winter"),
        rule("cards", "17 Malice"),
        rule("000", "Special Card Effects: Fear"),
    ),
    query=query,
    broken=(Broken.FEAR_ONLY_VS_EXTREMES, Broken.MALICE_NO_COLOUR),
)
