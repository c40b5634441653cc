"""Every bout brings the round closer to its end."""

from __future__ import annotations

from z3 import And, Implies, Not

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel, disjoint
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    o, end = m.o, m.end
    assert end is not None
    before = m.union(end.mid_hands) | end.in_play
    held = m.union(end.final_hands)
    # the players hold at least one card fewer in total: the hands after the bout share no
    # card and hold only cards held or in play before, not all of them (the hands and the
    # cards in play before share none, every state of a bout being well formed)
    fewer = And(disjoint(end.final_hands), held & ~before == 0, held != before)
    # if the round goes on, every player holds at least 2 cards for the next bout
    going_on = Implies(
        end.round_winner == 0,
        And(
            *[
                Implies(m.seated(s), And(h != 0, Not(o.single(h))))
                for s, h in enumerate(end.final_hands)
            ]
        ),
    )
    # what one-card-before-each establishes for the engine: every player still holds a
    # card when the last card of the bout is placed (so a card was placed)
    holds = [Implies(m.seated(s), end.mid_hands[s] != 0) for s in m.seats]
    return Query(And(fewer, going_on), [*holds, end.in_play != 0])


THEOREM = BoutTheorem(
    name="round-progress",
    title="Every bout removes a card; a round that goes on leaves everyone 2 cards",
    statement="If every player still holds a card when the last card of the bout is placed "
    "(theorem one-card-before-each), then after the bout the players hold at least one card "
    "fewer in total than they held with the cards in play, and if no one has won the round "
    "every player holds at least 2 cards. So a round whose players start with h_1..h_P cards "
    "ends within h_1 + ... + h_P - 2P + 1 bouts.",
    rests_on=(
        rule("000", "How a Bout Is Resolved (Note: at least 1 card discarded)"),
        rule("000", "End of a Round / End of the Game"),
        rule("000", "Goal of the Game"),
    ),
    query=query,
    broken=(Broken.FEAR_KEPT_WHEN_WINNING, Broken.WINNER_KEPT),
    span=0,
    exchange_lemma=True,
)
