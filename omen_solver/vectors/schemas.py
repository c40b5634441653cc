"""The JSON Schemas (draft 2020-12) of the published files.

Built here from the library's own declarations (the rule options and their settings, the card
values, the player counts), so a schema cannot drift from the engine; ``omen-solver vectors
export`` writes them to ``schema/`` beside the vectors, and the test suite checks that the
shipped copies are current and that every shipped file validates (``docs/vectors.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from omen_solver.core.options import describe
from omen_solver.omen.rules import PROFILES, OmenRules
from omen_solver.omens.rules import PRESETS, OmensRules
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["BASE_URI", "SCHEMA_FILES", "build_schema"]

BASE_URI: Final = "https://omen-solver.invalid/schema/"
"""The base of every schema's ``$id`` (a name, not a place to download from)."""

SCHEMA_FILES: Final = (
    "vectors.schema.json",
    "perft.schema.json",
    "coverage.schema.json",
    "reference.schema.json",
)

_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
_NAME: Final = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.:+>-]*$"}
_TEXT: Final = {"type": "string", "minLength": 1}
_COUNT: Final = {"type": "integer", "minimum": 0}
_STRINGS: Final = {"type": "array", "items": {"type": "string"}}


def _strict(required: Sequence[str], properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": list(required),
        "properties": properties,
        "additionalProperties": False,
        **more,
    }


def _settings(cls: type[OmensRules] | type[OmenRules]) -> dict[str, Any]:
    """Every option of a game with the enum of its settings (all required)."""
    specs = describe(cls)
    return _strict(
        [spec.name for spec in specs],
        {spec.name: {"enum": list(spec.settings)} for spec in specs},
    )


def _overrides(cls: type[OmensRules] | type[OmenRules]) -> dict[str, Any]:
    specs = describe(cls)
    return _strict([], {spec.name: {"enum": list(spec.settings)} for spec in specs})


def _holds_under(cls: type[OmensRules] | type[OmenRules], presets: Sequence[str]
                 ) -> dict[str, Any]:
    """Where a vector's expectations hold (docs/vectors.md, "Which vectors an engine
    plays")."""
    specs = describe(cls)
    return _strict(
        ["presets", "settings"],
        {
            "presets": {"type": "array", "items": {"enum": list(presets)}, "uniqueItems": True},
            "settings": _strict([], {
                spec.name: {"type": "array", "items": {"enum": list(spec.settings)},
                            "minItems": 1, "uniqueItems": True}
                for spec in specs
            }),
        },
        description="The expectations hold under the full settings of each preset (Omen: "
        "profile) listed, and under every combination of settings in which each option listed "
        "takes one of its listed settings (the options not listed: any setting).",
    )


def _suite() -> dict[str, Any]:
    return _strict(
        ["name", "preset", "overrides", "settings"],
        {
            "name": _NAME,
            "preset": {"enum": list(PRESETS)},
            "overrides": _overrides(OmensRules),
            "settings": _settings(OmensRules),
        },
        description="The Omens suite a file belongs to: the rule settings it was mined under.",
    )


def _omens_defs() -> dict[str, Any]:
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
        "omensHoldsUnder": _holds_under(OmensRules, list(PRESETS)),
        "omensOptions": _strict(
            ["preset", "overrides", "settings"],
            {
                "preset": {"enum": list(PRESETS)},
                "overrides": _overrides(OmensRules),
                "settings": _settings(OmensRules),
            },
        ),
        "omensPosition": {"oneOf": [{"$ref": "#/$defs/omensBout"},
                                    {"$ref": "#/$defs/omensNewGame"}]},
        "omensNewGame": _strict(
            ["players", "phase", "scope"],
            {
                "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
                "phase": {"const": "new-game"},
                "scope": {"enum": ["round", "game"]},
            },
            description="The first deal of a game: the Absolutes, then the hands, are dealt "
            "by chance steps; teams and the first leader follow from the Absolutes.",
        ),
        "omensBout": _strict(
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
        "omensState": _strict(
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
                "rounds_won": {"type": "array", "items": _COUNT},
                "over": {"type": "boolean"},
                "winner_team": {"oneOf": [seats, {"type": "null"}]},
            },
        ),
    }


