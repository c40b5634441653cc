"""The top level of the published files every game's export writes (``export``): a vector
set, a game's reference, a rule option of the reference (docs/vectors.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from omen_solver.core.options import OptionSpec

__all__ = ["option_json", "reference_json", "vector_file"]

def vector_file(game: str, name: str, description: str, vectors: list[dict[str, Any]],
                suite: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A vector set's file (``suite``: the suite it was mined under, for a game mined per
    suite)."""
    data: dict[str, Any] = {
        "format": "omen-solver-vectors",
        "version": 1,
        "game": game,
        "set": name,
        "description": description,
    }
    if suite is not None:
        data["suite"] = dict(suite)
    data["vectors"] = vectors
    return data


def option_json(spec: OptionSpec, presets: Mapping[str, str]) -> dict[str, Any]:
    """One rule option of a reference file, with its setting under each preset or profile."""
    return {
        "name": spec.name,
        "question": spec.question,
        "summary": spec.summary,
        "settings": dict(spec.settings),
        "default": spec.default,
        "presets": dict(presets),
        "source": spec.source,
    }


def reference_json(game: str, cards: list[dict[str, Any]], rules: list[dict[str, Any]],
                   options: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's reference file: its cards, rule ids and rule options."""
    return {
        "format": "omen-solver-reference",
        "version": 1,
        "game": game,
        "cards": cards,
        "rules": rules,
        "options": options,
    }
