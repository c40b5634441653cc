"""Every row of the disagreement table R1-R14 (``shared/rules/README.md``): a position where the
profiles (or, where all profiles agree, the option's settings) give different results.

Rulebook files: 001 = A Reign of War, Omega edition extras; 003 = A Reign of War summary;
004 = Fires in the East.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from omen_solver.core.options import describe
from omen_solver.errors import CatalogueError
from omen_solver.omen import load
from omen_solver.omen.rules import PROFILES, OmenRules, make_rules
from omen_solver.omen.setup import new_game
from omen_solver.omen.war import war_torn, war_winner
from tests.omen.helpers import advance, city, legal, make, play, prefer

ROW, OMEGA, FIRES = "reign-of-war", "omega", "fires-in-the-east"
PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omen"


def test_r1_whose_three_units_make_a_city_war_torn() -> None:
    """R1. 001 Phase 5: War: "the active player has at least 3 Units"; 003 Step 5: War: "The
    Opposing Player has 3+ units"; 004 War Step: "an opponent has at least 3 units"."""
    active_three = [city(seat1=["hoplite"] * 3, seat2=["hoplite"])] + [city()] * 2
    opposing_three = [city(seat1=["hoplite"], seat2=["hoplite"] * 3)] + [city()] * 2
    results = {}
    for profile in (ROW, OMEGA, FIRES):
        results[profile] = (
            war_torn(make(profile, cities=active_three), 0),
            war_torn(make(profile, cities=opposing_three), 0),
        )
    assert results == {ROW: (False, True), OMEGA: (True, False), FIRES: (False, True)}
    # Played through: under omega seat 1 (active) fights and wins city 1 and its Reward.
    state = make(OMEGA, step="war", cities=active_three)
    assert state.players[0].rewards == ("ambrosia",)
    state = make(ROW, step="war", cities=active_three)
    assert state.players[0].rewards == ()


def test_r1_either_setting_counts_both_sides() -> None:
    """R1, the reading of 004's "an opponent" as either player."""
    cities = [city(seat1=["hoplite"] * 3, seat2=["hoplite"])] + [city()] * 2
    state = make(ROW, cities=cities, rules={"war_trigger": "either"})
    assert war_torn(state, 0)


def test_r2_tied_strength() -> None:
    """R2. 001 and 003 Step 5: "Tie: Player with more Soldiers wins"; 004 War Step: "the player
    with the highest total unit cost in that city is the victor"."""
    tied = [city(seat1=["hoplite"] * 3, seat2=["veteran", "seer", "augur"])] + [city()] * 2
    # Strength 6 each; Soldiers 3 against 1; total cost 3 against 8.
    for profile, expected in ((ROW, 0), (OMEGA, 0), (FIRES, 1)):
        state = make(profile, cities=tied)
        winner, text = war_winner(state, 0)
        assert winner == expected, (profile, text)
    assert war_winner(make(ROW, cities=[
        city(seat1=["hoplite", "hoplite", "augur"], seat2=["hoplite", "hoplite", "seer"])
    ] + [city()] * 2), 0)[0] is None


def _hand_after_offering(profile: str) -> int:
    hand = ["hoplite"] * 5 + ["spearman"] * 3 + ["herald"]
    state = make(profile, step="offering", seat1={"hand": hand})
    state = play(state, "done")
    state = advance(state, lambda s: s.active == 1)
    return len(state.players[0].hand)


def test_r3_hand_limit() -> None:
    """R3. 001 Phase 6: "reduce his hand to 7 cards"; 003 Step 6 states no limit; 004 Offering
    Step: "a maximum of 5 cards in hand"."""
    assert {p: _hand_after_offering(p) for p in (ROW, OMEGA, FIRES)} == {
        ROW: 9, OMEGA: 7, FIRES: 5}


def test_r3_rewards_over_the_limit_are_played_face_down() -> None:
    """R3. 001 Phase 6: "discarding Units and playing Reward cards face down"."""
    state = make(OMEGA, step="offering",
                 seat1={"hand": ["hoplite"] * 5 + ["herald"],
                        "rewards": ["ambrosia", "thunderbolt"]})
    state = play(state, "done")
    assert "bury ambrosia" in legal(state)
    state = play(state, "bury ambrosia")
    assert state.players[0].rewards_used == ("ambrosia",)


