"""Step 4: Feats, with the Relics of Olympus, and the Zeus' Challenge step.

* Feats: the active player checks their face-up Feats; every Feat whose condition holds is
  turned face down (2 VP). Any number per turn (001 Phase 4: Feats; 003 Step 4: Feat).
* Relics of Olympus (option ``relics``): if one or more Feats are achieved, the player may,
  instead of turning one of them face down, rotate it (still achieved, 1 VP, never achieved
  again) and put a Relic from beside the deck face up on their side of any city (1 VP). A city
  holds one Relic; a Relic already there goes back beside the deck (001 Relics of Olympus).
  A Relic's ability (card data) resolves when it is placed.
* Zeus' Challenge (option ``challenges``): after the Feats, the active player may lay one
  Challenge whose condition holds face down beside their Feats (3 VP); one per turn (001 Zeus'
  Challenge).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.conditions import holds
from omen_solver.omen.effects import Effect
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.notation import Action
from omen_solver.omen.rules import Relics
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import Prompt, add_card, remove_card

__all__ = ["ChallengeStep", "FeatStep", "RelicPick", "met_feats"]


def met_feats(state: OmenState, player: int) -> list[str]:
    """The player's face-up Feats whose condition holds now."""
    done = state.players[player]
    return [
        feat
        for feat in state.feat_cards
        if feat not in done.feats and feat not in done.feats_rotated
        and holds(state, player, state.card(feat).condition)
    ]


@dataclass(frozen=True, slots=True)
class FeatStep(Frame):
    """Turn achieved Feats face down; with Relics, first offer to rotate one for a Relic."""

    relic_decided: bool = False

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.relic_decided or state.rules.relics != Relics.ON or not state.relic_pool:
            return None
        met = met_feats(state, state.active)
        if not met:
            return None
        return decide(state.active, [Action("rotate", (feat,)) for feat in met] +
                      [Action("done")])

    def run(self, state: OmenState) -> OmenState:
        player = state.active
        for feat in met_feats(state, player):
            feats = add_card(state.players[player].feats, feat)
            state = state.update_player(player, feats=feats).log(
                "feat.achieved", f"seat {player + 1} achieves the Feat {feat}: face down, 2 VP")
        return state.pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        state = state.swap(replace(self, relic_decided=True))
        if action.verb == "done":
            return state
        player, feat = state.active, action.card()
        rotated = add_card(state.players[player].feats_rotated, feat)
        state = state.update_player(player, feats_rotated=rotated)
        state = state.log("feat.relic", f"seat {player + 1} rotates the Feat {feat} (1 VP) to "
                          "take a Relic")
        return state.push(RelicPick())


@dataclass(frozen=True, slots=True)
class RelicPick(Frame):
    """Pick a Relic, then the city it goes to (on the active player's side)."""

    relic: str | None = None

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.relic is None:
            return decide(state.active, [Action("relic", (r,)) for r in state.relic_pool])
        return decide(state.active, [Action.at_city("to", c) for c in range(3)])

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "relic":
            return state.swap(RelicPick(action.card()))
        assert self.relic is not None
        player, city_index = state.active, action.city()
        city = state.cities[city_index]
        pool = remove_card(state.relic_pool, self.relic)
        if city.relic is not None:
            pool = add_card(pool, city.relic)
            state = state.log("relic.returned", f"the Relic {city.relic} in city "
                              f"{city_index + 1} goes back beside the deck")
        city = replace(city, relic=self.relic, relic_owner=player)
        state = state.with_city(city_index, city).but(relic_pool=pool).pop()
        state = state.log("relic.placed", f"seat {player + 1} places the Relic {self.relic} in "
                          f"city {city_index + 1} (1 VP)")
        effect = state.card(self.relic).effect
        return state.push(Effect(player, self.relic, city_index, effect)) if effect else state


@dataclass(frozen=True, slots=True)
class ChallengeStep(Frame):
    """The active player may complete one Challenge whose condition holds."""

    def _met(self, state: OmenState) -> list[str]:
        if state.turn.challenge_done:
            return []
        return [c for c in sorted(set(state.challenge_pool))
                if holds(state, state.active, state.card(c).condition)]

    def prompt(self, state: OmenState) -> Prompt | None:
        met = self._met(state)
        if not met:
            return None
        return decide(state.active, [Action("challenge", (c,)) for c in met] + [Action("done")])

    def run(self, state: OmenState) -> OmenState:
        return state.pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "done":
            return state.pop()
        player, challenge = state.active, action.card()
        state = state.but(challenge_pool=remove_card(state.challenge_pool, challenge),
                          turn=replace(state.turn, challenge_done=True))
        challenges = add_card(state.players[player].challenges, challenge)
        state = state.update_player(player, challenges=challenges)
        return state.log("challenge.done", f"seat {player + 1} completes the Challenge "
                         f"{challenge}: face down, 3 VP").pop()
