"""The vocabulary of solving: solution concepts, errors, and the result of a solve."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from omen_solver.core.budget import Status
from omen_solver.core.search.moves import MoveAnswer
from omen_solver.errors import ConceptError

__all__ = ["Concept", "ConceptError", "MatrixReport", "SimultaneousMode", "SolveResult", "Status"]


class Concept(enum.Enum):
    """What "best play" means. Every answer names the one it used."""

    MINIMAX = "minimax"
    """Two teams whose returns add up to a constant: one team maximises its return, the other
    minimises it (zero-sum). Computed by alpha-beta; the only concept with a unique value."""
    MAXN = "maxn"
    """Any number of teams: every player maximises its own team's return (max-n). Ties between
    actions are broken by taking the first in legal-action order, so the value depends on that
    documented rule when ties leave other teams' returns different."""
    PARANOID = "paranoid"
    """One named team against a coalition of all the others, who minimise the named team's
    return: the value the named team can guarantee whatever the others do."""


class SimultaneousMode(enum.Enum):
    """How a simultaneous node where both sides choose is valued."""

    MIXED = "mixed"
    """The matrix game's value with mixed strategies (the default)."""
    LOWER = "lower"
    """The pure-strategy lower value: the maximising side's choice is revealed first."""
    UPPER = "upper"
    """The pure-strategy upper value: the minimising side's choice is revealed first."""


@dataclass(frozen=True, slots=True)
class MatrixReport:
    """The matrix game at a simultaneous root, from the asked team's side."""

    rows: tuple[str, ...]
    """The asked side's joint choices (canonical text)."""
    columns: tuple[str, ...]
    entries: tuple[tuple[Fraction, ...], ...]
    value: Fraction
    lower: Fraction
    upper: Fraction
    row_strategy: tuple[Fraction, ...]
    column_strategy: tuple[Fraction, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": list(self.rows),
            "columns": list(self.columns),
            "entries": [[str(x) for x in row] for row in self.entries],
            "value": str(self.value),
            "lower": str(self.lower),
            "upper": str(self.upper),
            "row_strategy": dict(zip(self.rows, map(str, self.row_strategy), strict=True)),
            "column_strategy": dict(
                zip(self.columns, map(str, self.column_strategy), strict=True)
            ),
        }


def _text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def _seats(team: tuple[int, ...]) -> list[int]:
    return [player + 1 for player in team]


@dataclass(frozen=True)
class SolveResult:
    """The answer of a solve. Values are exact team returns (expectations where chance or mixed
    strategies enter). When ``status`` is ``UNKNOWN`` only ``lower``/``upper`` are known."""

    status: Status
    concept: Concept
    teams: tuple[tuple[int, ...], ...]
    team: int
    """The index in ``teams`` of the team the value is given for (its seats:
    :attr:`team_seats`)."""
    value: Fraction | None
    """The asked team's value under the concept."""
    values: tuple[Fraction, ...] | None
    """Every team's value (minimax and max-n); ``None`` for paranoid."""
    lower: Fraction | None
    """A proven lower bound on the asked team's value (``None``: unbounded)."""
    upper: Fraction | None
    best_actions: tuple[str, ...]
    """Every optimal action at the root (for the team to move), in legal order."""
    principal_variation: tuple[str, ...]
    nodes: int
    states: int
    seconds: float
    pure_lower: Fraction | None = None
    """With simultaneous nodes that have no saddle: the value when the asked side's choice at
    each of them is revealed first (and ``pure_upper`` when the other side's is)."""
    pure_upper: Fraction | None = None
    root_matrix: MatrixReport | None = None
    note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    moves: tuple[MoveAnswer, ...] = ()
    """Every root move's answer for the asked team, best first for the side choosing
    (:mod:`omen_solver.core.search.moves`); empty where no one chooses (a chance or
    terminal root)."""

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    @property
    def team_seats(self) -> tuple[int, ...]:
        """The seats (from 1) of the team asked about: what ``solve(team=...)`` takes."""
        return tuple(_seats(self.teams[self.team]))

    @property
    def winner_seats(self) -> tuple[int, ...] | None:
        """The seats (from 1) of the winning team (see :attr:`winner`), or ``None``."""
        return None if self.winner is None else tuple(_seats(self.teams[self.winner]))

    @property
    def winner(self) -> int | None:
        """The team with strictly the highest value (minimax, max-n); ``None`` for a tie,
        for paranoid (which values only the named team) and when unknown."""
        if self.values is None or not self.solved:
            return None
        best = max(self.values)
        leaders = [i for i, v in enumerate(self.values) if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def answer(self) -> Any:
        """The answer in JSON form: the winning team's seats for minimax, else the concept and
        the outcome."""
        if not self.solved:
            return None
        winner = None if self.winner is None else _seats(self.teams[self.winner])
        if self.concept is Concept.MINIMAX:
            return winner
        outcome: dict[str, Any] = {"team": _seats(self.teams[self.team]), "value": str(self.value)}
        if self.values is not None:
            outcome["values"] = [str(v) for v in self.values]
            outcome["winner"] = winner
        return {"concept": self.concept.value, "outcome": outcome}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status.value,
            "concept": self.concept.value,
            "answer": self.answer(),
            "team": _seats(self.teams[self.team]),
            "teams": [_seats(team) for team in self.teams],
            "value": _text(self.value),
            "values": None if self.values is None else [str(v) for v in self.values],
            "lower": _text(self.lower),
            "upper": _text(self.upper),
            "best_actions": list(self.best_actions),
            "principal_variation": list(self.principal_variation),
            "moves": [move.to_json() for move in self.moves],
            "nodes": self.nodes,
            "states": self.states,
            "seconds": round(self.seconds, 6),
        }
        if self.pure_lower is not None or self.pure_upper is not None:
            data["pure_lower"] = _text(self.pure_lower)
            data["pure_upper"] = _text(self.pure_upper)
        if self.root_matrix is not None:
            data["root_matrix"] = self.root_matrix.to_json()
        if self.note:
            data["note"] = self.note
        data.update(self.extra)
        return data