def test_r4_coin_supply() -> None:
    """R4. 001 Setup: "Place the 25 coins" (translator's note: 20 in the English base game);
    003 Components: 40 Coins; 004 Components: 20 Coins."""
    totals = {}
    for profile in PROFILES:
        state = new_game(profile)
        totals[profile] = state.supply + sum(p.coins for p in state.players)
    assert totals[ROW] == 40 and totals[OMEGA] == 25 and totals[FIRES] == 20
    # The finite supply matters: with 19 coins in players' hands, 004 leaves 1 in the supply.
    results = {}
    for profile in (ROW, FIRES):
        state = make(profile, step="wealth", seat1={"coins": 9}, seat2={"coins": 10})
        state = play(state, "wealth coin", "wealth coin", "wealth coin")
        results[profile] = state.players[0].coins
    assert results == {ROW: 13, FIRES: 10}


def test_r4_translators_note_setting() -> None:
    """R4. The translator's note of 001 Setup (20 coins) is a setting of the option."""
    assert new_game(OMEGA, {"coin_supply": "20"}).supply == 12


def test_r5_two_empty_cities_end_the_game_only_in_a_reign_of_war() -> None:
    """R5. 003 Scoring: "2 of the 3 City Reward Card stacks are depleted"; 001 End of the Game:
    "2 or more cities no longer have any Reward cards"; 004 End of Game: "no city has any
    remaining Reward tiles"."""
    cities = [city(rewards=[]), city(rewards=[]), city(rewards=["ambrosia"])]
    ended = {p: make(p, step="offering", cities=cities).is_terminal() for p in (ROW, OMEGA, FIRES)}
    assert ended == {ROW: True, OMEGA: True, FIRES: False}
    empty = [city(rewards=[])] * 3
    assert make(FIRES, step="offering", cities=empty).is_terminal()


def test_r5_five_feats_of_the_opposing_player() -> None:
    """R5. 003: "At end of Active Player's turn, the Opposing Player has 5 face-down Feat
    Cards"; 001 (the translator's note reads "Hero cards" as Feat cards): the same."""
    feats = ["oracle-in-every-city", "soldier-in-every-city", "beast-in-every-city",
             "three-discards", "full-city"]
    opposing = make(ROW, step="offering", seat2={"feats": feats})
    assert opposing.is_terminal()
    active = make(ROW, step="offering", seat1={"feats": feats})
    assert not active.is_terminal() and active.active == 1
    assert not make(FIRES, step="offering", seat2={"feats": feats}).is_terminal()


def test_r5_two_challenges_left_with_zeus_challenge() -> None:
    """R5. 001 End of the Game: "only 2 Challenge cards remain lying face up"."""
    pool = {"challenges": ["plenty", "wisdom"]}
    assert make("omega-olympus", step="offering", pool=pool).is_terminal()
    assert not make("omega-olympus", step="offering",
                    pool={"challenges": ["plenty", "wisdom", "host"]}).is_terminal()
    agreed = make("omega-olympus", step="offering", pool=pool,
                  rules={"challenge_end": "two-of-three"})
    assert not agreed.is_terminal()


def _first_turn_coins(profile: str) -> int:
    state = make(profile, step="wealth", number=1, turn={"first": True})
    return play(state, "wealth coin", "wealth coin").players[0].coins


def test_r6_first_wealth_step_bonus() -> None:
    """R6. 001 Rules Clarifications: "The first player may receive a bonus"; 003 Step 1: only 2
    actions and the bonus needs "all 3 actions"; 004 NOTE: "still receives 1 additional ... if
    both Wealth actions are used for the same thing"."""
    assert {p: _first_turn_coins(p) for p in (ROW, OMEGA, FIRES)} == {ROW: 2, OMEGA: 3, FIRES: 3}


def test_r7_extra_wealth_actions_optional_rule() -> None:
    """R7. 003 Step 1 (Optional): "If you have no cards in hand or no coins, gain 1 extra Wealth
    Action. If you have neither, gain 2 extra." No profile uses the optional rule; the option
    turns it on."""
    assert all(make_rules(p).extra_wealth_actions == "off" for p in PROFILES)
    counts = {}
    for setting in ("off", "on"):
        state = make(ROW, step="wealth", rules={"extra_wealth_actions": setting})
        state = advance(state, lambda s: s.turn.step != "wealth",
                        lambda s: "wealth coin")
        counts[setting] = state.players[0].coins
    assert counts == {"off": 4, "on": 6}  # 3 or 5 actions, plus the all-coins bonus


