"""The symbolic model's vocabulary: card facts read from the catalogue, rule options as
parameters, and the card data checked against the card list (omens-cards.md)."""

from __future__ import annotations

import pytest
import z3

from omen_solver.core.smt import evaluate, make_context
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.proofs.model import build_model
from omen_solver.omens.proofs.symbols import (
    CHOICE_OPTIONS,
    MODEL_OPTIONS,
    PLAY_OPTIONS,
    SymbolicDeck,
    SymbolicRules,
    intervals,
)
from omen_solver.omens.rules import option_specs

G, Y, R, B = "green", "yellow", "red", "blue"
CARD_LIST = {
    # value: (colours, timing, effect, params), transcribed from omens-cards.md's table
    1: ({G}, "end", "discard_extreme", {"colour": G, "which": "highest"}),
    2: ({G}, "end", "discard_self_if", {"condition": "other_of_colour", "colour": G}),
    3: ({G}, "end", "discard_self_if", {"condition": "other_of_colour", "colour": Y}),
    4: ({G}, "end", "discard_self_if", {"condition": "other_of_colour", "colour": R}),
    5: ({G}, "end", "discard_self_if", {"condition": "other_of_colour", "colour": B}),
    6: ({G}, "end", "discard_self_if", {"condition": "lowest_in_play"}),
    7: ({G}, "end", "discard_self_if", {"condition": "no_other_of_colour", "colour": G}),
    8: ({G}, "end", "discard_extreme", {"colour": G, "which": "lowest"}),
    9: ({Y}, "end", "discard_extreme", {"colour": Y, "which": "highest"}),
    10: ({Y}, "end", "discard_self_if", {"condition": "effect_in_play", "effect": "absolute"}),
    11: ({Y}, "end", "discard_self_if", {"condition": "no_other_of_colour", "colour": Y}),
    12: ({Y}, "end", "fear", {}),
    13: ({Y}, "end", "luck", {}),
    14: ({Y}, "end", "mirror", {}),
    15: ({Y}, "now", "law", {}),
    16: ({Y}, "end", "discard_extreme", {"colour": Y, "which": "lowest"}),
    17: ({G, Y, R, B}, "end", "none", {}),
    18: ({R}, "end", "discard_extreme", {"colour": R, "which": "highest"}),
    19: ({R}, "end", "discard_self_if", {"condition": "no_other_of_colour", "colour": R}),
    20: ({R}, "end", "discard_extreme", {"colour": "any", "which": "lowest"}),
    21: ({R}, "now", "dream", {}),
    22: ({R}, "end", "pride", {}),
    23: ({R}, "now", "jealousy", {}),
    24: ({R}, "now", "secret", {}),
    25: ({R}, "end", "discard_extreme", {"colour": R, "which": "lowest"}),
    26: ({B}, "end", "sadness", {}),
    27: ({B}, "end", "discard_all", {"colour": Y}),
    28: ({B}, "now", "wrath", {}),
    29: ({B}, "now", "betrayal", {}),
    **{v: ({B}, "now", "absolute", {}) for v in range(30, 36)},
}


def test_the_catalogue_matches_the_card_list() -> None:
    """omens-cards.md, the table of the 35 cards: colours, timing and what each effect does."""
    catalogue = default_catalogue()
    assert sorted(catalogue) == sorted(CARD_LIST)
    for value, (colours, timing, effect, params) in CARD_LIST.items():
        card = catalogue[value]
        assert (set(card.colours), card.timing, card.effect, dict(card.params)) == (
            colours,
            timing,
            effect,
            params,
        ), card.label()


def test_card_facts_are_predicates_over_a_symbolic_value() -> None:
    ctx = make_context()
    deck = SymbolicDeck(default_catalogue(), ctx)
    v = z3.Int("v", ctx)
    terms = [deck.colour(v, G), deck.colour(v, Y), deck.effect(v, "fear"), deck.in_deck(v)]
    for value, (colours, _, effect, _) in CARD_LIST.items():
        got = evaluate(terms, [(v, z3.IntVal(value, ctx))], ctx)
        assert got == [G in colours, Y in colours, effect == "fear", True], value
    assert evaluate([deck.in_deck(v)], [(v, z3.IntVal(36, ctx))], ctx) == [False]
    assert intervals([17, 1, 2, 3, 8, 4, 5, 6, 7]) == [(1, 8), (17, 17)]


def test_every_option_is_accounted_for() -> None:
    """Each rule option is read by the model, left open as a symbolic choice, or acts while
    cards are placed (checked by enumeration and by the option witnesses)."""
    names = [spec.name for spec in option_specs()]
    groups = [*MODEL_OPTIONS, *CHOICE_OPTIONS, *PLAY_OPTIONS]
    assert sorted(groups) == sorted(names)
    model = build_model(hands=True)
    assert model.rules.used == set(MODEL_OPTIONS)


def test_referring_to_an_unknown_option_fails_at_definition() -> None:
    rules = SymbolicRules(make_context())
    with pytest.raises(KeyError, match="unknown rule option 'no_such'"):
        rules.is_("no_such", "x")
    with pytest.raises(KeyError, match="setting 'maybe' of rule option 'fear_pass_on'"):
        rules.is_("fear_pass_on", "maybe")
