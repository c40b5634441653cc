"""Which root moves the exact searches take up first: the ones whose proof looks cheapest.

The rounds of :mod:`.rounds` give every open move a turn, the turns doubling every round. Here
(:class:`ProofOrderDriver`) a round gives turns only to the ``width`` open moves whose df-pn
searches show the **smallest proof or disproof number** at the move's position (of the
questions still open there, "value 1?" and "value 0?"), each move's turn doubling only when it
had one. A move none of whose searches has started yet comes first (its number is 0), so
every move has its first turn in the first rounds, and a lead whose refutation is cheap is
refuted while the expensive ones wait. The numbers are read from the shared tables after the
merge of the round, so the choice does not depend on the threads: the same moves have the
same turns with one thread or several.
"""

from __future__ import annotations

from typing import Any, Final

from omen_solver.omens.kernel.rounds import RoundDriver

__all__ = ["WIDTH", "ProofOrderDriver", "cheapness"]

WIDTH: Final = 2
"""Open moves that have a turn in one round (the machine's two threads one each)."""
UNKNOWN_COST: Final = 1 << 62
"""The cheapness of a move no df-pn search asks about (alpha-beta alone: a fraction)."""


def cheapness(job_search: Any, state: Any) -> int:
    """The smallest proof or disproof number of the open df-pn questions at ``state`` in a
    move's searches (0 where a search has no entry there yet: it has not started)."""
    inner = getattr(job_search, "inner", None)
    proofs = getattr(inner, "proofs", None)
    if proofs is None:
        return 0
    questions = inner._questions.get(state.k.key(), (1,))  # type: ignore[union-attr]
    best = UNKNOWN_COST
    for question in questions:
        numbers = proofs[question].numbers(state.k)
        if numbers is None:
            return 0
        proof, disproof = numbers
        if proof == 0 or disproof == 0:
            continue
        best = min(best, proof, disproof)
    return best


class ProofOrderDriver(RoundDriver):
    """:class:`.rounds.RoundDriver` whose rounds give turns to the moves of the smallest proof
    or disproof numbers (see the module's text)."""

    width: int = WIDTH

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turns = {move.index: self.first_turn for move in self.moves}

    def choose(self, todo: list[Any]) -> list[Any]:
        if len(todo) <= self.width:
            return todo
        ranked = sorted(todo, key=lambda move: (
            cheapness(self.jobs[move.index].search, move.state), move.index))
        chosen = {move.index for move in ranked[:self.width]}
        return [move for move in todo if move.index in chosen]

    def turn_of(self, move: Any) -> int:
        return self.turns[move.index]

    def turned(self, moves: list[Any]) -> None:
        for move in moves:
            self.turns[move.index] *= 2
        value = self.value()
        still = [self.turns[move.index] for move in self.moves if self._open(move, value)]
        self.turn = min(still) if still else self.turn
