"""``holds_under`` says the truth (docs/vectors.md, "holds_under"): a sample of the shipped
vectors, replayed from scratch (no option tracking, no resumed replays) under random
combinations inside the settings a vector claims, under each preset it lists and each it does
not, and under the settings it excludes; and the runner skips what does not hold under an
engine's settings, with the option that differs."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from omen_solver.vectors.holds import Replayer
from omen_solver.vectors.settings import holds, preset_names, preset_settings, specs

SHIPPED = Path(__file__).resolve().parents[2] / "vectors"
_FILES = [
    ("omens", SHIPPED / "omens" / suite / f"{name}.json")
    for suite in ("rulebook", "gamepark")
    for name in ("examples", "witnesses", "enumerated", "random")
] + [("omen", SHIPPED / "omen" / f"{name}.json") for name in ("examples", "witnesses")]


def _sample() -> list[tuple[str, dict[str, Any]]]:
    """Every 25th vector of each file (and every sibling), in a fixed order."""
    found = []
    for game, path in _FILES:
        vectors = json.loads(path.read_text(encoding="utf-8"))["vectors"]
        found += [(game, v) for index, v in enumerate(vectors)
                  if index % 25 == 0 or v["id"].endswith((".rulebook", ".gamepark"))]
    return found


SAMPLE = _sample()


def _combination(game: str, vector: dict[str, Any], rng: random.Random) -> dict[str, str]:
    allowed = vector["holds_under"]["settings"]
    return {spec.name: rng.choice(list(allowed.get(spec.name, spec.settings)))
            for spec in specs(game)}


@pytest.mark.parametrize(("game", "vector"), SAMPLE, ids=[v["id"] for _, v in SAMPLE])
def test_holds_under_is_true_and_its_presets_exact(game: str, vector: dict[str, Any]) -> None:
    replayer = Replayer(game, vector)
    expected = replayer.expected
    rng = random.Random(vector["id"])
    for _ in range(4 if game == "omens" else 1):
        settings = _combination(game, vector, rng)
        assert replayer.observe(settings) == expected, settings
        assert holds(vector, game, settings) is None
    listed = vector["holds_under"]["presets"]
    for name in preset_names(game):
        same = replayer.observe(preset_settings(game, name),
                                profile=name if game == "omen" else None) == expected
        assert same == (name in listed), name


OMENS_SAMPLE = [(g, v) for g, v in SAMPLE if g == "omens"]


@pytest.mark.parametrize(("game", "vector"), OMENS_SAMPLE, ids=[v["id"] for _, v in OMENS_SAMPLE])
def test_what_holds_under_leaves_out_changes_the_vector(game: str, vector: dict[str, Any]
                                                        ) -> None:
    """Each setting an Omens vector's product leaves out changes it: alone, or together with
    another setting the product allows (options interact)."""
    replayer = Replayer(game, vector)
    recorded = vector["options"]["settings"]
    allowed = vector["holds_under"]["settings"]
    for spec in specs(game):
        for setting in spec.settings:
            if setting in allowed.get(spec.name, spec.settings):
                continue
            alone = {**recorded, spec.name: setting}
            if replayer.observe(alone) != replayer.expected:
                continue
            partners = [
                {**alone, other.name: value}
                for other in specs(game) if other.name != spec.name
                for value in allowed.get(other.name, other.settings)
                if value != recorded[other.name]
            ]
            assert any(replayer.observe(s) != replayer.expected for s in partners), (
                spec.name, setting)
