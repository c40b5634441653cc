"""Step 2: Surge.

* The active player pays a unit's cost (coins back to the supply) and puts it on their side of
  a city, as often as coins and city capacity allow (001 Placing Units in Cities; 003 Step 2;
  004 Surge Step). Capacity: 5 units per side, COLOSSAL units (Beasts, Sphinxes) counting 2.
* The cost paid is the card's, changed by passive modifiers and this turn's cost changes
  (``modifiers.play_cost``; project vocabulary for the cost changes public descriptions
  mention).
* A unit's DEPLOY ability resolves as it enters the city (``effects.place_unit``). A Beast's
  ability is ignored when it is played to a city.
* DIRGE: pay a Beast's cost and discard it to resolve its ability instead (001 Discarding
  Beasts; 004 Keyword Glossary: Dirge); ``dirge_discard`` says whether the Beast is discarded
  before or after the ability.
* INVOKE: pay a Spirit's INVOKE (summoning) cost, resolve both its DEPLOY abilities, then
  discard it (001 Spirits; 004 Keyword Glossary: Invoke).
* Heroes cost 0 and are discarded from hand for their ability (001 Heroes).
* One Reward per Surge step: used from hand (R12 ``hand``) or flipped in the play area (R12
  ``play-area``); it is then worth 1 VP (001 Using Rewards; 003 Step 2; 004 Surge Step).
* At the end of the step every Merchant of the active player resolves its end-of-Surge ability
  (004 Merchants), each once, in the order the player chooses (``portent.Activations``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.effects import (
    DiscardCard,
    Effect,
    discard_from_hand,
    fits,
    place_unit,
    use_hero,
)
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.modifiers import play_cost
from omen_solver.omen.notation import Action
from omen_solver.omen.portent import Activations
from omen_solver.omen.rules import DirgeDiscard
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import Prompt, Unit, add_card, remove_card

__all__ = ["SurgeStep", "use_reward"]


def usable_rewards(state: OmenState) -> tuple[str, ...]:
    """The Rewards the active player may use now (one per Surge step)."""
    if state.turn.reward_used:
        return ()
    player = state.players[state.active]
    return player.rewards + player.rewards_unused


def use_reward(state: OmenState, player: int, reward: str) -> OmenState:
    """Use a Reward: it turns to its used side (1 VP) and its ability resolves."""
    p = state.players[player]
    if reward in p.rewards:
        state = state.update_player(player, rewards=remove_card(p.rewards, reward))
    else:
        state = state.update_player(player, rewards_unused=remove_card(p.rewards_unused, reward))
    p = state.players[player]
    state = state.update_player(player, rewards_used=add_card(p.rewards_used, reward))
    state = state.but(turn=replace(state.turn, reward_used=True))
    state = state.log("surge.reward", f"seat {player + 1} uses the Reward {reward} (now 1 VP)")
    effect = state.card(reward).effect
    return state.push(Effect(player, reward, None, effect)) if effect else state


@dataclass(frozen=True, slots=True)
class SurgeStep(Frame):
    """The active player's Surge choices until ``done``."""

    def prompt(self, state: OmenState) -> Prompt | None:
        player = state.active
        coins = state.players[player].coins
        actions = [Action("done")]
        for card_id in sorted(set(state.players[player].hand)):
            card = state.card(card_id)
            if card.unit_type == "Hero":
                actions.append(Action("hero", (card_id,)))
                continue
            size = 2 if card.colossal else 1
            actions.extend(Action.play(card_id, city) for city in range(3)
                           if fits(state, city, player, size)
                           and play_cost(state, player, card_id, city) <= coins)
            if card.dirge and card.cost <= coins:
                actions.append(Action("dirge", (card_id,)))
            if card.invoke_cost is not None and card.invoke_cost <= coins:
                actions.append(Action("invoke", (card_id,)))
        actions.extend(Action("reward", (reward,)) for reward in usable_rewards(state))
        return decide(player, actions)

    def apply(self, state: OmenState, action: Action) -> OmenState:
        player, verb = state.active, action.verb
        if verb == "done":
            return state.swap(Activations("end_of_surge"))
        card_id = action.card()
        if verb == "reward":
            return use_reward(state, player, card_id)
        if verb == "hero":
            return use_hero(state, player, card_id)
        card = state.card(card_id)
        if verb == "play":
            city = action.city(1)
            cost = play_cost(state, player, card_id, city)
            state = state.pay_coins(player, cost)
            hand = remove_card(state.players[player].hand, card_id)
            state = state.update_player(player, hand=hand)
            changed = "" if cost == card.cost else f" (cost {card.cost} changed to {cost})"
            state = state.log("surge.play", f"seat {player + 1} pays {cost} and plays "
                              f"{card_id}{changed}")
            return place_unit(state, player, city, Unit(card_id), "played")
        paid = (card.invoke_cost or 0) if verb == "invoke" else card.cost
        state = state.pay_coins(player, paid)
        if verb == "invoke":
            state = state.log("surge.invoke", f"seat {player + 1} pays {paid} to INVOKE "
                              f"{card_id}: both DEPLOY abilities resolve, then it is discarded")
            return state.push(DiscardCard(player, card_id, "invoke"),
                              Effect(player, card_id, None, card.deploy_alt),
                              Effect(player, card_id, None, card.deploy))
        state = state.log("surge.dirge", f"seat {player + 1} pays {card.cost} for the DIRGE of "
                          f"{card_id}")
        if state.rules.dirge_discard == DirgeDiscard.BEFORE_EFFECT:
            state = discard_from_hand(state, player, card_id, "dirge")
            return state.push(Effect(player, card_id, None, card.dirge))
        return state.push(DiscardCard(player, card_id, "dirge"),
                          Effect(player, card_id, None, card.dirge))
