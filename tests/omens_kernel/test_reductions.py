"""Which reductions of the search are sound, and one natural one that is not.

The kernel merges the children of a node that are the same state (two cards that go back to
the same hand give the same bout; kernel/search.py, ``children``) and answers Secret's "show
me a card" with the first card (``skip_shows``, tested in test_machine.py). Both are sound
because the merged states are equal. A card-equivalence reduction (search one of two cards
that the rules cannot tell apart) has only one candidate in the catalogue: the six Absolutes
share one effect and one colour (omens-cards.md, 30-35), so two of them in one hand with no
card of value between them still in play look interchangeable. They are not, and the search
does not merge them: the test below shows a deal where playing the lower one wins and the
higher one loses.
"""

from __future__ import annotations

import random
from collections import defaultdict

from omen_solver.core.budget import Budget, Status
from omen_solver.core.search import solve
from omen_solver.omens.kernel.convert import from_engine, to_action
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from tests.omens_kernel.helpers import MAX_LINE, random_small


def test_merged_children_are_the_same_engine_state() -> None:
    """Children the kernel merges (equal kernel keys) are equal states of the explaining
    engine, so they have the same value under every solution concept."""
    rng = random.Random(11)
    merged = 0
    for _ in range(150):
        state = random_small(rng, rng.choice((4, 5, 6)), 3)
        spec = compile_table(state.table, state.teams())
        machine = Machine(spec)
        k = from_engine(spec, state)
        for _ in range(MAX_LINE):
            if state.is_terminal() or machine.current_player(k) < 0:
                break
            groups: dict[object, list[int]] = defaultdict(list)
            for move in machine.legal(k):
                groups[machine.child(k, move).key()].append(move)
            for moves in groups.values():
                if len(moves) < 2:
                    continue
                engine_keys = {state.apply_move((to_action(spec, move),)).key()
                               for move in moves}
                assert len(engine_keys) == 1, moves
                merged += 1
            moves = machine.legal(k)
            move = moves[rng.randrange(len(moves))]
            k = machine.child(k, move)
            state = state.apply_move((to_action(spec, move),))
    assert merged > 50


def _value_of_playing(state: OmensState, card: int, engine: str) -> object:
    """The best value seats 1 and 3 reach when seat 1 plays ``card`` (over its choices of the
    player to exchange with)."""
    values = []
    for move in state.moves():
        if move[0].card != card:
            continue
        result = solve(state.apply_move(move), concept="minimax", team=[1, 3],
                       budget=Budget(max_seconds=60), engine=engine)
        assert result.status is Status.SOLVED
        values.append(result.value)
    return max(values)  # type: ignore[type-var]


def test_absolutes_next_to_each_other_are_not_interchangeable() -> None:
    """Seat 1 holds 33 and 34 (no card between them anywhere), leads, and plays with seat 3.
    Playing 33 and giving 34 to seat 3 in the exchange (rules file 000, "The Absolute") lets
    seat 3 play 34, the highest card, win the bout and discard it ("How a Bout Is
    Resolved"); playing 34 first leaves only 33 to give, which 34 beats. So the two
    Absolutes are not interchangeable and a search may not merge them."""
    table = Table(4, make_rules("rulebook"))
    state = OmensState.start_of_bout(
        table, [[6, 33, 34], [3, 31], [8, 19], [26, 30]], [[0, 2], [1, 3]], 0
    )
    for engine in ("kernel", "reference"):
        assert _value_of_playing(state, 33, engine) == 1
        assert _value_of_playing(state, 34, engine) == 0
