"""Omens (Présages): the rules engine, positions, the action notation and the CLI.

``load(source)`` reads a position (docs/omens-positions.md) from a path, from TOML text, or
from an open file, and returns its :class:`~omen_solver.omens.state.OmensState`::

    import omen_solver.omens

    state = omen_solver.omens.load("position.toml")
    state = state.child("2:18")          # an action, or its text in canonical notation

Everything here is imported on first use, so that ``import omen_solver.omens`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from omen_solver.core.files import Source
    from omen_solver.omens.position import OmensPosition
    from omen_solver.omens.state import OmensState

__all__ = ["load", "load_position", "new_game"]


def load(source: Source) -> OmensState:
    """The state of an Omens position (after the file's ``bout.moves``).

    ``source`` is a path (``str`` or :class:`~pathlib.Path`), TOML text (a ``str`` holding a
    line break or ``=``), or an open file, text or binary. Bad input raises
    :class:`~omen_solver.errors.PositionError` naming the source, the key and the problem;
    a ``catalogue`` file named inside is looked up next to the position file (or in the
    current folder for text and open files).
    """
    return load_position(source).state


def load_position(source: Source) -> OmensPosition:
    """Like :func:`load`, with the file's other parts: the state at the start of the bout,
    the moves, the title and the ``[puzzle]`` table."""
    from omen_solver.omens.position import load_position as read

    return read(source)


def new_game(
    players: int = 4,
    preset: str | None = "rulebook",
    *,
    rules: Mapping[str, object] | None = None,
    seed: int | None = None,
    scope: str = "game",
) -> OmensState:
    """A new game for ``players`` (4 to 6) under a preset (docs/omens-options.md) with
    option overrides ``rules``: without ``seed`` the state before the deal (chance nodes deal
    the Absolutes, then the hands; rules file 000, "Setup"), with ``seed`` the state after a
    deal drawn by that seed: the deal of ``omen-solver solve --deal SEED --players N``.
    ``scope`` (``bout``, ``round``, ``game``) is how far play goes before the state is
    terminal."""
    from omen_solver.errors import OptionError
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.state import OmensState
    from omen_solver.omens.table import Scope, Table

    try:
        chosen = Scope(scope)
    except ValueError:
        known = ", ".join(s.value for s in Scope)
        raise OptionError(f"scope {scope!r}: choose one of {known}") from None
    table = Table(players, make_rules(preset, rules), scope=chosen)
    if seed is None:
        return OmensState.new_game(table)
    return deal_position(table, random_deal(table, seed))
