"""The turn: its steps in order, Hero windows, the end of the turn and of the game.

* Steps: Wealth, Surge, Portent, Feats, War, Offering (003 Turn Structure; 001 Playing the
  Game); Fires in the East has Wealth, Surge, War, Offering (004 Gameplay) unless A Reign of
  War's Oracles and Feats are combined in (004 Combining Omen Sets): ``portent_and_feats``.
  With Zeus' Challenge a Challenge step follows the Feats (001).
* Heroes (001: "can be used outside the Surge phase of the current player"): with
  ``hero_timing = 'step-windows'`` each player holding a Hero gets a window at the start of
  every step, the active player first.
* The game ends at the end of the active player's turn if (R5, ``game_end``): 2 or more cities
  have no Reward left, or the opposing player has 5 achieved Feats (001, 003); or no city has a
  Reward left (004). With Zeus' Challenge, also when only 2 Challenges remain face up (001), and
  the players may agree that two conditions must hold (``challenge_end``). ``max_turns`` is a
  safety limit that no book has (off by default).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omen_solver.omen.effects import use_hero
from omen_solver.omen.feats import ChallengeStep, FeatStep
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.notation import Action
from omen_solver.omen.offering import OfferingStep
from omen_solver.omen.portent import Activations
from omen_solver.omen.rules import (
    ChallengeEnd,
    Challenges,
    GameEnd,
    HeroTiming,
    MaxTurns,
    OmenRules,
    PortentAndFeats,
)
from omen_solver.omen.state import OmenState
from omen_solver.omen.surge import SurgeStep
from omen_solver.omen.war import WarStep
from omen_solver.omen.wealth import WealthStep
from omen_solver.omen.zones import Prompt, TurnInfo

__all__ = ["GAME_OVER", "STEPS", "BeginTurn", "EndTurn", "HeroWindow", "StepStart", "end_reasons",
           "steps_of"]

STEPS = ("wealth", "surge", "portent", "feats", "challenge", "war", "offering")
"""Every step a turn can have, in order."""

FEATS_TO_END = 5
EMPTY_CITIES_TO_END = 2
CHALLENGES_LEFT_TO_END = 2


GAME_OVER = "game-over"
"""The step a finished game stands at."""


def steps_of(rules: OmenRules) -> tuple[str, ...]:
    """The steps of a turn under ``rules``."""
    skip = set()
    if rules.portent_and_feats == PortentAndFeats.OFF:
        skip |= {"portent", "feats"}
    if rules.challenges == Challenges.OFF:
        skip.add("challenge")
    return tuple(step for step in STEPS if step not in skip)


def _step_frame(step: str) -> Frame:
    frames: dict[str, Frame] = {
        "wealth": WealthStep(),
        "surge": SurgeStep(),
        "portent": Activations("portent"),
        "feats": FeatStep(),
        "challenge": ChallengeStep(),
        "war": WarStep(),
        "offering": OfferingStep(),
    }
    return frames[step]


@dataclass(frozen=True, slots=True)
class BeginTurn(Frame):
    """Start the active player's turn (from ``step``, for positions that start mid-turn)."""

    step: str = "wealth"

    def run(self, state: OmenState) -> OmenState:
        steps = steps_of(state.rules)
        steps = steps[steps.index(self.step):]
        state = state.but(turn=replace(state.turn, step=self.step))
        state = state.log("turn.begin", f"turn {state.turn.number}: seat {state.active + 1} "
                          "is the active player")
        return state.swap(EndTurn(), *(StepStart(step) for step in reversed(steps)))


@dataclass(frozen=True, slots=True)
class StepStart(Frame):
    """Enter a step: name it, open the Hero windows, then the step itself."""

    step: str

    def run(self, state: OmenState) -> OmenState:
        state = state.but(turn=replace(state.turn, step=self.step))
        state = state.log(f"step.{self.step}", f"{self.step} step")
        frame = _step_frame(self.step)
        if state.rules.hero_timing != HeroTiming.STEP_WINDOWS:
            return state.swap(frame)
        return state.swap(frame, HeroWindow(1 - state.active), HeroWindow(state.active))


@dataclass(frozen=True, slots=True)
class HeroWindow(Frame):
    """``player`` may discard Heroes for their abilities before the step goes on."""

    player: int

    def prompt(self, state: OmenState) -> Prompt | None:
        heroes = [c for c in state.players[self.player].hand
                  if state.card(c).unit_type == "Hero"]
        if not heroes:
            return None
        return decide(self.player, [Action("hero", (c,)) for c in heroes] + [Action("done")])

    def run(self, state: OmenState) -> OmenState:
        return state.pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "done":
            return state.pop()
        return use_hero(state, self.player, action.card())


def end_reasons(state: OmenState) -> list[str]:
    """The end conditions that hold at the end of the active player's turn (R5)."""
    rules = state.rules
    empty = sum(1 for city in state.cities if not city.rewards)
    conditions: list[tuple[str, bool]] = []
    if rules.game_end == GameEnd.TWO_CITIES_OR_FIVE_FEATS:
        conditions.append((f"{empty} cities have no Reward left", empty >= EMPTY_CITIES_TO_END))
        feats = state.players[1 - state.active].achieved_feats()
        conditions.append((f"the opposing player has {feats} achieved Feats",
                           feats >= FEATS_TO_END))
    else:
        conditions.append(("no city has a Reward left", empty == len(state.cities)))
    if rules.challenges == Challenges.ON:
        left = len(state.challenge_pool)
        conditions.append((f"{left} Challenges remain face up", left <= CHALLENGES_LEFT_TO_END))
    met = [text for text, holds in conditions if holds]
    two = rules.challenges == Challenges.ON and rules.challenge_end == ChallengeEnd.TWO_OF_THREE
    needed = 2 if two else 1
    reasons = met if len(met) >= needed else []
    if rules.max_turns != MaxTurns.NONE and state.turn.number >= int(rules.max_turns):
        reasons.append(f"the safety limit max_turns = {rules.max_turns} is reached")
    return reasons


@dataclass(frozen=True, slots=True)
class EndTurn(Frame):
    """The end of a turn: the end-of-game test, else the other player's turn."""

    def run(self, state: OmenState) -> OmenState:
        reasons = end_reasons(state)
        if reasons:
            state = state.log("game.end", "the game ends: " + "; ".join(reasons))
            return state.but(over=True, stack=(), turn=replace(state.turn, step=GAME_OVER))
        turn = TurnInfo(number=state.turn.number + 1, step="wealth")
        return state.but(active=1 - state.active, turn=turn).swap(BeginTurn())
