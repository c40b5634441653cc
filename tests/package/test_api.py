"""One interface for both games (docs/api.md): loading, the board as text, actions as text,
states as text that load back, new games, and ``legal_actions()`` then ``child()`` at every
kind of node."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import omen_solver
import omen_solver.omen
import omen_solver.omens
from omen_solver.core.game import CHANCE, SIMULTANEOUS, GameState, NodeKind
from omen_solver.errors import PositionError
from omen_solver.omens.actions import OmensAction, Verb

ROOT = Path(__file__).resolve().parents[2]
STARTS = [
    ROOT / "docs/examples/omens/worked-example.toml",
    ROOT / "docs/examples/omens/position.toml",
    ROOT / "puzzles/omen/war-order.toml",
    ROOT / "docs/examples/omen/position.toml",
]


def _new(game: str, seed: int) -> GameState[Any]:
    if game == "omens":
        return omen_solver.omens.new_game(players=4 + seed % 3, seed=seed, scope="round")
    return omen_solver.omen.new_game(seed=seed)


def _played(state: GameState[Any], steps: int, seed: int) -> GameState[Any]:
    """``state`` after up to ``steps`` random legal moves (chance outcomes included)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        moves = state.legal_actions()
        state = state.child(moves[rng.randrange(len(moves))])
    return state


@settings(max_examples=30)
@given(start=st.sampled_from([*STARTS, "omens", "omen"]), seed=st.integers(0, 10_000),
       steps=st.integers(0, 40))
def test_a_state_reached_by_play_loads_back_from_its_text(start: Path | str, seed: int,
                                                          steps: int) -> None:
    root = _new(start, seed) if isinstance(start, str) else omen_solver.load(start)
    state = _played(root, steps, seed)
    text = state.to_text()
    assert "\n" not in text and text.split()[0] == state.game_name
    again = omen_solver.load(text)
    assert type(again) is type(state)
    assert again.key() == state.key()
    assert again.to_text() == text
    assert [again.move_to_string(m) for m in again.legal_actions()] == [
        state.move_to_string(m) for m in state.legal_actions()]
    game = omen_solver.omens if isinstance(state, omen_solver.omens.state.OmensState) else (
        omen_solver.omen)
    assert game.load(text).key() == state.key()
    classes = {"OmensState": omen_solver.omens.state.OmensState,
               "OmenState": omen_solver.omen.state.OmenState}
    assert eval(repr(state), classes).key() == state.key()  # a repr pastes back
    assert omen_solver.load(repr(state)).key() == state.key()


def test_a_damaged_state_text_names_the_key() -> None:
    text = omen_solver.load(STARTS[0]).to_text()
    with pytest.raises(PositionError, match="key 'lead': missing"):
        omen_solver.load(text.replace(" lead=1", ""))
    with pytest.raises(PositionError, match="key 'lead': expected a whole number from 1 to 6"):
        omen_solver.load(text.replace(" lead=1", " lead=9"))
    with pytest.raises(PositionError, match="'nothing' is not a key of a position's text"):
        omen_solver.load(text + " nothing=1")
    war = omen_solver.load(STARTS[2]).child("war 1").to_text()
    with pytest.raises(PositionError, match=r"key 'stack': .*unknown type 'Nothing'"):
        omen_solver.load(war.replace("stack=[", "stack=[Nothing(),", 1))


@pytest.mark.parametrize("path", STARTS, ids=lambda p: p.name)
def test_both_games_load_the_same_way_and_print_a_board(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(path.parent)  # text names its card files from the current folder
    state = omen_solver.load(path)
    mine = (omen_solver.omens if path.parts[-2] == "omens" else omen_solver.omen).load(path)
    assert mine.key() == state.key()
    assert mine.key() == omen_solver.load(path.read_text(encoding="utf-8")).key()
    board = str(state)
    assert "seat 1" in board and len(board.splitlines()) >= 3 and not board.startswith("<")
    assert state.num_players() == len(state.returns())


def test_actions_are_values_written_in_their_canonical_text() -> None:
    # docs/omens-notation.md: seats from 1 in text; seat index 1 is seat 2.
    action = OmensAction(Verb.PLAY, 1, 18)
    assert str(action) == "2:18"
    assert repr(action) == "OmensAction.from_text('2:18')"
    assert eval(repr(action)) == action
    assert json.dumps({"move": action}, default=str) == '{"move": "2:18"}'
    assert action.to_json() == "2:18"
    with pytest.raises(TypeError):
        json.dumps(action)  # a value, never its fields as a list
    for path in STARTS:
        state = omen_solver.load(path)
        for move in state.legal_actions():
            text = state.move_to_string(move)
            assert state.move_to_string(state.string_to_action(text)) == text
            assert repr(move).count("(") >= 1 and "seat=" not in repr(move)


@pytest.mark.parametrize("game", ["omens", "omen"])
def test_new_game_takes_players_a_preset_and_a_seed(game: str) -> None:
    module = omen_solver.omens if game == "omens" else omen_solver.omen
    players = 5 if game == "omens" else 2
    before = module.new_game(players=players)
    assert before.current_player() == CHANCE
    dealt = module.new_game(players=players, seed=7)
    assert dealt.current_player() != CHANCE
    assert dealt.key() == module.new_game(players=players, seed=7).key()
    assert dealt.num_players() == players
    with pytest.raises(ValueError, match="players"):
        module.new_game(players=3 if game == "omens" else 4)


@pytest.mark.parametrize("seed", range(4))
def test_legal_actions_then_child_works_at_every_kind_of_node(seed: int) -> None:
    # rules file 000, "The Absolute": the exchange is secret, a simultaneous node whose
    # legal actions are the pairs of gifts.
    state = omen_solver.omens.new_game(players=4, scope="round")
    rng = random.Random(seed)
    kinds: set[NodeKind] = set()
    while not state.is_terminal():
        kinds.add(state.node_kind())
        moves = state.legal_actions()
        if state.current_player() == SIMULTANEOUS:
            assert all(isinstance(move, tuple) and len(move) == 2 for move in moves)
            assert " & " in state.move_to_string(moves[0])
        state = state.child(moves[rng.randrange(len(moves))])
    assert {NodeKind.CHANCE, NodeKind.DECISION, NodeKind.SIMULTANEOUS} <= kinds
