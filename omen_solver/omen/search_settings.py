"""How an Omen endgame is searched, as a position file's ``[search]`` table states it
(docs/omen.md, docs/omen-endgames.md): the value of draws, the reductions, the turns. A
state holds these values and the position codec reads and writes them, so they live in the
rules engine's layer; the search that uses them is :mod:`omen_solver.omen.endgame`."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from omen_solver.errors import OptionError

__all__ = ["ALL_REDUCTIONS", "DEFAULT_REDUCTIONS", "Draws", "EndgameSettings", "Reduction",
           "reductions_of"]


class Draws(enum.Enum):
    """How draws from an unknown (shuffled) deck are valued."""

    EXPECTED = "expected"
    """Chance nodes with the exact probabilities of the cards left: the expected result."""
    WORST_CASE = "worst-case"
    """Adversarial draws: each draw is the one worst for the asked seat."""


class Reduction(enum.Enum):
    """The ways the search keeps the tree small without changing the value."""

    KEEP_ORDERS = "keep-orders"
    """After a war the kept units are chosen in sorted order: each set of units once."""
    COMMUTING_PLAYS = "commuting-plays"
    """Consecutive plays of units with no entry ability are tried in one order."""
    SAME_STATE = "same-state"
    """Choices reaching the same state, or the same table with fewer coins for the chooser
    (when no card in play reads coins), are tried once."""
    VP_BOUNDS = "vp-bounds"
    """A state whose outcome the victory points still reachable decide is not searched."""
    STAR2 = "star2"
    """Star2 probing at chance nodes (Star1 is always on)."""


DEFAULT_REDUCTIONS = frozenset({Reduction.KEEP_ORDERS, Reduction.VP_BOUNDS})
"""The reductions on by default: those that never cost more nodes on the benchmark positions
(docs/benchmarks.md). The others are sound too, and pay off on some positions only."""

ALL_REDUCTIONS = frozenset(Reduction)


def reductions_of(value: bool | Iterable[Reduction | str]) -> frozenset[Reduction]:
    """``True``: the default set; ``False``: none; else the named ones."""
    if value is True:
        return DEFAULT_REDUCTIONS
    if value is False:
        return frozenset()
    if isinstance(value, str | Reduction):
        value = [value]
    chosen = set()
    for item in value:
        try:
            chosen.add(item if isinstance(item, Reduction) else Reduction(item))
        except ValueError:
            known = ", ".join(r.value for r in Reduction)
            raise OptionError(f"reduction {item!r}: unknown; known: {known}") from None
    return frozenset(chosen)


@dataclass(frozen=True)
class EndgameSettings:
    """How an endgame is searched (a position file's ``[search]`` table, docs/omen.md)."""

    turns: int | None = None
    """Turns searched, counting the turn in progress; ``None``: to the end of the game."""
    draws: Draws = Draws.EXPECTED
    margin: bool = False
    """Also find the best VP margin (a second search; ``omen endgame`` always does)."""
    reductions: frozenset[Reduction] = DEFAULT_REDUCTIONS
