"""Luck's 0-card win beats any number of players at 1 card."""

from __future__ import annotations

from z3 import And, Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    _, end = m.require_round()
    claims = [
        Implies(
            And(end.luck_discards, m.end.luck_seat == s, end.sizes[s] == 0),
            And(end.round_over, end.round_winner == s),
        )
        for s in m.seats
    ]
    return Query(m.all_of(claims))


THEOREM = SmtTheorem(
    name="luck-zero-wins",
    title="Luck's 0-card win beats every player at 1 card",
    statement="A player left with 0 cards by Luck's discard wins the round for their team, "
    "however many other players end the bout with 1 card (and whatever the options).",
    rests_on=(
        rule("000", "Special Card Effects: Luck"),
        rule("000", "End of a Round / End of the Game"),
    ),
    query=query,
    broken=(Broken.LUCK_ZERO_LOSES,),
    hands=True,
)
