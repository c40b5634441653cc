"""What the kernel's exact search can be expected to finish, said before it starts.

A measured model (``benchmarks/omens_reach.py``: seeded positions of 4, 5 and 6 players, dealt
hands of 2 to 4 cards and the bout starts of full deals after their first bouts, each solved as
``solve`` does by default): for each number of players, the base-10 logarithm of the nodes a
solve needs is about a straight line in the cards still in the hands (:data:`MODEL`), with a
spread about it. The chance that a solve finishes within a budget is then that of a normal
law, a budget in seconds counting :data:`NODES_PER_SECOND` nodes a second (the compiled
kernel on this project's machine; the pure-Python kernel, about 35 times fewer). Where that
chance is below a half, :func:`out_of_reach` says so before the search, with what to try that
the command line does not already ask for; the search runs anyway, and every move gets what is
proven and, where nothing is, an estimate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.omens.kernel import compiled
from omen_solver.omens.state import OmensState

__all__ = [
    "MODEL",
    "NODES_PER_SECOND",
    "Reach",
    "expected",
    "out_of_reach",
]

MODEL: Final[Mapping[int, tuple[float, float, float]]] = {
    4: (-1.04, 0.52, 0.8),
    5: (-3.9, 0.68, 0.8),
    6: (-2.0, 0.5, 0.8),
}
"""Per number of players: (intercept, slope, spread) of log10(nodes of a solve) against the
cards in the hands (``python benchmarks/omens_reach.py --fit`` prints them)."""
NODES_PER_SECOND: Final = 600_000
"""Nodes a second of a default solve on one thread, compiled kernel (``--rate``)."""
PURE_PYTHON_SLOWER: Final = 35
"""How many times fewer nodes a second the pure-Python kernel searches."""
DEFAULT_SECONDS: Final = 30.0
"""The budget assumed when none is given (``solve``'s default)."""
NOT_EXPECTED: Final = 0.5
"""Below this chance of finishing, the value is said not to be expected."""
LONGEST_SUGGESTED: Final = 3600.0
"""More time is suggested only up to this many seconds."""


@dataclass(frozen=True)
class Reach:
    """The model's view of one position and budget."""

    players: int
    cards: int
    nodes: float
    """The nodes a solve of such a position needs, as the model expects (its median)."""
    allowed: float
    """The nodes the budget allows."""
    chance: float
    """The chance that the solve finishes within the budget."""

    @property
    def expected(self) -> bool:
        return self.chance >= NOT_EXPECTED


def _rate(pure_python: bool | None, threads: int) -> float:
    pure = (not compiled.AVAILABLE) if pure_python is None else pure_python
    rate = NODES_PER_SECOND / (PURE_PYTHON_SLOWER if pure else 1)
    # the root's moves are searched on threads in rounds: a second thread adds most of one
    return rate * (1 + 0.75 * (min(max(threads, 1), 2) - 1))


def _line(players: int, cards: int) -> tuple[float, float]:
    intercept, slope, spread = MODEL.get(players, MODEL[max(MODEL)])
    return intercept + slope * cards, spread


def expected(state: OmensState, budget: Budget | None = None, *, threads: int = 1,
             pure_python: bool | None = None) -> Reach:
    """The chance that a default solve of ``state`` finishes within ``budget`` (default: the
    default 30 s)."""
    players = state.num_players()
    cards = sum(len(hand) for hand in state.hands)
    budget = budget or Budget(max_seconds=DEFAULT_SECONDS)
    allowed = math.inf
    if budget.max_nodes is not None:
        allowed = float(budget.max_nodes)
    if budget.max_seconds is not None:
        allowed = min(allowed, budget.max_seconds * _rate(pure_python, threads))
    if state.is_terminal() or allowed == math.inf:
        return Reach(players, cards, 1.0, allowed, 1.0)
    mean, spread = _line(players, cards)
    chance = NormalDist(mean, spread).cdf(math.log10(max(allowed, 1.0)))
    return Reach(players, cards, 10 ** mean, allowed, chance)


def _nodes_text(nodes: float) -> str:
    if nodes >= 1e9:
        return f"{nodes / 1e9:.0f} billion"
    if nodes >= 1e6:
        return f"{nodes / 1e6:.0f} million"
    return f"{nodes:,.0f}"


def _seconds_text(seconds: float) -> str:
    if seconds < 1:
        return "under a second"
    if seconds >= 7200:
        return f"{seconds / 3600:.0f} hours"
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds:.0f} s"


def out_of_reach(state: OmensState, budget: Budget | None = None, *, threads: int = 1,
                 given: Mapping[str, Any] | None = None, pure_python: bool | None = None
                 ) -> str | None:
    """Why the exact value of ``state`` is not expected within ``budget``, and what to try
    that the command line (``given``: its options ``deal``, ``cards``, ``moves``; the limits
    are ``budget``'s) does not already ask for; ``None`` when it is expected."""
    reach = expected(state, budget, threads=threads, pure_python=pure_python)
    if reach.expected:
        return None
    given = given or {}
    rate = _rate(pure_python, threads)
    tries = ["a later position (--moves M1 M2 ... from here, or a file at a later bout)"]
    per_hand = max(len(hand) for hand in state.hands)
    if given.get("deal") is not None:
        smaller = [k for k in range(per_hand - 1, 1, -1)
                   if _line(reach.players, k * reach.players)[0] <= math.log10(reach.allowed)]
        if smaller:
            tries.append(f"fewer cards (--cards {smaller[0]})")
    needed = reach.nodes / rate
    budget = budget or Budget(max_seconds=DEFAULT_SECONDS)
    if budget.max_nodes is not None and reach.allowed == budget.max_nodes:
        nodes = 10 ** math.ceil(math.log10(reach.nodes))
        tries.append(f"more nodes (--max-nodes {nodes:,.0f})".replace(",", ""))
    if needed <= LONGEST_SUGGESTED and (budget.max_seconds is None
                                        or needed > budget.max_seconds):
        tries.append(f"more time (--max-seconds {math.ceil(needed / 10) * 10:.0f})")
    about = (f"a {reach.players}-player position with {reach.cards} cards in the hands needs "
             f"about {_nodes_text(reach.nodes)} nodes ({_seconds_text(needed)} here), the "
             f"budget allows about {_nodes_text(reach.allowed)}")
    return (f"{reach.cards} cards are still in the hands: the exact value is not expected "
            f"within the budget ({about}; a chance of {reach.chance:.0%}). Searching anyway: "
            "every move gets what is proven and, where nothing is, an estimate. To settle "
            f"more: {', or '.join(tries)}")
