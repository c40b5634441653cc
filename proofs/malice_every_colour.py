"""Malice counts as every colour: the 'only card of my colour' and 'another card' effects."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.model import SymbolicModel
from omen_solver.omens.proofs.theorem import Query, SmtTheorem, rule

_ONLY = ("Spring", "Summer", "Autumn")
_ANOTHER = ("Love", "Friendship", "Calm", "Feast")


def query(m: SymbolicModel) -> Query:
    claims = []
    for i in m.slots:
        for name in _ONLY:
            # never discarded by its own "if it is the only X card in play"
            claims.append(Implies(m.named(i, name), ~m.end.hits[(i, i)]))
        for name in _ANOTHER:
            # always discarded: Malice is "another green / a yellow / a red / a blue card"
            claims.append(Implies(m.named(i, name), m.end.discarded[i]))
    return Query(m.all_of(claims), [m.name_in_play("Malice")])


THEOREM = SmtTheorem(
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
)
