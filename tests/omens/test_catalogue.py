"""The card catalogue as data (omens-cards.md) and its validation."""

from __future__ import annotations

from importlib import resources

import pytest

from omen_solver.errors import CatalogueError
from omen_solver.omens.cards import COLOURS, EFFECTS, default_catalogue, parse_catalogue

SHIPPED = resources.files("omen_solver.omens").joinpath("data/cards.toml").read_text("utf-8")


def test_the_35_cards() -> None:
    """omens-cards.md: values 1-35; 1-8 green, 9-16 yellow, 17 all four, 18-25 red, 26-35 blue;
    30-35 are all The Absolute."""
    cards = default_catalogue()
    assert list(cards) == list(range(1, 36))
    for value, card in cards.items():
        expected = (
            {"green"}
            if value <= 8
            else {"yellow"}
            if value <= 16
            else set(COLOURS)
            if value == 17
            else {"red"}
            if value <= 25
            else {"blue"}
        )
        assert card.colours == expected, value
        assert card.french
    assert cards.absolutes == (30, 31, 32, 33, 34, 35)
    now = {v for v, c in cards.items() if c.is_now}
    assert now == {15, 21, 23, 24, 28, 29, 30, 31, 32, 33, 34, 35}


def test_colour_family_uses_few_primitives() -> None:
    """The colour effects are four primitives with parameters, not one case per card."""
    effects = {card.effect for card in default_catalogue().values()}
    assert effects <= set(EFFECTS)
    colour_cards = [c for c in default_catalogue().values() if c.effect.startswith("discard")]
    assert len(colour_cards) == 17
    assert {c.effect for c in colour_cards} == {"discard_extreme", "discard_all", "discard_self_if"}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("value = 2\n", "value = 1\n", "field 'value': 1 is already the value of Life"),
        (
            'colours = ["green"]\ntiming = "end"\neffect = "discard_self_if"',
            'colours = ["purple"]\ntiming = "end"\neffect = "discard_self_if"',
            "field 'colours'",
        ),
        ('effect = "mirror"', 'effect = "reflect"', "field 'effect': unknown effect 'reflect'"),
        ('name = "Law"\n', "", "field 'name' is missing"),
        (
            'params = { colour = "yellow", which = "highest" }',
            'params = { colour = "yellow" }',
            "field 'params.which' is missing",
        ),
        (
            'params = { colour = "yellow", which = "highest" }',
            'params = { colour = "yellow", which = "middle" }',
            "field 'params.which'",
        ),
        ('timing = "now"\neffect = "law"', 'timing = "end"\neffect = "law"', "field 'timing'"),
        ("value = 3\n", "value = 3\nweight = 2\n", "unknown field 'weight'"),
    ],
)
def test_errors_name_file_line_card_and_field(old: str, new: str, message: str) -> None:
    assert old in SHIPPED
    with pytest.raises(CatalogueError) as error:
        parse_catalogue(SHIPPED.replace(old, new, 1), "house.toml")
    text = str(error.value)
    assert text.startswith("house.toml:") and "card #" in text
    assert message in text


def test_not_toml() -> None:
    with pytest.raises(CatalogueError, match=r"house\.toml: not valid TOML"):
        parse_catalogue("[[card]\n", "house.toml")
