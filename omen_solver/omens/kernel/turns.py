"""Which root moves the exact searches take up first: the ones whose proof looks cheapest.

The rounds of :mod:`.rounds` give every open move a turn, the turns doubling every round. Here
(:class:`ProofOrderDriver`) a round gives turns only to the ``width`` open moves
(``Tuning.round_width``, 1 by default) whose df-pn searches show the **smallest proof or
disproof number** at the move's position (of the questions still open there, "value 1?" and
"value 0?"), each move's turn doubling only when it had one. A move none of whose searches has
started yet comes first (its number is 0; of equal numbers, the move of fewer turns), so every
move has its first turn in the first rounds, and a lead whose refutation is cheap is refuted
while the expensive ones wait. The numbers are read from the shared tables after the merge of
the round, so the choice does not depend on the threads: the same moves have the same turns
with one thread or several.
"""

from __future__ import annotations

from typing import Any, Final

from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.rounds import RoundDriver
from omen_solver.omens.kernel.search import skip_shows

__all__ = ["ProofOrderDriver", "cheapness", "root_numbers"]

UNKNOWN_COST: Final = 1 << 62
"""The cheapness of a move no df-pn search asks about (alpha-beta alone: a fraction)."""


def cheapness(job_search: Any, state: Any) -> int:
    """The smallest proof or disproof number of the open df-pn questions at ``state`` (a move's
    position) in a move's searches; 0 where they have not started there yet."""
    inner = getattr(job_search, "inner", None)
    proofs = getattr(inner, "proofs", None)
    if proofs is None:
        return 0
    machine = job_search.machine
    k = skip_shows(machine, state.k)
    questions = inner._questions.get(state.k.key(), (1,))  # type: ignore[union-attr]
    best = UNKNOWN_COST
    for question in questions:
        attacker = [flag == bool(question) for flag in job_search.maximising]
        numbers = root_numbers(proofs[question], machine, k, attacker, question)
        if numbers is None:
            return 0
        proof, disproof = numbers
        if proof == 0 or disproof == 0:
            continue
        best = min(best, proof, disproof)
    return best


def root_numbers(proof: Any, machine: Machine, state: KState, attacker: list[bool],
                 target: int) -> tuple[int, int] | None:
    """The proof and disproof numbers of ``state`` in a df-pn search asking whether its value
    is ``target``: its table's entry, or, while the search of that position runs (df-pn
    stores its root's numbers only once it ends), what its children's entries make of it (an
    OR node takes the least proof number and the sum of the disproof numbers, an AND node the
    other way round; a child not in the table counts 1 and 1). None when no child has an
    entry yet (the search has not started there)."""
    found = proof.numbers(state)
    if found is not None:
        return (int(found[0]), int(found[1]))
    player = machine.current_player(state)
    if player == m.TERMINAL:
        return None
    if player == m.SIMULTANEOUS:
        first, second = machine.acting_players(state)
        mine, theirs = machine.legal(state, first), machine.legal(state, second)
        table = [[_child(proof, machine, machine.joint_child(state, (a, b)), attacker, target)
                  for b in theirs] for a in mine]
        if all(cell is None for row in table for cell in row):
            return None
        cells = [[(1, 1) if cell is None else cell for cell in row] for row in table]
        if attacker[first] == attacker[second]:
            return _combine([cell for row in cells for cell in row], attacker[first])
        # rows: the attacker's cards, each an AND over the defender's answers
        rows = cells if attacker[first] else [list(column) for column in zip(*cells,
                                                                              strict=True)]
        return _combine([_combine(row, False) for row in rows], True)
    if player == m.CHANCE:
        moves = machine.chance_outcomes(state)
        is_or = False
    else:
        moves = machine.legal(state)
        is_or = attacker[player]
    children = [_child(proof, machine, machine.child(state, move), attacker, target)
                for move in moves]
    if all(child is None for child in children):
        return None
    return _combine([(1, 1) if child is None else child for child in children], is_or)


def _child(proof: Any, machine: Machine, state: KState, attacker: list[bool],
           target: int) -> tuple[int, int] | None:
    state = skip_shows(machine, state)
    if state.phase == m.OVER:
        value = 1 if state.winner >= 0 and attacker[state.winner] == bool(target) else 0
        return (0, UNKNOWN_COST) if value == target else (UNKNOWN_COST, 0)
    found = proof.numbers(state)
    return None if found is None else (int(found[0]), int(found[1]))


def _combine(children: list[tuple[int, int]], is_or: bool) -> tuple[int, int]:
    proofs = [child[0] for child in children]
    disproofs = [child[1] for child in children]
    if is_or:
        return min(proofs), min(sum(disproofs), UNKNOWN_COST)
    return min(sum(proofs), UNKNOWN_COST), min(disproofs)


class ProofOrderDriver(RoundDriver):
    """:class:`.rounds.RoundDriver` whose rounds give turns to the moves of the smallest proof
    or disproof numbers (see the module's text)."""

    def __init__(self, *args: Any, width: int, **kwargs: Any) -> None:
        """``width``: the open moves that have a turn in a round (``Tuning.round_width``; 0:
        every one)."""
        super().__init__(*args, **kwargs)
        self.width = width
        self.turns = {move.index: self.first_turn for move in self.moves}
        self._rank: dict[int, int] = {}

    def choose(self, todo: list[Any]) -> list[Any]:
        # equal numbers (0: none read at the move's position yet, even after a turn): the move
        # of the fewest turns first, so that a move with no numbers does not keep the turns
        ranked = sorted(todo, key=lambda move: (
            cheapness(self.jobs[move.index].search, move.state), self.turns[move.index],
            move.index))
        self._rank = {move.index: place for place, move in enumerate(ranked)}
        if not self.width or len(todo) <= self.width:
            return todo
        chosen = {move.index for move in ranked[:self.width]}
        return [move for move in todo if move.index in chosen]

    def _allot(self, todo: list[Any]) -> list[int]:
        """The round's turns within the node limit, the cheapest-looking move served first (a
        move not started yet before one having its second turn), in move order."""
        order = sorted(range(len(todo)), key=lambda i: self._rank.get(todo[i].index, i))
        ranked = super()._allot([todo[i] for i in order])
        caps = [0] * len(todo)
        for place, i in enumerate(order):
            caps[i] = ranked[place]
        return caps

    def turn_of(self, move: Any) -> int:
        return self.turns[move.index]

    def turned(self, moves: list[Any]) -> None:
        for move in moves:
            self.turns[move.index] *= 2
        value = self.value()
        still = [self.turns[move.index] for move in self.moves if self._open(move, value)]
        self.turn = min(still) if still else self.turn
