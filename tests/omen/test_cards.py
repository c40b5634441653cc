"""The card catalogue: the shipped data and the validating loader (errors by file, card, field).

The README of the rulebooks: "no public list of its individual unit, Reward or Feat cards could
be found: only the cards named in these files are known ... every card marked printed or
invented". Names: 004 Surge Step (Bazaar Elder, Marduk's Decree).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from omen_solver.errors import CatalogueError
from omen_solver.omen.cards import (
    CONDITION_TESTS,
    EFFECT_OPS,
    UNIT_TYPES,
    default_catalogue,
    load_catalogue,
)

CATALOGUE = default_catalogue()


def test_the_printed_cards_are_the_named_ones() -> None:
    """Only Bazaar Elder and Marduk's Decree are named (004), plus the four Feat conditions the
    README names."""
    printed = sorted(c.id for c in CATALOGUE.cards.values() if c.origin == "printed")
    assert printed == ["bazaar-elder", "beast-in-every-city", "marduks-decree",
                       "oracle-in-every-city", "soldier-in-every-city", "three-discards"]
    elder = CATALOGUE["bazaar-elder"]
    assert (elder.unit_type, elder.cost, elder.offering, elder.barter) == ("Merchant", 3, 3, True)


def test_invented_cards_say_so() -> None:
    for card in CATALOGUE.cards.values():
        if card.origin == "invented" and card.kind in ("unit", "reward", "challenge", "relic"):
            assert "(demo)" in card.name, card.id
        assert card.origin in ("printed", "invented")


def test_set_sizes() -> None:
    """001 Setup: 48 Unit cards, 12 Rewards (6 different); 003: 6 Feats per player; 004
    Components: 22 Unit cards, 6 Reward tiles; 001 expansions: 6 Challenges, 6 Relics."""
    def count(kind: str, sets: tuple[str, ...]) -> int:
        return sum(c.copies for c in CATALOGUE.of_kind(kind, sets))

    assert count("unit", ("reign-of-war",)) == 48
    assert count("reward", ("reign-of-war",)) == 12
    assert len(CATALOGUE.of_kind("reward", ("reign-of-war",))) == 6
    assert count("feat", ("reign-of-war",)) == 6
    assert count("unit", ("fires-in-the-east",)) == 22
    assert count("reward", ("fires-in-the-east",)) == 6
    assert count("challenge", ("omega",)) == 6 and count("relic", ("omega",)) == 6


def test_every_type_keyword_and_primitive_is_used() -> None:
    units = CATALOGUE.of_kind("unit")
    assert {c.unit_type for c in units} == set(UNIT_TYPES)
    words = Counter(word for c in units for word in c.keywords())
    assert set(words) == {"BARTER", "COLOSSAL", "DEPLOY", "DIRGE", "INVOKE", "RITUAL",
                          "SCORNED", "TREASURED"}
    ops = {step.op for c in CATALOGUE.cards.values()
           for effect in (c.deploy, c.deploy_alt, c.dirge, c.portent, c.end_of_surge,
                          c.scorned, c.hero, c.effect) for step in effect}
    assert ops == set(EFFECT_OPS)
    tests = {cond.test for c in CATALOGUE.cards.values()
             for cond in (*c.condition, *c.ritual,
                          *(cd for e in (c.deploy, c.portent) for s in e for cd in s.condition))}
    assert {"every_city", "opponent_discarded", "units_in_a_city", "coins"} <= tests
    assert tests <= set(CONDITION_TESTS)


GOOD_UNIT = """
[[unit]]
id = "house-guard"
name = "House Guard"
type = "Soldier"
set = "house"
origin = "invented"
cost = 2
offering = 1
strength = 3
deploy = [{ op = "draw", amount = 1 }]
"""


def write(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_user_file_adds_cards(tmp_path: Path) -> None:
    catalogue = load_catalogue([write(tmp_path, GOOD_UNIT)], base=CATALOGUE)
    assert catalogue["house-guard"].deploy[0].op == "draw"
    assert catalogue.digest != CATALOGUE.digest


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('type = "Soldier"', r"unit 'house-guard': field 'type': must be one of"),
        ("cost = 2", r"unit 'house-guard': field 'cost': missing"),
        ('op = "draw"', r"field 'deploy\[0\]\.op': unknown effect 'teleport'"),
        ("amount = 1 }", r"field 'deploy\[0\]\.amount': must be a whole number >= 1"),
        ('origin = "invented"', r"field 'origin': must be 'printed' or 'invented'"),
        ('id = "house-guard"', r"field 'id': 'House Guard!'"),
        ("strength = 3", r"unit 'house-guard': field 'colour': unknown field for a unit"),
    ],
)
def test_errors_name_the_file_the_card_and_the_field(tmp_path: Path, change: str,
                                                     message: str) -> None:
    broken = {
        'type = "Soldier"': 'type = "Wizard"',
        "cost = 2": "",
        'op = "draw"': 'op = "teleport"',
        "amount = 1 }": "amount = 0 }",
        'origin = "invented"': 'origin = "maybe"',
        'id = "house-guard"': 'id = "House Guard!"',
        "strength = 3": "strength = 3\ncolour = 2",
    }[change]
    path = write(tmp_path, GOOD_UNIT.replace(change, broken))
    with pytest.raises(CatalogueError, match=message) as error:
        load_catalogue([path])
    assert str(error.value).startswith(str(path))


def test_here_needs_a_city(tmp_path: Path) -> None:
    """A Beast's DIRGE happens from hand: it has no city for 'here'."""
    text = GOOD_UNIT.replace('type = "Soldier"', 'type = "Beast"').replace(
        'deploy = [{ op = "draw", amount = 1 }]',
        'dirge = [{ op = "destroy", where = "here" }]')
    with pytest.raises(CatalogueError, match=r"field 'dirge\[0\]\.where': 'here' needs a city"):
        load_catalogue([write(tmp_path, text)])


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    first, second = write(tmp_path, GOOD_UNIT, "a.toml"), write(tmp_path, GOOD_UNIT, "b.toml")
    with pytest.raises(CatalogueError, match=r"b\.toml: unit 'house-guard'.*already defined in"):
        load_catalogue([first, second])


def test_not_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="not valid TOML"):
        load_catalogue([write(tmp_path, "[[unit]\n")])
    with pytest.raises(CatalogueError, match="no such file"):
        load_catalogue([tmp_path / "nothing.toml"])


def test_unknown_table(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="unknown table 'units'"):
        load_catalogue([write(tmp_path, GOOD_UNIT.replace("[[unit]]", "[[units]]"))])


def test_spirits_need_two_abilities_and_heroes_one(tmp_path: Path) -> None:
    spirit = GOOD_UNIT.replace('type = "Soldier"', 'type = "Spirit"\ninvoke_cost = 4')
    with pytest.raises(CatalogueError, match="field 'invoke_cost': INVOKE resolves both"):
        load_catalogue([write(tmp_path, spirit)])
    hero = GOOD_UNIT.replace('type = "Soldier"', 'type = "Hero"')
    with pytest.raises(CatalogueError, match="field 'hero': a Hero needs"):
        load_catalogue([write(tmp_path, hero)])