def _omen_defs() -> dict[str, Any]:
    seat_map = {
        "type": "object",
        "required": ["1", "2"],
        "properties": {"1": {}, "2": {}},
        "additionalProperties": False,
    }

    def per_seat(value: dict[str, Any]) -> dict[str, Any]:
        return {**seat_map, "properties": {"1": value, "2": value}}

    rewards = _strict(["in_hand", "unused", "used"], {k: _STRINGS for k in ("in_hand", "unused",
                                                                          "used")})
    city = _strict(
        ["rewards", "seat1", "seat2", "relic"],
        {
            "rewards": _STRINGS,
            "seat1": _STRINGS,
            "seat2": _STRINGS,
            "relic": {"type": ["string", "null"]},
        },
    )
    return {
        "omenHoldsUnder": _holds_under(OmenRules, list(PROFILES)),
        "omenOptions": _strict(
            ["profile", "overrides", "settings"],
            {
                "profile": {"enum": list(PROFILES)},
                "overrides": _overrides(OmenRules),
                "settings": _settings(OmenRules),
            },
        ),
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
                         "oneOf": [{"const": "all"}, _STRINGS]},
                "rules": {"type": "object"},
                "turn": {"type": "object"},
                "seat": {"type": "object"},
                "city": {"type": "array", "minItems": 3, "maxItems": 3},
                "deck": {"type": "object"},
                "pool": {"type": "object"},
            },
            "additionalProperties": False,
        },
        "omenState": _strict(
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
                "coins": per_seat(_COUNT),
                "supply": _COUNT,
                "hands": per_seat(_STRINGS),
                "rewards": per_seat(rewards),
                "feats": per_seat(_STRINGS),
                "cities": {"type": "array", "items": city, "minItems": 3, "maxItems": 3},
                "scores": per_seat(_COUNT),
                "over": {"type": "boolean"},
                "winner": {"enum": [1, 2, None]},
                "shared_victory": {"type": "boolean"},
            },
        ),
    }


def _vector(game: str) -> dict[str, Any]:
    prefix = "omens" if game == "omens" else "omen"
    card = {"$ref": "#/$defs/omensCards"} if game == "omens" else _STRINGS
    to_act = {
        "description": "who acts: a seat, 'chance', the seats of a simultaneous decision, or "
        "null once play is over",
        "oneOf": [
            {"type": "integer", "minimum": 1},
            {"const": "chance"},
            {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2},
            {"type": "null"},
        ],
    }
    step = _strict(
        ["action", "to_act", "legal"],
        {
            "action": _TEXT,
            "to_act": to_act,
            "legal": _STRINGS,
            "state": {"$ref": f"#/$defs/{prefix}State"},
        },
    )
    return _strict(
        ["id", "game", "why", "source", "rules", "cards", "options", "position", "start",
         "steps"],
        {
            "id": _NAME,
            "game": {"const": game},
            "why": _TEXT,
            "source": _TEXT,
            "rules": {"type": "array", "items": _NAME, "uniqueItems": True},
            "cards": card,
            "covers": {"type": "array", "items": _TEXT, "uniqueItems": True},
            "options": {"$ref": f"#/$defs/{prefix}Options"},
            "holds_under": {"$ref": f"#/$defs/{prefix}HoldsUnder"},
            "position": {"$ref": f"#/$defs/{prefix}Position"},
            "start": _strict(
                ["to_act", "legal"] + ([] if game == "omens" else ["state"]),
                {"to_act": to_act, "legal": _STRINGS, "state": {"$ref": f"#/$defs/{prefix}State"}},
            ),
            "steps": {"type": "array", "items": step},
        },
    )


def _header(kind: str, title: str, description: str) -> dict[str, Any]:
    return {
        "$schema": _DIALECT,
        "$id": f"{BASE_URI}{kind}.schema.json",
        "title": title,
        "description": description,
    }


def _by_game(key: str, omens: dict[str, Any], omen: dict[str, Any]) -> dict[str, Any]:
    return {
        "if": {"properties": {"game": {"const": "omens"}}},
        "then": {"properties": {key: {"items": omens}}},
        "else": {"properties": {key: {"items": omen}}},
    }


def _file(kind: str, name: str, items: str, **item: Any) -> dict[str, Any]:
    """The top level of a published file: its format, version, game, name, description, the
    suite it belongs to (Omens vector files) and the list of its items (vectors, cases)."""
    properties: dict[str, Any] = {
        "format": {"const": f"omen-solver-{kind}"},
        "version": {"const": 1},
        "game": {"enum": ["omens", "omen"]},
        name: _NAME,
        "description": _TEXT,
    }
    if kind == "vectors":
        properties["suite"] = _suite()
    properties[items] = {"type": "array", **item}
    return _strict(["format", "version", "game", name, "description", items], properties)


def _vectors_schema() -> dict[str, Any]:
    return {
        **_header(
            "vectors",
            "omen-solver conformance vectors",
            "One set of vectors: positions, action sequences and what the rules require after "
            "every step (docs/vectors.md).",
        ),
        **_file("vectors", "set", "vectors"),
        **_by_game("vectors", {"$ref": "#/$defs/omensVector"}, {"$ref": "#/$defs/omenVector"}),
        "$defs": {
            **_omens_defs(),
            **_omen_defs(),
            "omensVector": _vector("omens"),
            "omenVector": _vector("omen"),
        },
    }


