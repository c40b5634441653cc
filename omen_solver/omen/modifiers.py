"""Passive modifiers and cost changes: the effect language's "while in play" vocabulary.

No rulebook names a passive ability of a printed card (001 Relics of Olympus only says "some
are passive"); public descriptions of Omen cards mention Strength bonuses and cost changes
(``omen-public-cards.md``). A card's ``passive`` modifiers are in force while the unit lies in
a city and is not Enraged (an Enraged unit "loses all other abilities": 004 Keyword Glossary,
Enrage). ``docs/omen-cards.md`` lists the modifiers.

* Strength: matching units have more (or less) Strength, never below 0. An Enraged unit's
  Strength 4 is modified like any other.
* Cost: matching units played into a matching city cost more (or less), never below 0; so do
  the ``cost_change`` effects of this turn (TurnInfo.cost_change). DIRGE and INVOKE costs are
  not changed: they are not plays into a city.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from omen_solver.omen.cards import Modifier
from omen_solver.omen.zones import Unit

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["play_cost", "side_strength", "unit_strength"]


def _sources(state: OmenState, op: str) -> Iterator[tuple[int, int, Unit, Modifier]]:
    """Every passive modifier ``op`` in force: (owner, city, unit, modifier)."""
    passive = state.catalogue.with_passives
    if not passive or not state.has_unit(passive):
        return
    for owner, city, unit in state.units():
        if unit.card in passive and not unit.enraged:
            for modifier in state.card(unit.card).passive:
                if modifier.op == op:
                    yield owner, city, unit, modifier


def _side_matches(modifier: Modifier, source_owner: int, owner: int) -> bool:
    return modifier.side == "any" or (modifier.side == "own") == (owner == source_owner)


def unit_strength(state: OmenState, owner: int, city: int, unit: Unit) -> int:
    """The Strength of ``unit`` on ``owner``'s side of ``city``, modifiers included."""
    strength = state.strength(unit)
    skipped_self = False
    for source_owner, source_city, source, modifier in _sources(state, "strength"):
        if not _side_matches(modifier, source_owner, owner):
            continue
        if modifier.where == "here" and source_city != city:
            continue
        if modifier.unit_type is not None and state.unit_type(unit) != modifier.unit_type:
            continue
        if modifier.others and (source_owner, source_city, source) == (owner, city, unit) and (
                not skipped_self):
            skipped_self = True  # one identical copy is the unit itself
            continue
        strength += modifier.amount
    return max(strength, 0)


def side_strength(state: OmenState, city: int, owner: int) -> int:
    """The total Strength of ``owner``'s side of ``city`` (003 Step 5: War)."""
    return sum(unit_strength(state, owner, city, unit)
               for unit in state.cities[city].sides[owner])


def play_cost(state: OmenState, player: int, card_id: str, city: int) -> int:
    """What ``player`` pays to play ``card_id`` into ``city`` (001 Placing Units in Cities:
    "return the cost of the Unit in coins"), with the cost changes in force."""
    card = state.card(card_id)
    cost = card.cost + state.turn.cost_change[player]
    for source_owner, source_city, _, modifier in _sources(state, "cost"):
        if not _side_matches(modifier, source_owner, player):
            continue
        if modifier.where == "here" and source_city != city:
            continue
        if modifier.unit_type is not None and card.unit_type != modifier.unit_type:
            continue
        cost += modifier.amount
    return max(cost, 0)
