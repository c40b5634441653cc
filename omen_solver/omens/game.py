"""Omens, as every game-agnostic part of the library sees it: its registered descriptor.

The descriptor is the one place that ties the rules engine (:mod:`.state`), its position files
(:mod:`.position`) and its search kernel (:mod:`.kernel.solve`, whose searches the core's
root analysis runs) to the generic code:
``omen-solver solve``, ``perft``, ``graph``, :func:`omen_solver.core.search.solve` and the
position loader look the game up here (:func:`omen_solver.core.game.game_named`). The features
above it register their part of the game themselves (the vectors:
:mod:`omen_solver.vectors.views`). The modules behind it are imported when first used, so that
registering the game costs nothing at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omen_solver.core.game import Game, RuleSet, TraceStep, register
from omen_solver.omens import new_game

if TYPE_CHECKING:
    from omen_solver.core.budget import Budget, Progress
    from omen_solver.core.search.kernels import KernelRoot
    from omen_solver.core.search.moves import Report
    from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
    from omen_solver.omens.actions import OmensAction
    from omen_solver.omens.state import OmensState

__all__ = ["OMENS"]


def _load(path: Path, data: dict[str, Any]) -> OmensState:
    from omen_solver.omens.position import load_state

    return load_state(path, data)


def _text_data(text: str, name: str) -> dict[str, Any]:
    from omen_solver.omens.text import data_from_text

    return data_from_text(text, name)


def _write_text(state: OmensState) -> str:
    from omen_solver.omens.position import position_data
    from omen_solver.omens.text import text_from_data

    return text_from_data(position_data(state))


def _write_file(state: OmensState) -> str:
    from omen_solver.omens.position import position_data, position_toml

    return position_toml(position_data(state))


def _stop(root: OmensState, name: str) -> Callable[[OmensState], bool]:
    return root.stop_predicate(name)


def _explain(state: OmensState, text: str) -> tuple[OmensState, list[TraceStep]]:
    return state.explain(text)


def _parse(state: OmensState, text: str) -> tuple[OmensAction, ...]:
    return state.parse_move(text)


def _kernel(state: OmensState, concept: Concept, team: int, *, budget: Budget,
            simultaneous: SimultaneousMode, progress: Progress | None,
            algorithm: str | None, per_move: bool, report: Report | None,
            threads: int | None = None, max_memory: int | None = None,
            estimate: bool = False, seed: int | None = None) -> KernelRoot | SolveResult:
    """The search kernel's searches, for the core's root analysis
    (:func:`omen_solver.omens.kernel.solve.prepare`); it raises
    :class:`~omen_solver.errors.KernelUnsupported` where it does not apply.
    ``algorithm``: one of :data:`omen_solver.omens.kernel.solve.ALGORITHMS` (by default
    ``portfolio``); ``estimate``: the moves left open get estimates (:mod:`.kernel.estimate`,
    from the random stream of ``seed``). ``report`` is the core's (its per-move snapshots)."""
    from omen_solver.omens.kernel.estimate import EvaluationSettings
    from omen_solver.omens.kernel.solve import prepare

    evaluate = EvaluationSettings(seed=seed or 0) if estimate else None
    return prepare(state, concept, team, budget=budget, simultaneous=simultaneous,
                   progress=progress, algorithm=algorithm or "portfolio", per_move=per_move,
                   threads=threads, max_memory=max_memory, evaluate=evaluate)


def _rule_set() -> RuleSet:
    from omen_solver.omens.rules import PRESETS, OmensRules, make_rules

    return RuleSet("omens", OmensRules, PRESETS, "rulebook", "preset", make_rules)


OMENS: Game[OmensState] = register(Game(
    name="omens",
    title="Omens (Présages)",
    players=(4, 5, 6),
    chance=True,
    simultaneous=True,
    return_bounds=(Fraction(0), Fraction(1)),
    stop_points=("bout", "round"),
    stop_predicate=_stop,
    load=_load,
    text_data=_text_data,
    write_text=_write_text,
    write_file=_write_file,
    file_keys=("catalogue",),
    game_key_optional=True,
    explain=_explain,
    parse=_parse,
    kernel=_kernel,
    rule_set=_rule_set,
    new_game=new_game,
))
"""Omens: 4 to 6 players in teams (``Table`` checks the same range), deals as chance nodes,
The Absolute's exchange as a simultaneous node, every team scoring 0 or 1."""
