"""Values written as text, and read back exactly: TOML documents, and the one-line text of a
position (``docs/position-text.md``).

* :func:`toml_text` writes TOML data (what :func:`tomllib.loads` returns) as a document: the
  top keys, then each table under its header (``[bout]``, ``[puzzle.answer]``), arrays of
  tables as ``[[city]]``; ``tomllib.loads(toml_text(d)) == d``. Every position file the
  library writes goes through it.
* :func:`split_line` cuts a line into its words (spaces separate them, except inside double
  quotes and brackets), :func:`word_pairs` reads ``key=value`` words, and :func:`quoted`
  writes a word that needs quotes.
* :func:`write_value` and :func:`read_value` write any immutable value of a state as one word
  and read it back, building only the classes a game allows: numbers, strings, ``true`` and
  ``false``, ``~`` for None, fractions ``1/3``, tuples ``[a,b]``, frozensets ``{a,b}``,
  mappings ``{k:v}``, enum members ``Name.MEMBER``, and frozen dataclasses or named tuples
  ``Name(field=value,...)`` (fields at their default left out). Omen's stack of frames is
  written so.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Final

from omen_solver.errors import PositionError, shown

__all__ = [
    "quoted",
    "read_value",
    "split_line",
    "toml_text",
    "word_pairs",
    "write_value",
]


# -- TOML documents ----------------------------------------------------------------------------

_BARE_KEY: Final = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else json.dumps(name, ensure_ascii=False)


def _inline(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string: same escapes
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} in TOML")


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list | tuple) and bool(value) and all(map(_is_table, value))


def _body(data: Mapping[str, Any], prefix: str, lines: list[str],
          spread: frozenset[str]) -> None:
    for key, value in data.items():
        if _is_table(value) or _is_table_array(value):
            continue
        if f"{prefix}{key}" in spread and isinstance(value, list | tuple) and value:
            lines += [f"{_key(key)} = [", *(f"    {_inline(item)}," for item in value), "]"]
        else:
            lines.append(f"{_key(key)} = {_inline(value)}")
    for name, value in data.items():
        full = f"{prefix}{_key(name)}"
        if _is_table(value):
            lines += ["", f"[{full}]"]
            _body(value, f"{full}.", lines, spread)
        elif _is_table_array(value):
            for table in value:
                lines += ["", f"[[{full}]]"]
                _body(table, f"{full}.", lines, spread)


def toml_text(data: Mapping[str, Any], comments: Iterable[str] = (),
              spread: Iterable[str] = ()) -> str:
    """A TOML document for TOML data: ``comments`` first (one ``# `` line each), the top keys,
    then each table (and array of tables) under its header, in the order given; the arrays
    named in ``spread`` (dotted keys: ``bout.moves``) one item per line."""
    lines = [f"# {line}".rstrip() for line in comments]
    _body(data, "", lines, frozenset(spread))
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines) + "\n"


# -- the words of a line ---------------------------------------------------------------------

_OPEN: Final = {"[": "]", "(": ")", "{": "}"}


def split_line(text: str, name: str = "<text>") -> list[str]:
    """The words of a line: separated by spaces, except inside double quotes (with JSON's
    escapes) and brackets. Errors, :class:`~omen_solver.errors.PositionError`, name ``name``."""
    words: list[str] = []
    current: list[str] = []
    closing: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            end = _string_end(text, index, name)
            current.append(text[index:end])
            index = end
            continue
        if char in _OPEN:
            closing.append(_OPEN[char])
        elif closing and char == closing[-1]:
            closing.pop()
        elif char in ")]}":
            raise PositionError(f"{name}: {char!r} at column {index + 1} closes nothing")
        if char.isspace() and not closing:
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
        index += 1
    if closing:
        raise PositionError(f"{name}: {closing[-1]!r} missing at the end")
    if current:
        words.append("".join(current))
    return words


def _string_end(text: str, start: int, name: str) -> int:
    index = start + 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == '"':
            return index + 1
        index += 1
    raise PositionError(f"{name}: the string at column {start + 1} has no closing quote")


def unquoted(word: str, name: str = "<text>") -> str:
    """A word as written: its text, or the string a double-quoted word holds."""
    if not word.startswith('"'):
        return word
    try:
        value = json.loads(word)
    except ValueError:
        raise PositionError(f"{name}: {shown(word)} is not a string in double quotes") from None
    if not isinstance(value, str):
        raise PositionError(f"{name}: {shown(word)} is not a string in double quotes")
    return value


_PLAIN: Final = re.compile(r"^[^\s\"=\[\](){}]+$")


def quoted(text: str) -> str:
    """``text`` as one word of a line: as is, or in double quotes if it needs them."""
    return text if _PLAIN.match(text) else json.dumps(text, ensure_ascii=False)


def word_pairs(words: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    """``(key, value)`` of each ``key=value`` word (a word without ``=`` is ``(word, "")``, a
    flag); a key given twice is refused."""
    seen: set[str] = set()
    for word in words:
        key, _, value = word.partition("=")
        if key in seen:
            raise PositionError(f"{name}: {key!r} is given twice")
        seen.add(key)
        yield key, value


# -- any value of a state as one word ------------------------------------------------------------

_BARE: Final = re.compile(r"^[A-Za-z_?][A-Za-z0-9_?!+-]*$")
_RESERVED: Final = frozenset({"true", "false"})


def write_value(value: Any) -> str:
    """``value`` as one word (see the module docstring for the kinds it takes)."""
    if value is None:
        return "~"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, str):
        return value if _BARE.match(value) and value not in _RESERVED else json.dumps(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f"{item.name}={write_value(getattr(value, item.name))}"
                  for item in dataclasses.fields(value)
                  if item.init and not _at_default(item, getattr(value, item.name))]
        return f"{type(value).__name__}({','.join(fields)})"
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        fields = [f"{field}={write_value(item)}"
                  for field, item in zip(value._fields, value, strict=True)]
        return f"{type(value).__name__}({','.join(fields)})"
    if isinstance(value, tuple):
        return "[" + ",".join(write_value(item) for item in value) + "]"
    if isinstance(value, frozenset):
        return "{" + ",".join(sorted(write_value(item) for item in value)) + "}"
    if isinstance(value, Mapping):
        pairs = [f"{write_value(k)}:{write_value(v)}" for k, v in value.items()]
        return "{" + (",".join(pairs) if pairs else ":") + "}"
    raise TypeError(f"no text for a value of type {type(value).__name__}: {value!r}")


def _at_default(item: dataclasses.Field[Any], value: Any) -> bool:
    if item.default is not dataclasses.MISSING:
        return bool(value == item.default)
    if item.default_factory is not dataclasses.MISSING:
        return bool(value == item.default_factory())
    return False


def read_value(text: str, classes: Iterable[type], where: str) -> Any:
    """The value :func:`write_value` wrote as ``text``, built only from ``classes`` (errors,
    :class:`~omen_solver.errors.PositionError`, name ``where``)."""
    known = {cls.__name__: cls for cls in classes}
    reader = _ValueReader(text, known, where)
    value = reader.value()
    if reader.index != len(text):
        raise reader.fail("unexpected text after the value")
    return value


MAX_DEPTH: Final = 64
"""The deepest a value text nests (a turn's frames nest a few levels): deeper is refused."""
MAX_DIGITS: Final = 30
"""The longest number a value text holds (a state's numbers are small)."""

_NUMBER: Final = re.compile(r"-?[0-9]+(?:/[0-9]+)?")
_NAME: Final = re.compile(r"[A-Za-z_?][A-Za-z0-9_?!+-]*")


class _ValueReader:
    def __init__(self, text: str, known: Mapping[str, type], where: str) -> None:
        self.text = text
        self.known = known
        self.where = where
        self.index = 0
        self.depth = 0

    def fail(self, problem: str) -> PositionError:
        return PositionError(f"{self.where}: {problem} at column {self.index + 1} of "
                             f"{shown(self.text)}")

    def peek(self) -> str:
        return self.text[self.index:self.index + 1]

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.fail(f"expected {char!r}")
        self.index += 1

    def value(self) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.fail(f"values nested more than {MAX_DEPTH} deep")
            return self._value()
        finally:
            self.depth -= 1

    def _value(self) -> Any:
        char = self.peek()
        if char == "~":
            self.index += 1
            return None
        if char == '"':
            end = _string_end(self.text, self.index, self.where)
            word = self.text[self.index:end]
            self.index = end
            return unquoted(word, self.where)
        if char == "[":
            return tuple(self.items("[", "]", self.value))
        if char == "{":
            return self.braces()
        number = _NUMBER.match(self.text, self.index)
        if number:
            found = number.group()
            if len(found) > MAX_DIGITS:
                raise self.fail(f"a number of {len(found)} digits")
            self.index = number.end()
            return Fraction(found) if "/" in found else int(found)
        name = _NAME.match(self.text, self.index)
        if not name:
            raise self.fail("expected a value")
        self.index = name.end()
        word = name.group()
        if word in _RESERVED:
            return word == "true"
        if self.peek() == ".":
            return self.member(word)
        if self.peek() == "(":
            return self.instance(word)
        return word

    def items(self, open_: str, close: str, read: Any) -> Iterator[Any]:
        self.expect(open_)
        if self.peek() == close:
            self.index += 1
            return
        while True:
            yield read()
            if self.peek() == close:
                self.index += 1
                return
            self.expect(",")

    def braces(self) -> Any:
        if self.text.startswith("{:}", self.index):
            self.index += 3
            return {}
        start = self.index
        self.expect("{")
        if self.peek() == "}":
            self.index += 1
            return frozenset()
        self.value()
        if self.peek() != ":":
            self.index = start
            return frozenset(self.items("{", "}", self.value))
        self.index = start
        return dict(self.items("{", "}", self.pair))

    def pair(self) -> tuple[Any, Any]:
        key = self.value()
        self.expect(":")
        return key, self.value()

    def cls(self, name: str) -> type:
        found = self.known.get(name)
        if found is None:
            raise self.fail(f"unknown type {name!r}")
        return found

    def member(self, name: str) -> Any:
        cls = self.cls(name)
        self.expect(".")
        member = _NAME.match(self.text, self.index)
        if not member or not issubclass(cls, enum.Enum) or member.group() not in cls.__members__:
            raise self.fail(f"{name} has no such member")
        self.index = member.end()
        return cls[member.group()]

    def instance(self, name: str) -> Any:
        cls = self.cls(name)
        fields = dict(self.items("(", ")", self.field))
        try:
            return cls(**fields)
        except TypeError as error:
            raise self.fail(f"{name}: {error}") from None

    def field(self) -> tuple[str, Any]:
        name = _NAME.match(self.text, self.index)
        if not name:
            raise self.fail("expected a field name")
        self.index = name.end()
        self.expect("=")
        return name.group(), self.value()
