"""The Omen table as a few lines of text for people (``str(state)``), seats from 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omen_solver.core.game import CHANCE
from omen_solver.omen.scoring import score, winner

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["describe_state"]

_SHOWN_ACTIONS = 12
"""The most legal actions the last line lists."""


def _cards(cards: tuple[str, ...]) -> str:
    return ", ".join(cards) or "-"


def describe_state(state: OmenState) -> str:
    """Turn and step, each seat's coins, hand, Rewards and VP, each city's units, Rewards and
    Relic, the deck and discard, and who acts (or who won)."""
    lines = [f"turn {state.turn.number}, seat {state.active + 1} active, {state.turn.step} step"]
    for seat, at in enumerate(state.players):
        lines.append(
            f"seat {seat + 1}: {at.coins} coins, {score(state, seat)} VP; hand "
            f"{_cards(at.hand)}; Rewards in hand {_cards(at.rewards)}, unused "
            f"{_cards(at.rewards_unused)}, used {_cards(at.rewards_used)}"
        )
    for index, city in enumerate(state.cities):
        units = [", ".join(unit.card + ("!" if unit.enraged else "") for unit in side) or "-"
                 for side in city.sides]
        relic = f"; Relic {city.relic} (seat {city.relic_owner + 1})" if city.relic else ""
        lines.append(f"city {index + 1}: seat 1 {units[0]}; seat 2 {units[1]}; Rewards "
                     f"{_cards(city.rewards)}{relic}")
    lines.append(f"deck {len(state.deck_top)} known + {len(state.deck_rest)} shuffled; discard "
                 f"{len(state.discard)}; supply {state.supply} coins")
    if state.over:
        won = winner(state)
        lines.append("game over: " + ("shared victory" if won is None else f"seat {won + 1} wins"))
        return "\n".join(lines)
    player = state.current_player()
    who = "chance" if player == CHANCE else f"seat {player + 1}"
    legal = [str(action) for action in state.legal_actions()]
    more = ", ..." if len(legal) > _SHOWN_ACTIONS else ""
    lines.append(f"{who} to act: {', '.join(legal[:_SHOWN_ACTIONS])}{more}")
    return "\n".join(lines)
