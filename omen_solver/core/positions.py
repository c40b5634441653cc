"""Positions: TOML files whose ``game`` key names the game that reads the rest, and the
one-line texts of positions, whose first word names it (``docs/position-text.md``).

Every registered game (:class:`omen_solver.core.game.Game`) has a loader ``load(path, data)``
that validates the parsed TOML and raises :class:`omen_solver.errors.PositionError` naming
the file and key on bad input; a game's ``text_data`` turns its one-line text into the same
data, so one loader reads both. Commands that work on any game (perft, graph export, solving,
puzzles) call :func:`load_state`, which takes a file or a text.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from omen_solver.core.files import Source, read_source, read_toml
from omen_solver.core.game import GameState, games
from omen_solver.errors import PositionError, shown

__all__ = ["TEXT_NAME", "Loader", "is_position_text", "load", "load_data", "load_state",
           "position_text", "read_position", "read_toml"]

Loader = Callable[[Path, dict[str, Any]], GameState[Any]]

TEXT_NAME = "<text>"
"""How messages name a position given as a one-line text."""


def position_text(text: str) -> str | None:
    """The one-line text of a position in ``text``: ``text`` itself when its first word names
    a registered game (``omens ...``, ``omen ...``), or the string inside a state's ``repr``
    (``OmensState.from_text('omens ...')``) pasted whole; ``None`` for anything else (a path,
    TOML text)."""
    stripped = text.strip()
    if "\n" in stripped or os.path.exists(text):
        return None
    if "(" in stripped and stripped.endswith(")"):
        try:
            call = ast.parse(stripped, mode="eval").body
        except (SyntaxError, ValueError):
            return None
        if not (isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords
                and isinstance(call.args[0], ast.Constant)
                and isinstance(call.args[0].value, str)):
            return None
        stripped = call.args[0].value.strip()
    first = stripped.split(maxsplit=1)[0] if stripped else ""
    names = {game.name for game in games() if game.text_data is not None}
    return stripped if first in names else None


def is_position_text(text: str) -> bool:
    """Whether ``text`` is a position's one-line text (or a state's ``repr``)."""
    return position_text(text) is not None


def read_position(source: Source | Path) -> tuple[dict[str, Any], str, Path | None]:
    """A position's data, how messages name it, and the folder relative file names start in:
    from a path, TOML text, an open file, or a one-line text (its game's ``text_data``)."""
    if isinstance(source, str):
        text = position_text(source)
        if text is not None:
            game = next(game for game in games() if game.name == text.split()[0])
            assert game.text_data is not None
            return game.text_data(text, TEXT_NAME), TEXT_NAME, None
    return read_source(source)


def load_state(path: Path | str) -> GameState[Any]:
    """Read a position of any registered game, from a file or a one-line text, and return
    its state."""
    data, name, _ = read_position(path if isinstance(path, str) else Path(path))
    return load_data(Path(name), data)


def load(source: Source) -> GameState[Any]:
    """The state of a position of any registered game, from a path, TOML text (a ``str``
    holding a line break or ``=``: a position file), a one-line text (``omens ...``, a
    state's :meth:`to_text` or ``repr``) or an open file; the ``game`` key (or the text's
    first word) says which game reads it."""
    data, name, _ = read_position(source)
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
