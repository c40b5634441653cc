"""Pride chooses the next leader, whoever wins."""

from __future__ import annotations

from z3 import Implies

from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.model import SymbolicModel
from omen_solver.omens.smt.theorem import Query, SmtTheorem, rule


def query(m: SymbolicModel) -> Query:
    # Clockwise play: the player to the left of seat s is seat s + 1 (mod the players).
    claim = m.all_of(
        Implies(m.has(i, "pride"), m.end.next_leader == (m.end.owner[i] + 1) % m.bout.players)
        for i in m.slots
    )
    return Query(claim)


THEOREM = SmtTheorem(
    name="pride-next-leader",
    title="Pride: the player to the left of Pride's player leads next",
    statement="Whenever Pride is in play, the next bout is led by the player to the left of "
    "Pride's player (the next seat clockwise), whoever wins the bout and whatever else is in "
    "play.",
    rests_on=(
        rule("cards", "22 Pride"),
        rule("000", "Game Sequence (clockwise; the bout winner leads the next bout)"),
    ),
    query=query,
    broken=(Broken.PRIDE_IGNORED, Broken.PRIDE_TO_THE_RIGHT),
)
