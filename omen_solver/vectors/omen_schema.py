"""The Omen part of the published files' JSON Schemas (``schemas``, docs/vectors.md): the
``$defs`` its vectors and perft cases refer to (``omenOptions``, ``omenPosition``,
``omenState``, ``omenHoldsUnder``)."""

from __future__ import annotations

from typing import Any

from omen_solver.omen.rules import PROFILES, OmenRules
from omen_solver.vectors.schema_parts import (
    COUNT,
    STRINGS,
    holds_under,
    rule_choice,
    strict,
)

__all__ = ["omen_defs"]


def omen_defs() -> dict[str, Any]:
    """The ``$defs`` of the Omen vectors and perft cases."""
    seat_map = {
        "type": "object",
        "required": ["1", "2"],
        "properties": {"1": {}, "2": {}},
        "additionalProperties": False,
    }

    def per_seat(value: dict[str, Any]) -> dict[str, Any]:
        return {**seat_map, "properties": {"1": value, "2": value}}

    rewards = strict(["in_hand", "unused", "used"], {k: STRINGS for k in ("in_hand", "unused",
                                                                          "used")})
    city = strict(
        ["rewards", "seat1", "seat2", "relic"],
        {
            "rewards": STRINGS,
            "seat1": STRINGS,
            "seat2": STRINGS,
            "relic": {"type": ["string", "null"]},
        },
    )
    return {
        "omenHoldsUnder": holds_under(OmenRules, list(PROFILES)),
        "omenOptions": rule_choice(OmenRules, "profile", PROFILES),
        "omenPosition": {
            "description": "An Omen position file (docs/omen.md) as JSON, every zone listed "
            "(no 'rest' defaults): the shuffled deck, the Reward, Relic and Challenge pools, "
            "the Feats, the supply and the VP tokens.",
            "type": "object",
            "required": ["game", "profile", "turn", "seat", "city", "deck", "pool"],
            "properties": {
                "game": {"const": "omen"},
                "profile": {"enum": list(PROFILES)},
                "sets": {"description": "card sets beyond the profile's, or every set",
                         "oneOf": [{"const": "all"}, STRINGS]},
                "rules": {"type": "object"},
                "turn": {"type": "object"},
                "seat": {"type": "object"},
                "city": {"type": "array", "minItems": 3, "maxItems": 3},
                "deck": {"type": "object"},
                "pool": {"type": "object"},
            },
            "additionalProperties": False,
        },
        "omenState": strict(
            [
                "turn",
                "active",
                "step",
                "coins",
                "supply",
                "hands",
                "rewards",
                "feats",
                "cities",
                "scores",
                "over",
                "winner",
                "shared_victory",
            ],
            {
                "turn": {"type": "integer", "minimum": 1},
                "active": {"enum": [1, 2]},
                "step": {"type": "string"},
                "coins": per_seat(COUNT),
                "supply": COUNT,
                "hands": per_seat(STRINGS),
                "rewards": per_seat(rewards),
                "feats": per_seat(STRINGS),
                "cities": {"type": "array", "items": city, "minItems": 3, "maxItems": 3},
                "scores": per_seat(COUNT),
                "over": {"type": "boolean"},
                "winner": {"enum": [1, 2, None]},
                "shared_victory": {"type": "boolean"},
            },
        ),
    }
