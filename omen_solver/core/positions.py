"""Position files: TOML files whose ``game`` key names the game that reads the rest.

Every game provides a loader ``load_state(path, data) -> GameState`` that validates the parsed
TOML and raises :class:`omen_solver.errors.PositionError` naming the file and key on bad input.
Commands that work on any game (perft, graph export, solving, puzzles) call :func:`load_state`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from omen_solver.core.files import read_toml
from omen_solver.core.game import GameState
from omen_solver.errors import PositionError, shown

__all__ = ["GAME_LOADERS", "Loader", "load_data", "load_state", "read_toml"]

Loader = Callable[[Path, dict[str, Any]], GameState[Any]]

GAME_LOADERS: MutableMapping[str, str | Loader] = {
    "omens": "omen_solver.omens.position:load_state",
    "omen": "omen_solver.omen.position:load_state",
}
"""Game name (the ``game`` key of a position file) to its loader, or ``module:function``."""


def _resolve(name: str) -> Loader:
    target = GAME_LOADERS[name]
    if callable(target):
        return target
    module_name, _, attribute = target.partition(":")
    loader: Loader = getattr(importlib.import_module(module_name), attribute)
    return loader


def load_state(path: Path | str) -> GameState[Any]:
    """Read a position file of any game and return its state."""
    path = Path(path)
    return load_data(path, read_toml(path))


def load_data(path: Path, data: dict[str, Any]) -> GameState[Any]:
    """The state of a position file's parsed TOML (``data``: as read, or with settings given
    on the command line merged in); errors name ``path``."""
    game = data.get("game")
    if game is None:
        raise PositionError(
            f"{path}: key 'game' is missing; write one of {', '.join(map(repr, GAME_LOADERS))}"
        )
    if not isinstance(game, str) or game not in GAME_LOADERS:
        raise PositionError(
            f"{path}: key 'game': unknown game {shown(game)}; "
            f"choose one of {', '.join(map(repr, GAME_LOADERS))}"
        )
    return _resolve(str(game))(path, data)
