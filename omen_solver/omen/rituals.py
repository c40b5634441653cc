"""Priestesses' RITUAL (004 Unit Card Types: Priestesses).

"A Priestess whose RITUAL condition is met is removed from its city, turned facedown, and a VP
token is placed on it." The token is worth 2 VP at the end (004 End of Game and Scoring). When
the condition is checked is ``ritual_timing``; the box has 6 VP tokens (``vp_token_supply``):
with none left a RITUAL waits until one is available. An Enraged Priestess has no abilities.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from omen_solver.omen.conditions import holds
from omen_solver.omen.zones import add_card

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["check_rituals"]


def _due(state: OmenState, players: Iterable[int]) -> tuple[int, int, str] | None:
    priestesses = state.catalogue.with_rituals
    if not priestesses or not state.has_unit(priestesses):
        return None
    for player in players:
        for owner, city, unit in state.units(player):
            if unit.card in priestesses and not unit.enraged and holds(
                    state, owner, state.card(unit.card).ritual, city):
                return owner, city, unit.card
    return None


def check_rituals(state: OmenState, players: Iterable[int]) -> OmenState:
    """Complete every RITUAL whose condition holds for the given players' Priestesses."""
    order = tuple(players)
    while state.tokens > 0 or state.unlimited_tokens():
        due = _due(state, order)
        if due is None:
            break
        owner, city, card = due
        unit = next(u for u in state.cities[city].sides[owner] if u.card == card and
                    not u.enraged)
        state = state.remove_unit(city, owner, unit)
        player = state.players[owner]
        state = state.update_player(owner, rituals=add_card(player.rituals, card),
                                    vp_tokens=player.vp_tokens + 1)
        if not state.unlimited_tokens():
            state = state.but(tokens=state.tokens - 1)
        state = state.log("ritual", f"seat {owner + 1}'s {card} in city {city + 1} completes "
                          "its RITUAL: removed face down with a VP token (2 VP)")
    return state
