"""What the web board asks of the Omen engine: a position from the request, moves played
with their explained trace, and the view the page draws (the same summary as
``omen-solver omen play --json``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from omen_solver.core.game import CHANCE
from omen_solver.errors import CatalogueError, OmenSolverError, PositionError, RequestError, shown
from omen_solver.omen.position import state_from_data
from omen_solver.omen.state import OmenState
from omen_solver.omen.summary import state_summary
from omen_solver.web.library import POSITION_NAME

__all__ = ["load_omen", "omen_view"]


Loaded = tuple[OmenState, list[dict[str, Any]], list[dict[str, Any]]]


def load_omen(data: object, moves: Sequence[str]) -> Loaded:
    """The state after the position's own ``moves`` and then ``moves``, and the trace of
    every step (the position's set-up first)."""
    if not isinstance(data, dict):
        raise RequestError(f"'position': expected the position's tables, not {shown(data)}")
    if "cards" in data:
        raise PositionError(
            f"{POSITION_NAME}: key 'cards': names a file on disk, which the web API never reads "
            "(positions come from the request body only)"
        )
    data = dict(data)
    own = data.pop("moves", [])
    if not isinstance(own, list) or not all(isinstance(m, str) for m in own):
        raise PositionError(f"{POSITION_NAME}: key 'moves': must be a list of actions (strings)")
    try:
        state = state_from_data(Path(POSITION_NAME), data)
    except (PositionError, CatalogueError):
        raise
    except OmenSolverError as error:
        raise PositionError(f"{POSITION_NAME}: {error}") from None
    setup = [{"rule": step.rule, "text": step.text} for step in state.trace]
    history: list[dict[str, Any]] = []
    played = [(f"moves[{i + 1}]", text, True) for i, text in enumerate(own)]
    played += [(f"moves[{i + 1}] (of {len(moves)})", text, False) for i, text in enumerate(moves)]
    for where, text, from_file in played:
        player = state.current_player()
        by = "chance" if player == CHANCE else f"seat {player + 1}"
        try:
            state, steps = state.explain(text)
        except OmenSolverError as error:
            raise PositionError(f"{POSITION_NAME}: {where}: {error}") from None
        history.append({"move": text, "by": by, "from_file": from_file,
                        "steps": [{"rule": s.rule, "text": s.text} for s in steps]})
    return state, history, setup


def omen_view(loaded: Loaded) -> dict[str, Any]:
    """The summary of ``omen play --json``, with the moves played and the set-up steps."""
    state, history, setup = loaded
    view = state_summary(state)
    view["game"] = "omen"
    view["history"] = history
    view["setup"] = setup
    return view
