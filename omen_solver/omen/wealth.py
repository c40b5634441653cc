"""Step 1: Wealth.

* The active player has 3 Wealth actions; each draws 1 Unit card or takes 1 coin from the
  supply, in any combination (001 Phase 1: Wealth; 003 Step 1: Wealth; 004 Wealth Step).
* Bonus: all actions spent on cards draw 1 more card; all on coins give 1 more coin (same).
* The first player's first turn has only 2 actions; whether the 2 can earn the bonus is R6
  (``first_turn_bonus``): yes in 001 (Rules Clarifications) and 004 (NOTE), not in 003.
* R7 (``extra_wealth_actions``, 003's optional rule): +1 action with no cards in hand or no
  coins, +2 with neither.
* BARTER (Merchants): discard the card from hand during the Wealth step for 1 additional
  Wealth action (004 Keyword Glossary: Barter).
* ``resource_commit``: in 004 every action is chosen before any card or coin is taken (NOTE);
  001 and 003 take each as it is chosen.
* No player gains more coins than the supply holds (004 Wealth Step).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.draws import Draw
from omen_solver.omen.effects import discard_from_hand
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.notation import Action
from omen_solver.omen.rules import ExtraWealthActions, FirstTurnBonus, ResourceCommit
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import Prompt

__all__ = ["WealthStep", "wealth_actions"]

BASE_ACTIONS = 3
FIRST_TURN_ACTIONS = 2


def wealth_actions(state: OmenState) -> int:
    """The number of Wealth actions of the active player at the start of the step."""
    actions = FIRST_TURN_ACTIONS if state.turn.first else BASE_ACTIONS
    if state.rules.extra_wealth_actions == ExtraWealthActions.ON:
        player = state.players[state.active]
        actions += (player.hand_size() == 0) + (player.coins == 0)
    return actions


@dataclass(frozen=True, slots=True)
class WealthStep(Frame):
    """Choosing the Wealth actions one at a time; ``cards``/``coins`` chosen so far."""

    total: int | None = None
    """The number of actions, counted when the step's choices begin (after any Hero window,
    since R7 looks at the hand and the coins)."""
    cards: int = 0
    coins: int = 0

    def _start(self, state: OmenState) -> OmenState:
        total = wealth_actions(state)
        why = " (first turn of the game)" if state.turn.first else ""
        state = state.log("wealth.actions", f"seat {state.active + 1} has {total} Wealth "
                          f"actions{why}")
        return state.swap(WealthStep(total))

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.total is None or self.cards + self.coins >= self.total:
            return None
        actions = [Action("wealth", ("card",)), Action("wealth", ("coin",))]
        for card in state.players[state.active].hand:
            if state.card(card).barter:
                actions.append(Action("barter", (card,)))
        return decide(state.active, actions)

    def apply(self, state: OmenState, action: Action) -> OmenState:
        player = state.active
        assert self.total is not None
        if action.verb == "barter":
            state = state.swap(replace(self, total=self.total + 1))
            state = state.log("wealth.barter", f"seat {player + 1} discards {action.card()} "
                              "(BARTER) for 1 more Wealth action")
            return discard_from_hand(state, player, action.card(), "barter")
        at_once = state.rules.resource_commit == ResourceCommit.AS_YOU_GO
        if action.word() == "card":
            state = state.swap(replace(self, cards=self.cards + 1))
            state = state.log("wealth.action", f"seat {player + 1} spends a Wealth action on "
                              "a card")
            return state.push(Draw(player, 1)) if at_once else state
        state = state.swap(replace(self, coins=self.coins + 1))
        if not at_once:
            return state.log("wealth.action", f"seat {player + 1} spends a Wealth action on "
                             "a coin")
        state, gained = state.gain_coins(player, 1)
        return state.log("wealth.action", f"seat {player + 1} takes {gained} coin(s)")

    def bonus(self, state: OmenState) -> bool:
        """All actions on the same resource earn one more (R6 on the first turn)."""
        if state.turn.first and state.rules.first_turn_bonus == FirstTurnBonus.NONE:
            return False
        return bool(self.total) and self.total in (self.cards, self.coins)

    def run(self, state: OmenState) -> OmenState:
        if self.total is None:
            return self._start(state)
        player = state.active
        cards, coins = (0, 0) if state.rules.resource_commit == ResourceCommit.AS_YOU_GO else (
            self.cards, self.coins)
        if self.bonus(state):
            what = "card" if self.cards else "coin"
            state = state.log("wealth.bonus", f"all {self.total} actions on {what}s: 1 more "
                              f"{what}")
            cards, coins = cards + (what == "card"), coins + (what == "coin")
        state = state.pop()
        if coins:
            state, gained = state.gain_coins(player, coins)
            state = state.log("wealth.take", f"seat {player + 1} takes {gained} coin(s)")
        return state.push(Draw(player, cards)) if cards else state
