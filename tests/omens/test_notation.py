"""The action notation round-trips over every legal action of many positions
(docs/omens-notation.md; style guide: "Every public parse/format pair round-trips")."""

from __future__ import annotations

import random

import pytest

from omen_solver.errors import IllegalActionError, InvalidActionError
from omen_solver.omens.actions import OmensAction, Verb, format_action, parse_action
from omen_solver.omens.rules import PRESETS, make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

from .helpers import position

EXTRA_OPTIONS = [
    {},
    {"now_resolver": "placer", "absolute_exchange": "open"},
    {"absolute_timing": "end", "luck_chooser": "random", "dream_target_turn": "plays_again"},
]


def _random_states(seed: int, count: int) -> list[OmensState]:
    rng = random.Random(seed)
    states = []
    for game in range(count):
        players = 4 + game % 3
        preset = list(PRESETS)[game % 2]
        options = EXTRA_OPTIONS[game % len(EXTRA_OPTIONS)]
        state = OmensState.new_game(Table(players, make_rules(preset, options), scope=Scope.GAME))
        while not state.is_terminal():
            states.append(state)
            moves = state.moves()
            state = state.apply_move(rng.choice(moves))
    return states


STATES = _random_states(seed=2024, count=30)


def test_enough_positions_are_covered() -> None:
    assert len(STATES) > 2000
    kinds = {state.current_player() for state in STATES}
    assert {-1, -2} <= kinds  # chance and simultaneous nodes are among them


def test_every_legal_action_round_trips() -> None:
    checked = 0
    for state in STATES:
        for move in state.moves():
            text = state.move_to_string(move)
            assert state.parse_move(text) == move, text
            for action in move:
                assert parse_action(format_action(action)) == action
                checked += 1
    assert checked > 20000


def test_canonical_forms() -> None:
    """The forms documented in docs/omens-notation.md."""
    cases = {
        "2:18": OmensAction(Verb.PLAY, 1, 18),
        "1:15 lower": OmensAction(Verb.PLAY, 0, 15, -1, ("lower",)),
        "1:21>3": OmensAction(Verb.PLAY, 0, 21, 2),
        "1:28 return 14": OmensAction(Verb.PLAY, 0, 28, -1, ("return", 14)),
        "1:29 take 14 give 7": OmensAction(Verb.PLAY, 0, 29, -1, ("take", 14, 7)),
        "1:24 show 3 9": OmensAction(Verb.PLAY, 0, 24, -1, ("show", 2, 9)),
        "1:31 with 3": OmensAction(Verb.PLAY, 0, 31, -1, ("with", 2)),
        "3:resolve 15 lower": OmensAction(Verb.RESOLVE, 2, 15, -1, ("lower",)),
        "3:shows 9": OmensAction(Verb.SHOWS, 2, 9),
        "2:discards 7": OmensAction(Verb.DISCARDS, 1, 7),
        "deal 14 to 2": OmensAction(Verb.DEAL, 1, 14),
    }
    for text, action in cases.items():
        assert parse_action(text) == action
        assert format_action(action) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "18",
        "0:18",
        "2:",
        "2:x",
        "2:18>0",
        "1:15 sideways",
        "1:29 take 14",
        "1:28 return x",
        "1:29 take 14 keep 7",
        "3:shows",
        "deal 14",
    ],
)
def test_syntax_errors_name_the_text(text: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        parse_action(text)
    assert repr(text) in str(error.value)


def test_illegal_actions_say_why_and_list_the_legal_ones() -> None:
    state = position({1: [5, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]})
    with pytest.raises(IllegalActionError) as error:
        state.parse_move("2:7")
    assert "seat 1 is to act" in str(error.value) and "1:5" in str(error.value)
