"""Rule settings on both sides of the protocol: what an engine plays, and what a vector holds
under (docs/vectors.md, "Which vectors an engine plays").

An engine's ``hello`` may say, per game, which settings it plays: ``"switchable"`` (it sets up
whatever a vector's ``options`` say), a preset (Omen: a profile) with optional overrides, or
every setting spelled out. A vector's ``holds_under`` says where its expectations stay true:
under the full settings of each preset it lists, and under every combination of settings in
which each option it restricts takes one of its listed settings. :func:`holds` is the one test
the runner applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.core.game import RuleSet, game_named
from omen_solver.core.options import OptionSpec, describe
from omen_solver.errors import OptionError

__all__ = [
    "SWITCHABLE",
    "EngineRules",
    "base_name",
    "declared",
    "holds",
    "options_json",
    "parse_declared",
    "preset_key",
    "preset_names",
    "preset_settings",
    "rule_set",
    "specs",
]

SWITCHABLE: Final = "switchable"


def rule_set(game: str) -> RuleSet:
    """The game's rule set, as its descriptor declares it."""
    make = game_named(game).rule_set
    assert make is not None, game
    return make()


def preset_key(game: str) -> str:
    """The key naming a preset in a vector's ``options`` and a setup request: the game's
    position files' key for it (``preset``; Omen: ``profile``)."""
    return rule_set(game).preset_key


def specs(game: str) -> tuple[OptionSpec, ...]:
    """The rule options of a game, in declaration order."""
    return describe(rule_set(game).options)


def preset_names(game: str) -> tuple[str, ...]:
    """The presets (Omens) or profiles (Omen) of a game."""
    return tuple(rule_set(game).presets)


def base_name(game: str) -> str:
    """The preset settings are written against when no other is named."""
    return rule_set(game).default_preset


def preset_settings(game: str, name: str, overrides: Mapping[str, Any] | None = None,
                    where: str = "rules") -> dict[str, str]:
    """Every setting of a preset (Omen: a profile) with ``overrides`` on top."""
    return rule_set(game).make(name, overrides, where=where).as_dict()


def options_json(game: str, settings: Mapping[str, str], preset: str | None = None
                 ) -> dict[str, Any]:
    """The ``options`` object of a vector or a setup request for ``settings``: the preset
    (the game's base one unless named), the overrides that lead from it to ``settings``, and
    every setting."""
    name = preset or base_name(game)
    base = preset_settings(game, name)
    overrides = {key: value for key, value in settings.items() if base[key] != value}
    return {rule_set(game).preset_key: name, "overrides": dict(sorted(overrides.items())),
            "settings": dict(settings)}


@dataclass(frozen=True)
class EngineRules:
    """The rule settings an engine plays for one game: any it is asked for (switchable), or
    one fixed set."""

    game: str
    settings: Mapping[str, str] | None
    """Every setting, when fixed; None when switchable."""
    preset: str | None = None
    """The preset it named, if any."""
    overrides: Mapping[str, str] | None = None

    @property
    def switchable(self) -> bool:
        return self.settings is None

    def describe(self) -> str:
        if self.settings is None:
            return SWITCHABLE
        if self.preset is not None:
            extra = ", ".join(f"{k} = {v}" for k, v in sorted((self.overrides or {}).items()))
            key = preset_key(self.game)
            return f"{key} {self.preset}" + (f" with {extra}" if extra else "")
        return "its own settings"

    def setup_options(self, vector: Mapping[str, Any]) -> Mapping[str, Any]:
        """The ``options`` of the setup request: the vector's own for a switchable engine,
        else the engine's settings (under which the vector holds)."""
        if self.settings is None:
            options: Mapping[str, Any] = vector["options"]
            return options
        return options_json(self.game, self.settings, self.preset)


def parse_declared(game: str, value: Any, where: str) -> EngineRules:
    """What a ``hello`` answer says about one game's settings (OptionError names ``where``)."""
    if value is None or value == SWITCHABLE:
        return EngineRules(game, None)
    key = preset_key(game)
    if isinstance(value, str):
        value = {key: value}
    if not isinstance(value, dict):
        raise OptionError(f"{where}: expected \"{SWITCHABLE}\", a {key} name or an object "
                          f"with {key!r} (and 'overrides') or 'settings', not {value!r}"[:300])
    unknown = sorted(set(value) - {key, "overrides", "settings"})
    if unknown:
        raise OptionError(f"{where}: unknown key {unknown[0]!r}; expected {key!r}, "
                          "'overrides' or 'settings'")
    if "settings" in value:
        settings = value["settings"]
        if not isinstance(settings, dict):
            raise OptionError(f"{where}.settings: expected an object of every rule option")
        missing = [spec.name for spec in specs(game) if spec.name not in settings]
        if missing:
            raise OptionError(f"{where}.settings: missing {missing[0]!r} (list every rule "
                              f"option, or name a {key} with 'overrides')")
        full = preset_settings(game, base_name(game), settings, where=f"{where}.settings")
        return EngineRules(game, full)
    name = value.get(key, base_name(game))
    if name not in preset_names(game):
        raise OptionError(f"{where}.{key}: unknown {key} {name!r}; known: "
                          f"{', '.join(preset_names(game))}")
    overrides = value.get("overrides", {})
    if not isinstance(overrides, dict):
        raise OptionError(f"{where}.overrides: expected an object of rule options")
    full = preset_settings(game, name, overrides, where=f"{where}.overrides")
    return EngineRules(game, full, name, {str(k): str(v) for k, v in overrides.items()})


def declared(hello: Mapping[str, Any], games: Sequence[str]) -> dict[str, EngineRules]:
    """Each game's settings from a ``hello`` answer's ``options`` (absent: switchable)."""
    value = hello.get("options")
    result = {}
    for game in games:
        if value is None or value == SWITCHABLE:
            result[game] = EngineRules(game, None)
        elif isinstance(value, dict):
            result[game] = parse_declared(game, value.get(game), f"hello: options.{game}")
        else:
            raise OptionError(f"hello: options: expected \"{SWITCHABLE}\" or an object by "
                              "game ({\"omens\": ...})")
    return result


def holds(vector: Mapping[str, Any], game: str, settings: Mapping[str, str]) -> str | None:
    """None if the vector's expectations hold under ``settings``; otherwise why not."""
    holds_under = vector.get("holds_under")
    if holds_under is None:
        recorded = vector["options"]["settings"]
        for name, setting in recorded.items():
            if settings.get(name) != setting:
                return (f"recorded with {name} = {setting} (the engine: "
                        f"{settings.get(name)}) and no 'holds_under'")
        return None
    for name in holds_under.get("presets", ()):
        if name in preset_names(game) and preset_settings(game, name) == dict(settings):
            return None
    for name, allowed in holds_under.get("settings", {}).items():
        if settings.get(name) not in allowed:
            return (f"its expectations change with {name} = {settings.get(name)} "
                    f"(they hold with {' or '.join(allowed)})")
    return None
