"""The effect-language primitives that public descriptions of Omen cards mention, each played
with its demonstration card (``omen_solver/omen/data/demo-effects.toml``, set ``effects-demo``).

No printed card with these abilities is known (``omen-public-cards.md``: "look at the opponent's
hand, ... return a unit to hand, ... passive strength modifiers, cost reduction, triggers 'at
war'" are plausible but unattested); what the rulebooks fix is how units enter and leave play:
001 Placing Units in Cities, Note ("Effects always take effect when entering a city, even if
the Unit has been moved"), 004 Keyword Glossary (Deploy, Enrage), 003 Step 5 (Strength).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from omen_solver.errors import CatalogueError
from omen_solver.omen.modifiers import play_cost, side_strength, unit_strength
from omen_solver.omen.war import war_winner
from tests.omen.helpers import city, legal, make, play, play_traced


def test_reveal_a_hand() -> None:
    """Town Crier: "DEPLOY: Your opponent reveals their hand" (a hand is open to the solver;
    the trace shows it to the players)."""
    state = make(seat1={"hand": ["town-crier"], "coins": 1}, seat2={"hand": ["seer", "augur"]})
    _, trace = play_traced(state, "play town-crier 1")
    shown = [step.text for step in trace if step.rule == "effect.reveal_hand"]
    assert shown == ["town-crier: seat 2 reveals augur, seer"]


def test_return_a_unit_to_its_owners_hand() -> None:
    """Siren: "DEPLOY: Return an opposing unit with Strength 2 or less in this city to its
    owner's hand": the unit is neither destroyed nor discarded."""
    state = make(seat1={"hand": ["siren"], "coins": 3},
                 cities=[city(seat2=["augur", "veteran"]), city(), city()])
    state = play(state, "play siren 1")
    assert legal(state) == ["recall 2@1:augur"]  # the Veteran has Strength 4
    state, trace = play_traced(state, "recall 2@1:augur")
    assert state.players[1].hand == ("augur",) and state.discard == ()
    assert [u.card for u in state.cities[0].sides[1]] == ["veteran"]
    assert "effect.return_to_hand" in {step.rule for step in trace}


def test_swap_two_units_and_their_deploy_abilities_resolve() -> None:
    """Trickster: "DEPLOY: You may have two of your units in different cities exchange
    cities"; both are moved into a city, so their DEPLOY abilities resolve (001 Note)."""
    state = make(seat1={"hand": ["trickster"], "coins": 2},
                 cities=[city(seat1=["spearman"]), city(seat1=["hoplite"]), city()],
                 deck={"top": ["seer"]})
    state = play(state, "play trickster 3", "yes")
    assert "swap 1@1:spearman" in legal(state)
    state = play(state, "swap 1@1:spearman")
    assert legal(state) == ["with 1@2:hoplite", "with 1@3:trickster"]
    state, trace = play_traced(state, "with 1@2:hoplite")
    assert [u.card for u in state.cities[0].sides[0]] == ["hoplite"]
    assert [u.card for u in state.cities[1].sides[0]] == ["spearman"]
    assert state.players[0].hand == ("seer",)  # the Spearman's DEPLOY: draw 1
    assert [s.rule for s in trace][:2] == ["effect.swap", "unit.moves"]


def test_a_swap_respects_city_capacity() -> None:
    """004 Surge Step: no ability may add a unit to a side at capacity (a Beast counts 2)."""
    full = ["hoplite", "hoplite", "spearman", "spearman", "spearman"]
    state = make(seat1={"hand": ["trickster"], "coins": 2},
                 cities=[city(seat1=["cyclops"]), city(seat1=full), city()])
    state = play(state, "play trickster 1", "yes")
    # The Cyclops (2 units) would overfill city 2 (5 units, one leaving).
    assert legal(state) == ["swap 1@1:trickster", "swap 1@2:hoplite", "swap 1@2:spearman"]
    assert legal(play(state, "swap 1@2:hoplite")) == ["with 1@1:trickster"]


def test_an_effect_that_scales_with_a_count() -> None:
    """Oracle of Plenty: "PORTENT: Gain 1 coin for each Oracle you have in the cities"."""
    state = make(step="portent", seat1={"coins": 0},
                 cities=[city(seat1=["oracle-of-plenty"]), city(seat1=["augur"]), city()])
    state, trace = play_traced(state, "activate 1@1:oracle-of-plenty")
    assert state.players[0].coins == 2 + 1  # 2 Oracles, then the Augur's own coin
    assert any(s.rule == "effect.per" and "1 x 2" in s.text for s in trace)


