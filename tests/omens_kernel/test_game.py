"""A game analysed for a given deal of every round (rules file 000, "End of a Round": the
first team to win 2 rounds wins; each round is dealt afresh and led by its winner, or by Pride
under option pride_next_round): the kernel chains round solves; the reference solver plays the
same game on the explaining engine (the given deals leave no chance node). Both must agree."""

from __future__ import annotations

import random
from typing import Any

import pytest

from omen_solver.core.budget import Budget
from omen_solver.core.search import solve
from omen_solver.errors import PositionError
from omen_solver.omens.position import parse_position
from omen_solver.omens.state import OmensState

TEAMS = {4: [[1, 3], [2, 4]], 5: [[1, 3], [2, 4, 5]], 6: [[1, 4], [2, 5], [3, 6]]}


def small_game(rng: random.Random, players: int) -> OmensState:
    """A game with 2 cards a hand in every round (1 to 35, the box left out)."""
    box = [30, 31, 32, 33, 34, 35][: 6 - players]
    cards = [c for c in range(1, 36) if c not in box]

    def deal() -> list[list[int]]:
        rng.shuffle(cards)
        return [sorted(cards[2 * s : 2 * s + 2]) for s in range(players)]

    first = deal()
    data: dict[str, Any] = {
        "game": "omens", "players": players, "teams": TEAMS[players], "scope": "game",
        "preset": rng.choice(["rulebook", "gamepark"]), "box": box,
        "hands": {str(s + 1): hand for s, hand in enumerate(first)},
        "bout": {"leader": rng.randint(1, players)},
        "later_rounds": [deal() for _ in range(len(TEAMS[players]))],
    }
    return parse_position(data, "<small game>").state


@pytest.mark.parametrize("players", [4, 5, 6])
def test_game_values_agree_with_the_reference(players: int) -> None:
    rng = random.Random(players * 101)
    concept = "paranoid" if players == 6 else "minimax"
    for _ in range(3):
        state = small_game(rng, players)
        fast = solve(state, concept=concept, team=1, budget=Budget(max_seconds=60))
        slow = solve(state, concept=concept, team=1, budget=Budget(max_seconds=60),
                     engine="reference")
        assert fast.extra["engine"].startswith("kernel")
        assert slow.solved and fast.solved
        assert fast.value == slow.value
        assert set(fast.best_actions) == set(slow.best_actions)
        # The line goes on through the later rounds and the engine replays all of it.
        line = state
        for text in fast.principal_variation:
            line = line.apply_move(line.parse_move(text))


def test_a_game_needs_every_later_deal() -> None:
    state = small_game(random.Random(1), 4)
    short = state.table.later_rounds[:1]
    data = {
        "game": "omens", "players": 4, "teams": TEAMS[4], "scope": "game", "box": [30, 31],
        "hands": {str(s + 1): list(h) for s, h in enumerate(state.hands)},
        "later_rounds": [[list(h) for h in hands] for hands in short], "bout": {"leader": 1},
    }
    cut = parse_position(data, "<short>").state
    result = solve(cut, budget=Budget(max_nodes=1_000))
    assert result.extra["engine"] == "reference"
    assert "later_rounds" in result.extra["kernel_refused"]


def test_later_rounds_are_checked() -> None:
    base = {"game": "omens", "players": 4, "teams": TEAMS[4], "scope": "game", "box": [30, 31],
            "hands": {"1": [1, 2], "2": [3, 4], "3": [5, 6], "4": [7, 8]},
            "bout": {"leader": 1}}
    with pytest.raises(PositionError, match=r"later_rounds\[1\]\[2\].*twice"):
        parse_position(base | {"later_rounds": [[[1], [1], [2], [3]]]}, "<f>")
    with pytest.raises(PositionError, match="stays in the box"):
        parse_position(base | {"later_rounds": [[[30], [1], [2], [3]]]}, "<f>")
    with pytest.raises(PositionError, match='need scope = "game"'):
        parse_position(base | {"scope": "round", "later_rounds": [[[9], [1], [2], [3]]]}, "<f>")
