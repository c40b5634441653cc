"""What enumeration and search read from a game's descriptor beyond the game protocol.

The game protocol (:mod:`omen_solver.core.game`) is all a walk needs. A game's registered
:class:`~omen_solver.core.game.Game` can say more, and these functions read it for any state:

* **stopping points** (``Game.stop_points``, ``Game.stop_predicate``), so that perft, graph
  export and the CLI's ``--to NAME`` can stop at, say, the end of the bout instead of at a fixed
  depth. The predicate is made from the **root** state of the walk, so it can remember where the
  walk started; it is tested on every state reached after at least one action, never on the
  root; a state where it holds is a leaf.
* **return bounds** (``Game.return_bounds``): ``(low, high)`` around every team return, from
  which the zero-sum solver starts its window (a winning line cuts its siblings at once) and
  prunes below chance nodes (Star1).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from omen_solver.core.game import GameState, game_of
from omen_solver.errors import ChoiceError

__all__ = [
    "StopPredicate",
    "resolve_stop",
    "return_bounds",
    "stop_points",
]

StopPredicate = Callable[[Any], bool]


def stop_points(state: GameState[Any]) -> tuple[str, ...]:
    """The stopping-point names the game of ``state`` offers (empty if it offers none)."""
    return game_of(state).stop_points


def resolve_stop(state: GameState[Any], stop: str | StopPredicate | None) -> StopPredicate | None:
    """A stop predicate from a name (made from the root state) or a callable given as is."""
    if stop is None or callable(stop):
        return stop
    game = game_of(state)
    if game.stop_predicate is None:
        raise ChoiceError(
            f"stopping point {stop!r}: {game.title} names no stopping points; give a depth instead"
        )
    if stop not in game.stop_points:
        known = ", ".join(game.stop_points)
        raise ChoiceError(f"stopping point {stop!r}: unknown; known: {known}")
    return game.stop_predicate(state, stop)


def return_bounds(state: GameState[Any]) -> tuple[Fraction, Fraction] | None:
    """The bounds on team returns of the game of ``state``, or ``None`` if it declares none."""
    bounds = game_of(state).return_bounds
    if bounds is None:
        return None
    low, high = Fraction(bounds[0]), Fraction(bounds[1])
    if low > high:
        raise ChoiceError(f"{game_of(state).title}: return bounds: low {low} exceeds high {high}")
    return low, high
