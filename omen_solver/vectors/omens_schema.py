"""The Omens part of the published files' JSON Schemas (``schemas``, docs/vectors.md): the
``$defs`` its vectors and perft cases refer to (``omensOptions``, ``omensPosition``,
``omensState``, ``omensHoldsUnder`` and what they use) and the suite of its vector files."""

from __future__ import annotations

from typing import Any, Final

from omen_solver.omens.rules import PRESETS, OmensRules
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS
from omen_solver.vectors.schema_parts import (
    COUNT,
    NAME,
    holds_under,
    overrides,
    rule_choice,
    settings,
    strict,
)

__all__ = ["CARDS", "omens_defs", "suite_schema"]

CARDS: Final = {"$ref": "#/$defs/omensCards"}
"""A vector's ``cards``: the card values it plays."""


def suite_schema() -> dict[str, Any]:
    """The ``suite`` of an Omens vector file (and its coverage report)."""
    return strict(
        ["name", "preset", "overrides", "settings"],
        {
            "name": NAME,
            "preset": {"enum": list(PRESETS)},
            "overrides": overrides(OmensRules),
            "settings": settings(OmensRules),
        },
        description="The Omens suite a file belongs to: the rule settings it was mined under.",
    )


def omens_defs() -> dict[str, Any]:
    """The ``$defs`` of the Omens vectors and perft cases."""
    seat = {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS}
    card = {"type": "integer", "minimum": 1, "maximum": 35}
    cards = {"type": "array", "items": card, "uniqueItems": True}
    seats = {"type": "array", "items": seat, "uniqueItems": True}
    return {
        "omensSeat": seat,
        "omensCards": cards,
        "omensHands": {
            "type": "object",
            "patternProperties": {f"^[1-{MAX_PLAYERS}]$": cards},
            "additionalProperties": False,
        },
        "omensHoldsUnder": holds_under(OmensRules, list(PRESETS)),
        "omensOptions": rule_choice(OmensRules, "preset", PRESETS),
        "omensPosition": {"oneOf": [{"$ref": "#/$defs/omensBout"},
                                    {"$ref": "#/$defs/omensNewGame"}]},
        "omensNewGame": strict(
            ["players", "phase", "scope"],
            {
                "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
                "phase": {"const": "new-game"},
                "scope": {"enum": ["round", "game"]},
            },
            description="The first deal of a game: the Absolutes, then the hands, are dealt "
            "by chance steps; teams and the first leader follow from the Absolutes.",
        ),
        "omensBout": strict(
            ["players", "teams", "hands", "leader", "scope", "rounds_won", "box"],
            {
                "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
                "teams": {"type": "array", "items": seats, "minItems": 2, "maxItems": 3},
                "hands": {"$ref": "#/$defs/omensHands"},
                "leader": seat,
                "scope": {"enum": ["bout", "round", "game"]},
                "rounds_won": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                "box": cards,
            },
        ),
        "omensState": strict(
            [
                "bout_winner",
                "discarded",
                "hands",
                "next_leader",
                "round_winner",
                "round_winner_team",
                "rounds_won",
                "over",
                "winner_team",
            ],
            {
                "bout_winner": {"oneOf": [seat, {"type": "null"}]},
                "discarded": cards,
                "hands": {"$ref": "#/$defs/omensHands"},
                "next_leader": seat,
                "round_winner": {"oneOf": [seat, {"type": "null"}]},
                "round_winner_team": {"oneOf": [seats, {"type": "null"}]},
                "rounds_won": {"type": "array", "items": COUNT},
                "over": {"type": "boolean"},
                "winner_team": {"oneOf": [seats, {"type": "null"}]},
            },
        ),
    }
