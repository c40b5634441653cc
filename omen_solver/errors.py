"""The exceptions of the library. Every input error is a :class:`ValueError` subclass whose
message names the file, the key or line, and what is wrong, so the CLI can print it as is."""

from __future__ import annotations

import unicodedata

from omen_solver.core.options import OptionError

__all__ = [
    "SHOWN_CHARS",
    "CatalogueError",
    "IllegalActionError",
    "InvalidActionError",
    "OmenSolverError",
    "OptionError",
    "PositionError",
    "one_line",
    "shown",
]

class OmenSolverError(ValueError):
    """Base class of the library's input errors."""


class CatalogueError(OmenSolverError):
    """A card catalogue file is malformed: names the file, the card and the field."""


class PositionError(OmenSolverError):
    """A position file is malformed or impossible: names the file and the key."""


class InvalidActionError(OmenSolverError):
    """Action text that does not parse (a syntax error in the notation)."""


class IllegalActionError(OmenSolverError):
    """An action that parses but is not legal in the position."""


SHOWN_CHARS = 60
"""The most characters of a piece of input a message repeats."""


def shown(value: object) -> str:
    """``repr`` of a piece of input for a message, cut short if long (and an integer of
    thousands of digits described, not written), so a message stays one readable line."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**SHOWN_CHARS:
        return f"<a number of {len(str(abs(value)))} digits>"
    text = repr(value)
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[: SHOWN_CHARS - 1]}… ({len(text):,} characters)"


_ESCAPED = frozenset({"Cc", "Zl", "Zp", "Cs"})
"""Unicode categories written escaped in a message: control characters, line and paragraph
separators, lone surrogates."""


def one_line(message: object) -> str:
    """A message as one line: a file name or a key may hold a line break or another control
    character, which the message shows escaped, as Python would."""
    return "".join(
        repr(char)[1:-1] if unicodedata.category(char) in _ESCAPED else char
        for char in str(message)
    )
