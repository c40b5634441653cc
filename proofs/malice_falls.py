"""Malice between the colours: it falls to Life, Lie, Night and Winter."""

from __future__ import annotations

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    malice = m.named("Malice")
    hunters = m.union(m.named(name) for name in ("Life", "Lie", "Night", "Winter"))
    return Query(
        end.discarded & malice != 0, [end.in_play & malice != 0, end.in_play & hunters != 0]
    )


THEOREM = BoutTheorem(
    name="malice-falls",
    title="Malice is discarded by Life, Lie, Night and Winter",
    statement="Malice (17) counts as every colour, so it is above every green (1-8) and yellow "
    "(9-16) card and below every red one (18-25): whenever Life (highest green), Lie (highest "
    "yellow), Night (lowest red) or Winter (every yellow) is in play, Malice is discarded, "
    "whatever the options.",
    rests_on=(
        rule("cards", "17 Malice"),
        rule("cards", "1 Life; 9 Lie; 25 Night; 27 Winter"),
    ),
    query=query,
    broken=(Broken.MALICE_NO_COLOUR,),
    span=0,
)
