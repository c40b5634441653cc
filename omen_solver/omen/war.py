"""Step 5: War.

* A city is war-torn when one side has 3 or more units (whose side is R1, ``war_trigger``)
  and/or both sides together have 5 or more; COLOSSAL units (Beasts, Sphinxes, Enraged units)
  count 2. A city with no Reward left is never war-torn (001 Phase 5: War and Rules
  Clarifications; 003 Step 5: War; 004 War Step).
* Units with an AT WAR ability (project vocabulary) resolve it first, the active player's
  first. Each side adds its Strength (passive modifiers included); the higher total wins.
  A tie is broken by R2 (``war_tiebreak``): more Soldiers (001, 003) or higher total unit
  cost (004); still tied, nobody wins.
* The winner takes the top Reward of the city (into hand or play area: R12,
  ``reward_destination``) and keeps 1 unit; the loser keeps 2 units; with no winner both keep
  2. COLOSSAL units count 2 when keeping, so a winner never keeps one (001 Note; 003 Special
  Rules; 004 COLOSSAL UNITS). Each player chooses the units they keep, one at a time, the active
  player first; the others are destroyed (discard pile).
* Several war-torn cities: the order is R9 (``war_order``); the test is repeated after each
  war until no war-torn city remains (001 "Repeat these steps"; 004 "Repeat the above steps").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.draws import RevealReward
from omen_solver.omen.effects import Effect, destroy_unit
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.modifiers import side_strength
from omen_solver.omen.notation import Action
from omen_solver.omen.rules import RewardDestination, WarOrder, WarTiebreak, WarTrigger
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import HIDDEN, Prompt, Unit, add_card

__all__ = ["WarResolve", "WarStep", "war_torn", "war_winner"]

WAR_THREE = 3
WAR_TOTAL = 5
WINNER_KEEPS = 1
LOSER_KEEPS = 2


def war_torn(state: OmenState, city: int) -> bool:
    """R1: the war-torn test of ``city`` in the active player's War step."""
    if not state.cities[city].rewards:
        return False
    sizes = (state.side_size(city, 0), state.side_size(city, 1))
    active, opposing = sizes[state.active], sizes[1 - state.active]
    three = {
        WarTrigger.ACTIVE: active >= WAR_THREE,
        WarTrigger.OPPOSING: opposing >= WAR_THREE,
        WarTrigger.EITHER: max(sizes) >= WAR_THREE,
    }[state.rules.war_trigger]
    return three or sum(sizes) >= WAR_TOTAL


def _tiebreak_value(state: OmenState, city: int, player: int) -> int:
    units = state.cities[city].sides[player]
    if state.rules.war_tiebreak == WarTiebreak.SOLDIERS:
        return sum(1 for unit in units if state.unit_type(unit) == "Soldier")
    return sum(state.card(unit.card).cost for unit in units)


def war_winner(state: OmenState, city: int) -> tuple[int | None, str]:
    """The winner of the war in ``city`` (``None``: no winner) and why (R2 for ties)."""
    strength = [side_strength(state, city, p) for p in (0, 1)]
    text = f"Strength {strength[0]} (seat 1) against {strength[1]} (seat 2)"
    if strength[0] != strength[1]:
        return (0 if strength[0] > strength[1] else 1), text
    what = "Soldiers" if state.rules.war_tiebreak == WarTiebreak.SOLDIERS else "total unit cost"
    tie = [_tiebreak_value(state, city, p) for p in (0, 1)]
    text += f"; tied, {what} {tie[0]} against {tie[1]}"
    if tie[0] == tie[1]:
        return None, text + ": no winner"
    return (0 if tie[0] > tie[1] else 1), text


@dataclass(frozen=True, slots=True)
class WarStep(Frame):
    """Resolve war-torn cities until none is left."""

    def torn(self, state: OmenState) -> list[int]:
        return [city for city in range(3) if war_torn(state, city)]

    def prompt(self, state: OmenState) -> Prompt | None:
        torn = self.torn(state)
        if len(torn) < 2 or state.rules.war_order != WarOrder.ACTIVE_CHOOSES:
            return None
        return decide(state.active, [Action.at_city("war", c) for c in torn])

    def run(self, state: OmenState) -> OmenState:
        torn = self.torn(state)
        if not torn:
            return state.pop()
        return state.push(WarResolve(torn[0]))

    def apply(self, state: OmenState, action: Action) -> OmenState:
        return state.push(WarResolve(action.city()))


