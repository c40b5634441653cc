"""The JSON Schemas (draft 2020-12) of the published files.

Built here from the library's own declarations (the rule options and their settings, the card
values, the player counts), so a schema cannot drift from the engine; ``omen-solver vectors
export`` writes them to ``schema/`` beside the vectors, and the test suite checks that the
shipped copies are current and that every shipped file validates (``docs/vectors.md``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from omen_solver.core.game import game_named
from omen_solver.vectors.schema_parts import COUNT, NAME, STRINGS, TEXT, strict
from omen_solver.vectors.views import VECTORS, VectorView

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


def _views() -> list[tuple[str, VectorView[Any]]]:
    """The games the vectors play (their names are the ``game`` of the files), each with its
    view, in the order the games were registered."""
    return [(game.name, VECTORS.of(game)) for game in VECTORS.games()]


def _defs() -> dict[str, Any]:
    """The ``$defs`` of every game the vectors play."""
    return {name: part for _, view in _views() for name, part in view.schema_defs().items()}


def _suite() -> dict[str, Any] | None:
    """The ``suite`` of a vector file (and a coverage report): the suite schema of the game
    whose vectors are mined per suite (of either, if several are); None if none is."""
    suites = [view.schema_suite() for _, view in _views() if view.schema_suite is not None]
    if not suites:
        return None
    return suites[0] if len(suites) == 1 else {"oneOf": suites}


def _vector(game: str) -> dict[str, Any]:
    view = VECTORS.of(game_named(game))
    prefix = game
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
    step = strict(
        ["action", "to_act", "legal"],
        {
            "action": TEXT,
            "to_act": to_act,
            "legal": STRINGS,
            "state": {"$ref": f"#/$defs/{prefix}State"},
        },
    )
    return strict(
        ["id", "game", "why", "source", "rules", "cards", "options", "position", "start",
         "steps"],
        {
            "id": NAME,
            "game": {"const": game},
            "why": TEXT,
            "source": TEXT,
            "rules": {"type": "array", "items": NAME, "uniqueItems": True},
            "cards": dict(view.schema_cards),
            "covers": {"type": "array", "items": TEXT, "uniqueItems": True},
            "options": {"$ref": f"#/$defs/{prefix}Options"},
            "holds_under": {"$ref": f"#/$defs/{prefix}HoldsUnder"},
            "position": {"$ref": f"#/$defs/{prefix}Position"},
            "start": strict(
                ["to_act", "legal"] + (["state"] if view.start_states else []),
                {"to_act": to_act, "legal": STRINGS, "state": {"$ref": f"#/$defs/{prefix}State"}},
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


def _by_game(key: str, items: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The schema of the items under ``key`` chosen by the file's ``game``: each game's in
    turn, the last one's when the file names none of the others."""
    *first, (_, last) = items
    chosen: dict[str, Any] = {"properties": {key: {"items": last}}}
    for game, schema in reversed(first):
        chosen = {
            "if": {"properties": {"game": {"const": game}}},
            "then": {"properties": {key: {"items": schema}}},
            "else": chosen,
        }
    return chosen


def _games() -> dict[str, Any]:
    return {"enum": [name for name, _ in _views()]}


def _file(kind: str, name: str, items: str, **item: Any) -> dict[str, Any]:
    """The top level of a published file: its format, version, game, name, description, the
    suite it belongs to (Omens vector files) and the list of its items (vectors, cases)."""
    properties: dict[str, Any] = {
        "format": {"const": f"omen-solver-{kind}"},
        "version": {"const": 1},
        "game": _games(),
        name: NAME,
        "description": TEXT,
    }
    suite = _suite()
    if kind == "vectors" and suite is not None:
        properties["suite"] = suite
    properties[items] = {"type": "array", **item}
    return strict(["format", "version", "game", name, "description", items], properties)