def _perft_schema() -> dict[str, Any]:
    keys = ("sequences", "at_depth", "ended", "nodes")
    counts = _strict(["depth", *keys], {"depth": _COUNT, **{key: _COUNT for key in keys}})
    divide = _strict(
        ["depth", "counts"],
        {"depth": _COUNT, "counts": {"type": "object", "additionalProperties": _COUNT}},
    )

    def case(prefix: str) -> dict[str, Any]:
        return _strict(
            ["id", "why", "source", "options", "position", "depths", "divide"],
            {
                "id": _NAME,
                "why": _TEXT,
                "source": _TEXT,
                "options": {"$ref": f"#/$defs/{prefix}Options"},
                "position": {"$ref": f"#/$defs/{prefix}Position"},
                "depths": {"type": "array", "items": counts, "minItems": 1},
                "divide": divide,
            },
        )

    # a game without a vector view (one a library user registers, the tests' toy games): the
    # position is a position file's keys, read by the game's own loader; a case may stop at a
    # stopping point the game names, a depth may be null (no cut) and may record the states
    whole = {"type": ["integer", "null"], "minimum": 0}
    other = _strict(
        ["id", "why", "source", "position", "depths", "divide"],
        {
            "id": _NAME,
            "why": _TEXT,
            "source": _TEXT,
            "position": {"type": "object", "required": ["game"], "properties": {"game": _NAME}},
            "to": _NAME,
            "depths": {
                "type": "array",
                "items": _strict(
                    ["depth", *keys],
                    {"depth": whole, **{key: _COUNT for key in keys}, "states": _COUNT},
                ),
                "minItems": 1,
            },
            "divide": _strict(["depth", "counts"], {**divide["properties"], "depth": whole}),
        },
    )
    top = _file("perft", "suite", "cases", minItems=1)
    top["properties"]["game"] = _NAME
    published = ("omens", "omen")

    return {
        **_header(
            "perft",
            "omen-solver perft suite",
            "Exact counts of the legal action sequences from positions, per depth, with the "
            "count under each first action at one depth (docs/vectors.md).",
        ),
        **top,
        "allOf": [
            *(
                {
                    "if": {"properties": {"game": {"const": game}}},
                    "then": {"properties": {"cases": {"items": case(game)}}},
                }
                for game in published
            ),
            {
                "if": {"properties": {"game": {"enum": list(published)}}},
                "else": {"properties": {"cases": {"items": other}}},
            },
        ],
        "$defs": {**_omens_defs(), **_omen_defs()},
    }


def _coverage_schema() -> dict[str, Any]:
    dimension = _strict(
        ["title", "covered", "total", "missing"],
        {
            "title": _TEXT,
            "covered": _COUNT,
            "total": {"type": ["integer", "null"], "minimum": 0},
            "missing": _STRINGS,
            "impossible": {"type": "array", "items": _strict(
                ["what", "count", "why"], {"what": _TEXT, "count": _COUNT, "why": _TEXT})},
            "note": _TEXT,
        },
    )
    return {
        **_header(
            "coverage",
            "omen-solver vector coverage",
            "What the exported vectors of one game cover, dimension by dimension.",
        ),
        **_strict(
            ["format", "version", "game", "sets", "dimensions"],
            {
                "format": {"const": "omen-solver-coverage"},
                "version": {"const": 1},
                "game": {"enum": ["omens", "omen"]},
                "suite": _suite(),
                "sets": {"type": "object", "additionalProperties": _COUNT},
                "no_sibling": {
                    "description": "vectors that do not hold under the suite's settings and "
                    "have no sibling recorded under them, and why",
                    "type": "array",
                    "items": _strict(["vector", "why"], {"vector": _NAME, "why": _TEXT}),
                },
                "dimensions": {"type": "object", "additionalProperties": dimension},
            },
        ),
    }


def _reference_schema() -> dict[str, Any]:
    option = _strict(
        ["name", "question", "summary", "settings", "default", "presets", "source"],
        {
            "name": _NAME,
            "question": _TEXT,
            "summary": _TEXT,
            "settings": {"type": "object", "additionalProperties": _TEXT},
            "default": _TEXT,
            "presets": {"type": "object", "additionalProperties": _TEXT},
            "source": _TEXT,
        },
    )
    rule = _strict(["id", "statement", "source"], {"id": _NAME, "statement": _TEXT,
                                                   "source": _TEXT})
    return {
        **_header(
            "reference",
            "omen-solver game reference",
            "The cards, rule ids and rule options the vectors of one game name.",
        ),
        **_strict(
            ["format", "version", "game", "cards", "rules", "options"],
            {
                "format": {"const": "omen-solver-reference"},
                "version": {"const": 1},
                "game": {"enum": ["omens", "omen"]},
                "cards": {"type": "array", "items": {"type": "object"}, "minItems": 1},
                "rules": {"type": "array", "items": rule},
                "options": {"type": "array", "items": option, "minItems": 1},
            },
        ),
    }


@cache
def build_schema(name: str) -> dict[str, Any]:
    """The schema of one file name of :data:`SCHEMA_FILES`."""
    builders = {
        "vectors.schema.json": _vectors_schema,
        "perft.schema.json": _perft_schema,
        "coverage.schema.json": _coverage_schema,
        "reference.schema.json": _reference_schema,
    }
    return builders[name]()
