"""Random legal games of Omen as a Hypothesis state machine, under every rule profile.

Each example is one game from the set-up (the deal is chance events too) under a profile drawn
from all of them, with up to four other options overridden at random: Hypothesis chooses the
first moves (up to 400), the teardown finishes the game with seeded random moves, so the number
of games is about the number of examples (Hypothesis also runs a few examples it discards).
Besides, ``test_seeded_random_games`` plays a fixed number of seeded random games per profile
with the same checks. Every step plays one legal action (or chance outcome). Checked at every
step:

* nothing is created or lost: every Unit card, Reward, Relic and Challenge is somewhere
  (hands, cities, deck, discard pile, play areas, pools, the box) as often as at the start;
  the players' coins plus the supply always make the coin supply of the profile (R4); the VP
  tokens likewise (004 Components);
* no side of a city ever holds more than 5 units, COLOSSAL and Enraged units counting 2
  (001 Cities; 004 Surge Step);
* every legal action has a distinct canonical text that parses back to it, and chance outcomes
  have positive probabilities summing to 1;
* the game ends. The books' end conditions (R5) need Rewards to leave the cities through wars;
  a game can stall for ever (all units on the table, deck and discard pile empty, no city
  war-torn: found in random Fires in the East games), so the games run with the documented
  safety option ``max_turns = "100"`` and the test counts how many ended by the rulebook's
  conditions and how many by the limit.

The number of games played is printed in the terminal summary (``conftest.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from omen_solver.core.game import CHANCE
from omen_solver.core.options import describe
from omen_solver.omen.notation import parse_action
from omen_solver.omen.rules import PROFILES, OmenRules
from omen_solver.omen.setup import VP_TOKENS, new_game
from omen_solver.omen.state import OmenState
from omen_solver.omen.turn import end_reasons
from omen_solver.omen.zones import CAPACITY, HIDDEN

GAMES: dict[str, Any] = {"games": 0, "natural": 0, "limit": 0, "moves": 0,
                         "profiles": Counter(), "hypothesis": 0, "seeded": 0}
"""Counts over the whole test run (printed by ``conftest.py``)."""

TURN_LIMIT = "100"
FINISH_LIMIT = 100_000
"""Moves the teardown may play to finish a game (100 turns never need that many)."""

_VARIABLE = {spec.name: tuple(spec.settings) for spec in describe(OmenRules)
             if spec.name != "max_turns"}


def census(state: OmenState) -> dict[str, Counter[str]]:
    """Where every card is: one multiset per kind of card."""
    units: Counter[str] = Counter()
    rewards: Counter[str] = Counter()
    for p in state.players:
        units.update(p.hand)
        units.update(p.rituals)
        rewards.update(p.rewards + p.rewards_unused + p.rewards_used)
    for _, _, unit in state.units():
        units[unit.card] += 1
    units.update(state.deck_top + state.deck_rest + state.discard)
    for city in state.cities:
        rewards.update(r for r in city.rewards if r != HIDDEN)
    rewards.update(state.reward_pool)
    for card in state.box:
        (units if state.card(card).is_unit else rewards)[card] += 1
    relics = Counter(state.relic_pool) + Counter(c.relic for c in state.cities if c.relic)
    challenges = Counter(state.challenge_pool)
    for p in state.players:
        challenges.update(p.challenges)
    return {"units": units, "rewards": rewards, "relics": relics, "challenges": challenges}


def check_state(state: OmenState, start: dict[str, Counter[str]]) -> None:
    """The invariants of every reachable state (see the module docstring)."""
    assert census(state) == start, "a card was created or lost"
    coins = state.supply + sum(p.coins for p in state.players)
    assert coins == int(state.rules.coin_supply), f"coins add up to {coins}"
    assert all(p.coins >= 0 for p in state.players) and state.supply >= 0
    if not state.unlimited_tokens():
        tokens = state.tokens + sum(p.vp_tokens for p in state.players)
        assert tokens == VP_TOKENS and state.tokens >= 0
    hidden = sum(city.rewards.count(HIDDEN) for city in state.cities)
    assert hidden <= len(state.reward_pool)
    for owner, city in ((o, c) for o in (0, 1) for c in range(3)):
        assert state.side_size(city, owner) <= CAPACITY, f"city {city + 1} seat {owner + 1}"
    for p in state.players:
        achieved = p.feats + p.feats_rotated
        assert len(set(achieved)) == len(achieved)
        assert set(achieved) <= set(state.feat_cards)
    if state.is_terminal():
        assert state.legal_actions() == ()
        assert sum(state.returns()) == 1
        return
    actions = state.legal_actions()
    assert actions, "a decision or chance node without actions"
    texts = [state.action_to_string(a) for a in actions]
    assert len(set(texts)) == len(texts) and list(actions) == sorted(actions)
    for action, text in zip(actions, texts, strict=True):
        assert parse_action(text) == action
    if state.current_player() == CHANCE:
        probabilities = [p for _, p in state.chance_outcomes()]
        assert all(p > 0 for p in probabilities) and sum(probabilities) == Fraction(1)


def ended_naturally(state: OmenState) -> bool:
    """Whether the rulebook's end conditions hold (the safety limit aside)."""
    unlimited = replace(state.rules, max_turns="none")
    return bool(end_reasons(state.but(rules=unlimited)))


