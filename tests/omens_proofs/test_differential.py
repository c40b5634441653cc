"""The z3 model of the end of a bout against the engine, on many thousands of concrete bouts.

The model (:mod:`omen_solver.omens.proofs`) and the engine (:mod:`omen_solver.omens.resolve`,
:mod:`omen_solver.omens.state`) are two independent readings of rules file 000 ("How a Bout Is
Resolved", "Special Card Effects", "End of a Round") and omens-cards.md: any disagreement is a
bug in one of them. Three kinds of bouts:

* random cards in play, seats, leader and option settings, compared with ``resolve_bout``
  (Hypothesis, players 4-6, 1 to players + 2 cards, every end-of-bout option);
* whole bouts played by the engine from random deals with random legal moves under random
  settings of every option, compared at the end (hands, Luck's choices, round winner, leader);
* every set of 1 to 3 cards in play (bounded exhaustive), under the default options.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_solver.omens.actions import Verb
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.proofs.differential import ModelEvaluator
from omen_solver.omens.resolve import resolve_bout
from omen_solver.omens.rules import OmensRules, make_rules, option_specs
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Placement, Scope, Table
from tests.omens_proofs.coverage import COVERAGE, SETTINGS

CATALOGUE = default_catalogue()
SPECS = {spec.name: spec for spec in option_specs()}
END_OPTIONS = ("card_owner", "sadness_lone_card", "fear_pass_on", "extreme_includes_self")
"""The options :func:`resolve_bout` reads."""
TEAMS = {4: [[0, 2], [1, 3]], 5: [[0, 2], [1, 3, 4]], 6: [[0, 3], [1, 4], [2, 5]]}

_BOUT = ModelEvaluator()
_ROUND = ModelEvaluator(hands=True)


def _count_settings(rules: OmensRules, names: Sequence[str]) -> None:
    chosen = rules.as_dict()
    for name in names:
        SETTINGS[f"{name}={chosen[name]}"] += 1


def compare_end(
    players: int, leader: int, cards: Sequence[tuple[int, int, int]], rules: OmensRules
) -> None:
    """resolve_bout and the model agree on the winner, the discards, Luck's victim, Pride
    and the next leader."""
    table = Table(players, rules, CATALOGUE)
    engine = resolve_bout([Placement(*card) for card in cards], leader, table)
    model = _BOUT.end_of_bout(players, leader, cards, rules)
    assert (model.winner, model.winning_card) == (engine.winner, engine.winning_card), cards
    assert model.discarded == engine.discarded, cards
    assert model.luck_seat == engine.luck_seat, cards
    assert (model.next_leader, model.pride) == (engine.next_leader, engine.pride), cards


@st.composite
def bouts(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int, int]], OmensRules]:
    players = draw(st.sampled_from([4, 5, 6]))
    count = draw(st.integers(1, players + 2))
    values = draw(
        st.lists(st.sampled_from(sorted(CATALOGUE)), min_size=count, max_size=count, unique=True)
    )
    seat = st.integers(0, players - 1)
    cards = [(value, draw(seat), draw(seat)) for value in values]
    overrides = {name: draw(st.sampled_from(list(SPECS[name].settings))) for name in END_OPTIONS}
    return players, draw(seat), cards, make_rules(None, overrides)


@settings(max_examples=4000, derandomize=True, database=None)
@given(bouts())
def test_end_of_bout_agrees_with_resolve_bout(
    bout: tuple[int, int, list[tuple[int, int, int]], OmensRules],
) -> None:
    """Rules file 000, "How a Bout Is Resolved" and every end-of-bout card effect."""
    players, leader, cards, rules = bout
    compare_end(players, leader, cards, rules)
    COVERAGE["end-of-bout"] += 1
    _count_settings(rules, END_OPTIONS)


def test_every_small_set_of_cards_agrees() -> None:
    """Bounded exhaustive: every set of 1 or 2 cards of the deck in play (4 players, each
    card in front of its own player, seat 1 leading, default options)."""
    rules = make_rules()
    for size in (1, 2):
        for values in itertools.combinations(sorted(CATALOGUE), size):
            compare_end(4, 0, [(v, seat, seat) for seat, v in enumerate(values)], rules)
            COVERAGE["exhaustive"] += 1


@pytest.mark.slow
def test_every_set_of_three_cards_agrees() -> None:
    """Bounded exhaustive, slow tier: every set of 3 cards in play (6,545 bouts) under every
    combination of the end-of-bout options (16), seats as above."""
    combos = itertools.product(*(list(SPECS[name].settings) for name in END_OPTIONS))
    for setting in combos:
        rules = make_rules(None, dict(zip(END_OPTIONS, setting, strict=True)))
        for values in itertools.combinations(sorted(CATALOGUE), 3):
            compare_end(4, 0, [(v, seat, seat) for seat, v in enumerate(values)], rules)
            COVERAGE["exhaustive"] += 1


# -- whole bouts played by the engine ----------------------------------------------------------


def _random_rules(rng: random.Random) -> OmensRules:
    return make_rules(None, {name: rng.choice(list(spec.settings)) for name, spec in SPECS.items()})


def _deal(rng: random.Random, players: int) -> list[list[int]]:
    size = rng.randint(2, 4)
    cards = rng.sample(sorted(CATALOGUE), players * size)
    return [cards[i * size : (i + 1) * size] for i in range(players)]


def play_one_bout(seed: int) -> bool:
    """Play one random bout in the engine and compare how it ends with the model; False if
    the bout's last placement moved cards (then it is not compared)."""
    rng = random.Random(seed)
    players = rng.choice([4, 5, 6])
    rules = _random_rules(rng)
    table = Table(players, rules, CATALOGUE, Scope.ROUND)
    state = OmensState.start_of_bout(
        table, _deal(rng, players), TEAMS[players], rng.randrange(players)
    )
    before = state
    last = None
    while state.bouts_played == 0 and not state.is_terminal():
        before, last = state, rng.choice(state.moves())
        state = state.apply_move(last)
    assert last is not None
    action = last[0]
    if (
        action.verb is not Verb.PLAY
        or action.choice
        or (action.card in table.now and action.to >= 0)
    ):
        return False
    cards = [tuple(p) for p in before.in_play]
    cards.append((action.card, action.seat if action.to < 0 else action.to, action.seat))
    mid = [list(hand) for hand in before.hands]
    mid[action.seat].remove(action.card)
    luck_options: frozenset[int] = frozenset()
    luck_pick = 0
    while state.phase == Phase.END and not state.is_terminal():
        move = rng.choice(state.moves())
        if move[0].verb is Verb.DISCARDS:
            luck_options = frozenset(a.card for a in state.legal_actions())
            luck_pick = move[0].card
        state = state.apply_move(move)
    summary = state.last_bout
    assert summary is not None
    winner = summary.round_winner
    model = _ROUND.round_end(
        players,
        before.leader,
        cards,
        mid,
        rules,
        luck_pick=luck_pick,
        zero_pick=-1 if winner is None else winner,
        final=state.hands,
    )
    assert model.choices_allowed, (cards, mid, rules.differences())
    assert model.hands == tuple(tuple(hand) for hand in state.hands), (
        cards,
        mid,
        rules.differences(),
    )
    assert model.round_winner == winner, (cards, mid, rules.differences())
    assert model.next_leader == summary.next_leader, (cards, mid, rules.differences())
    if luck_pick:
        assert model.luck_options == luck_options, (cards, mid, rules.differences())
    _count_settings(rules, list(SPECS))
    return True


@settings(max_examples=1500, derandomize=True, database=None)
@given(st.integers(0, 2**32 - 1))
def test_played_bouts_agree_with_the_engine(seed: int) -> None:
    """Rules file 000, "Game Sequence" (cards back to hand), "Luck", "End of a Round", with
    every rule option at a random setting."""
    if play_one_bout(seed):
        COVERAGE["played"] += 1


@pytest.mark.slow
def test_many_played_bouts_agree_with_the_engine() -> None:
    compared = sum(play_one_bout(seed) for seed in range(20_000))
    COVERAGE["played"] += compared
    assert compared > 10_000
