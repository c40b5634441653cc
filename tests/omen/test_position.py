"""Omen position files: defaults, and errors that name the file and the key (docs/omen.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from omen_solver.core.positions import load_state
from omen_solver.errors import PositionError
from omen_solver.omen import load
from omen_solver.omen.state import OmenState
from tests.omen.helpers import city, make

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omen"


def test_every_example_position_loads_through_the_dispatcher() -> None:
    files = sorted(PUZZLES.glob("*.toml"))
    assert len(files) >= 3
    for path in files:
        assert isinstance(load_state(path), OmenState), path


def test_unseen_cards_default_to_the_rest_of_the_profile() -> None:
    """The shuffled deck and the face-down Rewards are "the rest" of the profile's sets."""
    state = load(PUZZLES / "war-colossal.toml")
    on_table = sum(len(side) for c in state.cities for side in c.sides)
    in_hands = sum(len(p.hand) for p in state.players)
    assert len(state.deck_rest) + len(state.discard) + on_table + in_hands == 48
    assert Counter(state.deck_rest)["hoplite"] == 5 - 2
    assert Counter(state.reward_pool)["ambrosia"] == 1  # one of the two is in city 1
    assert len(state.reward_pool) == 11
    assert state.supply == 40 - 5


@pytest.mark.parametrize(
    ("data", "key", "problem"),
    [
        ({"profile": "chess"}, "profile", "unknown profile 'chess'"),
        ({"rules": {"war_trigger": "sometimes"}}, "rules.war_trigger", "unknown setting"),
        ({"rules": {"colour": "red"}}, "rules.colour", "unknown rule option"),
        ({"turn": {"step": "omen"}}, "turn.step", "'omen' is not a step of this profile"),
        ({"turn": {"active": 3}}, "turn.active", "must be seat 1 or 2"),
        ({"seat": {"1": {"hand": ["hoplit"]}}}, "seat.1.hand[0]", "'hoplit' is not in the"),
        ({"seat": {"1": {"hand": ["ambrosia"]}}}, "seat.1.hand[0]", "is a reward, not a unit"),
        ({"seat": {"1": {"coins": -1}}}, "seat.1.coins", "must be a whole number >= 0"),
        ({"seat": {"3": {}}}, "seat.3", "unknown key"),
        ({"city": [city()]}, "city", "give exactly 3"),
        ({"turn": {"supply": 3}}, "turn.supply", "must add up to the coin supply of 40"),
        ({"deck": {"top": ["marduks-decree"]}}, "deck.top[0]", "is a reward, not a unit"),
        ({"pool": {"rewards": ["ambrosia"]}, "city": [city(rewards=["?", "?"])] * 3},
         "pool.rewards", "6 face-down Rewards"),
        ({"moves": ["play hoplite 1"]}, "moves[0]", "is not legal here"),
        ({"moves": ["fly away"]}, "moves[0]", "unknown verb 'fly'"),
        ({"colour": 1}, "colour", "unknown key"),
        ({"profile": "omega", "rules": {"optional_units": "on"},
          "city": [city(rewards=[], seat1=["perseus"])] * 3}, "city[0].seat1[0]",
         "Heroes are never"),
    ],
)
def test_errors_name_the_file_and_the_key(tmp_path: Path, data: dict[str, object], key: str,
                                          problem: str) -> None:
    base: dict[str, object] = {"game": "omen", "profile": "reign-of-war",
                               "city": [city(rewards=[])] * 3, "pool": {"rewards": []}}
    base.update(data)
    path = tmp_path / "bad.toml"
    path.write_text(_toml(base))
    with pytest.raises(PositionError) as error:
        load_state(path)
    message = str(error.value)
    assert message.startswith(str(path)) and key in message and problem in message, message


def test_rest_cannot_have_more_copies_than_the_catalogue() -> None:
    with pytest.raises(PositionError, match=r"deck\.shuffled.*'hydra' appears 2 times"):
        make(seat1={"hand": ["hydra", "hydra"]}, deck={"shuffled": "rest"})


def test_a_position_does_not_change_when_read_twice() -> None:
    first = load(PUZZLES / "war-colossal.toml")
    assert first == load(PUZZLES / "war-colossal.toml")
    assert hash(first) == hash(load(PUZZLES / "war-colossal.toml"))


def _toml(data: dict[str, object]) -> str:
    """A tiny TOML writer for the test tables (strings, numbers, lists, nested tables)."""
    lines: list[str] = []
    tables: list[tuple[str, dict[str, object]]] = []
    arrays: list[tuple[str, list[dict[str, object]]]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            arrays.append((key, value))
        else:
            lines.append(f"{key} = {_value(value)}")
    for name, table in tables:
        lines.extend(_table(name, table))
    for name, items in arrays:
        for item in items:
            lines.append(f"[[{name}]]")
            lines.extend(f"{k} = {_value(v)}" for k, v in item.items())
    return "\n".join(lines) + "\n"


def _table(name: str, table: dict[str, object]) -> list[str]:
    lines = [f"[{name}]"]
    nested = []
    for key, value in table.items():
        if isinstance(value, dict):
            nested.append((f"{name}.{key}", value))
        else:
            lines.append(f"{key} = {_value(value)}")
    for sub, value in nested:
        lines.extend(_table(sub, value))
    return lines


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)