def test_r8_what_may_be_offered() -> None:
    """R8. 001 Phase 6: "discard one of his hand cards"; 003 Step 6: "exactly 1 Unit Card";
    004 Offering Step: "selects a Unit card"."""
    seat = {"rewards": ["ambrosia"]}
    assert "offer ambrosia" in legal(make(OMEGA, step="offering", seat1=seat))
    assert make(ROW, step="offering", seat1=seat).active == 1  # no choice: the turn passed
    state = play(make(OMEGA, step="offering", seat1=seat), "offer ambrosia")
    assert state.players[0].rewards == () and "ambrosia" in state.box


def test_r9_order_of_war_torn_cities() -> None:
    """R9. 004 War Step: "If there are multiple war-torn cities, the active player decides the
    order"; 001 Phase 5: "Repeat these steps ... until there are no more cities gripped by war"
    (no order stated). In ``puzzles/omen/war-order.toml`` the order decides city 2: seat 1's
    Priestess lost in city 1 is SCORNED (004 Priestesses) and destroys seat 2's Immortal in city
    2 before its war."""
    chooses = load(PUZZLES / "war-order.toml")
    assert chooses.rules.war_order == "active-chooses"
    assert legal(chooses) == ["war 1", "war 2"]
    second_first = play(chooses, "war 2")
    assert "lamassu" in second_first.players[1].rewards_unused
    first_first = play(chooses, "war 1", "keep 1@1:immortal", "keep 1@1:immortal",
                       "destroy 2@2:immortal")
    assert "lamassu" in first_first.players[0].rewards_unused
    fixed = make(FIRES, step="war", cities=WAR_ORDER_CITIES, rules={"war_order": "city-order"})
    assert legal(fixed) == ["keep 1@1:immortal", "keep 1@1:moon-priestess"]
    assert all(make_rules(p).war_order == "active-chooses" for p in PROFILES)


WAR_ORDER_CITIES = [
    city(rewards=["ishtar-gate"], seat1=["moon-priestess", "immortal", "immortal"],
         seat2=["sphinx-of-giza", "spice-trader"]),
    city(rewards=["lamassu"], seat1=["chariot-archer", "satrap-guard", "caravan-master"],
         seat2=["immortal", "riddling-sphinx"]),
    city(rewards=["hanging-gardens"]),
]


def test_r10_what_can_be_enraged() -> None:
    """R10. 001 Additional Rule: Enraged: "only Beasts cannot be enraged" and Spirits "cannot be
    enraged"; 003 Special Rules: "Only Soldiers and Oracles can be Enraged"; 004 Keyword
    Glossary (Enrage): "any unit affected"."""
    cities = [city(seat2=["seer", "cyclops"]), city(seat2=["nymph"]),
              city(seat2=["caravan-master", "hoplite"])]
    targets = {}
    for profile in (ROW, OMEGA, FIRES):
        state = make(profile, seat1={"hand": ["harpy"], "coins": 3}, cities=cities)
        targets[profile] = legal(play(state, "dirge harpy"))
    assert targets[ROW] == ["enrage 2@1:seer", "enrage 2@3:hoplite"]
    assert targets[OMEGA] == ["enrage 2@1:seer", "enrage 2@3:caravan-master",
                              "enrage 2@3:hoplite"]
    assert targets[FIRES] == ["enrage 2@1:cyclops", "enrage 2@1:seer", "enrage 2@2:nymph",
                              "enrage 2@3:caravan-master", "enrage 2@3:hoplite"]


def test_r10_an_enraged_soldier_becomes_a_beast_or_stays_a_soldier() -> None:
    """R10. 001 and 003: an Enraged unit "becomes a Beast"; 004 glossary: it "becomes COLOSSAL,
    has a Strength of 4, and loses all other abilities" (its type stays). The Feat "a Beast in
    every city" (README) tells them apart."""
    cities = [city(seat1=["cyclops"]), city(seat1=["gryphon"]), city(seat1=["hoplite"])]
    achieved = {}
    for profile in (ROW, "fires-in-the-east+reign-of-war"):
        state = make(profile, seat1={"hand": ["chimera"], "coins": 4}, cities=cities)
        state = play(state, "dirge chimera", "enrage 1@3:hoplite")
        state = advance(state, lambda s: s.active == 1, prefer("done"))
        achieved[profile] = state.players[0].feats
    assert achieved == {ROW: ("beast-in-every-city",), "fires-in-the-east+reign-of-war": ()}


def test_r11_when_enraged_units_turn_back() -> None:
    """R11. 001: "all enraged Units on the active player's side are turned back"; 003: "All
    Enraged units flip face up at the end of this step"; 004 glossary: "A player removes all
    Enraged tokens from their units at the end of their OFFERING STEP"."""
    cities = [city(seat1=["hoplite!"], seat2=["hoplite!"])] + [city()] * 2
    after = {}
    for profile in (ROW, OMEGA, FIRES):
        state = advance(make(profile, step="offering", cities=cities), lambda s: s.active == 1)
        after[profile] = (state.cities[0].sides[0][0].enraged,
                          state.cities[0].sides[1][0].enraged)
    assert after == {ROW: (False, False), OMEGA: (False, True), FIRES: (False, True)}


