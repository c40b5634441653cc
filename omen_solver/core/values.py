"""Immutable values written as TOML data and read back exactly: the text form of a state.

A state of either game is made of a few kinds of values: numbers, strings, booleans, ``None``,
tuples, frozensets, mappings, :class:`fractions.Fraction`, enum members, and frozen dataclasses
or named tuples of those. :func:`encode` writes such a value as TOML data (arrays and inline
tables), naming each class it meets; :func:`decode` reads it back given the classes a game
allows, so nothing but those classes is ever built from a text. ``decode(encode(v)) == v`` for
every value of these kinds, which ``tests/package/test_state_text.py`` checks on random states.

A dataclass is written with the fields its constructor takes (``init=False`` fields are
computed again by the class itself). Tables use reserved keys: ``{none = true}``,
``{fraction = "1/3"}``, ``{set = [...]}``, ``{map = [[k, v], ...]}``, ``{enum = "Name",
value = ...}``, and ``{type = "Name", ...fields}`` for a dataclass or
``{type = "Name", items = [...]}`` for a named tuple.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from omen_solver.errors import PositionError

__all__ = ["decode", "encode", "toml_document"]


def encode(value: Any) -> Any:
    """``value`` as TOML data (see the module docstring for the kinds it takes)."""
    if value is None:
        return {"none": True}
    if isinstance(value, enum.Enum):
        return {"enum": type(value).__name__, "value": encode(value.value)}
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {item.name: encode(getattr(value, item.name))
                  for item in dataclasses.fields(value) if item.init}
        return {"type": type(value).__name__, **fields}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"type": type(value).__name__, "items": [encode(item) for item in value]}
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, frozenset):
        return {"set": sorted((encode(item) for item in value), key=repr)}
    if isinstance(value, Mapping):
        return {"map": [[encode(key), encode(item)] for key, item in value.items()]}
    raise TypeError(f"no text form for a value of type {type(value).__name__}: {value!r}")


def decode(data: Any, classes: Iterable[type], where: str) -> Any:
    """The value that :func:`encode` wrote as ``data``, built only from ``classes`` (errors,
    :class:`~omen_solver.errors.PositionError`, name ``where``)."""
    known = {cls.__name__: cls for cls in classes}
    return _decode(data, known, where)


def _decode(data: Any, known: Mapping[str, type], where: str) -> Any:
    if isinstance(data, bool | int | str):
        return data
    if isinstance(data, list):
        return tuple(_decode(item, known, where) for item in data)
    if not isinstance(data, dict):
        raise PositionError(f"{where}: unexpected {type(data).__name__} {data!r}")
    if data == {"none": True}:
        return None
    if set(data) == {"fraction"}:
        return Fraction(str(data["fraction"]))
    if set(data) == {"set"}:
        return frozenset(_decode(item, known, where) for item in data["set"])
    if set(data) == {"map"}:
        return {_decode(key, known, where): _decode(item, known, where)
                for key, item in data["map"]}
    if set(data) == {"enum", "value"}:
        return _class(known, data["enum"], where)(_decode(data["value"], known, where))
    if "type" in data:
        cls = _class(known, data["type"], where)
        if set(data) == {"type", "items"} and not dataclasses.is_dataclass(cls):
            return cls(*(_decode(item, known, where) for item in data["items"]))
        fields = {key: _decode(item, known, where) for key, item in data.items()
                  if key != "type"}
        try:
            return cls(**fields)
        except TypeError as error:
            raise PositionError(f"{where}: {data['type']}: {error}") from None
    raise PositionError(f"{where}: a table with unknown keys {sorted(data)}")


def _class(known: Mapping[str, type], name: object, where: str) -> type:
    if not isinstance(name, str) or name not in known:
        raise PositionError(f"{where}: unknown type {name!r}")
    return known[name]


def _inline(data: Any) -> str:
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, int):
        return str(data)
    if isinstance(data, str):
        return json.dumps(data, ensure_ascii=False)  # a TOML basic string: the same escapes
    if isinstance(data, list):
        return "[" + ", ".join(_inline(item) for item in data) + "]"
    if isinstance(data, dict):
        return "{" + ", ".join(f"{key} = {_inline(item)}" for key, item in data.items()) + "}"
    raise TypeError(f"not TOML data: {data!r}")


def toml_document(top: Mapping[str, Any], tables: Mapping[str, Mapping[str, Any]]) -> str:
    """A TOML document: the ``top`` keys, then one ``[table]`` per entry of ``tables``, one
    ``key = value`` line per key (keys are bare names; values are TOML data)."""
    lines = [f"{key} = {_inline(value)}" for key, value in top.items()]
    for name, table in tables.items():
        lines += ["", f"[{name}]", *(f"{key} = {_inline(value)}" for key, value in table.items())]
    return "\n".join(lines) + "\n"
