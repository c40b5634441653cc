"""Cards not discarded go back to the player they lie in front of."""

from __future__ import annotations

from z3 import And, If

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end, state = m.end, m.states[0]
    assert end is not None
    by_position = m.option("return_to", "position")
    claim = And(
        *[
            # a seat's hand after the cards come back: what it held, plus the cards left in
            # front of it (whoever placed them: Dream's target, Betrayal, Jealousy's swap),
            # less Luck's discard
            end.returned_hands[s]
            == (state.hands[s] | If(by_position, state.front[s], state.placed[s]) & ~end.discarded)
            & ~end.luck_pick
            for s in m.seats
        ]
    )
    return Query(claim)


THEOREM = BoutTheorem(
    name="cards-follow-position",
    title="Cards not discarded go back to the player they lie in front of",
    statement="However Dream, Jealousy and Betrayal moved cards between players during the "
    "bout, every card in play that is not discarded goes back to the hand of the player it "
    "lies in front of when the bout is resolved (official return_to = position; the one "
    "who placed it under 'placer'), and to no other hand; nothing else changes in the hands "
    "but Luck's discard.",
    rests_on=(
        rule("cards", "What the printed clarifications settle ('whoever placed them')"),
        rule("000", "Game Sequence ('If your card was not discarded, take it back')"),
    ),
    query=query,
    broken=(Broken.RETURN_TO_PLACER,),
    span=0,
)
