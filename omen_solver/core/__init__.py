"""The game-agnostic core: the game protocol, rule options, enumeration, search and SMT helpers."""

from omen_solver.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    GameState,
    NodeKind,
    TraceStep,
)

__all__ = ["CHANCE", "SIMULTANEOUS", "TERMINAL", "GameState", "NodeKind", "TraceStep"]
