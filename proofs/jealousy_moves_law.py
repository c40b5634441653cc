"""Jealousy moving Law: the constraint stays or ends as option law_after_jealousy says."""

from __future__ import annotations

import sys
from pathlib import Path

from z3 import And, If, Implies, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule

sys.path.insert(0, str(Path(__file__).parent))
from _bout import follow


def query(m: StepModel, i: int) -> Query:
    step, turn = m.steps[i], m.steps[i + 1]
    before = m.states[i]
    moved = And(step.active, m.is_(step.card, "jealousy"), before.law != 0, step.x == before.law)
    hand = m.seat_hand(turn.hands, turn.placer)
    lawful = follow(m, hand, before.law, before.up)
    # the next placement is the next player's turn: under 'stays' Law (now lying in front of
    # Jealousy's player) still binds it, under 'ends' any card of the hand may be played
    claim = If(
        m.option("law_after_jealousy", "stays"),
        Or(lawful == 0, turn.allowed & ~lawful == 0),
        turn.allowed == hand,
    )
    return Query(Implies(And(moved, turn.turn), claim))


THEOREM = BoutTheorem(
    name="jealousy-moves-law",
    title="After Jealousy moves Law, the next player is bound or free as the option says",
    statement="When Jealousy swaps places with Law while its constraint applies, Law still "
    "lies in play (now in front of Jealousy's player): under law_after_jealousy = stays the "
    "next player must still follow the constraint if their hand allows it; under 'ends' they "
    "may play any card of their hand. For every card, seat, direction chosen and number of "
    "players.",
    rests_on=(
        rule("000", "Special Card Effects: Jealousy; Law"),
        rule("000", "Special Card Effects: Wrath, Betrayal (only they say Law's constraint ends)"),
    ),
    query=query,
    broken=(Broken.JEALOUSY_ALWAYS_ENDS_LAW, Broken.JEALOUSY_REAPPLIES),
    span=2,
)
