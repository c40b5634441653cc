"""Step 6: Offering, the hand limit, the coin cap and the end of Enraged.

* The active player may discard one card (R8, ``offering_card``: any hand card in 001, a Unit
  card in 003 and 004) and takes its Offering value in cards and/or coins, split as they like
  (001 Phase 6; 003 Step 6; 004 Offering Step). A Reward has no Offering value: offered under
  ``any-hand-card`` it gives nothing and leaves the game (Rewards never enter the unit deck).
  The split is taken one unit at a time (``take card`` / ``take coin``); ``resource_commit``
  says whether the cards and coins come at once or after the whole split is chosen.
* Hand limit (R3, ``hand_limit``): the active player discards down to it at the end of the step;
  in 001 Rewards over the limit are played face down (``bury``, 1 VP, no ability).
* Coin cap (option ``coin_cap``): the active player returns coins to the supply down to 10
  (001 Phase 6: "until he has at most 10 coins left"; 004 Offering Step: "until they have a
  maximum of 10 coins"); 003 states no cap, read like its silence on the hand limit (R3).
* Enraged units turn back at the end of the step: the active player's (001; 004: "at the end
  of their OFFERING STEP") or all of them (003): R11, ``enraged_ends``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.draws import Draw
from omen_solver.omen.effects import discard_from_hand
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.notation import Action
from omen_solver.omen.rules import CoinLimit, EnragedEnds, HandSize, OfferingCard, ResourceCommit
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import Prompt, add_card, remove_card

__all__ = ["COIN_CAP", "CoinCap", "EnragedEnd", "HandLimit", "OfferingStep", "OfferingTake"]

COIN_CAP = 10
"""The coin cap of 001 and 004 (``coin_cap = '10'``)."""


def _tail() -> tuple[Frame, ...]:
    """The end of the Offering step, in stack order (the last runs first)."""
    return (EnragedEnd(), CoinCap(), HandLimit())


@dataclass(frozen=True, slots=True)
class OfferingStep(Frame):
    """The choice of the card offered (or none)."""

    def prompt(self, state: OmenState) -> Prompt | None:
        player = state.players[state.active]
        cards = list(player.hand)
        if state.rules.offering_card == OfferingCard.ANY_HAND_CARD:
            cards += player.rewards
        if not cards:
            return None
        return decide(state.active, [Action("offer", (c,)) for c in cards] + [Action("done")])

    def run(self, state: OmenState) -> OmenState:
        return state.swap(*_tail())

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "done":
            return state.log("offering.none", "no Offering").swap(*_tail())
        active, card_id = state.active, action.card()
        card = state.card(card_id)
        value = (card.offering or 0) if card.is_unit else 0
        state = state.log("offering.offer", f"seat {active + 1} offers {card_id} (Offering "
                          f"value {value})")
        state = state.swap(*_tail(), OfferingTake(value))
        if card.is_unit:
            return discard_from_hand(state, active, card_id, "offering")
        rewards = remove_card(state.players[active].rewards, card_id)
        state = state.update_player(active, rewards=rewards).but(box=add_card(state.box, card_id))
        return state.log("offering.reward", f"the Reward {card_id} leaves the game")


@dataclass(frozen=True, slots=True)
class OfferingTake(Frame):
    """Taking the Offering value one card or coin at a time."""

    remaining: int
    cards: int = 0
    coins: int = 0

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.remaining <= 0:
            return None
        return decide(state.active, [Action("take", ("card",)), Action("take", ("coin",))])

    def apply(self, state: OmenState, action: Action) -> OmenState:
        card = action.word() == "card"
        following = replace(self, remaining=self.remaining - 1, cards=self.cards + card,
                            coins=self.coins + (not card))
        state = state.swap(following)
        if state.rules.resource_commit == ResourceCommit.BEFORE_TAKING:
            return state
        if card:
            return state.push(Draw(state.active, 1))
        state, gained = state.gain_coins(state.active, 1)
        return state.log("offering.take", f"seat {state.active + 1} takes {gained} coin(s)")

    def run(self, state: OmenState) -> OmenState:
        state = state.pop()
        if state.rules.resource_commit == ResourceCommit.AS_YOU_GO:
            return state
        state, gained = state.gain_coins(state.active, self.coins)
        state = state.log("offering.take", f"seat {state.active + 1} takes {gained} coin(s) "
                          f"and draws {self.cards} card(s)")
        return state.push(Draw(state.active, self.cards)) if self.cards else state


def hand_limit(state: OmenState) -> int | None:
    return None if state.rules.hand_limit == HandSize.NONE else int(state.rules.hand_limit)


@dataclass(frozen=True, slots=True)
class HandLimit(Frame):
    """Discard (or bury Rewards) one card at a time down to the hand limit (R3)."""

    def prompt(self, state: OmenState) -> Prompt | None:
        limit = hand_limit(state)
        player = state.players[state.active]
        if limit is None or player.hand_size() <= limit:
            return None
        actions = [Action("discard", (c,)) for c in player.hand]
        actions += [Action("bury", (r,)) for r in player.rewards]
        return decide(state.active, actions)

    def run(self, state: OmenState) -> OmenState:
        return state.pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        active, card = state.active, action.card()
        if action.verb == "discard":
            return discard_from_hand(state, active, card, "hand-limit")
        player = state.players[active]
        state = state.update_player(active, rewards=remove_card(player.rewards, card),
                                    rewards_used=add_card(player.rewards_used, card))
        return state.log("offering.hand-limit", f"seat {active + 1} plays the Reward {card} "
                         "face down for the hand limit (1 VP, no ability)")


@dataclass(frozen=True, slots=True)
class CoinCap(Frame):
    """Return coins above 10 to the supply (``coin_cap = '10'``)."""

    def run(self, state: OmenState) -> OmenState:
        coins = state.players[state.active].coins
        state = state.pop()
        if state.rules.coin_cap == CoinLimit.NONE or coins <= COIN_CAP:
            return state
        state = state.pay_coins(state.active, coins - COIN_CAP)
        return state.log("offering.coin-cap", f"seat {state.active + 1} returns "
                         f"{coins - COIN_CAP} coin(s): at most {COIN_CAP}")


@dataclass(frozen=True, slots=True)
class EnragedEnd(Frame):
    """R11: Enraged units turn face up again."""

    def run(self, state: OmenState) -> OmenState:
        active_only = state.rules.enraged_ends == EnragedEnds.ACTIVE_PLAYERS_UNITS
        owners = (state.active,) if active_only else (0, 1)
        turned = []
        for owner, city, unit in list(state.units()):
            if owner in owners and unit.enraged:
                state = state.remove_unit(city, owner, unit).add_unit(
                    city, owner, replace(unit, enraged=False))
                turned.append(f"{owner + 1}@{city + 1}:{unit.card}")
        if turned:
            state = state.log("offering.enraged-end", f"Enraged units turn back: "
                              f"{', '.join(turned)}")
        return state.pop()
