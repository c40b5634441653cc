"""Each game's part in the conformance vectors (docs/vectors.md): how the vectors set up and
read its states. The vectors register it on the game (:class:`omen_solver.core.game.Feature`);
a game's descriptor never imports the vectors, which sit in a layer above it
(docs/architecture.md, "Layers")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from omen_solver.core.game import Feature, GameState
from omen_solver.omen.game import OMEN
from omen_solver.omens.game import OMENS
from omen_solver.vectors.omen_record import omen_start, omen_state_view, omen_turn_view
from omen_solver.vectors.omens_record import start_state, state_view, turn_view

__all__ = ["VECTORS", "VectorView"]

StateT = TypeVar("StateT", bound=GameState[Any])


@dataclass(frozen=True, slots=True, kw_only=True)
class VectorView(Generic[StateT]):
    """How the conformance vectors set up and read a game's states."""

    start: Callable[[Mapping[str, Any], Mapping[str, Any], str], StateT]
    """The state of a vector's ``options`` and ``position`` (errors name the third argument)."""
    turn: Callable[[StateT], dict[str, Any]]
    """Who acts and the legal actions, as the vectors state them after every step."""
    state: Callable[[StateT], dict[str, Any]]
    """The table, as the vectors state it."""
    unordered: tuple[str, ...] = ()
    """The fields of a stated table whose card lists are sets or multisets: compared in any
    order (docs/vectors.md, "The protocol")."""


VECTORS: Final[Feature[VectorView[Any]]] = Feature("vectors")
"""The games the vectors play, each with its view."""

VECTORS.register(OMENS, VectorView(
    start=start_state, turn=turn_view, state=state_view,
    unordered=("discarded", "hands", "round_winner_team", "winner_team")))
VECTORS.register(OMEN, VectorView(
    start=omen_start, turn=omen_turn_view, state=omen_state_view,
    # a city's Reward stack (its "rewards" beside "seat1") is the exception: top first
    unordered=("hands", "feats", "rewards", "cities")))
