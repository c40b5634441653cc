"""Every bout brings the round closer to its end."""

from __future__ import annotations

from z3 import And, If, Implies, Sum

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    _, end = m.require_round()
    mid = Sum(*[m.mid_size(s) for s in m.seats])
    after = Sum(*[end.sizes[s] for s in m.seats])
    in_play = m.count(m.present(i) for i in m.slots)
    fewer = after <= mid + in_play - 1
    # if the round goes on, every player holds at least 2 cards for the next bout
    going_on = Implies(
        ~end.round_over, And(*[Implies(m.seated(s), end.sizes[s] >= 2) for s in m.seats])
    )
    # what one-card-before-each establishes for the engine: every player still holds a
    # card when the last card of the bout is placed
    holds = [Implies(m.seated(s), m.mid_size(s) >= 1) for s in m.seats]
    # the steps: each card ends in at most one hand, and only if it was held or came back;
    # at least one card in play does not come back
    one_place = And(*[m.count(list(item.at)) <= If(item.present, 1, 0) for item in end.items])
    lemmas = [one_place, m.count(end.returned) <= in_play - 1]
    return Query(And(fewer, going_on), holds, lemmas)


THEOREM = SmtTheorem(
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
    hands=True,
)
