"""Position files: TOML files whose ``game`` key names the game that reads the rest.

Every registered game (:class:`omen_solver.core.game.Game`) has a loader ``load(path, data)``
that validates the parsed TOML and raises :class:`omen_solver.errors.PositionError` naming
the file and key on bad input. Commands that work on any game (perft, graph export, solving,
puzzles) call :func:`load_state`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from omen_solver.core.files import Source, read_source, read_toml
from omen_solver.core.game import GameState, games
from omen_solver.errors import PositionError, shown

__all__ = ["Loader", "load", "load_data", "load_state", "read_toml"]

Loader = Callable[[Path, dict[str, Any]], GameState[Any]]


def load_state(path: Path | str) -> GameState[Any]:
    """Read a position file of any registered game and return its state."""
    path = Path(path)
    return load_data(path, read_toml(path))


def load(source: Source) -> GameState[Any]:
    """The state of a position of any registered game, from a path, TOML text (a ``str``
    holding a line break or ``=``: a position file or a state's :meth:`to_text`) or an open
    file; the ``game`` key says which game reads it."""
    data, name, _ = read_source(source)
    return load_data(Path(name), data)


def load_data(path: Path, data: dict[str, Any]) -> GameState[Any]:
    """The state of a position file's parsed TOML (``data``: as read, or with settings given
    on the command line merged in); errors name ``path``."""
    loaders: dict[str, Loader] = {game.name: game.load for game in games() if game.load is not None}
    known = ", ".join(map(repr, loaders))
    name = data.get("game")
    if name is None:
        raise PositionError(f"{path}: key 'game' is missing; write one of {known}")
    if not isinstance(name, str) or name not in loaders:
        raise PositionError(
            f"{path}: key 'game': unknown game {shown(name)}; choose one of {known}"
        )
    return loaders[name](path, data)
