"""Omen: A Reign of War (with the Omega edition extras) and Fires in the East.

Two players deploy units into three cities, fight wars for Rewards and complete Feats. The
rules follow the rulebooks (A Reign of War, its Omega edition, Fires in the East); every point
where they disagree or are silent is a named option of :class:`~omen_solver.omen.rules.OmenRules`,
and each rulebook is a profile (:data:`omen_solver.omen.rules.PROFILES`). Cards are data
(:mod:`omen_solver.omen.cards`). ``load(source)`` reads a position from a path, TOML text or an
open file::

    import omen_solver.omen

    state = omen_solver.omen.load("puzzles/omen/war-order.toml")

Everything here is imported on first use, so that ``import omen_solver.omen`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from omen_solver.core.budget import Budget, Progress
    from omen_solver.core.files import Source
    from omen_solver.core.search.result import SolveResult
    from omen_solver.omen.search_settings import Draws, Reduction
    from omen_solver.omen.state import OmenState

__all__ = ["load", "new_game", "solve_endgame"]


def load(source: Source) -> OmenState:
    """The state of an Omen position (docs/omen.md, "Positions") from a path, TOML text (a
    ``str`` holding a line break or ``=``) or an open file. Card files named in ``cards`` are
    looked up next to the position file (in the current folder for text and open files)."""
    from omen_solver.core.positions import read_position
    from omen_solver.omen.position import game_is_not_omen, load_state

    data, name, _ = read_position(source)
    game_is_not_omen(Path(name), data)
    return load_state(Path(name), data)


def new_game(
    players: int = 2,
    preset: str | None = None,
    *,
    rules: Mapping[str, object] | None = None,
    seed: int | None = None,
) -> OmenState:
    """A new game of Omen (two players) under a rulebook profile (``preset``; by default
    :data:`omen_solver.omen.rules.DEFAULT_PROFILE`, see docs/omen-profiles.md) with option
    overrides ``rules``: without ``seed`` the state before the deal (chance nodes deal the
    cards), with ``seed`` the state after a deal drawn by that seed."""
    from omen_solver.core.game import play_chance
    from omen_solver.errors import OptionError
    from omen_solver.omen.rules import DEFAULT_PROFILE
    from omen_solver.omen.setup import new_game as start_of_game

    if players != 2:
        raise OptionError(f"players {players!r}: Omen is played by 2 players")
    start = start_of_game(preset or DEFAULT_PROFILE, rules)
    return start if seed is None else play_chance(start, seed)


def solve_endgame(
    state: OmenState,
    *,
    seat: int | None = None,
    turns: int | None = None,
    draws: Draws | str = "expected",
    margin: bool = True,
    reductions: bool | Iterable[Reduction | str] = True,
    budget: Budget | None = None,
    progress: Progress | None = None,
) -> SolveResult:
    """Best play from ``state`` to the end of the game or over ``turns`` turns
    (:func:`omen_solver.omen.endgame.solve_endgame`)."""
    from omen_solver.omen.endgame import solve_endgame as solve

    return solve(state, seat=seat, turns=turns, draws=draws, margin=margin,
                 reductions=reductions, budget=budget, progress=progress)
