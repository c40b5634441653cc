"""Law placed at any point binds every later placement while it lies in play."""

from __future__ import annotations

import sys
from pathlib import Path

from z3 import And, Implies, Not, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule

sys.path.insert(0, str(Path(__file__).parent))
from _bout import follow


def query(m: StepModel, i: int) -> Query:
    step, before, after = m.steps[i], m.states[i], m.states[i + 1]
    law, up = before.law, before.up
    binds = Or(step.turn, m.option("law_binds", "every_placement"))
    lawful = follow(m, step.candidates, law, up)
    # a placement made while Law's constraint applies (a turn, Dream's placement, Wrath's
    # replacement, Betrayal's gift) follows it when the player can
    bound = Implies(And(step.active, law != 0, binds, lawful != 0), step.allowed & ~lawful == 0)
    # and the constraint carries on to the next placement as long as Law lies in play and
    # is not moved by Jealousy under law_after_jealousy = ends, nor placed again
    moved = And(m.is_(step.card, "jealousy"), step.x == law)
    stays = And(
        step.active,
        law != 0,
        m.in_play(after) & law != 0,
        step.card != law,
        Not(And(moved, m.option("law_after_jealousy", "ends"))),
    )
    carried = Implies(stays, And(after.law == law, after.up == up))
    return Query(And(bound, carried))


THEOREM = BoutTheorem(
    name="law-binds-later-placements",
    title="Law binds every later placement while it lies in play",
    statement="Once Law's player has chosen higher or lower, every card placed later in the "
    "bout while Law lies in play follows the constraint if the player holds a card that "
    "does: a normal turn, and under law_binds = every_placement also Dream's placement, "
    "Wrath's replacement and Betrayal's gift, whoever placed Law (a turn, Dream's target, "
    "Wrath's replacement or Betrayal's gift). The constraint lasts until Law leaves play "
    "(Wrath, Betrayal) or Jealousy moves it under law_after_jealousy = ends.",
    rests_on=(
        rule(
            "000",
            "Special Card Effects: Law ('Everyone must, if possible, play a card lower or higher')",
        ),
        rule("cards", "15 Law"),
    ),
    query=query,
    broken=(Broken.LAW_BINDS_TURNS_ONLY, Broken.JEALOUSY_ALWAYS_ENDS_LAW),
)
