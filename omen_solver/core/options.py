"""Named rule options: every open choice of a rulebook is a named setting, not a hidden ``if``.

A game declares its options as a frozen dataclass whose fields are made with :func:`option`.
Each option has a fixed set of settings, a default with a reason, the open question it answers
and the rule text behind it. The settings of an option are the members of its own
:class:`Setting` enum, declared once beside the option: code compares a rule set's field with
a member (``rules.fear_pass_on is FearPassOn.YES``), never with a text, and a test fails on a
setting spelled anywhere else (``tests/package/test_vocabulary.py``). Presets (for Omens:
``rulebook``, ``gamepark``; for Omen: one profile per rulebook) are named sets of overrides.
:func:`build` makes an option set from a preset and per-option overrides and names the
offending key on bad input.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from omen_solver.core.suggest import did_you_mean
from omen_solver.errors import OptionError

__all__ = [
    "OptionSpec",
    "RuleOptions",
    "Setting",
    "build",
    "describe",
    "hint",
    "option",
    "option_of",
    "preset",
]


class Setting(enum.StrEnum):
    """The settings of one rule option. A member is equal to its text (and hashes like it), is
    written as its text by ``str``, ``format`` and ``json``, and its ``repr`` is the text's, so
    files, JSON and messages read as text."""

    def __repr__(self) -> str:
        return repr(self.value)


@dataclass(frozen=True)
class OptionSpec:
    """The documentation of one named rule option."""

    name: str
    kind: type[Setting]
    """The enum of its settings."""
    question: str
    """The open question it answers, e.g. ``O10`` (see the rules README)."""
    summary: str
    settings: Mapping[str, str]
    """Each setting and what it means."""
    default: Setting
    reason: str
    """Why the default was chosen."""
    source: str
    """The rule text the option is about (file and section)."""


_META = "omen_solver.option"


def option(
    *,
    default: Setting,
    question: str,
    summary: str,
    settings: Mapping[Setting, str],
    reason: str,
    source: str,
) -> Any:
    """Declare a rule option as a dataclass field: ``settings`` says what each member of the
    option's :class:`Setting` enum means (every member, once), ``default`` is one of them."""
    kind = type(default)
    if not isinstance(default, Setting) or list(settings) != list(kind):
        raise OptionError(f"option settings {list(settings)} are not the members of "
                          f"{kind.__name__}, each once in declaration order")
    spec = {
        "kind": kind,
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
            if isinstance(value, spec.kind):
                continue
            if value not in spec.settings:
                raise OptionError(
                    key=spec.name, value=value,
                    problem=f"unknown setting {value!r}; "
                    f"choose one of {', '.join(repr(s) for s in spec.settings)}",
                )
            object.__setattr__(self, spec.name, spec.kind(value))

    def as_dict(self) -> dict[str, str]:
        """Every option's setting, as text."""
        return {spec.name: str(getattr(self, spec.name)) for spec in describe(type(self))}

    def differences(self) -> dict[str, str]:
        """The options whose setting differs from the declared default, as text."""
        return {
            spec.name: str(getattr(self, spec.name))
            for spec in describe(type(self))
            if getattr(self, spec.name) != spec.default
        }

    def setting(self, member: Setting) -> bool:
        """Whether the option that ``member`` is a setting of is set to it."""
        return bool(getattr(self, option_of(member).name) is member)


OptionsT = TypeVar("OptionsT", bound=RuleOptions)


_DESCRIBED: dict[type[RuleOptions], tuple[OptionSpec, ...]] = {}
_OPTION_OF: dict[type[Setting], OptionSpec] = {}


def option_of(member: Setting | type[Setting]) -> OptionSpec:
    """The option a setting (or a settings enum) belongs to."""
    kind = member if isinstance(member, type) else type(member)
    found = _OPTION_OF.get(kind)
    if found is None:
        raise OptionError(f"{kind.__name__} is not the settings enum of a declared option")
    return found


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
            default = field.default
            if not isinstance(default, Setting):
                raise OptionError(f"option {field.name!r}: its default is not a setting")
            specs.append(OptionSpec(name=field.name, default=default, **meta))
        found = _DESCRIBED[cls] = tuple(specs)
        for spec in found:
            if _OPTION_OF.setdefault(spec.kind, spec) is not spec:
                raise OptionError(f"{spec.kind.__name__} is the settings enum of two options")
    return found


def preset(cls: type[RuleOptions], *members: Setting) -> Mapping[str, Setting]:
    """A preset's settings, by option name: each member names its own option."""
    describe(cls)
    chosen = {option_of(member).name: member for member in members}
    if len(chosen) != len(members):
        raise OptionError(f"a preset of {cls.__name__} sets an option twice: {list(members)}")
    return chosen


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