@dataclass(frozen=True, slots=True)
class WarResolve(Frame):
    """One war: judge, hand over the Reward, then each side keeps its units."""

    city: int
    stage: str = "triggers"
    winner: int | None = None

    def run(self, state: OmenState) -> OmenState:
        if self.stage == "triggers":
            return self._triggers(state)
        if self.stage == "judge":
            winner, text = war_winner(state, self.city)
            state = state.log("war.torn", f"city {self.city + 1} is war-torn: {text}")
            return state.swap(replace(self, stage="reward", winner=winner))
        if self.stage == "reward":
            return self._reward(state)
        return self._keep(state)

    def _triggers(self, state: OmenState) -> OmenState:
        """The AT WAR abilities of the units in the city resolve before Strength is compared,
        the active player's first (project vocabulary: ``docs/omen-cards.md``)."""
        state = state.swap(replace(self, stage="judge"))
        effects = []
        for owner in (1 - state.active, state.active):
            for unit in state.cities[self.city].sides[owner]:
                steps = state.card(unit.card).at_war
                if steps and not unit.enraged:
                    effects.append(Effect(owner, unit.card, self.city, steps))
        if effects:
            names = ", ".join(f"{e.source} (seat {e.controller + 1})" for e in reversed(effects))
            state = state.log("war.trigger", f"city {self.city + 1} goes to war: the AT WAR "
                              f"abilities of {names} resolve")
        return state.push(*effects)

    def _reward(self, state: OmenState) -> OmenState:
        rewards = state.cities[self.city].rewards
        if self.winner is None or not rewards:
            return state.swap(replace(self, stage="keep"))
        if rewards[0] == HIDDEN:
            return state.push(RevealReward(self.city))
        reward, winner = rewards[0], self.winner
        state = state.with_city(self.city, replace(state.cities[self.city], rewards=rewards[1:]))
        player = state.players[winner]
        if state.rules.reward_destination == RewardDestination.HAND:
            state = state.update_player(winner, rewards=add_card(player.rewards, reward))
            where = "hand"
        else:
            state = state.update_player(winner,
                                        rewards_unused=add_card(player.rewards_unused, reward))
            where = "play area, 2 VP side up"
        state = state.log("war.reward", f"seat {winner + 1} wins city {self.city + 1} and takes "
                          f"the Reward {reward} ({where})")
        return state.swap(replace(self, stage="keep"))

    def _keep(self, state: OmenState) -> OmenState:
        active = state.active
        allowance = [LOSER_KEEPS, LOSER_KEEPS]
        if self.winner is not None:
            allowance[self.winner] = WINNER_KEEPS
        return state.swap(Keep(self.city, 1 - active, allowance[1 - active]),
                          Keep(self.city, active, allowance[active]))


@dataclass(frozen=True, slots=True)
class Keep(Frame):
    """``player`` keeps units of ``city`` up to ``allowance`` (COLOSSAL counting 2), one at a
    time; the rest are destroyed."""

    city: int
    player: int
    allowance: int
    kept: tuple[Unit, ...] = ()

    def _left(self, state: OmenState) -> tuple[list[Unit], int]:
        units = list(state.cities[self.city].sides[self.player])
        for unit in self.kept:
            units.remove(unit)
        room = self.allowance - sum(state.unit_size(unit) for unit in self.kept)
        return units, room

    def _choices(self, state: OmenState) -> tuple[list[Unit], int, list[Action]]:
        units, room = self._left(state)
        fitting = [u for u in units if state.unit_size(u) <= room]
        if sum(state.unit_size(u) for u in units) <= room:
            fitting = []
        refs = {state.ref(self.player, self.city, u) for u in fitting}
        return units, room, [Action.on("keep", ref) for ref in refs]

    def prompt(self, state: OmenState) -> Prompt | None:
        choices = self._choices(state)[2]
        # A single possible unit to keep is no choice: it is kept automatically.
        return decide(self.player, choices) if len(choices) > 1 else None

    def run(self, state: OmenState) -> OmenState:
        units, room, choices = self._choices(state)
        if choices:
            return self.apply(state, choices[0])
        state = state.pop()
        if sum(state.unit_size(u) for u in units) <= room:
            return state.log("war.keep", f"seat {self.player + 1} keeps all its units in city "
                             f"{self.city + 1}") if units else state
        kept = ", ".join(u.card for u in self.kept) or "nothing"
        state = state.log("war.keep", f"seat {self.player + 1} keeps {kept} in city "
                          f"{self.city + 1} (at most {self.allowance} unit(s), COLOSSAL = 2)")
        for unit in units:
            state = destroy_unit(state, self.player, self.city, unit, "war")
        return state

    def apply(self, state: OmenState, action: Action) -> OmenState:
        units, _ = self._left(state)
        ref = action.unit()
        unit = next(u for u in units if state.ref(self.player, self.city, u) == ref)
        return state.swap(replace(self, kept=tuple(sorted((*self.kept, unit)))))
