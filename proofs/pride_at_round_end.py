"""Pride in the bout that ends a round."""

from __future__ import annotations

from z3 import And, If, Implies, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    o, end = m.o, m.end
    assert end is not None
    won = end.round_winner != 0
    pride = end.in_play & m.cards("pride")
    pride_owner = m.bout.where(end.owners, pride)
    after_pride = o.next_seat(pride_owner, m.inputs.table)
    keep = And(
        end.pride,
        Or(
            m.option("pride_next_round", "yes"),
            And(m.option("pride_next_round", "unless_luck"), end.luck_pick == 0),
            And(m.option("pride_next_round", "unless_luck_discarded"), end.luck_seat == 0),
        ),
    )
    claim = And(
        # a round that ends is led next by its winner (under 'no', even with Pride in play
        # and when Luck's 0 cards won it); under 'yes' Pride's choice holds across the end,
        # under 'unless_luck' too unless Luck made a player discard from hand in this bout,
        # under 'unless_luck_discarded' unless Luck was discarded in this bout
        Implies(won, end.next_round_leader == If(keep, after_pride, end.round_winner)),
        # a round that goes on is led by the bout's next leader, Pride's choice included
        Implies(And(end.pride, end.round_winner == 0), end.next_round_leader == after_pride),
    )
    return Query(claim)


THEOREM = BoutTheorem(
    name="pride-at-round-end",
    title="Pride at the end of a round: the round winner leads, unless pride_next_round",
    statement="When the bout that ends a round has Pride in play, the next round is led by "
    "the player who won the round (whether they won with the highest single card or with "
    "0 cards through Luck), not by the player Pride names, under the default "
    "pride_next_round = no; under 'yes' the player to the left of Pride's player leads it, "
    "and under 'unless_luck' too, unless Luck made a player discard a card from hand in that "
    "bout, and under 'unless_luck_discarded' unless Luck was discarded in that bout. "
    "A round that goes on is led by Pride's choice either way.",
    rests_on=(
        rule("000", "End of a Round ('The player who won the round for their team begins')"),
        rule("cards", "22 Pride; What remains a choice (Pride and the next round)"),
    ),
    query=query,
    broken=(Broken.PRIDE_OVER_ROUND,),
    span=0,
    search_bit_blast=False,
)
