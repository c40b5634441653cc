"""The pieces the JSON Schemas of the published files are built from (``schemas``), shared by
the generic schemas and each game's own part of them (``omens_schema``, ``omen_schema``): a
strict object, a rule option class's settings, overrides and ``holds_under``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from omen_solver.core.options import RuleOptions, describe

__all__ = ["COUNT", "NAME", "STRINGS", "TEXT", "holds_under", "overrides", "settings", "strict"]

NAME: Final = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.:+>-]*$"}
TEXT: Final = {"type": "string", "minLength": 1}
COUNT: Final = {"type": "integer", "minimum": 0}
STRINGS: Final = {"type": "array", "items": {"type": "string"}}


def strict(required: Sequence[str], properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    """An object with exactly these properties, the ``required`` ones present."""
    return {
        "type": "object",
        "required": list(required),
        "properties": properties,
        "additionalProperties": False,
        **more,
    }


def settings(cls: type[RuleOptions]) -> dict[str, Any]:
    """Every option of a game with the enum of its settings (all required)."""
    specs = describe(cls)
    return strict(
        [spec.name for spec in specs],
        {spec.name: {"enum": list(spec.settings)} for spec in specs},
    )


def overrides(cls: type[RuleOptions]) -> dict[str, Any]:
    """Some options of a game, each with the enum of its settings."""
    specs = describe(cls)
    return strict([], {spec.name: {"enum": list(spec.settings)} for spec in specs})


def rule_choice(cls: type[RuleOptions], key: str, names: Iterable[str]) -> dict[str, Any]:
    """A game's rule settings as a vector's ``options`` name them: a preset (``key``, one of
    ``names``) with ``overrides``, or every ``settings`` spelled out."""
    return strict(
        [key, "overrides", "settings"],
        {key: {"enum": list(names)}, "overrides": overrides(cls), "settings": settings(cls)},
    )


def holds_under(cls: type[RuleOptions], presets: Sequence[str]) -> dict[str, Any]:
    """Where a vector's expectations hold (docs/vectors.md, "Which vectors an engine
    plays")."""
    specs = describe(cls)
    return strict(
        ["presets", "settings"],
        {
            "presets": {"type": "array", "items": {"enum": list(presets)}, "uniqueItems": True},
            "settings": strict([], {
                spec.name: {"type": "array", "items": {"enum": list(spec.settings)},
                            "minItems": 1, "uniqueItems": True}
                for spec in specs
            }),
        },
        description="The expectations hold under the full settings of each preset (Omen: "
        "profile) listed, and under every combination of settings in which each option listed "
        "takes one of its listed settings (the options not listed: any setting).",
    )
