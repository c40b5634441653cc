"""Winter against Fear: Winter discards every yellow card but Fear."""

from __future__ import annotations

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    # Every yellow card in play (Malice counts as yellow) is discarded, except Fear, which
    # is discarded only if it wins.
    yellow = end.in_play & m.colour("yellow")
    fear = m.cards("fear")
    claim = end.discarded & yellow == (yellow & ~fear) | (end.win & fear)
    return Query(claim, [end.in_play & m.named("Winter") != 0])


THEOREM = BoutTheorem(
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
    span=0,
)
