"""Options given on the command line with a file: each one applies, over the file's own
setting, and the answer says so (``overrides`` in the text and the JSON); or the command
refuses it (exit 2, naming the flag). Nothing is ignored.

``--preset`` and ``--rule OPTION=SETTING`` set the rules of a position file (or of a random
deal); the commands that solve a puzzle also report where ``--concept``, ``--team``,
``--simultaneous`` and the budget replace the ``[puzzle]`` table's (:func:`puzzle_overrides`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omen_solver.core.game import GameState, RuleSet, games
from omen_solver.core.options import build, describe, hint
from omen_solver.core.positions import load_data, read_position
from omen_solver.errors import OptionError, shown

__all__ = [
    "Override",
    "RuleSet",
    "add_rule_options",
    "check_rules",
    "describe_overrides",
    "load_with_rules",
    "merge_rules",
    "rule_set",
    "rule_setting",
]


@dataclass(frozen=True)
class Override:
    """One setting of a file replaced from the command line."""

    flag: str
    """The flag that gave it, e.g. ``--rule``."""
    key: str
    """The file's key it replaces, e.g. ``rules.fear_pass_on``."""
    given: object
    file: object
    """What the file said (``None`` when no file, or the file leaves it to a default that is
    not known here)."""

    @property
    def changed(self) -> bool:
        return self.given != self.file

    def to_json(self) -> dict[str, Any]:
        return {"flag": self.flag, "key": self.key, "given": self.given, "file": self.file}

    def __str__(self) -> str:
        was = "" if self.file is None else f" (the file: {_text(self.file)})"
        return f"{self.key} = {_text(self.given)}{was}"


def _text(value: object) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def describe_overrides(overrides: Sequence[Override]) -> str:
    """``overrides: rules.fear_pass_on = no (the file: yes); ...`` for the text output."""
    return "overrides (command line): " + "; ".join(map(str, overrides))


def rule_set(game: str) -> RuleSet | None:
    """The rules of a game's position files (its descriptor's), or ``None`` for a game
    without named options or not registered."""
    make = next((known.rule_set for known in games() if known.name == game), None)
    return None if make is None else make()


def rule_setting(text: str) -> tuple[str, str]:
    """An argparse type: ``OPTION=SETTING``."""
    name, equals, setting = text.partition("=")
    if not equals or not name.strip() or not setting.strip():
        raise argparse.ArgumentTypeError(
            f"{shown(text)}: write a rule option as OPTION=SETTING, e.g. fear_pass_on=yes"
        )
    return name.strip(), setting.strip()


def add_rule_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                     what: str = "the position's") -> None:
    """``--preset NAME`` and ``--rule OPTION=SETTING`` (repeatable), both over ``what``
    rules. The names are checked against the game's options once the game is known."""
    parser.add_argument("--preset", metavar="NAME",
                        help=f"rule preset, instead of {what} (Omens: rulebook, gamepark; see "
                             "'omen-solver omens options')")
    parser.add_argument("--rule", type=rule_setting, action="append", default=[],
                        metavar="OPTION=SETTING",
                        help=f"set one rule option over {what} (repeatable; "
                             "docs/omens-options.md, docs/omen-profiles.md)")


def check_rules(rules: RuleSet, preset: str | None, settings: Sequence[tuple[str, str]]) -> None:
    """Refuse an unknown preset, option or setting, naming the flag and the closest names."""
    if preset is not None:
        if rules.preset_refusal:
            raise OptionError(f"--preset {preset}: {rules.preset_refusal}")
        if preset not in rules.presets:
            raise OptionError(f"--preset {shown(preset)}: unknown preset; "
                              f"{hint(preset, rules.presets, 'choose one of')}")
    specs = {spec.name: spec for spec in describe(rules.options)}
    seen: dict[str, str] = {}
    for name, setting in settings:
        flag = f"--rule {name}={setting}"
        spec = specs.get(name)
        if spec is None:
            raise OptionError(f"{flag}: unknown {rules.game.capitalize()} rule option; "
                              f"{hint(name, sorted(specs), 'known options:')}")
        if setting not in spec.settings:
            raise OptionError(f"{flag}: unknown setting {shown(setting)}; "
                              f"{hint(setting, spec.settings, 'choose one of')}")
        if seen.get(name, setting) != setting:
            raise OptionError(f"{flag}: {name} is also given as {seen[name]}")
        seen[name] = setting


def merge_rules(path: Path, data: dict[str, Any], preset: str | None,
                settings: Sequence[tuple[str, str]]) -> tuple[dict[str, Any], list[Override]]:
    """The file's data with ``--preset`` and ``--rule`` over its rules, and what they
    replaced. The file's own ``[rules]`` stay on top of a ``--preset``; ``--rule`` goes on
    top of both."""
    if preset is None and not settings:
        return data, []
    game = data.get("game")
    rules = rule_set(game) if isinstance(game, str) else None
    if rules is None:
        flag = "--preset" if preset is not None else "--rule"
        raise OptionError(f"{flag}: {path} is not a position of a game with rule options "
                          f"(key 'game': {shown(game)})")
    check_rules(rules, preset, settings)
    file_rules = data.get("rules", {})
    file_preset = data.get(rules.preset_key, rules.default_preset)
    before = _effective(rules, file_preset, file_rules)
    merged = dict(data)
    overrides = []
    if preset is not None and not rules.preset_refusal:
        overrides.append(Override("--preset", rules.preset_key, preset, file_preset))
        merged[rules.preset_key] = preset
    if settings:
        merged["rules"] = {**(file_rules if isinstance(file_rules, dict) else {}),
                           **dict(settings)}
    for name, setting in dict(settings).items():
        overrides.append(Override("--rule", f"rules.{name}", setting, before.get(name)))
    return merged, overrides


def _effective(rules: RuleSet, preset: object, settings: object) -> dict[str, str]:
    """The file's own settings, or ``{}`` if they do not read (its loader says why)."""
    if not isinstance(preset, str) or not isinstance(settings, dict):
        return {}
    try:
        return build(rules.options, rules.presets, preset, settings).as_dict()
    except OptionError:
        return {}


def load_with_rules(path: Path | str, preset: str | None, settings: Sequence[tuple[str, str]]
                    ) -> tuple[GameState[Any], dict[str, Any], list[Override]]:
    """A position's state (a file, or a one-line text) under ``--preset`` and ``--rule``, the
    data it was read from and the overrides applied."""
    data, name, _ = read_position(path)
    merged, overrides = merge_rules(Path(name), data, preset, settings)
    return load_data(Path(name), merged), merged, overrides
