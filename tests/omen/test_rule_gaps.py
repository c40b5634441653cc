"""Rule gaps a user hits with hand-built positions and card files, each closed by the rulebook
line it rests on.

Rulebooks: 001 = A Reign of War, Omega edition extras; 003 = A Reign of War summary;
004 = Fires in the East.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from omen_solver.errors import CatalogueError, PositionError
from omen_solver.omen.cards import default_catalogue, load_catalogue
from omen_solver.omen.position import state_from_data
from omen_solver.omen.scoring import breakdown
from omen_solver.omen.setup import new_game
from tests.omen.helpers import make, play, play_traced

HOUSE = """
[meta]
set = "house"
origin = "printed"
"""


def _cards(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE + body, encoding="utf-8")
    return path


def _unit(kind: str, extra: str = "", cost: str = "cost = 2\n") -> str:
    return (f'[[unit]]\nid = "house-{kind.lower()}"\nname = "House {kind}"\ntype = "{kind}"\n'
            f"{cost}offering = 1\nstrength = 3\n{extra}")


# -- type keywords: derived from the type, and a card file may not contradict them -------------


def test_heroes_score_one_vp_in_hand_whatever_the_card_file_says(tmp_path: Path) -> None:
    """001 Heroes: "Hero cards in a player's hand: 1 victory point each"; 001 End of the Game:
    "each Hero card in the hand: 1 victory point". The file gives no TREASURED keyword."""
    hero = _unit("Hero", 'hero = [{ op = "draw" }]\n', cost="")
    catalogue = load_catalogue([_cards(tmp_path, hero)], base=default_catalogue())
    card = catalogue["house-hero"]
    assert card.treasured and card.cost == 0 and "TREASURED" in card.keywords()
    data = _position(profile="omega", rules={"optional_units": "on"}, sets=["house"],
                     cards=[str(tmp_path / "house.toml")],
                     seat={"1": {"hand": ["house-hero", "hoplite"]}, "2": {}})
    state = state_from_data(tmp_path / "p.toml", data)
    assert breakdown(state, 0)["treasured"] == 1


def test_heroes_cost_nothing(tmp_path: Path) -> None:
    """001 Heroes: "All Heroes cost 0 coins": a Hero card with a cost is rejected."""
    hero = _unit("Hero", 'hero = [{ op = "draw" }]\n', cost="cost = 2\n")
    with pytest.raises(CatalogueError, match=r"house\.toml: unit 'house-hero': field 'cost': "
                       r"2: all Heroes cost 0 coins \(001 Heroes\)"):
        load_catalogue([_cards(tmp_path, hero)])


def test_every_sphinx_is_colossal_and_treasured(tmp_path: Path) -> None:
    """004 Sphinxes: "Units that are COLOSSAL and have the keyword TREASURED"; 004 Keyword
    Glossary: Colossal and Treasured both list the Sphinx."""
    catalogue = load_catalogue([_cards(tmp_path, _unit("Sphinx"))])
    sphinx = catalogue["house-sphinx"]
    assert sphinx.colossal and sphinx.treasured


def test_beasts_and_merchants_have_their_keywords_by_type(tmp_path: Path) -> None:
    """004 Keyword Glossary: Colossal (Beast), Barter (Merchant); 004 Merchants: "Units with the
    keyword BARTER"."""
    catalogue = load_catalogue([_cards(tmp_path, _unit("Beast") + _unit("Merchant"))])
    assert catalogue["house-beast"].colossal and catalogue["house-merchant"].barter