class OmenGames(RuleBasedStateMachine):
    """One random game per example."""

    state: OmenState

    @initialize(profile=st.sampled_from(sorted(PROFILES)), data=st.data(),
                seed=st.integers(0, 2**32 - 1), first=st.integers(0, 1))
    def new_game(self, profile: str, data: st.DataObject, seed: int, first: int) -> None:
        names = data.draw(st.lists(st.sampled_from(sorted(_VARIABLE)), max_size=4, unique=True),
                          label="overridden options")
        overrides = {name: data.draw(st.sampled_from(_VARIABLE[name]), label=name)
                     for name in names}
        overrides["max_turns"] = TURN_LIMIT
        self.profile = profile
        self.state = new_game(profile, overrides, first_player=first)
        self.start = census(self.state)
        self.random = random.Random(seed)

    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        if self.state.is_terminal():
            return  # one game per example: the remaining steps have nothing to do
        actions = self.state.legal_actions()
        index = data.draw(st.integers(0, len(actions) - 1), label="action")
        self._play(actions[index])

    def _play(self, action: Any) -> None:
        self.state = self.state.child(action)
        GAMES["moves"] += 1

    @invariant()
    def nothing_created_or_lost(self) -> None:
        check_state(self.state, self.start)

    def teardown(self) -> None:
        """Finish the game with random moves, checking every step; it must end."""
        for _ in range(FINISH_LIMIT):
            if self.state.is_terminal():
                break
            self._play(self.random.choice(self.state.legal_actions()))
            check_state(self.state, self.start)
        assert self.state.is_terminal(), "the game did not end"
        record(self.state, self.profile, "hypothesis")


def record(state: OmenState, profile: str, kind: str) -> None:
    GAMES["games"] += 1
    GAMES[kind] += 1
    GAMES["profiles"][profile] += 1
    GAMES["natural" if ended_naturally(state) else "limit"] += 1


OmenGames.TestCase.settings = settings(
    max_examples=25,  # the default tier's share; the slow tier below plays 1,500
    stateful_step_count=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                           HealthCheck.data_too_large],
)
TestOmenGames = OmenGames.TestCase


class OmenGamesSlow(OmenGames):
    """The bigger tier: many more games."""


OmenGamesSlow.TestCase.settings = settings(OmenGames.TestCase.settings, max_examples=1500)
TestOmenGamesSlow = pytest.mark.slow(OmenGamesSlow.TestCase)

SEEDED_GAMES = 15
"""Seeded random games per profile in the default run (a number that does not depend on how
Hypothesis generates its examples); the slow tier plays the others up to :data:`SLOW_GAMES`."""
SLOW_GAMES = 400
"""Seeded random games per profile with ``--runslow``."""


def play_seeded(profile: str, seed: int) -> None:
    """One game with uniformly random legal actions and chance outcomes, checked at every step."""
    rng = random.Random(seed)
    state = new_game(profile, {"max_turns": TURN_LIMIT}, first_player=seed % 2)
    start = census(state)
    check_state(state, start)
    for _ in range(FINISH_LIMIT):
        if state.is_terminal():
            break
        state = state.child(rng.choice(state.legal_actions()))
        GAMES["moves"] += 1
        check_state(state, start)
    assert state.is_terminal(), f"{profile} seed {seed}: the game did not end"
    record(state, profile, "seeded")


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_seeded_random_games(profile: str) -> None:
    for seed in range(SEEDED_GAMES):
        play_seeded(profile, seed)


@pytest.mark.slow
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_many_seeded_random_games(profile: str) -> None:
    for seed in range(SEEDED_GAMES, SLOW_GAMES):
        play_seeded(profile, seed)
