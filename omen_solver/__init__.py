"""omen_solver: rules engines, exact solvers and machine-checked rule proofs for Omens (Présages)
and Omen (A Reign of War, Fires in the East).

Each game has one loader, taking a path, TOML text or an open file:
``omen_solver.omens.load(source)`` and ``omen_solver.omen.load(source)``."""

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

__version__ = "0.1.0"

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
]