def _vectors_schema() -> dict[str, Any]:
    return {
        **_header(
            "vectors",
            "omen-solver conformance vectors",
            "One set of vectors: positions, action sequences and what the rules require after "
            "every step (docs/vectors.md).",
        ),
        **_file("vectors", "set", "vectors"),
        **_by_game("vectors", [(name, {"$ref": f"#/$defs/{name}Vector"})
                               for name, _ in _views()]),
        "$defs": {
            **_defs(),
            **{f"{name}Vector": _vector(name) for name, _ in _views()},
        },
    }


def _perft_schema() -> dict[str, Any]:
    keys = ("sequences", "at_depth", "ended", "nodes")
    counts = strict(["depth", *keys], {"depth": COUNT, **{key: COUNT for key in keys}})
    divide = strict(
        ["depth", "counts"],
        {"depth": COUNT, "counts": {"type": "object", "additionalProperties": COUNT}},
    )

    def case(prefix: str) -> dict[str, Any]:
        return strict(
            ["id", "why", "source", "options", "position", "depths", "divide"],
            {
                "id": NAME,
                "why": TEXT,
                "source": TEXT,
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
    other = strict(
        ["id", "why", "source", "position", "depths", "divide"],
        {
            "id": NAME,
            "why": TEXT,
            "source": TEXT,
            "position": {"type": "object", "required": ["game"], "properties": {"game": NAME}},
            "to": NAME,
            "depths": {
                "type": "array",
                "items": strict(
                    ["depth", *keys],
                    {"depth": whole, **{key: COUNT for key in keys}, "states": COUNT},
                ),
                "minItems": 1,
            },
            "divide": strict(["depth", "counts"], {**divide["properties"], "depth": whole}),
        },
    )
    top = _file("perft", "suite", "cases", minItems=1)
    top["properties"]["game"] = NAME
    published = [name for name, _ in _views()]

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
        "$defs": _defs(),
    }


def _coverage_schema() -> dict[str, Any]:
    dimension = strict(
        ["title", "covered", "total", "missing"],
        {
            "title": TEXT,
            "covered": COUNT,
            "total": {"type": ["integer", "null"], "minimum": 0},
            "missing": STRINGS,
            "impossible": {"type": "array", "items": strict(
                ["what", "count", "why"], {"what": TEXT, "count": COUNT, "why": TEXT})},
            "note": TEXT,
        },
    )
    return {
        **_header(
            "coverage",
            "omen-solver vector coverage",
            "What the exported vectors of one game cover, dimension by dimension.",
        ),
        **strict(
            ["format", "version", "game", "sets", "dimensions"],
            {
                "format": {"const": "omen-solver-coverage"},
                "version": {"const": 1},
                "game": _games(),
                **({} if _suite() is None else {"suite": _suite()}),
                "sets": {"type": "object", "additionalProperties": COUNT},
                "no_sibling": {
                    "description": "vectors that do not hold under the suite's settings and "
                    "have no sibling recorded under them, and why",
                    "type": "array",
                    "items": strict(["vector", "why"], {"vector": NAME, "why": TEXT}),
                },
                "dimensions": {"type": "object", "additionalProperties": dimension},
            },
        ),
    }


def _reference_schema() -> dict[str, Any]:
    option = strict(
        ["name", "question", "summary", "settings", "default", "presets", "source"],
        {
            "name": NAME,
            "question": TEXT,
            "summary": TEXT,
            "settings": {"type": "object", "additionalProperties": TEXT},
            "default": TEXT,
            "presets": {"type": "object", "additionalProperties": TEXT},
            "source": TEXT,
        },
    )
    rule = strict(["id", "statement", "source"], {"id": NAME, "statement": TEXT,
                                                   "source": TEXT})
    return {
        **_header(
            "reference",
            "omen-solver game reference",
            "The cards, rule ids and rule options the vectors of one game name.",
        ),
        **strict(
            ["format", "version", "game", "cards", "rules", "options"],
            {
                "format": {"const": "omen-solver-reference"},
                "version": {"const": 1},
                "game": _games(),
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
