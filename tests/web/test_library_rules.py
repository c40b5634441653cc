"""What the board's library restates of the rules (``web/library.py``), against the engine.

The board names each legal action by the clicks that choose it and a sentence, and each
decision the rules wait for in words: it restates the choice words of every card (rules file
000, the cards' effects) and every kind of pending decision. On random rounds (4, 5 and 6
players, random rule options) every legal move of the engine has clicks no other legal move has
and a label, and every pending decision is told in words (not its internal name).
"""

from __future__ import annotations

import random

from omen_solver.omens import state as engine
from omen_solver.omens.state import OmensState
from omen_solver.web.library import _move_entry, _pending_text
from tests.omens_kernel.helpers import random_round, random_small, walk


def _states(rng: random.Random) -> list[OmensState]:
    found = []
    for index in range(90):
        players = (4, 5, 6)[index % 3]
        start = (random_round(rng, players) if index % 2 else
                 random_small(rng, players, rng.randint(1, 3)))
        found.extend(walk(rng, start))
    return found


def test_every_legal_move_has_its_own_clicks_and_a_label() -> None:
    rng = random.Random(20261205)
    kinds: set[str] = set()
    moves = 0
    for state in _states(rng):
        if state.is_terminal():
            continue
        entries = [_move_entry(state, move) for move in state.moves()]
        clicks = [tuple(entry["clicks"]) for entry in entries]
        assert len(clicks) == len(set(clicks)), (state, clicks)
        for entry in entries:
            assert entry["label"].startswith(("seat ", "seats ")), entry
            assert all(c.split(":")[0] in ("hand", "play", "seat", "word")
                       for c in entry["clicks"]), entry
        moves += len(entries)
        if state.pending:
            kind = state.pending[-1][0]
            kinds.add(kind)
            told = _pending_text(state)
            assert told is not None and told != kind and " " in told, (kind, told)
    assert moves > 5_000, moves
    assert kinds == {engine.DREAM, engine.REPLAY, engine.RESOLVE, engine.SHOW, engine.EXCHANGE,
                     engine.GIVE, engine.GIVE_BACK, engine.LUCK, engine.END_ABSOLUTE}, kinds
