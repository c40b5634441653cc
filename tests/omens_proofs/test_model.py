"""The whole-bout model's vocabulary: card facts as masks read from the catalogue (checked
against the card list, omens-cards.md), rule options as z3 booleans, every option read."""

from __future__ import annotations

import pytest

from omen_solver.core.smt import make_context
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.proofs.model.deck import Deck, cards_of
from omen_solver.omens.proofs.model.ops import Symbolic
from omen_solver.omens.proofs.model.runs import UNMODELLED_OPTIONS
from omen_solver.omens.proofs.model.symbolic import SymbolicOptions, build_steps
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


def test_card_facts_are_the_masks_of_the_card_list() -> None:
    """Each colour, effect and 'immediate' mask of the model holds exactly the cards the card
    list gives it (Malice, 17, in every colour: omens-cards.md)."""
    deck = Deck(default_catalogue())
    for colour in (G, Y, R, B):
        assert cards_of(deck.colour(colour)) == [v for v, c in CARD_LIST.items() if colour in c[0]]
    for effect in ("fear", "luck", "dream", "absolute", "discard_extreme"):
        assert cards_of(deck.effect(effect)) == [v for v, c in CARD_LIST.items() if c[2] == effect]
    assert cards_of(deck.now) == [v for v, c in CARD_LIST.items() if c[1] == "now"]
    assert [cards_of(e.card)[0] for e in deck.end_effects] == [
        v
        for v, c in CARD_LIST.items()
        if c[2] in ("discard_extreme", "discard_all", "discard_self_if")
    ]


def test_every_option_is_read_by_the_model_or_said_why_not() -> None:
    """Every rule option (docs/omens-options.md) is a z3 boolean the bout reads, or is listed
    with what it decides that the model does not compare (who acts, the next deal)."""
    names = {spec.name for spec in option_specs()}
    m = build_steps(2, end=True)
    assert m.options.used | set(UNMODELLED_OPTIONS) == names
    assert not m.options.used & set(UNMODELLED_OPTIONS)


def test_referring_to_an_unknown_option_fails_at_definition() -> None:
    options = SymbolicOptions(Symbolic(make_context()))
    with pytest.raises(KeyError, match="unknown rule option 'no_such'"):
        options.is_("no_such", "x")
    with pytest.raises(KeyError, match="setting 'maybe' of rule option 'fear_pass_on'"):
        options.is_("fear_pass_on", "maybe")
