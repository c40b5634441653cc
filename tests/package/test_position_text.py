"""One codec per game (docs/position-text.md, docs/omens-positions.md, docs/omen.md): every
state of either game has a position file and a one-line text, written by one writer and read
by one reader back to an equal state, every field and the table included; card names are read
wherever a card is written."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import omen_solver
import omen_solver.omen
import omen_solver.omens
from omen_solver import OMEN, OMENS
from omen_solver.core.game import GameState
from omen_solver.core.options import describe
from omen_solver.errors import PositionError
from omen_solver.omen.position import position_data as omen_data
from omen_solver.omen.position import position_toml as omen_toml
from omen_solver.omen.position import state_from_data
from omen_solver.omen.rules import PROFILES, OmenRules
from omen_solver.omen.state import OmenState
from omen_solver.omens.position import parse_position, position_data, position_toml
from omen_solver.omens.rules import PRESETS, OmensRules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope

ROOT = Path(__file__).resolve().parents[2]
OMENS_OPTIONS = describe(OmensRules)
OMEN_OPTIONS = [spec for spec in describe(OmenRules)
                if spec.name not in ("stat_colours", "max_turns")]


def _play(state: GameState[Any], steps: int, rng: random.Random) -> GameState[Any]:
    """``state`` after up to ``steps`` random moves, chance outcomes by their weights."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state = state.child(rng.choices(outcomes, weights=[float(w) for w in weights])[0])
        else:
            moves = state.legal_actions()
            state = state.child(moves[rng.randrange(len(moves))])
    return state


def _same_omens(again: OmensState, state: OmensState) -> None:
    assert again == state
    assert {**again.fields(), "last": None} == {**state.fields(), "last": None}
    assert again.table.rules == state.table.rules and again.table.scope is state.table.scope
    assert (again.table.later_rounds, again.table.later_from) == (
        state.table.later_rounds, state.table.later_from)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([4, 5, 6]),
       preset=st.sampled_from(list(PRESETS)), scope=st.sampled_from(list(Scope)),
       steps=st.integers(0, 120), data=st.data())
def test_every_omens_state_round_trips_as_a_text_and_as_a_file(
        seed: int, players: int, preset: str, scope: Scope, steps: int,
        data: st.DataObject) -> None:
    rules = data.draw(st.fixed_dictionaries({}, optional={
        spec.name: st.sampled_from(list(spec.settings)) for spec in OMENS_OPTIONS}))
    start = omen_solver.omens.new_game(players=players, preset=preset, rules=rules,
                                       scope=scope.value)
    state = _play(start, steps, random.Random(seed))
    text = state.to_text()
    assert "\n" not in text and text.startswith("omens ")
    again = omen_solver.load(text)
    assert isinstance(again, OmensState)
    _same_omens(again, state)
    assert again.to_text() == text
    written = position_toml(position_data(state))
    assert OMENS.write_file is not None and OMENS.write_file(state) == written
    _same_omens(parse_position(tomllib.loads(written)).state, state)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), profile=st.sampled_from(list(PROFILES)),
       steps=st.integers(0, 150), data=st.data())
def test_every_omen_state_round_trips_as_a_text_and_as_a_file(
        seed: int, profile: str, steps: int, data: st.DataObject) -> None:
    rules = data.draw(st.fixed_dictionaries({}, optional={
        spec.name: st.sampled_from(list(spec.settings)) for spec in OMEN_OPTIONS}))
    try:
        start = omen_solver.omen.new_game(preset=profile, rules=rules, seed=seed)
    except (ValueError, PositionError):
        return  # a combination the deal refuses (a set with no card of a kind it needs)
    state = _play(start, steps, random.Random(seed))
    text = state.to_text()
    assert "\n" not in text and text.startswith("omen ")
    again = omen_solver.load(text)
    assert isinstance(again, OmenState)
    assert again == state and again.search == state.search
    assert again.to_text() == text
    written = omen_toml(omen_data(state))
    assert OMEN.write_file is not None and OMEN.write_file(state) == written
    assert state_from_data(Path("written.toml"), tomllib.loads(written)) == state


