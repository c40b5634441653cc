"""Input errors carry what their message says as fields (file, key, value, rule, problem), so a
caller that knows more locates an error without cutting its message apart."""

from __future__ import annotations

import pickle

import pytest

import omen_solver.omen
import omen_solver.omens
from omen_solver.core.search import solve
from omen_solver.errors import NO_VALUE, ChoiceError, OptionError, PositionError

OMENS = """
game = "omens"
players = 4
teams = [[1, 3], [2, 4]]
preset = "rulebook"
[rules]
fear_pass_on = "maybe"
[hands]
1 = [30, 15, 7]
2 = [28, 3, 9]
3 = [12, 13, 22]
4 = [14, 26, 5]
[bout]
leader = 1
"""


def test_a_bad_setting_in_a_position_names_the_file_key_and_value() -> None:
    """docs/omens-positions.md, "What is checked": unknown presets, options or settings."""
    with pytest.raises(PositionError) as caught:
        omen_solver.omens.load(OMENS)
    error = caught.value
    assert (error.file, error.key, error.value) == ("<string>", "rules.fear_pass_on", "maybe")
    assert str(error).startswith("<string>: key 'rules.fear_pass_on': unknown setting 'maybe'")
    assert error.problem.startswith("unknown setting 'maybe'")


def test_an_unknown_preset_is_the_key_preset() -> None:
    with pytest.raises(PositionError) as caught:
        omen_solver.omens.load(OMENS.replace('"rulebook"', '"house"').replace('"maybe"', '"no"'))
    assert (caught.value.key, caught.value.value) == ("preset", "house")


def test_a_move_refused_in_a_file_names_the_move_key() -> None:
    text = OMENS.replace('"maybe"', '"no"').replace("leader = 1", 'leader = 1\nmoves = ["2:28"]')
    with pytest.raises(PositionError) as caught:
        omen_solver.omens.load(text)
    assert caught.value.key == "bout.moves[1]"
    assert str(caught.value).startswith("<string>: key 'bout.moves[1]': ")


def test_an_omen_option_error_names_its_key() -> None:
    text = 'game = "omen"\n[rules]\nwar_trigger = "sometimes"\n'
    with pytest.raises(PositionError) as caught:
        omen_solver.omen.load(text + "[[city]]\nrewards = []\n" * 3)
    assert (caught.value.key, caught.value.value) == ("rules.war_trigger", "sometimes")


def test_located_joins_keys_and_keeps_an_inner_file_whole() -> None:
    inner = OptionError(key="rules.x", value="y", problem="unknown setting 'y'")
    outer = inner.located(PositionError, file="a.toml")
    assert str(outer) == "a.toml: key 'rules.x': unknown setting 'y'"
    nested = PositionError(file="cards.toml", key="card[1]", problem="no name")
    assert str(nested.at(file="a.toml", key="catalogue")) == (
        "a.toml: key 'catalogue': cards.toml: key 'card[1]': no name")
    assert str(PositionError(key="[2]", problem="bad").at(key="moves")) == "moves[2]: bad"
    assert PositionError("plain").value is NO_VALUE


def test_errors_keep_their_fields_across_processes() -> None:
    error = ChoiceError(key="max_memory", value=5, problem="too little", rule="x.y")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is ChoiceError and str(again) == str(error) == "max_memory: too little"
    assert (again.key, again.value, again.rule, again.problem) == ("max_memory", 5, "x.y",
                                                                  "too little")


def test_a_kernel_setting_the_search_refuses_is_keyed() -> None:
    state = omen_solver.omen.load("puzzles/omen/war-order.toml")
    with pytest.raises(ChoiceError) as caught:
        solve(state, max_memory=2**31)
    assert (caught.value.key, caught.value.value) == ("max_memory", 2**31)
    assert str(caught.value).startswith("max_memory: threads and max_memory apply to the Omens")
