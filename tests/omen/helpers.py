"""Builders for Omen tests: positions from Python values, moves by their canonical text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from omen_solver.core.game import CHANCE, TraceStep
from omen_solver.omen.position import state_from_data
from omen_solver.omen.state import OmenState

DEFAULT_REWARDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "reign-of-war": (("ambrosia", "thunderbolt"), ("athenas-counsel", "winged-sandals"),
                     ("ares-fury", "call-of-hades")),
    "fires-in-the-east": (("lamassu",), ("ishtar-gate",), ("hanging-gardens",)),
}
"""The Rewards a city built by :func:`city` without ``rewards`` gets: two known Rewards per
city, each city its own, so no card appears more often than the catalogue holds copies."""

EMPTY_CITY: dict[str, Any] = {"seat1": [], "seat2": []}


def city(rewards: Sequence[str] | None = None, seat1: Sequence[str] = (),
         seat2: Sequence[str] = (), **more: Any) -> dict[str, Any]:
    """A ``[[city]]`` table (units by card id, a trailing ``!`` for an Enraged unit); without
    ``rewards`` it gets the default Rewards of its place (:data:`DEFAULT_REWARDS`)."""
    table = {"seat1": list(seat1), "seat2": list(seat2), **more}
    if rewards is not None:
        table["rewards"] = list(rewards)
    return table


def _reward_set(profile: str) -> str:
    return "fires-in-the-east" if profile.startswith("fires-in-the-east") else "reign-of-war"


def _with_rewards(profile: str, cities: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    defaults = DEFAULT_REWARDS[_reward_set(profile)]
    return [{"rewards": list(defaults[index % 3]), **dict(table)}
            for index, table in enumerate(cities)]


def make(
    profile: str = "reign-of-war",
    *,
    step: str = "surge",
    active: int = 1,
    number: int = 5,
    rules: Mapping[str, str] | None = None,
    seat1: Mapping[str, Any] | None = None,
    seat2: Mapping[str, Any] | None = None,
    cities: Sequence[Mapping[str, Any]] | None = None,
    deck: Mapping[str, Any] | None = None,
    pool: Mapping[str, Any] | None = None,
    turn: Mapping[str, Any] | None = None,
    cards: Sequence[str] | None = None,
    moves: Sequence[str] | None = None,
    sets: Sequence[str] | str = "all",
    path: Path | str = "test-position.toml",
) -> OmenState:
    """A position built like a position file. By default the deck and the Reward pool are
    empty (so nothing is left to chance) and every city has its known Rewards
    (:data:`DEFAULT_REWARDS`).

    A test of one rule may use cards of any set (``sets = "all"``) and Spirits and Heroes
    (``optional_units = "on"``); the set, copy and Optional Units checks have tests of their
    own (``test_rule_gaps.py``)."""
    rules = {"optional_units": "on", **(rules or {})}
    data: dict[str, Any] = {
        "game": "omen",
        "profile": profile,
        "turn": {"active": active, "step": step, "number": number, **(turn or {})},
        "seat": {"1": dict(seat1 or {}), "2": dict(seat2 or {})},
        "city": _with_rewards(profile, cities or [EMPTY_CITY] * 3),
        "deck": {"shuffled": [], **(deck or {})},
        "pool": {"rewards": [], **(pool or {})},
        "sets": sets if isinstance(sets, str) else list(sets),
    }
    if rules:
        data["rules"] = dict(rules)
    if cards:
        data["cards"] = list(cards)
    if moves:
        data["moves"] = list(moves)
    return state_from_data(Path(path), data)


def legal(state: OmenState) -> list[str]:
    return [str(action) for action in state.legal_actions()]


def play(state: OmenState, *moves: str) -> OmenState:
    """Apply moves written in canonical notation."""
    for text in moves:
        state = state.child(state.string_to_action(text))
    return state


def play_traced(state: OmenState, *moves: str) -> tuple[OmenState, list[TraceStep]]:
    trace: list[TraceStep] = list(state.trace)
    for text in moves:
        state = state.child(state.string_to_action(text))
        trace.extend(state.trace)
    return state, trace


def advance(state: OmenState, until: Callable[[OmenState], bool],
            choose: Callable[[OmenState], str] | None = None, limit: int = 500) -> OmenState:
    """Play the first legal action (or ``choose``'s) until ``until`` holds."""
    for _ in range(limit):
        if until(state):
            return state
        if state.is_terminal():
            break
        text = choose(state) if choose else legal(state)[0]
        state = play(state, text)
    assert until(state), f"did not reach the condition; at {state!r}"
    return state


def prefer(*prefixes: str) -> Callable[[OmenState], str]:
    """A chooser taking the first legal action starting with one of ``prefixes`` in order."""

    def choose(state: OmenState) -> str:
        actions = legal(state)
        for prefix in prefixes:
            for text in actions:
                if text.startswith(prefix):
                    return text
        return actions[0]

    return choose


def is_chance(state: OmenState) -> bool:
    return state.current_player() == CHANCE
