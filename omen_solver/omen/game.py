"""Omen, as every game-agnostic part of the library sees it: its registered descriptor.

The descriptor ties the rules engine (:mod:`.state`), its position files (:mod:`.position`)
and its endgame search (:mod:`.endgame`) to the generic code, which looks the game up here
(:func:`omen_solver.core.game.game_named`). The features above it register their part of the
game themselves (the vectors: :mod:`omen_solver.vectors.views`). The modules behind it are
imported when first used, so that registering the game costs nothing at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omen_solver.core.game import Game, RuleSet, TraceStep, register
from omen_solver.omen import new_game

if TYPE_CHECKING:
    from omen_solver.core.budget import Budget, Progress
    from omen_solver.core.search.moves import Report
    from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
    from omen_solver.omen.notation import Action
    from omen_solver.omen.state import OmenState

__all__ = ["OMEN"]


def _load(path: Path, data: dict[str, Any]) -> OmenState:
    from omen_solver.omen.position import load_state

    return load_state(path, data)


def _text_data(text: str, name: str) -> dict[str, Any]:
    from omen_solver.omen.text import data_from_text

    return data_from_text(text, name)


def _write_text(state: OmenState) -> str:
    from omen_solver.omen.position import position_data
    from omen_solver.omen.text import text_from_data

    return text_from_data(position_data(state))


def _write_file(state: OmenState) -> str:
    from omen_solver.omen.position import position_data, position_toml

    return position_toml(position_data(state))


def _stop(root: OmenState, name: str) -> Callable[[OmenState], bool]:
    return root.stop_predicate(name)


def _explain(state: OmenState, text: str) -> tuple[OmenState, list[TraceStep]]:
    return state.explain(text)


def _parse(state: OmenState, text: str) -> Action:
    return state.string_to_action(text)


def _kernel(state: OmenState, concept: Concept, team: int, *, budget: Budget,
            simultaneous: SimultaneousMode, progress: Progress | None,
            algorithm: str | None, per_move: bool, report: Report | None,
            threads: int | None = None, max_memory: int | None = None,
            estimate: bool = False, seed: int | None = None) -> SolveResult:
    """The endgame search with the position's ``[search]`` settings
    (:mod:`omen_solver.omen.endgame`); it offers no choice of ``algorithm``, and answers the
    root as one position (``per_move`` and ``report`` are the reference search's). It gives
    no estimates (``estimate`` asks for them where a kernel can: here none is made), so a
    ``seed`` for them is refused."""
    from omen_solver.errors import ChoiceError
    from omen_solver.omen.endgame import kernel_solve

    if algorithm is not None:
        raise ChoiceError(
            f"algorithm {algorithm!r}: Omen positions have one search, set by the "
            "position's [search] table"
        )
    if seed is not None:
        raise ChoiceError(key="seed", value=seed, problem="the seed of the Omens kernel's "
                          "estimates; Omen's endgame search makes none")
    if threads not in (None, 0, 1) or max_memory is not None:
        raise ChoiceError(key="max_memory" if max_memory is not None else "threads",
                          value=max_memory if max_memory is not None else threads,
                          problem="threads and max_memory apply to the Omens kernel; Omen's "
                          "endgame search runs in one thread with its own table")
    return kernel_solve(state, state.search, concept, team, budget=budget,
                        simultaneous=simultaneous, progress=progress)


def _rule_set() -> RuleSet:
    from omen_solver.omen.rules import DEFAULT_PROFILE, PROFILES, OmenRules, make_rules

    presets = {name: profile.settings for name, profile in PROFILES.items()}
    return RuleSet("omen", OmenRules, presets, DEFAULT_PROFILE, "profile", make_rules,
                   "an Omen position takes its rules from its profile (key 'profile'), which "
                   "also fixes the card sets: edit the file, or set single options with --rule")


OMEN: Game[OmenState] = register(Game(
    name="omen",
    title="Omen: A Reign of War, Fires in the East",
    players=(2,),
    chance=True,
    simultaneous=False,
    return_bounds=(Fraction(0), Fraction(1)),
    stop_points=("step", "turn"),
    stop_predicate=_stop,
    load=_load,
    text_data=_text_data,
    write_text=_write_text,
    write_file=_write_file,
    file_keys=("cards",),
    explain=_explain,
    parse=_parse,
    kernel=_kernel,
    rule_set=_rule_set,
    new_game=new_game,
))
"""Omen: two players, draws and hidden Rewards as chance nodes, a loss 0 and a win 1."""
