"""Jealousy with Fear and Luck: moving a card is not discarding it."""

from __future__ import annotations

from z3 import And, Implies

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    fear, luck = m.cards("fear"), m.cards("luck")
    owner = m.bout.where(end.owners, luck)
    claim = And(
        # Fear, wherever it lies (Jealousy may have moved it), leaves play only as the winner
        Implies(end.in_play & fear != 0, (end.discarded & fear != 0) == (end.win == fear)),
        # Luck acts only when it is discarded, against its owner when the bout is resolved
        (end.luck_seat != 0) == (end.discarded & luck != 0),
        Implies(end.discarded & luck != 0, end.luck_seat == owner),
    )
    return Query(claim)


THEOREM = BoutTheorem(
    name="fear-and-luck-move-without-discard",
    title="Fear and Luck moved around are not discarded by the move",
    statement="However Jealousy, Dream or Betrayal moved Fear and Luck during the bout, at its "
    "end Fear is discarded exactly when it wins, Luck's discard happens exactly when Luck "
    "itself is discarded, and it strikes the player Luck belongs to when the bout is "
    "resolved (under card_owner = position, the one it then lies in front of), for every "
    "card, seat and option setting.",
    rests_on=(
        rule("000", "Special Card Effects: Fear; Luck; Jealousy"),
        rule("cards", "13 Luck ('the player it lies in front of discards a card')"),
    ),
    query=query,
    broken=(Broken.FEAR_UNPROTECTED, Broken.LUCK_BY_PLACER),
    span=0,
)
