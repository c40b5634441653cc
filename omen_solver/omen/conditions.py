"""Condition tests of the effect language: Feats, Challenges, RITUAL, DEPLOY conditions, ``if``.

The Feat conditions the rulebooks name are an Oracle, a Soldier or a Beast in every city and
making the opponent discard 3 cards in one turn (``shared/rules/README.md``); the other tests
are the project's vocabulary for card data (``docs/omen-cards.md``). A test that needs a city
(``*_here``) is false when the ability has none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from omen_solver.omen.cards import Condition, Per
from omen_solver.omen.modifiers import side_strength

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["count", "holds"]

_Test = Callable[["OmenState", int, Condition, int | None], bool]


def _every_city(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    return all(
        any(state.unit_type(unit) == cond.unit_type for unit in city.sides[player])
        for city in state.cities
    )


def _type_here(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    if here is None:
        return False
    units = state.cities[here].sides[player]
    return sum(1 for unit in units if state.unit_type(unit) == cond.unit_type) >= cond.amount


def _units_here(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    return here is not None and state.side_size(here, player) >= cond.amount


def _opponent_units_here(state: OmenState, player: int, cond: Condition, here: int | None
                         ) -> bool:
    return here is not None and state.side_size(here, 1 - player) >= cond.amount


def _units_in_a_city(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    return any(state.side_size(city, player) >= cond.amount for city in range(3))


def _cities_with_units(state: OmenState, player: int, cond: Condition, here: int | None
                       ) -> bool:
    return sum(1 for city in state.cities if city.sides[player]) >= cond.amount


def _types_here(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    if here is None:
        return False
    kinds = {state.unit_type(unit) for unit in state.cities[here].sides[player]}
    return len(kinds) >= cond.amount


def _strength_here(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    if here is None:
        return False
    return side_strength(state, here, player) >= cond.amount


def _coins(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    return state.players[player].coins >= cond.amount


def _hand(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    return state.players[player].hand_size() >= cond.amount


def _rewards(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    p = state.players[player]
    return len(p.rewards) + len(p.rewards_unused) + len(p.rewards_used) >= cond.amount


def _opponent_discarded(state: OmenState, player: int, cond: Condition, here: int | None
                        ) -> bool:
    return state.turn.forced[player] >= cond.amount


def _discard_pile(state: OmenState, player: int, cond: Condition, here: int | None) -> bool:
    return len(state.discard) >= cond.amount


_TESTS: dict[str, _Test] = {
    "every_city": _every_city,
    "type_here": _type_here,
    "units_here": _units_here,
    "opponent_units_here": _opponent_units_here,
    "units_in_a_city": _units_in_a_city,
    "cities_with_units": _cities_with_units,
    "types_here": _types_here,
    "strength_here": _strength_here,
    "coins": _coins,
    "hand": _hand,
    "rewards": _rewards,
    "opponent_discarded": _opponent_discarded,
    "discard_pile": _discard_pile,
}


def holds(state: OmenState, player: int, conditions: Iterable[Condition],
          here: int | None = None) -> bool:
    """Whether every condition holds for ``player`` (``here``: the ability's city)."""
    return all(_TESTS[cond.test](state, player, cond, here) for cond in conditions)


def count(state: OmenState, player: int, per: Per, here: int | None) -> int:
    """What a ``per`` counts for ``player`` (``docs/omen-cards.md``: effects that scale)."""
    who = player if per.side == "own" else 1 - player
    p = state.players[who]
    if per.count == "units":
        cities = range(3) if per.where == "any" else () if here is None else (here,)
        return sum(1 for c in cities for unit in state.cities[c].sides[who]
                   if per.unit_type is None or state.unit_type(unit) == per.unit_type)
    if per.count == "cities":
        return sum(1 for city in state.cities if city.sides[who])
    if per.count == "rewards":
        return len(p.rewards) + len(p.rewards_unused) + len(p.rewards_used)
    if per.count == "hand":
        return p.hand_size()
    if per.count == "feats":
        return p.achieved_feats()
    return len(state.discard)
