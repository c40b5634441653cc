"""The exceptions of the library. Every input error is a :class:`ValueError` subclass whose
message names the file, the key or line, and what is wrong, so the CLI can print it as is."""

from __future__ import annotations

from omen_solver.core.options import OptionError

__all__ = [
    "SHOWN_CHARS",
    "CatalogueError",
    "IllegalActionError",
    "InvalidActionError",
    "OmenSolverError",
    "OptionError",
    "PositionError",
    "shown",
]

SHOWN_CHARS = 60
"""The most characters of a piece of input a message repeats."""


def shown(text: object) -> str:
    """``repr`` of a piece of input for a message, shortened if long, so that a message stays
    one readable line whatever was typed."""
    if isinstance(text, int) and not isinstance(text, bool) and abs(text) >= 10**SHOWN_CHARS:
        return f"<a number of {len(str(abs(text)))} digits>"
    if isinstance(text, str) and len(text) > SHOWN_CHARS:
        return repr(text[: SHOWN_CHARS - 1] + "…") + f" ({len(text):,} characters)"
    return repr(text)


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
