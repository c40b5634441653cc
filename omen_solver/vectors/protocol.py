"""The vector protocol: how ``omen-solver vectors check`` talks to an engine (docs/vectors.md).

One JSON object per line each way, like UCI for chess. The runner sends a request with an
``id`` and a ``cmd``; the engine answers with exactly one line carrying the same ``id`` and
``"ok": true`` (with the fields of the answer) or ``"ok": false`` and an ``error``. Anything
an engine prints to stderr is its own business (the runner shows the end of it when the engine
dies).

=========  ==========================================  =========================================
cmd        request fields                              answer fields
=========  ==========================================  =========================================
hello      ``protocol`` (1)                            ``name``, ``games`` (the games it plays)
setup      ``game``, ``options``, ``position``         (``unsupported: true`` to skip a vector)
legal      (none)                                      ``to_act``, ``legal``
play       ``action`` (canonical notation)             (none)
state      (none)                                      ``state``
perft      ``depth`` (optional for an engine)          ``sequences``, ``at_depth``, ``ended``,
                                                       ``nodes``, ``divide``
quit       (none)                                      (none; then the engine exits)
=========  ==========================================  =========================================

This module holds the names and the comparison rules shared by the runner and the adapter of
this library (:mod:`omen_solver.vectors.engine`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "COMMANDS",
    "PROTOCOL_VERSION",
    "normalize_legal",
    "normalize_move",
    "normalize_state",
]

PROTOCOL_VERSION: Final = 1
COMMANDS: Final = ("hello", "setup", "legal", "play", "state", "perft", "quit")

def normalize_move(text: str) -> str:
    """An action's text with a joint action's parts in seat order (the parts of ``3:gives 5 &
    1:gives 9`` may come in any order)."""
    if "&" not in text:
        return text.strip()
    parts = [part.strip() for part in text.split("&")]
    return " & ".join(sorted(parts, key=lambda part: (part.split(":", 1)[0], part)))


def normalize_legal(legal: Any) -> list[str] | None:
    """A legal-action list as a sorted list of texts (a joint action's parts in seat order);
    None if it is not a list of strings."""
    if not isinstance(legal, list) or not all(isinstance(item, str) for item in legal):
        return None
    return sorted(normalize_move(item) for item in legal)


def _sorted_lists(value: Any, keep_order: bool = False) -> Any:
    if isinstance(value, list):
        items = [_sorted_lists(item) for item in value]
        if keep_order or not all(isinstance(item, str | int) for item in items):
            return items
        return sorted(items, key=lambda item: (isinstance(item, str), item))
    if isinstance(value, Mapping):
        return {key: _sorted_lists(item, keep_order=key == "rewards" and "seat1" in value)
                for key, item in value.items()}
    return value


def normalize_state(game: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """A state with the card lists whose order does not matter sorted (the fields the game's
    vector view names, :attr:`omen_solver.vectors.views.VectorView.unordered`)."""
    from omen_solver.core.game import game_named
    from omen_solver.vectors.views import VECTORS

    try:
        unordered = VECTORS.of(game_named(game)).unordered
    except KeyError:  # a game the vectors do not play: compared as it is
        unordered = ()
    return {
        key: _sorted_lists(value) if key in unordered else value
        for key, value in state.items()
    }
