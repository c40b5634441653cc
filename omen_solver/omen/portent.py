"""Step 3: Portent (001: Omen), and the end-of-Surge abilities of Merchants.

* Portent: the abilities of all the active player's Oracles, in all cities, are activated, each
  once, one after another, in the order the player chooses (001 Phase 3: Omen; 003 Step 3:
  Portent). Whether the player may stop early is ``oracle_activation``: 001 says the
  abilities "may be carried out", 003 "Activate abilities on all your Oracle cards".
* End of Surge: every Merchant of the active player in a city resolves its secondary ability at
  the end of the Surge step (004 Merchants), each once, in the order the player chooses.
* An Enraged unit has no abilities. A unit keeps its "already activated" mark if it moves.
  With a single unit left to activate and no way to stop, it resolves without a decision.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.effects import Effect
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.notation import Action
from omen_solver.omen.rituals import check_rituals
from omen_solver.omen.rules import OracleActivation, RitualTiming
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import Prompt, Unit

__all__ = ["Activations"]

_RULE = {"portent": "portent.activate", "end_of_surge": "surge.end"}


@dataclass(frozen=True, slots=True)
class Activations(Frame):
    """Activate each of the active player's units with the ability ``slot`` once."""

    slot: str
    """``portent`` (Oracles) or ``end_of_surge`` (Merchants)."""

    def candidates(self, state: OmenState) -> list[tuple[int, Unit]]:
        return [
            (city, unit)
            for _, city, unit in state.units(state.active)
            if not unit.enraged and not unit.spent and getattr(state.card(unit.card), self.slot)
        ]

    def optional(self, state: OmenState) -> bool:
        return self.slot == "portent" and state.rules.oracle_activation == OracleActivation.OPTIONAL

    def prompt(self, state: OmenState) -> Prompt | None:
        found = self.candidates(state)
        refs = {state.ref(state.active, city, unit) for city, unit in found}
        if not refs or (len(refs) == 1 and not self.optional(state)):
            return None
        actions = [Action.on("activate", ref) for ref in refs]
        if self.optional(state):
            actions.append(Action("done"))
        return decide(state.active, actions)

    def run(self, state: OmenState) -> OmenState:
        found = self.candidates(state)
        if not found:
            return self._finish(state)
        city, unit = found[0]
        return self._activate(state, city, unit)

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "done":
            return self._finish(state.log(_RULE[self.slot], "no further activations"))
        ref = action.unit()
        return self._activate(state, ref.city, state.find_unit(ref, unspent=True))

    def _activate(self, state: OmenState, city: int, unit: Unit) -> OmenState:
        player = state.active
        state = state.remove_unit(city, player, unit).add_unit(city, player,
                                                               replace(unit, spent=True))
        state = state.log(_RULE[self.slot], f"{unit.card} in city {city + 1} activates")
        steps = getattr(state.card(unit.card), self.slot)
        return state.push(Effect(player, unit.card, city, steps))

    def _finish(self, state: OmenState) -> OmenState:
        for owner, city, unit in list(state.units()):
            if unit.spent:
                state = state.remove_unit(city, owner, unit).add_unit(
                    city, owner, replace(unit, spent=False))
        state = state.pop()
        if self.slot == "end_of_surge" and state.rules.ritual_timing == RitualTiming.END_OF_SURGE:
            state = check_rituals(state, (state.active,))
        return state
