"""The exceptions of the library. Every input error is a :class:`ValueError` subclass whose
message names the file, the key or line, and what is wrong, so the CLI can print it as is."""

from __future__ import annotations

from omen_solver.core.options import OptionError

__all__ = [
    "CatalogueError",
    "IllegalActionError",
    "InvalidActionError",
    "OmenSolverError",
    "OptionError",
    "PositionError",
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
