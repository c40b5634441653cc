"""Optional hooks a game may add to its states for enumeration and search.

The game protocol (:mod:`omen_solver.core.game`) is all a walk needs. A game can offer more:

``stop_predicate(name) -> Callable[[state], bool]``
    Named stopping points, so that perft, graph export and the CLI's ``--to NAME`` can stop at,
    say, the end of the bout or the end of the round instead of at a fixed depth. The method is
    called on the **root** state of the walk, so the predicate can remember where the walk
    started (e.g. "the bout in progress at the root is over"). The predicate is tested on every
    state reached after at least one action, never on the root itself; a state where it holds
    is a leaf. It must depend only on what :meth:`GameState.key` captures, since counts of
    transposed states are shared. An unknown ``name`` raises :class:`ValueError` (preferably
    :class:`omen_solver.errors.OptionError`) naming the known ones.

``stop_points() -> tuple[str, ...]``
    The names ``stop_predicate`` accepts, for help texts and error messages.

``return_bounds() -> tuple[Fraction, Fraction]``
    Bounds ``(low, high)`` that every team return of every terminal state lies within (for
    example ``(0, 1)`` for win or lose). The zero-sum solver then starts from that window, so a
    winning line cuts its siblings at once, and prunes below chance nodes (Star1). Terminal
    returns outside the bounds are reported as an error, never silently used.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from omen_solver.core.game import GameState
from omen_solver.errors import OmenSolverError, OptionError

__all__ = [
    "ChoiceError",
    "HasReturnBounds",
    "HasStopPoints",
    "StopPredicate",
    "resolve_stop",
    "return_bounds",
    "stop_points",
]

StopPredicate = Callable[[Any], bool]


class ChoiceError(OmenSolverError, OptionError):
    """An unknown choice given to a walk (a stopping point, a concept, a team): both an input
    error of the library and an option error, so callers may catch either."""


@runtime_checkable
class HasStopPoints(Protocol):
    """A state that names stopping points such as ``bout`` and ``round``."""

    def stop_predicate(self, name: str) -> StopPredicate: ...


@runtime_checkable
class HasReturnBounds(Protocol):
    """A state that knows bounds on every team return."""

    def return_bounds(self) -> tuple[Fraction, Fraction]: ...


def stop_points(state: GameState[Any]) -> tuple[str, ...]:
    """The stopping-point names the game offers (empty if it offers none or does not say)."""
    names = getattr(state, "stop_points", None)
    if names is None:
        return ()
    return tuple(str(name) for name in names())


def resolve_stop(state: GameState[Any], stop: str | StopPredicate | None) -> StopPredicate | None:
    """A stop predicate from a name (asked of the root state) or a callable given as is."""
    if stop is None or callable(stop):
        return stop
    if not isinstance(state, HasStopPoints):
        raise ChoiceError(
            f"stopping point {stop!r}: {type(state).__name__} names no stopping points "
            "(it has no stop_predicate method); give a depth instead"
        )
    try:
        return state.stop_predicate(stop)
    except ValueError as error:
        # The game's own message names the point already; the known names are added once.
        known = stop_points(state)
        problem = f"unknown; known: {', '.join(known)}" if known else str(error)
        raise ChoiceError(f"stopping point {stop!r}: {problem}") from None


def return_bounds(state: GameState[Any]) -> tuple[Fraction, Fraction] | None:
    """The game's bounds on team returns, or ``None`` if it declares none."""
    if not isinstance(state, HasReturnBounds):
        return None
    low, high = state.return_bounds()
    low, high = Fraction(low), Fraction(high)
    if low > high:
        raise ChoiceError(f"{type(state).__name__}.return_bounds(): low {low} exceeds high {high}")
    return low, high