def test_r12_where_a_won_reward_goes() -> None:
    """R12. 001 Rewards: "they add these Reward cards to their hands"; 003 Step 5; 004 War
    Step: "placing it in their play area with the 2VP side faceup"."""
    cities = [city(rewards=["ambrosia"], seat1=["cyclops", "hoplite"], seat2=["hoplite"] * 3)]
    cities += [city(rewards=["athenas-counsel"]), city(rewards=["ares-fury"])]
    for profile, in_hand in ((ROW, True), (OMEGA, True), (FIRES, False)):
        state = make(profile, step="war", cities=cities)
        player = state.players[0]
        assert (player.rewards, player.rewards_unused) == (
            (("ambrosia",), ()) if in_hand else ((), ("ambrosia",))), profile


def test_r13_score_tiebreak() -> None:
    """R13. 001: "the player who has the most face-down cards lying in his play area wins";
    003: "Player with more face-down Feat Cards wins"; 004: unused Rewards, then VP tokens,
    then TREASURED units, "both players ... share the victory"."""
    empty = [city(rewards=[])] * 3
    seat1 = {"feats": ["hoard"]}                           # 2 VP, 1 face-down Feat
    seat2 = {"rewards_used": ["ambrosia", "ambrosia"]}      # 2 VP, 2 face-down cards
    results = {}
    for profile in (ROW, OMEGA, FIRES):
        state = make(profile, step="offering", cities=empty, seat1=seat1, seat2=seat2)
        assert state.is_terminal()
        results[profile] = state.returns()
    assert results == {
        ROW: (Fraction(1), Fraction(0)),
        OMEGA: (Fraction(0), Fraction(1)),
        FIRES: (Fraction(1, 2), Fraction(1, 2)),
    }


COLOURED = """
[meta]
set = "house"
origin = "invented"

[[unit]]
id = "painted-hoplite"
name = "Painted Hoplite"
type = "Soldier"
yellow = 1
red = 1
blue = 5
"""


def test_r14_stat_colours(tmp_path: Path) -> None:
    """R14. 001 Units: "Offering value (red)", "Strength (blue)"; 003 Step 5 "Strength (red)"
    and Step 6 "Offering Value (blue)"; 004 names no colours."""
    (tmp_path / "house.toml").write_text(COLOURED)
    cities = [city(seat1=["painted-hoplite"], seat2=["hoplite"] * 2)] + [city()] * 2
    cards = [str(tmp_path / "house.toml")]
    omega = make(OMEGA, cities=cities, cards=cards)
    row = make(ROW, cities=cities, cards=cards)
    painted = (omega.card("painted-hoplite"), row.card("painted-hoplite"))
    assert (painted[0].strength, painted[0].offering) == (5, 1)
    assert (painted[1].strength, painted[1].offering) == (1, 5)
    assert war_winner(omega, 0)[0] == 0 and war_winner(row, 0)[0] == 1
    with pytest.raises(CatalogueError, match=r"house\.toml: unit 'painted-hoplite'.*names-only"):
        make(FIRES, cities=cities, cards=cards)


def test_r14_names_only_is_a_catalogue_error() -> None:
    """R14 under 004: a colour-keyed card cannot be read (the error is a CatalogueError)."""
    from omen_solver.omen.cards import Card, Catalogue

    card = Card(id="x", name="X", kind="unit", set="s", origin="invented", source="f.toml",
                unit_type="Soldier", red=1, blue=2)
    with pytest.raises(CatalogueError, match=r"f\.toml: unit 'x'"):
        Catalogue(cards={"x": card}).resolve("names-only")



def test_every_option_is_named_by_a_test() -> None:
    """Every rule option comes with a test showing its settings differ: a row R1-R14 with a
    ``test_r<N>_`` test here, any other option named in a test of tests/omen."""
    texts = [p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py")]
    here = Path(__file__).read_text(encoding="utf-8")
    missing = [
        spec.name
        for spec in describe(OmenRules)
        if not (spec.question.startswith("R") and f"def test_{spec.question.lower()}_" in here)
        and not any(f'"{spec.name}"' in text or f"option {spec.name}" in text for text in texts)
    ]
    assert not missing, f"options without a test: {missing}"
