"""Named rule options: every open choice of a rulebook is a named setting, not a hidden ``if``.

A game declares its options as a frozen dataclass whose fields are made with :func:`option`.
Each option has a fixed set of settings (short strings), a default with a reason, the open
question it answers and the rule text behind it. Presets (for Omens: ``rulebook``,
``gamepark``; for Omen: one profile per rulebook) are named sets of overrides. :func:`build`
makes an option set from a preset and per-option overrides and names the offending key on bad
input.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from omen_solver.core.suggest import did_you_mean
from omen_solver.errors import OptionError

__all__ = [
    "OptionSpec",
    "RuleOptions",
    "build",
    "describe",
    "hint",
    "option",
]


@dataclass(frozen=True)
class OptionSpec:
    """The documentation of one named rule option."""

    name: str
    question: str
    """The open question it answers, e.g. ``O10`` (see the rules README)."""
    summary: str
    settings: Mapping[str, str]
    """Each setting and what it means."""
    default: str
    reason: str
    """Why the default was chosen."""
    source: str
    """The rule text the option is about (file and section)."""


_META = "omen_solver.option"


def option(
    *,
    default: str,
    question: str,
    summary: str,
    settings: Mapping[str, str],
    reason: str,
    source: str,
) -> Any:
    """Declare a rule option as a dataclass field. The default must be one of the settings."""
    if default not in settings:
        raise OptionError(f"option default {default!r} is not among its settings {list(settings)}")
    spec = {
        "question": question,
        "summary": summary,
        "settings": dict(settings),
        "reason": reason,
        "source": source,
    }
    return dataclasses.field(default=default, metadata={_META: spec})


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Base class of a game's option set. Subclasses declare fields with :func:`option`."""

    def __post_init__(self) -> None:
        for spec in describe(type(self)):
            value = getattr(self, spec.name)
            if value not in spec.settings:
                raise OptionError(
                    f"rule option {spec.name!r}: unknown setting {value!r}; "
                    f"choose one of {', '.join(repr(s) for s in spec.settings)}"
                )

    def as_dict(self) -> dict[str, str]:
        return {spec.name: getattr(self, spec.name) for spec in describe(type(self))}

    def differences(self) -> dict[str, str]:
        """The options whose setting differs from the declared default."""
        return {
            spec.name: getattr(self, spec.name)
            for spec in describe(type(self))
            if getattr(self, spec.name) != spec.default
        }


OptionsT = TypeVar("OptionsT", bound=RuleOptions)


_DESCRIBED: dict[type[RuleOptions], tuple[OptionSpec, ...]] = {}


def describe(cls: type[RuleOptions]) -> tuple[OptionSpec, ...]:
    """The documented options of an option class, in declaration order (computed once per
    class: every rule set built validates itself against it)."""
    found = _DESCRIBED.get(cls)
    if found is None:
        specs = []
        for field in dataclasses.fields(cls):
            meta = field.metadata.get(_META)
            if meta is None:
                continue
            specs.append(OptionSpec(name=field.name, default=str(field.default), **meta))
        found = _DESCRIBED[cls] = tuple(specs)
    return found


def build(
    cls: type[OptionsT],
    presets: Mapping[str, Mapping[str, str]],
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    *,
    where: str = "rules",
) -> OptionsT:
    """An option set: the preset's settings, then ``overrides`` on top.

    ``where`` names the place the overrides came from (a file key such as ``rules``) so that
    an error message can point at it.
    """
    values: dict[str, str] = {}
    if preset is not None:
        if not isinstance(preset, str) or preset not in presets:
            raise OptionError(
                key="preset", value=preset,
                problem=f"unknown preset {preset!r}; {hint(str(preset), presets, 'choose one of')}",
            )
        values.update(presets[preset])
    specs = {spec.name: spec for spec in describe(cls)}
    for name, value in (overrides or {}).items():
        spec = specs.get(name)
        if spec is None:
            known = hint(name, sorted(specs), "known options:")
            raise OptionError(key=f"{where}.{name}", value=name,
                              problem=f"unknown rule option; {known}")
        if not isinstance(value, str) or value not in spec.settings:
            raise OptionError(
                key=f"{where}.{name}", value=value,
                problem=f"unknown setting {value!r}; "
                f"{hint(str(value), spec.settings, 'choose one of')}",
            )
        values[name] = value
    return cls(**values)


def hint(word: str, known: Iterable[str], listing: str) -> str:
    """``did you mean 'x'?`` when a known name is close to ``word``, else every known name
    after ``listing`` (e.g. ``choose one of 'a', 'b'``)."""
    names = list(known)
    return did_you_mean(word, names) or f"{listing} {', '.join(map(repr, names))}"
