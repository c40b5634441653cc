"""The exceptions of the library, every one of them (the only others are private signals a
module raises and catches itself). Every input error is a :class:`ValueError` subclass whose
message names the file, the key or line, and what is wrong, so the CLI can print it as is.

An input error also carries what its message says as fields (:class:`Located`): ``file``,
``key``, ``value`` (the input refused), ``rule`` (the rule id behind a refusal) and
``problem`` (what is wrong). Code that passes an error up to a caller who knows more (the file
a key was read from, the key a move was written under) says so with :meth:`Located.at` or
:meth:`Located.located`, never by cutting the message apart.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Self, TypeVar

__all__ = [
    "NO_VALUE",
    "SHOWN_CHARS",
    "AdviceError",
    "ArithmeticQuestionError",
    "BudgetExceeded",
    "CardNameError",
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
    "Located",
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
    "UnknownChoiceError",
    "VectorFileError",
    "one_line",
    "shown",
]


class _NoValue:
    """The ``value`` of an error that names no single piece of input."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_VALUE"

    def __reduce__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()

LocatedT = TypeVar("LocatedT", bound="Located")


class Located(ValueError):
    """An input error with the parts of its message as fields.

    ``Located("text")`` is an error with a message only (its ``problem``); with keywords the
    message is made from the fields: ``FILE: key 'KEY': PROBLEM`` (or ``KEY: PROBLEM``
    without a file, ``FILE: PROBLEM`` without a key)."""

    def __init__(self, message: str | None = None, *, file: str | None = None,
                 key: str | None = None, value: Any = NO_VALUE, rule: str | None = None,
                 problem: str | None = None) -> None:
        self.file = file
        self.key = key
        self.value = value
        self.rule = rule
        self.problem = problem if problem is not None else (message or "")
        super().__init__(message if message is not None else self._message())

    def _message(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}: "
            if self.key is not None:
                where += f"key '{self.key}': "
        elif self.key is not None:
            where = f"{self.key}: "
        return where + self.problem

    def relative(self) -> str:
        """The message without the file: what is wrong, said inside the file."""
        if self.file is None:
            return str(self)
        return f"key '{self.key}': {self.problem}" if self.key is not None else self.problem

    def __reduce__(self) -> Any:
        fields = {"file": self.file, "key": self.key, "value": self.value, "rule": self.rule,
                  "problem": self.problem}
        return _rebuild, (type(self), str(self), fields)

    def at(self, *, file: str | None = None, key: str | None = None,
           rule: str | None = None) -> Self:
        """The same error said from where the caller stands: in ``file``, under ``key``.

        An error that names no file yet takes ``file``, and ``key`` goes before its own key
        (``bout`` + ``leader`` is ``bout.leader``). An error that already names a file (a card
        file read for a position) becomes the problem of the outer one, whole."""
        return self.located(type(self), file=file, key=key, rule=rule)

    def located(self, cls: type[LocatedT], *, file: str | None = None, key: str | None = None,
                rule: str | None = None) -> LocatedT:
        """As :meth:`at`, as an error of class ``cls`` (a position's key refusing an option:
        a :class:`PositionError`)."""
        rule = rule if rule is not None else self.rule
        if self.file is not None and (file is not None or key is not None):
            return cls(file=file, key=key, value=self.value, rule=rule, problem=str(self))
        if self.key is not None and key is not None:
            key = f"{key}{'' if self.key.startswith('[') else '.'}{self.key}"
        return cls(file=file if file is not None else self.file,
                   key=key if key is not None else self.key, value=self.value, rule=rule,
                   problem=self.problem)


def _rebuild(cls: type[Located], message: str, fields: dict[str, Any]) -> Located:
    """An error again from its pickled parts (errors cross process boundaries)."""
    error = cls(message)
    for name, value in fields.items():
        setattr(error, name, value)
    return error


class OmenSolverError(Located):
    """Base class of the library's input errors."""


class CatalogueError(OmenSolverError):
    """A card catalogue file is malformed: names the file, the card and the field."""


class CardNameError(OmenSolverError):
    """A card written by a name no card has, or several have (the message lists the closest
    names)."""


class PositionError(OmenSolverError):
    """A position file is malformed or impossible: names the file and the key."""


class InvalidActionError(OmenSolverError):
    """Action text that does not parse (a syntax error in the notation)."""


class UnknownChoiceError(InvalidActionError):
    """Action text whose choice word is not one of the notation's (``value`` is the word)."""


class IllegalActionError(OmenSolverError):
    """An action that parses but is not legal in the position."""


class OptionError(Located):
    """An unknown option, an unknown setting, or an unknown preset (``key`` names it:
    ``preset``, or ``rules.OPTION`` for an option given under ``rules``)."""


class ChoiceError(OmenSolverError, OptionError):
    """An unknown choice given to a walk (a stopping point, a concept, a team): both an input
    error of the library and an option error, so callers may catch either."""


class KernelRefused(OmenSolverError):
    """A game's search kernel does not play a position (says what and why)."""


class KernelUnsupported(KernelRefused):
    """A table or position the search kernel does not play (says what and why)."""


class StaleBuildWarning(RuntimeWarning):
    """The compiled kernel imports but was built from other C sources than those beside it:
    the pure-Python kernel runs instead (same answers, slower). The command line shows it as
    one line, ``omen-solver: warning: ...``."""


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
