"""War, keeping units after a war (COLOSSAL units count 2) and city capacity.

Rulebooks: 001 Phase 5: War (and its Notes), 001 Additional Rule: Enraged; 003 Step 5: War and
Special Rules & Edge Cases; 004 War Step (COLOSSAL UNITS), Surge Step (city capacity), Keyword
Glossary (Colossal, Enrage, Deploy).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from omen_solver.errors import PositionError
from omen_solver.omen import load
from omen_solver.omen.state import OmenState
from omen_solver.omen.war import war_torn
from omen_solver.omen.zones import CAPACITY
from tests.omen.helpers import city, legal, make, play, play_traced

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omen"


def side(state: OmenState, city_index: int, seat: int) -> list[str]:
    return sorted(unit.card + ("!" if unit.enraged else "")
                  for unit in state.cities[city_index].sides[seat - 1])


def war_at(cities: list[dict[str, object]], profile: str = "reign-of-war",
           **kw: object) -> OmenState:
    return make(profile, step="war", cities=cities, **kw)  # type: ignore[arg-type]


def test_the_winner_keeps_one_unit_never_a_beast() -> None:
    """003 Special Rules: "Winning player in War may never leave a Beast in a City (since they
    keep only 1, and Beast = 2)"; 001 Phase 5 Note: Beasts "must therefore be discarded by the
    winning player"."""
    state = load(PUZZLES / "war-colossal.toml")
    assert side(state, 0, 1) == ["hoplite"]
    assert "cyclops" in state.discard
    assert state.players[0].rewards == ("ambrosia",)
    assert legal(state) == ["keep 2@1:augur", "keep 2@1:hoplite", "keep 2@1:spearman"]


def test_a_winner_with_only_colossal_units_keeps_nothing() -> None:
    """004 COLOSSAL UNITS: "the victor ... can only keep 1 unit, which cannot be a COLOSSAL
    unit"."""
    state = war_at([city(seat1=["cyclops", "gryphon"], seat2=["hoplite"])] + [city()] * 2,
                   profile="omega")
    assert side(state, 0, 1) == []
    # The discard pile was shuffled into the empty deck at once (001 Rules Clarifications).
    assert Counter(state.discard + state.deck_rest) == Counter(["cyclops", "gryphon"])


def test_the_loser_keeps_a_colossal_unit_alone_or_two_others() -> None:
    """004 COLOSSAL UNITS: "If the player chose to keep a COLOSSAL unit, it would be the only one
    they could keep"; 003 Step 5: "Loser discards all but 2 units"."""
    cities = [city(seat1=["hoplite"] * 5, seat2=["cyclops", "spearman", "augur"])]
    state = war_at(cities + [city()] * 2)
    assert legal(state) == ["keep 2@1:augur", "keep 2@1:cyclops", "keep 2@1:spearman"]
    kept = {
        tuple(side(play(state, choice), 0, 2)) for choice in legal(state)
    }
    assert kept == {("cyclops",), ("augur", "spearman")}


def test_enraged_units_count_two_when_keeping() -> None:
    """001 Additional Rule: Enraged, Note: "Enraged Units count as Beasts and are therefore
    counted as 2 Units"; 004 glossary: Enraged units are COLOSSAL."""
    cities = [city(seat1=["hoplite!", "augur", "hoplite"], seat2=["hoplite"])]
    state = war_at(cities + [city()] * 2)
    assert legal(state) == ["keep 1@1:augur", "keep 1@1:hoplite"]
    state = play(state, "keep 1@1:augur")
    assert side(state, 0, 1) == ["augur"]
    assert Counter(state.discard + state.deck_rest)["hoplite"] == 2  # destroyed as itself


def test_a_sphinx_is_kept_alone() -> None:
    """004 COLOSSAL UNITS, with a Sphinx (COLOSSAL) on the losing side."""
    cities = [city(rewards=["lamassu"], seat1=["riddling-sphinx", "sphinx-of-giza",
                                               "satrap-guard"],
                   seat2=["sphinx-of-giza", "immortal", "immortal"])]
    state = war_at([*cities, city(rewards=["ishtar-gate"]), city(rewards=["hanging-gardens"])],
                   profile="fires-in-the-east")
    assert side(state, 0, 1) == ["satrap-guard"]  # the winner cannot keep the Sphinx
    assert legal(state) == ["keep 2@1:immortal", "keep 2@1:sphinx-of-giza"]
    assert side(play(state, "keep 2@1:sphinx-of-giza"), 0, 2) == ["sphinx-of-giza"]
    assert side(play(state, "keep 2@1:immortal"), 0, 2) == ["immortal", "immortal"]


def test_no_winner_both_keep_two() -> None:
    """003 Step 5: "If still tied, both discard to 2 units; no Reward Card awarded"."""
    cities = [city(seat1=["hoplite", "hoplite", "augur"], seat2=["hoplite", "hoplite", "seer"])]
    state, trace = play_traced(war_at(cities + [city()] * 2), "keep 1@1:hoplite",
                               "keep 1@1:hoplite", "keep 2@1:hoplite", "keep 2@1:seer")
    assert state.cities[0].rewards == ("ambrosia", "thunderbolt")
    assert side(state, 0, 1) == ["hoplite", "hoplite"]
    assert any(step.rule == "war.torn" and "no winner" in step.text for step in trace)
    assert len(state.cities[0].sides[1]) == 2


