"""omen_solver: rules engines, exact solvers and machine-checked rule proofs for Omens (Présages)
and Omen (A Reign of War, Fires in the East).

``omen_solver.load(source)`` reads a position of either game from a path, TOML text or an
open file (the file's ``game`` key says which), and so do each game's own
``omen_solver.omens.load`` and ``omen_solver.omen.load``; ``state.to_text()`` writes a state
that they read back. ``docs/api.md`` shows the whole interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from omen_solver.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    GameResult,
    GameState,
    NodeKind,
    TraceStep,
)
from omen_solver.errors import (
    CatalogueError,
    IllegalActionError,
    InvalidActionError,
    OmenSolverError,
    OptionError,
    PositionError,
)

# The games register their descriptors (omen_solver.core.game.Game) on import, in this order;
# the modules behind a descriptor load when first used.
from omen_solver.omens.game import OMENS

# isort: split
from omen_solver.omen.game import OMEN

if TYPE_CHECKING:
    from omen_solver.core.files import Source

__version__ = "0.1.0"


def load(source: Source) -> GameState[Any]:
    """The state of a position of either game (see :func:`omen_solver.core.positions.load`)."""
    from omen_solver.core.positions import load as read

    return read(source)

__all__ = [
    "CHANCE",
    "OMEN",
    "OMENS",
    "SIMULTANEOUS",
    "TERMINAL",
    "CatalogueError",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "NodeKind",
    "OmenSolverError",
    "OptionError",
    "PositionError",
    "TraceStep",
    "__version__",
    "load",
]
