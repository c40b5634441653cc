"""Among players left with 1 card, the highest card wins the round."""

from __future__ import annotations

from z3 import And, Implies, Not

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    hands, end = m.require_round()
    mine, theirs = m.card("mine"), m.card("theirs")  # any two cards of the deck
    top = hands.top  # the model's name for the highest card held by a player with 1 card
    any_zero = m.option("zero_cards", "any") & m.any_of(
        m.seated(s) & (end.sizes[s] == 0) for s in m.seats
    )
    plain = And(Not(end.luck_zero), Not(any_zero))  # nobody wins with 0 cards
    single = [m.seated(s) & (end.sizes[s] == 1) for s in m.seats]
    winner_holds_top, one_card, below_top, one_hand, claims = [], [], [], [], []
    for s in m.seats:
        # the winner is a player with 1 card, holding the highest such card
        winner_holds_top.append(
            Implies(And(end.round_wins[s], plain), And(single[s], end.holds(s, top)))
        )
        # a player with 1 card holds one card
        one_card.append(Implies(And(single[s], end.holds(s, mine), end.holds(s, top)), mine == top))
        # no card of a player with 1 card is higher than the highest one
        below_top.append(Implies(And(single[s], end.holds(s, theirs)), theirs <= top))
        for t in m.seats:
            if s == t:
                continue
            # a card is in one hand only
            one_hand.append(Not(And(end.holds(s, top), end.holds(t, top))))
            # the claim: the winner's card is higher than every other player's single card
            claims.append(
                Implies(
                    And(
                        end.round_wins[s],
                        plain,
                        single[t],
                        end.holds(s, mine),
                        end.holds(t, theirs),
                    ),
                    mine > theirs,
                )
            )
    lemmas = [And(*winner_holds_top), And(*one_card), And(*below_top), And(*one_hand)]
    return Query(m.all_of(claims), [m.card_domain(mine), m.card_domain(theirs)], lemmas)


THEOREM = SmtTheorem(
    name="highest-single-wins",
    title="Among players left with 1 card, the highest card wins the round",
    statement="When several players end a bout with 1 card and nobody wins with 0 cards, the "
    "round goes to the player whose card is the highest (the rulebook's example: Lana's "
    "Absolute 31 beats Sabrina's Lie 9).",
    rests_on=(rule("000", "End of a Round / End of the Game (and its EXAMPLE)"),),
    query=query,
    broken=(Broken.LOWEST_SINGLE_WINS, Broken.SINGLES_ALL_WIN),
    hands=True,
)