@pytest.mark.parametrize(
    ("body", "field", "problem"),
    [
        (_unit("Soldier", 'keywords = ["COLOSSAL"]\n'), "keywords",
         "COLOSSAL belongs to Beast, Sphinx (004 Keyword Glossary"),
        (_unit("Beast", 'keywords = ["TREASURED"]\n'), "keywords",
         "TREASURED belongs to Sphinx, Hero"),
        (_unit("Oracle", 'keywords = ["BARTER"]\n'), "keywords", "BARTER belongs to Merchant"),
        (_unit("Soldier", 'dirge = [{ op = "draw" }]\n'), "dirge", "only a Beast has"),
        (_unit("Beast", 'deploy = [{ op = "draw" }]\n'), "deploy",
         "only a Soldier or Warrior or Spirit"),
        (_unit("Soldier", 'ritual = { test = "coins", amount = 3 }\n'), "ritual",
         "only a Priestess has"),
        (_unit("Priestess", 'ritual = { test = "coins", amount = 3 }\n'), "scorned",
         "missing: a Priestess needs it (004 Priestesses"),
        (_unit("Spirit", 'deploy = [{ op = "draw" }]\ndeploy_alt = [{ op = "draw" }]\n'),
         "invoke_cost", "missing: a Spirit needs it (001 Spirits"),
    ],
)
def test_a_card_file_contradicting_its_type_is_rejected(tmp_path: Path, body: str, field: str,
                                                        problem: str) -> None:
    """004 Keyword Glossary (the unit types of each keyword); 004 Priestesses ("Units with the
    keywords RITUAL and SCORNED"); 001 Spirits ("each card has a Summoning cost")."""
    with pytest.raises(CatalogueError) as error:
        load_catalogue([_cards(tmp_path, body)])
    message = str(error.value)
    assert "house.toml: unit 'house-" in message and f"field '{field}'" in message, message
    assert problem in message, message


# -- the coin cap and the Optional Units ---------------------------------------------------------


def test_the_coin_cap_is_a_setting_a_reign_of_war_has_none() -> None:
    """003 Step 6: Offering states no coin cap (as it states no hand limit, R3); 001 Phase 6:
    "return coins to the coin supply until he has at most 10 coins left"; 004 Offering Step:
    "until they have a maximum of 10 coins" (option coin_cap)."""
    for profile, kept in (("reign-of-war", 12), ("omega", 10), ("fires-in-the-east", 10)):
        state = make(profile, step="offering", seat1={"hand": ["hoplite"], "coins": 11})
        state = play(state, "offer hoplite", "take coin")
        assert state.players[0].coins == kept and state.active == 1, profile
    capped = make(step="offering", seat1={"hand": ["hoplite"], "coins": 11},
                  rules={"coin_cap": "10"})
    state, trace = play_traced(capped, "offer hoplite", "take coin")
    assert state.players[0].coins == 10
    assert any(step.rule == "offering.coin-cap" for step in trace)


def test_spirits_and_heroes_are_removed_unless_the_players_opt_in() -> None:
    """001 Setup: "Remove all Spirit and Hero cards from the draw pile. Shuffle the remaining 48
    Unit cards"; 001 Optional Units: Spirits and Heroes are used once the players opt in
    (option optional_units)."""
    catalogue = default_catalogue()

    def types(overrides: dict[str, str]) -> Counter[str | None]:
        state = new_game("omega", overrides)
        cards = (*state.deck_rest, *state.players[0].hand, *state.players[1].hand)
        return Counter(catalogue[c].unit_type for c in cards)

    printed, opted = types({}), types({"optional_units": "on"})
    assert printed["Spirit"] == printed["Hero"] == 0 and sum(printed.values()) == 48
    assert opted["Spirit"] > 0 and opted["Hero"] > 0
    with pytest.raises(PositionError, match=r"key 'seat\.2\.hand\[0\]': 'perseus' is a Hero: "
                       r"Spirits and Heroes are removed .*001 Setup, Optional Units"):
        state_from_data(Path("p.toml"), _position(profile="omega",
                                                  seat={"1": {}, "2": {"hand": ["perseus"]}}))
    opted_in = _position(profile="omega", rules={"optional_units": "on"},
                         seat={"1": {}, "2": {"hand": ["perseus"]}})
    state = state_from_data(Path("p.toml"), opted_in)
    assert state.players[1].hand == ("perseus",)


# -- a set's profile keeps to its sets and to the catalogue's copies -----------------------------


def _position(**data: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "omen", "profile": "reign-of-war",
        "turn": {"step": "surge", "number": 9},
        "city": [{"rewards": []}] * 3,
        "deck": {"shuffled": []}, "pool": {"rewards": []},
    }
    base.update(data)
    return base


