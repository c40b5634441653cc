"""Malice counts as every colour: the 'only card of my colour' and 'another card' effects."""

from __future__ import annotations

from z3 import And, Implies

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule

_ONLY = ("Spring", "Summer", "Autumn")
_ANOTHER = ("Love", "Friendship", "Calm", "Feast")


def query(m: StepModel, i: int) -> Query:
    del i
    end = m.end
    assert end is not None
    here = end.in_play
    claims = []
    for name in _ONLY:
        card = m.named(name)
        # never discarded by its own "if it is the only X card in play"
        claims.append(Implies(here & card != 0, m.pick(name) & card == 0))
    for name in _ANOTHER:
        card = m.named(name)
        # always discarded: Malice is "another green / a yellow / a red / a blue card"
        claims.append(Implies(here & card != 0, end.discarded & card != 0))
    return Query(And(*claims), [here & m.named("Malice") != 0])


THEOREM = BoutTheorem(
    name="malice-every-colour",
    title="With Malice in play no card is the only one of its colour",
    statement="With Malice in play, Spring, Summer and Autumn are never discarded by their own "
    "'if it is the only green/yellow/red card' effect, and Love, Friendship, Calm and Feast "
    "are always discarded (Malice is another green, a yellow, a red and a blue card).",
    rests_on=(
        rule("cards", "17 Malice ('counts as green, yellow, red and blue')"),
        rule("cards", "2 Love; 3 Friendship; 4 Calm; 5 Feast; 7 Spring; 11 Summer; 19 Autumn"),
    ),
    query=query,
    broken=(Broken.MALICE_NO_COLOUR,),
    span=0,
)
