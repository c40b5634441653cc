"""The arithmetic questions (z3 and python-constraint2) agree with the endgame search on the
same positions: hand-built ones a player follows, and seeded random ones inside the model's
domain.

Rules used: 003 Step 5 ("A City is War-Torn if: The Opposing Player has 3+ units ... OR There
are 5+ total units"; "Tie: Player with more Soldiers wins"; "Winner discards all but 1 unit.
Loser discards all but 2 units"), 001 Phase 5 (R1: the active player's 3 units), 004 War Step
(R2: total unit cost), 003 Step 1 (3 Wealth actions, the all-same bonus).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from omen_solver.core.search import Budget
from omen_solver.errors import ArithmeticQuestionError
from omen_solver.omen.arithmetic import Question, ask, cross_check, keep_sets
from omen_solver.omen.state import OmenState
from omen_solver.omen.war import Keep
from tests.omen.helpers import city, make

PLAIN = ["hoplite", "hoplite", "veteran", "cyclops", "harpy", "gryphon", "minotaur"]
"""A Reign of War units with no ability in a city (Beasts' DIRGE acts only from hand)."""


def _surge(coins: int, hand: list[str], ours: list[str], theirs: list[str],
           rules: dict[str, str] | None = None) -> OmenState:
    cities = [city(rewards=["ambrosia"], seat1=ours, seat2=theirs),
              city(rewards=["thunderbolt"]), city(rewards=[])]
    return make(seat1={"hand": hand, "coins": coins}, cities=cities, rules=rules)


def test_win_the_city_with_two_hoplites() -> None:
    """Seat 1 has a Hoplite in city 1 against a Veteran and a Herald (Strength 6). Two more
    Hoplites make 5 units in the city (war-torn) and Strength 6 against 6; the tie goes to
    the side with more Soldiers, 3 against 2 (003 Step 5). The Cyclops alone (Strength 8) would
    not make the city war-torn: 3 units of seat 1's, 4 in all."""
    state = _surge(6, ["hoplite", "hoplite", "cyclops", "augur"], ["hoplite"],
                   ["veteran", "herald"])
    answer = ask(state, "win-city", 0)
    assert answer.possible and answer.plays == ("play hoplite 1", "play hoplite 1")
    assert answer.excluded == ("augur",)  # an Oracle's Portent ability is not modelled
    assert cross_check(state, answer).agrees
    cheapest = ask(state, Question.FEWEST_COINS, 0)
    assert cheapest.coins == 2 and cheapest.have == 6
    assert cross_check(state, cheapest).agrees
    poor = _surge(1, ["hoplite", "hoplite", "cyclops"], ["hoplite"], ["veteran", "herald"])
    answer = ask(poor, "win-city", 0)
    assert answer.possible is False and cross_check(poor, answer).agrees


def test_the_war_trigger_and_tie_break_options_change_the_answer() -> None:
    """R1: a Cyclops and a Hoplite against a lone Veteran make 4 units in the city: war-torn
    only with 001's reading (the active player's 3 units). R2: Strength 8 against 8 goes to
    the side with more Soldiers (001, 003) or the higher total unit cost (004)."""
    state = _surge(5, ["cyclops", "hoplite"], [], ["veteran"])
    assert ask(state, "win-city", 0).possible is False
    active = _surge(5, ["cyclops", "hoplite"], [], ["veteran"], {"war_trigger": "active"})
    answer = ask(active, "win-city", 0)
    assert answer.possible and cross_check(active, answer).agrees
    for tiebreak, wins in (("soldiers", True), ("total-cost", False)):
        tied = _surge(2, ["hoplite", "hoplite"], ["veteran"], ["minotaur", "pillager"],
                      {"war_tiebreak": tiebreak})
        answer = ask(tied, "win-city", 0)
        assert answer.possible is wins and cross_check(tied, answer).agrees, tiebreak


def test_which_units_to_keep_to_hold_the_city() -> None:
    """Seat 1 loses city 1 (13 against 14) and keeps two units, or its Cyclops alone; seat 2,
    the winner, keeps one unit, and no Beast: its Hoplite (003 Special Rules). In its next turn
    seat 2 plays its Harpy (4 coins from its Wealth step): 3 units of its own and seat 1's 2
    make the city war-torn. Strength 6 against the Cyclops' 6 is a tie that seat 2's one
    Soldier wins; against the Veteran and the Pillager (7) seat 2 loses. So seat 1 must keep
    the Veteran and the Pillager."""
    cities = [city(rewards=["ambrosia", "thunderbolt"], seat1=["cyclops", "veteran", "pillager"],
                   seat2=["hydra", "minotaur", "hoplite"]),
              city(rewards=["athenas-counsel"]), city(rewards=[])]
    state = make(step="war", seat1={"coins": 2}, seat2={"hand": ["harpy"], "coins": 0},
                 cities=cities, deck={"top": ["augur", "seer", "augur", "seer"]})
    answer = ask(state, "keep", 0)
    assert set(answer.choices) == {("keep 1@1:cyclops",),
                                   ("keep 1@1:pillager", "keep 1@1:veteran")}
    assert answer.holding == (("keep 1@1:pillager", "keep 1@1:veteran"),)
    assert cross_check(state, answer).agrees


def test_keep_sets_are_every_distinct_maximal_choice() -> None:
    """004 COLOSSAL UNITS: a loser keeps a COLOSSAL unit alone or two others."""
    state = _surge(0, [], ["cyclops", "hoplite", "hoplite", "veteran"], [])
    units = state.cities[0].sides[0]
    kept = {tuple(u.card for u in k) for k in keep_sets(state, units, 2)}
    assert kept == {("cyclops",), ("hoplite", "hoplite"), ("hoplite", "veteran")}
    assert {tuple(u.card for u in k) for k in keep_sets(state, units, 1)} == {
        ("hoplite",), ("veteran",)}


def test_positions_outside_the_model_are_refused_with_the_reason() -> None:
    state = make(seat1={"hand": ["hoplite"], "coins": 3},
                 cities=[city(rewards=["ambrosia"], seat1=["augur"]), city(), city()])
    with pytest.raises(ArithmeticQuestionError, match="seat 1's augur in city 1 has an "
                       "ability that acts before the war"):
        ask(state, "win-city", 0)
    empty = _surge(3, ["hoplite"], [], [])
    empty = make(seat1={"hand": ["hoplite"], "coins": 3}, cities=[city(rewards=[])] * 3)
    with pytest.raises(ArithmeticQuestionError, match="city 1 has no Reward left"):
        ask(empty, "win-city", 0)
    with pytest.raises(ArithmeticQuestionError, match="at that choice"):
        ask(_surge(3, ["hoplite"], [], []), "keep", 0)
    with pytest.raises(ArithmeticQuestionError, match="question 'win'"):
        ask(empty, "win", 0)


def _random_surge(rng: random.Random) -> OmenState:
    rules: dict[str, Any] = {"war_trigger": rng.choice(["active", "opposing", "either"]),
                             "war_tiebreak": rng.choice(["soldiers", "total-cost"])}
    pool = [*PLAIN, "veteran", "hoplite", "hoplite", "hoplite"]
    rng.shuffle(pool)
    ours = pool[:rng.randint(0, 2)]
    theirs = pool[2:2 + rng.randint(0, 3)]
    hand = pool[5:5 + rng.randint(1, 4)]
    sizes = [2 if c in ("cyclops", "harpy", "gryphon", "minotaur") else 1 for c in ours]
    while sum(sizes) > 5:
        ours.pop()
        sizes.pop()
    return _surge(rng.randint(0, 8), hand, ours, theirs, rules)


@pytest.mark.parametrize("seed", range(12))
def test_random_surges_agree_with_the_search(seed: int) -> None:
    rng = random.Random(seed)
    state = _random_surge(rng)
    for question in (Question.WIN_CITY, Question.FEWEST_COINS):
        answer = ask(state, question, 0)
        check = cross_check(state, answer, Budget(max_nodes=200_000))
        assert check.agrees, (seed, question, answer.lines(), check.detail)


def _random_keep(rng: random.Random) -> OmenState | None:
    """A war seat 1 fights in city 1 (its choice of units to keep comes first), with seat 2's
    hand and a deck of known order, or None when the war is not there."""
    kinds = ["hoplite", "veteran", "cyclops", "harpy", "gryphon", "pillager", "spy"]
    ours = [rng.choice(kinds) for _ in range(rng.randint(2, 3))]
    theirs = [rng.choice(kinds) for _ in range(3)]
    hand = [rng.choice(["hoplite", "harpy", "veteran", "seer"]) for _ in range(rng.randint(1, 2))]
    top = [rng.choice(["hoplite", "augur", "gryphon", "seer"]) for _ in range(4)]
    everything = ours + theirs + hand + top
    if any(everything.count(card) > 2 + 3 * (card == "hoplite") for card in set(everything)):
        return None
    sizes = [2 if c in ("cyclops", "harpy", "gryphon") else 1 for c in ours]
    if sum(sizes) > 5:
        return None
    cities = [city(rewards=["ambrosia", "thunderbolt"], seat1=ours, seat2=theirs),
              city(rewards=["athenas-counsel"]), city(rewards=[])]
    state = make(step="war", seat1={"coins": 2}, seat2={"hand": hand, "coins": rng.randint(0, 3)},
                 cities=cities, deck={"top": top},
                 rules={"war_trigger": rng.choice(["opposing", "either"])})
    frame = state.stack[-1] if state.stack else None
    if not isinstance(frame, Keep) or frame.player != 0 or frame.city != 0:
        return None
    return state


def test_random_keeps_agree_with_the_search() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 8:
        state = _random_keep(rng)
        if state is None:
            continue
        answer = ask(state, "keep", 0)
        check = cross_check(state, answer, Budget(max_nodes=200_000))
        assert check.agrees, (answer.lines(), check.detail)
        checked += 1
