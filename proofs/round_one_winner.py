"""A finished round has exactly one winning team."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    _, end = m.require_round()
    one = (m.count(end.round_wins) == 1) & (end.round_winner >= 0)
    one = one & (end.round_winner < m.bout.players)
    return Query(Implies(end.round_over, one))


THEOREM = SmtTheorem(
    name="round-one-winner",
    title="A finished round has exactly one winner",
    statement="When a bout ends the round (a player at 1 card, or at 0 by Luck, or at 0 under "
    "zero_cards = any), exactly one player wins it, so exactly one team: card values are "
    "distinct, Luck's victim is unique, and several players at 0 under zero_cards = any hand "
    "the round to one of them.",
    rests_on=(
        rule("000", "End of a Round / End of the Game"),
        rule("000", "Special Card Effects: Luck"),
        rule("000", "Goal of the Game"),
    ),
    query=query,
    broken=(Broken.SINGLES_ALL_WIN,),
    hands=True,
)