def test_a_cost_change_for_the_rest_of_the_turn() -> None:
    """Quartermaster: "DEPLOY: Units you play this turn cost 1 less" (never below 0)."""
    state = make(seat1={"hand": ["quartermaster", "hoplite", "veteran"], "coins": 5})
    state = play(state, "play quartermaster 1")
    assert state.players[0].coins == 3
    assert play_cost(state, 0, "hoplite", 0) == 0 and play_cost(state, 0, "veteran", 0) == 3
    state = play(state, "play veteran 2", "play hoplite 2")
    assert state.players[0].coins == 0
    after = play(state, "done")  # the turn ends: the change ends with it
    assert after.active == 1 and after.turn.cost_change == (0, 0)


def test_a_passive_strength_modifier_wins_a_war() -> None:
    """Standard Bearer: "While in play: your other units in this city have +1 Strength" (003
    Step 5: "Compare total Strength")."""
    cities = [city(seat1=["standard-bearer", "hoplite", "hoplite"], seat2=["veteran", "hoplite"]),
              city(), city()]
    state = make(step="surge", cities=cities)
    assert [unit_strength(state, 0, 0, u) for u in state.cities[0].sides[0]] == [3, 3, 1]
    assert side_strength(state, 0, 0) == 7 and war_winner(state, 0)[0] == 0
    enraged = make(step="surge", cities=[city(seat1=["standard-bearer!", "hoplite", "hoplite"],
                                              seat2=["veteran", "hoplite"]), city(), city()])
    assert side_strength(enraged, 0, 0) == 4 + 2 + 2  # an Enraged unit has no abilities


def test_a_passive_cost_modifier() -> None:
    """Gatekeeper: "While in play: opposing units played into this city cost 1 more"."""
    state = make(seat1={"hand": ["hoplite"], "coins": 1},
                 cities=[city(seat2=["gatekeeper"]), city(), city()])
    actions = legal(state)
    assert "play hoplite 1" not in actions and "play hoplite 2" in actions
    state = make(seat1={"hand": ["hoplite"], "coins": 2},
                 cities=[city(seat2=["gatekeeper"]), city(), city()])
    state, trace = play_traced(state, "play hoplite 1")
    assert state.players[0].coins == 0
    assert any("cost 1 changed to 2" in s.text for s in trace)


def test_an_ability_that_triggers_at_war() -> None:
    """War Drummer: "AT WAR: When this city goes to war, destroy an opposing unit with Strength
    1 or less in it", before Strength is compared (003 Step 5)."""
    cities = [city(seat1=["hoplite", "hoplite", "augur"], seat2=["war-drummer", "veteran"]),
              city(), city()]
    state = make(step="surge", cities=cities)
    assert war_winner(state, 0)[0] is None  # 5 against 5, and 2 Soldiers each: no winner
    state = play(state, "done")
    assert legal(state) == ["destroy 1@1:augur"]  # seat 2's War Drummer, in seat 1's war step
    state, trace = play_traced(state, "destroy 1@1:augur")
    rules = [s.rule for s in trace]
    assert rules.index("destroy.ability") < rules.index("war.torn")
    torn = next(s.text for s in trace if s.rule == "war.torn")
    assert "Strength 4 (seat 1) against 5 (seat 2)" in torn
    assert state.players[1].rewards == ("ambrosia",)
    _, before = play_traced(make(step="surge", cities=cities), "done")
    assert [s.rule for s in before][-1] == "war.trigger"


@pytest.mark.parametrize(
    ("ability", "field", "problem"),
    [
        ('deploy = [{ op = "destroy", per = { count = "units" } }]', "deploy[0].per",
         "'destroy' does not scale with a count"),
        ('deploy = [{ op = "draw", per = { count = "dragons" } }]', "deploy[0].per.count",
         "must be one of units"),
        ('deploy = [{ op = "cost_change", amount = 0 }]', "deploy[0].amount", "must not be 0"),
        ('passive = [{ op = "armour", amount = 1 }]', "passive[0].op", "unknown modifier"),
        ('passive = [{ op = "cost", amount = 1, others = true }]', "passive[0].others",
         "only for 'strength'"),
        ('deploy = [{ op = "reveal_hand", side = "any" }]', "deploy[0].side", "own or opponent"),
    ],
)
def test_bad_new_primitives_name_the_field(tmp_path: Path, ability: str, field: str,
                                           problem: str) -> None:
    from omen_solver.omen.cards import load_catalogue

    path = tmp_path / "cards.toml"
    path.write_text('[[unit]]\nid = "x"\nname = "X"\ntype = "Soldier"\nset = "s"\n'
                    f'origin = "invented"\ncost = 1\noffering = 1\nstrength = 1\n{ability}\n')
    with pytest.raises(CatalogueError) as error:
        load_catalogue([path])
    message = str(error.value)
    assert f"unit 'x': field '{field}'" in message and problem in message, message
