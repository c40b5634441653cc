"""Jealousy receiving an immediate card does not apply it again."""

from __future__ import annotations

from z3 import And, Implies, Not

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    step, before, after = m.steps[i], m.states[i], m.states[i + 1]
    swap = And(step.active, m.is_(step.card, "jealousy"), step.x != 0)
    ends = m.option("law_after_jealousy", "ends")
    law_moved = And(step.x == before.law, ends)
    claim = And(
        # no card changes hands (only Jealousy left its player's hand)
        *[step.hands_after[s] == step.hands[s] & ~step.card for s in m.seats],
        # nothing leaves play, and no further placement is called for
        m.in_play(after) == m.in_play(before) | step.card,
        Not(after.dreaming),
        Not(after.replaying),
        Not(after.giving),
        # the two cards swap places
        m.where(after, step.x) == step.lies,
        m.where(after, step.card) == m.where(before, step.x),
        # Law's constraint is as it was (unless Law itself moved under law_after_jealousy = ends)
        after.law == m.o.If(law_moved, m.o.card(0), before.law),
        Implies(after.law != 0, after.up == before.up),
    )
    return Query(Implies(swap, claim))


THEOREM = BoutTheorem(
    name="jealousy-no-second-effect",
    title="Jealousy taking an immediate card does not apply it again",
    statement="When Jealousy swaps places with a card in play, whatever that card is (Law, "
    "Wrath, Betrayal, Dream, Secret, an Absolute), the two cards only change places: no card "
    "changes hands, nothing leaves play, no further placement is called for, and Law's "
    "constraint is unchanged (it ends only if Jealousy moved Law itself under "
    "law_after_jealousy = ends), for every player, seat, card and option setting.",
    rests_on=(
        rule("000", "Special Card Effects: Jealousy ('do not apply its effect a second time')"),
        rule("cards", "What the printed clarifications settle (Jealousy)"),
    ),
    query=query,
    broken=(Broken.JEALOUSY_REAPPLIES,),
)
