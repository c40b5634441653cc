"""The endgame search: the same answers with and without its reductions and as the naive
expectimax, draws as chance (exact probabilities of the cards left) or against the seat, the
turn horizon, the principal variation's trace, budgets, and lines that loop.

Rules behind the positions: 003 Step 1 (Wealth: 3 actions, all the same earn one more),
003 Step 5 (war-torn at 5 units; the tie goes to more Soldiers), 003 Scoring ("2 of the 3
City Reward Card stacks are depleted" ends the game), 001 General Terms ("The top card of
the draw pile is taken"), 004 Priestesses (SCORNED), 004 Wealth Step (the reshuffle when
drawing).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.search import Budget, Status, naive_solve
from omen_solver.core.search.star import StarSearch
from omen_solver.omen.endgame import (
    ALL_REDUCTIONS,
    Draws,
    EndgameView,
    Objective,
    _rules,
    solve_endgame,
)
from omen_solver.omen.state import OmenState
from tests.omen.endgames import random_endgame
from tests.omen.helpers import city, make

DATA = Path(__file__).parent / "data"


def _last_city(ours: list[str], theirs: list[str], **kw: object) -> OmenState:
    """City 1 holds the last Reward of the game (cities 2 and 3 are empty: the game ends at
    the end of this turn, 003 Scoring); seat 1's units ``ours``, seat 2's ``theirs``."""
    cities = [city(rewards=["ambrosia"], seat1=ours, seat2=theirs), city(rewards=[]),
              city(rewards=[])]
    return make(cities=cities, **kw)  # type: ignore[arg-type]


def _draw_position() -> OmenState:
    """Seat 1 needs a Hoplite from the shuffled deck (one Hoplite, two Augurs) and a coin to
    play it: 5 units make city 1 war-torn, Strength 6 against 6, and 3 Soldiers against 2 win
    (003 Step 5). Drawing twice then taking a coin finds the Hoplite with probability 2/3."""
    return _last_city(["hoplite", "hoplite"], ["veteran", "hoplite"], step="wealth",
                      seat1={"coins": 0}, seat2={"rewards_used": ["thunderbolt"]},
                      deck={"shuffled": ["hoplite", "augur", "augur"]})


def test_draws_are_chance_with_the_cards_left() -> None:
    state = _draw_position()
    expected = solve_endgame(state, seat=1, turns=1)
    assert expected.value == Fraction(2, 3)
    # A card first, or a coin first: each order can see the first card before the second.
    assert set(expected.best_actions) == {"wealth card", "wealth coin"}
    worst = solve_endgame(state, seat=1, turns=1, draws="worst-case")
    assert worst.value == 0  # the Augurs come first
    line = worst.principal_variation
    assert any(text.startswith("draw augur") for text in line)


def test_a_deck_in_known_order_has_no_chance() -> None:
    known = _last_city(["hoplite", "hoplite"], ["veteran", "hoplite"], step="wealth",
                       seat1={"coins": 0}, seat2={"rewards_used": ["thunderbolt"]},
                       deck={"top": ["augur", "hoplite", "augur"]})
    result = solve_endgame(known, seat=1, turns=1)
    assert result.value == 1 and result.extra["endgame"]["chance"] == []
    assert result.principal_variation[:2] == ("wealth card", "wealth card")


def test_the_first_chance_event_lists_its_outcomes() -> None:
    result = solve_endgame(_draw_position(), seat=1, turns=1, margin=False)
    branches = result.extra["endgame"]["chance"]
    assert {b["outcome"]: (b["probability"], b["value"]) for b in branches} == {
        "draw augur": ("2/3", "1/2"), "draw hoplite": ("1/3", "1")}
    assert any("then chance decides" in line for line in result.extra["details"])


def test_win_margin_line_and_trace() -> None:
    """With no Feats in play, seat 1 wins the last Reward by a war only: two Hoplites (5 units,
    Strength 6 against 6, 3 Soldiers against 2) or the Cyclops (5 units, Strength 8): 2 VP
    against seat 2's used Reward (1 VP). With the Feats, the Cyclops and a Hoplite in each
    other city add "a Soldier in every city" (2 VP): a margin of 3."""
    hands = {"hand": ["hoplite", "hoplite", "cyclops"], "coins": 6}
    state = _last_city(["hoplite"], ["veteran", "herald"], seat1=hands,
                       seat2={"rewards_used": ["thunderbolt"]}, pool={"feats": []})
    result = solve_endgame(state)
    endgame = result.extra["endgame"]
    assert result.value == 1 and endgame["result"] == "win"
    assert endgame["margin"]["value"] == "1" and not endgame["horizon_reached"]
    steps = [s["rule"] for step in endgame["trace"] for s in step["steps"]]
    assert {"surge.play", "war.torn", "war.reward", "game.end"} <= set(steps)
    # Any play that leaves the coins for the war is a first step of a win; the Cyclops' DIRGE
    # (it destroys the Herald, and 4 units are not war-torn) and passing are not.
    assert {"play cyclops 1", "play hoplite 1", "play hoplite 2"} <= set(result.best_actions)
    assert not {"dirge cyclops", "done"} & set(result.best_actions)
    feats = _last_city(["hoplite"], ["veteran", "herald"], seat1=hands,
                       seat2={"rewards_used": ["thunderbolt"]})
    assert solve_endgame(feats).extra["endgame"]["margin"]["value"] == "3"


def test_the_horizon_scores_the_table_as_it_stands() -> None:
    """Three cities with Rewards: the game goes on; with 1 turn the search stops and says so."""
    state = make(seat1={"hand": ["hoplite"], "coins": 2})
    result = solve_endgame(state, turns=1, margin=False)
    assert result.solved and result.extra["endgame"]["horizon_reached"]
    assert result.note is not None and "scored as they stand" in result.note


def test_commuting_plays_are_tried_in_one_order() -> None:
    """Hoplites, a Veteran and a Cyclops (no entry ability) played in any order reach the
    same table: the search tries one order, and finds the same answer."""
    state = _last_city(["hoplite"], ["veteran", "herald", "hoplite"],
                       seat1={"hand": ["hoplite", "hoplite", "veteran", "cyclops"], "coins": 9})
    fast = solve_endgame(state, margin=False, reductions=["commuting-plays"])
    slow = solve_endgame(state, margin=False, reductions=False)
    assert (fast.value, fast.best_actions) == (slow.value, slow.best_actions)
    assert fast.extra["endgame"]["pruned"]["commuting plays"] > 0
    assert fast.nodes < slow.nodes


def test_keeping_units_in_one_order() -> None:
    state = _last_city(["hoplite", "hoplite", "veteran"], ["herald", "spearman", "skirmisher"],
                       seat1={"hand": ["pillager"], "coins": 3})
    fast = solve_endgame(state, margin=False)
    slow = solve_endgame(state, margin=False, reductions=False)
    assert (fast.value, set(fast.best_actions)) == (slow.value, set(slow.best_actions))
    assert fast.extra["endgame"]["pruned"]["keep orders"] > 0


def test_a_choice_with_fewer_coins_for_the_same_table_is_dominated() -> None:
    """A DEPLOY that "may" gain a coin: saying no leaves the same table and one coin fewer.
    No card in play reads coins (the Hoard Feat is left out), so more coins never hurt."""
    state = _last_city(["hoplite"], ["veteran", "herald"],
                       seat1={"hand": ["tithe-collector", "hoplite", "hoplite"], "coins": 3},
                       cards=[str(DATA / "endgame-cards.toml")],
                       pool={"feats": ["oracle-in-every-city"]})
    fast = solve_endgame(state, margin=False, reductions=ALL_REDUCTIONS)
    assert fast.extra["endgame"]["coins_monotone"]
    assert fast.extra["endgame"]["pruned"]["fewer coins"] > 0
    slow = solve_endgame(state, margin=False, reductions=False)
    assert (fast.value, set(fast.best_actions)) == (slow.value, set(slow.best_actions))
    hoard = _last_city(["hoplite"], ["veteran", "herald"],
                       seat1={"hand": ["tithe-collector"], "coins": 3},
                       cards=[str(DATA / "endgame-cards.toml")])
    assert not solve_endgame(hoard, margin=False,
                             reductions=ALL_REDUCTIONS).extra["endgame"]["coins_monotone"]


def _naive_value(state: OmenState, turns: int, draws: Draws) -> Fraction | None:
    seat = state.active if state.current_player() < 0 else state.current_player()
    rules = _rules(state, seat, Objective.RESULT, draws, turns, False)
    root = EndgameView(state, rules, is_root=True)
    result = naive_solve(root, team=seat + 1, budget=Budget(max_nodes=5_000))
    return result.value


def _compare_random(profile: str, seeds: range) -> tuple[int, int]:
    """Random endgames solved with and without the reductions, and by the naive expectimax
    when small (not with Priestesses: the naive walk does not stop a line that loops)."""
    compared = naives = 0
    for seed in seeds:
        state = random_endgame(profile, seed, step="surge" if seed % 2 else "wealth",
                               deck_rest=2 if seed % 3 else 0, hand=3, rewards_left=2)
        for turns, draws in ((1, Draws.EXPECTED), (2, Draws.WORST_CASE)):
            fast = solve_endgame(state, turns=turns, draws=draws, margin=False,
                                 reductions=ALL_REDUCTIONS if seed % 2 else True,
                                 budget=Budget(max_nodes=1500))
            if not fast.solved:
                continue
            slow = solve_endgame(state, turns=turns, draws=draws, margin=False,
                                 reductions=False, budget=Budget(max_nodes=3000))
            if slow.solved:
                assert fast.value == slow.value, (seed, turns, draws)
                assert set(fast.best_actions) == set(slow.best_actions), (seed, turns, draws)
                compared += 1
            if fast.nodes < 300 and not profile.startswith("fires-in-the-east"):
                naive = _naive_value(state, turns, draws)
                assert naive in (None, fast.value), (seed, turns, draws)
                naives += naive is not None
    return compared, naives


@pytest.mark.parametrize("profile", ["reign-of-war", "omega", "fires-in-the-east",
                                     "fires-in-the-east+reign-of-war"])
def test_random_endgames_agree_with_and_without_reductions(profile: str) -> None:
    """Seeded random positions near the end of a game (``tests/omen/endgames.py``): the
    reduced search (the default reductions, or all of them), the search without reductions
    and the naive expectimax give one value."""
    compared, _ = _compare_random(profile, range(3))
    assert compared >= 2


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["reign-of-war", "omega", "fires-in-the-east",
                                     "fires-in-the-east+reign-of-war"])
def test_more_random_endgames_agree(profile: str) -> None:
    compared, _ = _compare_random(profile, range(3, 30))
    assert compared >= 20


def test_a_line_that_loops_is_not_followed() -> None:
    """004 Priestesses: discarding the Priestess of the Sun to the hand limit resolves her
    SCORNED (draw 1); with deck and discard pile otherwise empty she comes straight back (004
    Wealth Step: the reshuffle). The search does not follow the loop and still answers."""
    cities = [city(rewards=["lamassu"]), city(rewards=["ishtar-gate"]), city(rewards=[])]
    state = make("fires-in-the-east", step="offering", cities=cities,
                 seat1={"hand": ["sun-priestess", "immortal", "immortal", "chariot-archer",
                                 "satrap-guard", "caravan-master"]})
    result = solve_endgame(state, turns=1, margin=False)
    assert result.solved


def test_budget_gives_unknown_with_bounds() -> None:
    state = random_endgame("reign-of-war", 2, step="wealth", deck_rest=2, hand=3,
                           rewards_left=2)
    result = solve_endgame(state, turns=2, budget=Budget(max_nodes=50))
    assert result.status is Status.UNKNOWN and result.value is None
    assert result.lower is not None and result.upper is not None
    assert result.note == "node limit of 50 reached"
    assert result.extra["details"][0].startswith("endgame for seat 1: unknown")


def test_star_search_counts_its_repetitions() -> None:
    cities = [city(rewards=["lamassu"]), city(rewards=["ishtar-gate"]), city(rewards=[])]
    state = make("fires-in-the-east", step="offering", cities=cities,
                 seat1={"hand": ["sun-priestess", "immortal", "immortal", "chariot-archer",
                                 "satrap-guard", "caravan-master"]})
    rules = _rules(state, 0, Objective.RESULT, Draws.EXPECTED, 1, True)
    root = EndgameView(state, rules, is_root=True)
    search = StarSearch(root, (0,), constant_sum=True, bounds=root.return_bounds())
    search.search(root, search.low, search.high)
    assert search.repetitions > 0


def test_the_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "endgame.toml"
    path.write_text(
        'game = "omen"\n[turn]\nstep = "wealth"\nnumber = 30\n[seat.2]\n'
        'rewards_used = ["thunderbolt"]\n[[city]]\nrewards = ["ambrosia"]\n'
        'seat1 = ["hoplite", "hoplite"]\nseat2 = ["veteran", "hoplite"]\n'
        '[[city]]\nrewards = []\n[[city]]\nrewards = []\n'
        '[deck]\nshuffled = ["hoplite", "augur", "augur"]\n[pool]\nrewards = []\n'
        '[search]\nturns = 1\nmargin = false\n')
    assert main(["omen", "endgame", str(path)]) == 0
    out = capsys.readouterr().out
    assert "endgame for seat 1: expected result 2/3 (draws: expected; over 1 turn(s)" in out
    assert main(["omen", "endgame", str(path), "--draws", "worst-case", "--json"]) == 0
    report = __import__("json").loads(capsys.readouterr().out)
    assert report["value"] == "0" and report["endgame"]["draws"] == "worst-case"
    assert main(["solve", str(path)]) == 0
    assert "endgame for seat 1: expected result 2/3" in capsys.readouterr().out
    assert main(["omen", "endgame", str(path), "--max-nodes", "5"]) == 1
    bad = tmp_path / "bad.toml"
    bad.write_text(path.read_text().replace("turns = 1", "turns = 0"))
    assert main(["omen", "endgame", str(bad)]) == 2
    assert "key 'search.turns'" in capsys.readouterr().err