def test_a_city_without_rewards_is_never_war_torn() -> None:
    """001 Rules Clarifications: cities with no Reward cards "can no longer be gripped by war";
    003 Step 5; 004 War Step NOTE."""
    cities = [city(rewards=[], seat1=["hoplite"] * 3, seat2=["spearman"] * 3)] + [city()] * 2
    state = make(step="surge", cities=cities)
    assert not war_torn(state, 0)
    state = war_at(cities)
    assert len(side(state, 0, 1)) == 3 and len(side(state, 0, 2)) == 3


def test_five_units_in_total_make_a_city_war_torn() -> None:
    """003 Step 5: "There are 5+ total units on both sides combined" (Beasts count 2); 001 Note:
    the opposing player need not have units."""
    cities = [city(seat1=["cyclops", "gryphon", "hoplite"])] + [city()] * 2
    state = make(step="surge", cities=cities)
    assert war_torn(state, 0)
    assert not war_torn(make(step="surge", cities=[city(seat1=["cyclops", "hoplite"])]
                             + [city()] * 2), 0)


def test_the_war_test_repeats_until_no_city_is_war_torn() -> None:
    """001 Phase 5: "Repeat these steps ... until there are no more cities gripped by war"."""
    cities = [city(seat1=["hoplite"], seat2=["hoplite"] * 3),
              city(seat1=["cyclops", "hoplite"], seat2=["spearman"] * 3), city()]
    state = play(war_at(cities), "war 2")
    assert not war_torn(state, 0) and not war_torn(state, 1)
    assert state.players[0].rewards == ("athenas-counsel",)
    assert state.players[1].rewards == ("ambrosia",)


# -- capacity ---------------------------------------------------------------------------------


def test_capacity_when_playing() -> None:
    """001 Placing Units in Cities: "A player may not play Units into a city once the City limit
    of 5 Units has already been reached"; Beasts count 2."""
    cities = [city(seat1=["hoplite"] * 4), city(seat1=["spearman"] * 3 + ["herald"] * 2), city()]
    state = make(seat1={"hand": ["cyclops", "augur"], "coins": 9}, cities=cities)
    actions = legal(state)
    assert "play augur 1" in actions and "play cyclops 1" not in actions
    assert not any(a.startswith("play") and a.endswith(" 2") for a in actions)
    assert "play cyclops 3" in actions


def test_enraging_never_exceeds_capacity() -> None:
    """001 Additional Rule: Enraged, Note: "A Unit cannot be enraged if doing so would cause the
    respective City limit to be exceeded"; 004 glossary (Enrage)."""
    cities = [city(seat2=["spearman"] * 3 + ["herald"] * 2), city(seat2=["hoplite"] * 4),
              city(seat2=["cyclops"])]
    state = make(seat1={"hand": ["harpy"], "coins": 3}, cities=cities)
    assert legal(play(state, "dirge harpy")) == ["enrage 2@2:hoplite"]
    full = [city(seat2=["spearman"] * 3 + ["herald"] * 2),
            city(seat2=["cyclops", "cyclops", "hoplite"]), city()]
    state = play(make(seat1={"hand": ["harpy"], "coins": 3}, cities=full), "dirge harpy")
    assert state.turn.step == "surge" and all(
        state.side_size(c, 1) <= CAPACITY for c in range(3))


def test_moving_never_exceeds_capacity_and_deploy_fires() -> None:
    """004 Surge Step: "A player cannot play, move, or use any ability that would add a unit to
    their side of a city that is at city capacity"; 001 Note and 004 glossary (Deploy): the
    ability resolves when the unit is moved into a city."""
    cities = [city(seat2=["spearman"]), city(seat2=["hoplite"] * 5), city()]
    state = make(seat1={"hand": ["gryphon"], "coins": 3}, cities=cities,
                 deck={"top": ["augur"]})
    state = play(state, "dirge gryphon", "move 2@1:spearman")
    assert legal(state) == ["to 3"]
    state, trace = play_traced(state, "to 3")
    assert side(state, 2, 2) == ["spearman"]
    assert state.players[1].hand == ("augur",)  # its owner resolved its DEPLOY: draw 1
    assert [s.rule for s in trace][:3] == ["unit.moves", "deploy", "effect.draw"]


def test_returning_from_the_discard_pile_triggers_deploy_and_respects_capacity() -> None:
    """004 glossary (Deploy): DEPLOY resolves when the unit is "returned to a city from the
    discard pile"; capacity (004 Surge Step)."""
    cities = [city(rewards=["lamassu"], seat1=["immortal"]),
              city(rewards=["ishtar-gate"], seat1=["chariot-archer", "chariot-archer",
                                                   "satrap-guard", "satrap-guard",
                                                   "caravan-master"]),
              city(rewards=["hanging-gardens"])]
    state = make("fires-in-the-east", seat1={"rewards_unused": ["tablet-of-destinies"]},
                 cities=cities, deck={"discard": ["immortal"]})
    state = play(state, "reward tablet-of-destinies", "return immortal")
    assert legal(state) == ["to 1", "to 3"]
    coins = state.players[0].coins
    state = play(state, "to 1")
    assert state.players[0].coins == coins + 1  # DEPLOY: 2 Warriors here, gain 1 coin


def test_a_position_over_capacity_is_rejected() -> None:
    """001 Cities: "Cities limit the number of Units on each side facing a player to 5"."""
    with pytest.raises(PositionError, match=r"city\[0\]\.seat1.*6 units"):
        make(cities=[city(seat1=["cyclops", "cyclops", "hoplite", "hoplite"])] + [city()] * 2)
