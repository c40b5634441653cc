"""Spring, Summer and Autumn ('the only card of its colour') with Winter, Fear and Malice."""

from __future__ import annotations

from z3 import And, Implies

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule

SEASONS = (("Spring", "green"), ("Summer", "yellow"), ("Autumn", "red"))


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    here = end.in_play
    claims = []
    for name, colour in SEASONS:
        card = m.named(name)
        others = here & m.colour(colour) & ~card
        # discarded by itself exactly when no other card of its colour is in play (Malice
        # counts as every colour; Fear is yellow), unless something else discards it
        alone = And(here & card != 0, others == 0)
        claims.append(Implies(alone, end.discarded & card != 0))
    summer, winter, fear = m.named("Summer"), m.named("Winter"), m.cards("fear")
    # Winter discards every yellow card, Summer included (the effects are simultaneous:
    # Winter leaving Summer alone does not matter), but not Fear unless Fear wins
    claims.append(Implies(And(here & summer != 0, here & winter != 0), end.discarded & summer != 0))
    claims.append(
        Implies(
            And(here & winter != 0, here & fear != 0, end.win != fear), end.discarded & fear == 0
        )
    )
    malice = m.named("Malice")
    # with only Malice (or, for Summer, Fear) beside it, a season is not alone: it leaves
    # play only if it wins the bout
    for name, _ in SEASONS:
        card = m.named(name)
        claims.append(
            Implies(here == card | malice, (end.discarded & card != 0) == (end.win == card))
        )
    claims.append(Implies(here == summer | fear, end.discarded & summer == 0))
    return Query(And(*claims))


THEOREM = BoutTheorem(
    name="only-card-of-colour",
    title="Spring, Summer, Autumn: alone in their colour, with Winter, Fear and Malice",
    statement="Spring, Summer and Autumn are discarded when no other card of their colour is "
    "in play; Malice (every colour) and Fear (yellow) count as such other cards, so with "
    "Malice in play no season is alone, and Summer beside Fear is not alone. With Winter in "
    "play Summer is discarded anyway (every yellow card goes), while Fear stays unless it "
    "wins. For every card in play, seat and option setting.",
    rests_on=(
        rule("cards", "7 Spring; 11 Summer; 19 Autumn; 27 Winter; 17 Malice; 12 Fear"),
        rule("000", "How a Bout Is Resolved (simultaneous effects); Fear"),
    ),
    query=query,
    broken=(Broken.MALICE_NO_COLOUR, Broken.FEAR_UNPROTECTED),
    span=0,
)
