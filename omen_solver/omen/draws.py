"""Drawing cards, the reshuffle of the discard pile, and face-down Rewards turned up.

* Drawing takes the top card of the deck. Cards whose order is known (``deck_top``) are drawn
  without chance; a draw from the shuffled part (``deck_rest``) is a chance event, each card with
  probability (copies left) / (cards left) (001 General Terms: Draw cards).
* The discard pile becomes the new deck when the deck runs out (001 Rules Clarifications: "the
  discard pile is shuffled immediately"; 003 Special Rules; 004 Wealth Step: "If a player would
  draw a card but the deck has no cards, shuffle the discard pile"). The rule option
  ``reshuffle_timing`` says when. A shuffled deck is an unknown deck: the draws from it are
  chance events; with ``when-drawing`` the reshuffle and the first draw are one chance event.
* With both deck and discard pile empty there is nothing to draw and the draw is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from omen_solver.omen.frames import Frame, chance
from omen_solver.omen.notation import Action
from omen_solver.omen.rules import ReshuffleTiming
from omen_solver.omen.zones import HIDDEN, Prompt, add_card, remove_card

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["Draw", "RevealReward", "reshuffle", "reshuffle_if_due"]


def reshuffle(state: OmenState) -> OmenState:
    """The discard pile, shuffled, becomes the (unknown) deck."""
    return state.but(deck_rest=state.discard, discard=()).log(
        "deck.reshuffle",
        f"the deck is empty: the discard pile ({len(state.discard)} cards) is shuffled into a "
        "new deck",
    )


def reshuffle_if_due(state: OmenState) -> OmenState:
    """``reshuffle_timing = 'immediately'``: reshuffle as soon as the deck is empty."""
    if (
        state.rules.reshuffle_timing == ReshuffleTiming.IMMEDIATELY
        and not state.deck_top
        and not state.deck_rest
        and state.discard
    ):
        return reshuffle(state)
    return state


def _take(state: OmenState, player: int, card: str) -> OmenState:
    hand = add_card(state.players[player].hand, card)
    return state.update_player(player, hand=hand).log(
        "deck.draw", f"seat {player + 1} draws {card}"
    )


@dataclass(frozen=True, slots=True)
class Draw(Frame):
    """``player`` draws ``count`` cards, one at a time."""

    player: int
    count: int

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.count <= 0 or state.deck_top:
            return None
        if state.deck_rest:
            return chance((Action("draw", (card,)), 1) for card in state.deck_rest)
        if state.discard:
            return chance((Action("reshuffle", (card,)), 1) for card in state.discard)
        return None

    def _next(self, state: OmenState) -> OmenState:
        if self.count <= 1:
            return state.pop()
        return state.swap(Draw(self.player, self.count - 1))

    def run(self, state: OmenState) -> OmenState:
        if self.count <= 0:
            return state.pop()
        if state.deck_top:
            card = state.deck_top[0]
            return _take(self._next(state.but(deck_top=state.deck_top[1:])), self.player, card)
        # Deck and discard pile are both empty: the draw is lost.
        return state.log(
            "deck.empty", f"seat {self.player + 1} cannot draw: deck and discard pile are empty"
        ).pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        (card,) = action.args
        if action.verb == "reshuffle":
            state = reshuffle(state)
        state = state.but(deck_rest=remove_card(state.deck_rest, card))
        return _take(self._next(state), self.player, card)


@dataclass(frozen=True, slots=True)
class RevealReward(Frame):
    """The top Reward of ``city`` is face down and unseen: which one it is is a chance event,
    each unseen Reward equally likely (003 Setup: the Rewards are shuffled and dealt)."""

    city: int

    def prompt(self, state: OmenState) -> Prompt | None:
        rewards = state.cities[self.city].rewards
        if not rewards or rewards[0] != HIDDEN:
            return None
        return chance((Action("reveal", (card,)), 1) for card in state.reward_pool)

    def run(self, state: OmenState) -> OmenState:
        return state.pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        (card,) = action.args
        city = state.cities[self.city]
        state = state.with_city(self.city, replace(city, rewards=(card, *city.rewards[1:])))
        state = state.but(reward_pool=remove_card(state.reward_pool, card))
        return state.log("reward.reveal", f"the top Reward of city {self.city + 1} is {card}").pop()
