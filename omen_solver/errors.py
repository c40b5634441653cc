"""The exceptions of the library, every one of them (the only others are private signals a
module raises and catches itself). Every input error is a :class:`ValueError` subclass whose
message names the file, the key or line, and what is wrong, so the CLI can print it as is."""

from __future__ import annotations

import unicodedata

__all__ = [
    "SHOWN_CHARS",
    "AdviceError",
    "ArithmeticQuestionError",
    "BudgetExceeded",
    "CatalogueError",
    "ChoiceError",
    "ClusterError",
    "ConceptError",
    "DealError",
    "EngineError",
    "EngineStartError",
    "FolderLocked",
    "GraphTooLargeError",
    "IllegalActionError",
    "InvalidActionError",
    "JobError",
    "KernelRefused",
    "KernelUnsupported",
    "MissingDependencyError",
    "NoWorkers",
    "OmenSolverError",
    "OptionError",
    "PositionError",
    "RequestError",
    "SchedulerError",
    "SmtUnknown",
    "SurveyFileError",
    "TheoremFileError",
    "VectorFileError",
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


class OptionError(ValueError):
    """An unknown option, an unknown setting, or an unknown preset."""


class ChoiceError(OmenSolverError, OptionError):
    """An unknown choice given to a walk (a stopping point, a concept, a team): both an input
    error of the library and an option error, so callers may catch either."""


class KernelRefused(OmenSolverError):
    """A game's search kernel does not play a position (says what and why)."""


class KernelUnsupported(KernelRefused):
    """A table or position the search kernel does not play (says what and why)."""


class ConceptError(OmenSolverError):
    """A solution concept that does not fit the position (says why and what fits)."""


class BudgetExceeded(Exception):
    """A walk reached its node or time limit. Caught by the public functions."""

    def __init__(self, reason: str, nodes: int, seconds: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.nodes = nodes
        self.seconds = seconds


class GraphTooLargeError(OmenSolverError):
    """The graph would exceed its node limit."""


class MissingDependencyError(OmenSolverError):
    """An optional extra is needed and not installed: the message names it."""


class SmtUnknown(Exception):
    """z3 could not decide a query; ``reason`` is z3's ``reason_unknown()``."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what}: z3 returned unknown ({reason})")
        self.what = what
        self.reason = reason


class ArithmeticQuestionError(OmenSolverError):
    """A position or question the arithmetic model does not cover (says why)."""


class VectorFileError(OmenSolverError):
    """A vector, perft, coverage or reference file that is not valid JSON or breaks its
    schema: names the file and the JSON path."""


class EngineStartError(OmenSolverError):
    """The engine command cannot be started or does not answer ``hello``: bad input."""


class EngineError(Exception):
    """The engine died, did not answer in time, or answered something that is not a protocol
    answer."""


class DealError(OmenSolverError):
    """A deal that cannot be made (players, hand size)."""


class AdviceError(OmenSolverError):
    """A view that cannot be advised on (says why)."""


class SurveyFileError(OmenSolverError):
    """A results file that does not belong to this survey, or is not one."""


class SchedulerError(OmenSolverError):
    """``--scheduler`` names no Dask scheduler that answers (the message says what answered)."""


class ClusterError(Exception):
    """A Dask cluster failed in a way a run cannot go on from (its records so far are kept)."""


class NoWorkers(ClusterError):
    """A Dask cluster had no worker for the workers timeout."""


class TheoremFileError(OmenSolverError):
    """A theorem file that cannot be loaded: names the file and what is wrong."""


class FolderLocked(OmenSolverError):
    """Another process holds the folder's lock (the message names it)."""


class JobError(OmenSolverError):
    """A job that cannot be started (too many running) or is unknown."""


class RequestError(OmenSolverError):
    """A request the server cannot answer: a missing field, a wrong type, a path asked for."""


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