def test_a_profile_rejects_the_cards_of_another_set() -> None:
    """003 Components: A Reign of War's "174 Unit Cards (Soldiers, Beasts, Oracles)"; 004
    Components: Fires in the East's "22 Unit cards"; 004 Combining Omen Sets: combining sets is
    a choice the players make (here the key ``sets``)."""
    data = _position(seat={"1": {"hand": ["immortal"]}, "2": {}})
    with pytest.raises(PositionError, match=r"key 'seat\.1\.hand\[0\]': 'immortal' is a card "
                       r"of the set 'fires-in-the-east'.*add 'fires-in-the-east' to the "
                       r"top-level key 'sets'"):
        state_from_data(Path("p.toml"), data)
    state = state_from_data(Path("p.toml"), {**data, "sets": ["fires-in-the-east"]})
    assert state.players[0].hand == ("immortal",)


def test_no_card_appears_more_often_than_the_catalogue_holds_it() -> None:
    """The box holds a fixed number of each card (001 Setup: "the remaining 48 Unit cards";
    the catalogue's ``copies``): fifty copies of a five-copy card do not load."""
    data = _position(seat={"1": {"hand": ["hoplite"] * 50}, "2": {}})
    with pytest.raises(PositionError, match=r"key 'seat\.1\.hand': 'hoplite' appears 6 times "
                       r"in the position .* the catalogue holds 5 copies"):
        state_from_data(Path("p.toml"), data)
    spread = _position(seat={"1": {"hand": ["cyclops"]}, "2": {}},
                       city=[{"rewards": [], "seat2": ["cyclops"]}, {"rewards": []},
                             {"rewards": []}], deck={"shuffled": [], "discard": ["cyclops"]})
    with pytest.raises(PositionError, match=r"key 'deck\.discard': 'cyclops' appears 3 times"):
        state_from_data(Path("p.toml"), spread)


# -- position defaults that describe a game in progress ------------------------------------------


def test_a_city_lists_its_rewards() -> None:
    """003 Setup: "deal them into 3 equal face-down stacks forming 3 Cities": a city without a
    ``rewards`` key is an error, never silently an empty stack."""
    data = _position(city=[{"seat1": ["hoplite"]}, {"rewards": []}, {"rewards": []}])
    with pytest.raises(PositionError, match=r"key 'city\[0\]\.rewards': missing: list the "
                       r"city's Reward stack.*rewards = \[\] for a city with no Reward left"):
        state_from_data(Path("p.toml"), data)


def test_the_turn_number_defaults_to_a_game_in_progress() -> None:
    """003 Step 1: "Receive 3 Wealth Actions (first turn of the game: only 2)": a position that
    does not say it is the first turn gets 3 actions; ``number = 1`` is the first turn."""
    deck = {"top": ["seer", "augur", "hoplite", "veteran", "herald"], "shuffled": []}
    later = state_from_data(Path("p.toml"), _position(turn={"step": "wealth"}, deck=deck))
    assert later.turn.number == 2 and not later.turn.first
    assert play(later, "wealth coin", "wealth coin").turn.step == "wealth"
    first = state_from_data(Path("p.toml"), _position(turn={"step": "wealth", "number": 1},
                                                      deck=deck))
    assert first.turn.first
    assert play(first, "wealth coin", "wealth coin").turn.step == "surge"


def test_rules_applied_on_load_are_announced() -> None:
    """004 Priestesses: "A Priestess whose RITUAL condition is met is removed from its city";
    003 Special Rules: "If the draw deck is empty, shuffle the discard pile". A position on
    which they are due is settled when read, and the trace says so first."""
    ritual = _position(profile="fires-in-the-east", turn={"step": "surge", "number": 9},
                       seat={"1": {"coins": 7}, "2": {}},
                       city=[{"rewards": ["lamassu"], "seat1": ["sun-priestess"]},
                             {"rewards": []}, {"rewards": []}])
    state = state_from_data(Path("p.toml"), ritual)
    assert state.players[0].vp_tokens == 1 and state.trace[0].rule == "position.load"
    assert "RITUAL" in state.trace[0].text and "sun-priestess" in state.trace[0].text
    reshuffle = _position(deck={"shuffled": [], "discard": ["hoplite", "seer"]})
    state = state_from_data(Path("p.toml"), reshuffle)
    assert state.deck_rest == ("hoplite", "seer") and state.trace[0].rule == "position.load"
    assert "discard pile is shuffled" in state.trace[0].text
    quiet = state_from_data(Path("p.toml"), _position())
    assert all(step.rule != "position.load" for step in quiet.trace)