@pytest.mark.parametrize("path", sorted((ROOT / "puzzles").rglob("*.toml")),
                         ids=lambda path: path.name)
def test_every_shipped_puzzle_round_trips(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The puzzles' positions, with a [search] table, relics, cards of other sets, Law and
    pending decisions in the moves already made."""
    state = omen_solver.load(path)
    again = omen_solver.load(state.to_text())
    assert again == state
    if isinstance(state, OmenState):
        assert isinstance(again, OmenState) and again.search == state.search
    else:
        assert isinstance(again, OmensState)
        _same_omens(again, state)


def test_a_position_file_may_describe_a_bout_in_progress() -> None:
    """docs/omens-positions.md, "A position as it stands": the cards in play, who has played,
    Law's constraint and the decision the rules wait for, written directly."""
    moved = omen_solver.load(ROOT / "docs/examples/omens/law-and-wrath.toml")
    data = position_data(moved)
    written = position_toml(data)
    assert "in_play" in written and "moves" not in written
    assert omen_solver.omens.load(written) == moved


def test_card_names_are_read_wherever_a_card_is_written() -> None:
    """A hand, a move and a box name cards by value or by name, in any case; a name no card
    has is refused with the closest names (docs/position-text.md)."""
    state = omen_solver.omens.load_position(ROOT / "docs/examples/omens/position.toml").start
    named = state.to_text().replace("7,15,30", "7,law,TheAbsolute")
    with pytest.raises(PositionError, match="names 6 cards"):
        omen_solver.load(named)
    named = state.to_text().replace("7,15,30", "Spring,LAW,30")
    assert omen_solver.load(named) == state
    assert state.child("1:Law lower") == state.child("1:15 lower")
    with pytest.raises(PositionError, match="no card is named 'Lw'; did you mean 'Law'"):
        omen_solver.load(state.to_text().replace("7,15,30", "7,Lw,30"))
    with pytest.raises(ValueError, match="did you mean 'Law'"):
        state.child("1:Lwa lower")
    war = omen_solver.omen.load(ROOT / "puzzles/omen/war-order.toml")
    assert war.child("War 1") == war.child("war 1")


def test_a_text_nested_too_deep_is_refused_not_recursed() -> None:
    """docs/robustness.md, "Depth": a value text is read at most 64 levels deep."""
    war = omen_solver.omen.load(ROOT / "puzzles/omen/war-order.toml").child("war 1").to_text()
    deep = war.replace("stack=[", "stack=[" + "[" * 5000 + "]" * 5000 + ",", 1)
    with pytest.raises(PositionError, match="key 'stack': values nested more than 64 deep"):
        omen_solver.load(deep)


TEXTS = [
    omen_solver.load(ROOT / "docs/examples/omens/law-and-wrath.toml").to_text(),
    omen_solver.load(ROOT / "puzzles/omens/absolute-open-exchange.toml").to_text(),
    omen_solver.load(ROOT / "puzzles/omen/war-order.toml").child("war 1").to_text(),
]


@settings(max_examples=150, deadline=None)
@given(text=st.sampled_from(TEXTS), at=st.integers(0, 10_000),
       cut=st.integers(0, 12), put=st.text(alphabet="0123456789,/:@<=-.[]()!*? abwxyz",
                                           max_size=12) | st.just("9" * 5000))
def test_a_damaged_text_is_refused_with_a_message_or_read(text: str, at: int, cut: int,
                                                          put: str) -> None:
    """Bad input is a PositionError (or another input error), never a crash."""
    at %= len(text) + 1
    damaged = text[:at] + put + text[at + cut:]
    try:
        omen_solver.load(damaged)
    except ValueError as error:  # every input error of the library is a ValueError
        assert isinstance(error, omen_solver.OmenSolverError | omen_solver.OptionError), error
