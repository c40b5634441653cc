"""No card is lost or duplicated, and a bout's bookkeeping stays consistent, at every placement."""

from __future__ import annotations

from z3 import And, Implies

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    # whatever the placement (a turn, Dream's placement, Wrath's replacement, Betrayal's
    # gift) and whatever its card does, the state after it is well formed again: every card
    # in exactly one hand or in front of exactly one player, placed by one player; Law's
    # constraint only while Law lies in play; a pending placement names a player holding
    # the card it needs
    after = m.bout.well_formed(m.states[i + 1])
    return Query(Implies(m.steps[i].active, And(*after)))


THEOREM = BoutTheorem(
    name="well-formed-states",
    title="Every placement keeps every card in exactly one place",
    statement="From any state a bout can be in, after any placement (a turn, Dream's "
    "placement, Wrath's replacement or Betrayal's gift) and whatever its immediate effect "
    "(Law, Dream, Wrath, Betrayal, Jealousy, The Absolute's exchange), every card is in "
    "exactly one hand or in front of exactly one player, each card in play was placed by one "
    "player, Law's constraint applies only while Law lies in play, and the next placement "
    "the rules call for names a player who holds the card it needs. A bout starts in such a "
    "state, so every state of every bout is one (the other bout theorems rest on this).",
    rests_on=(
        rule("000", "Special Card Effects (The Absolute, Betrayal, Wrath, Jealousy, Dream, Law)"),
        rule("000", "Game Sequence"),
    ),
    query=query,
    broken=(Broken.WRATH_LOSES_THE_CARD, Broken.LAW_SURVIVES_WRATH),
)
