"""Omens, as every game-agnostic part of the library sees it: its registered descriptor.

The descriptor is the one place that ties the rules engine (:mod:`.state`), its position files
(:mod:`.position`), its search kernel (:mod:`.kernel.solve`) and its vectors
(:mod:`omen_solver.vectors.omens_record`) to the generic code: ``omen-solver solve``,
``perft``, ``graph``, :func:`omen_solver.core.search.solve`, the position loader and the vector
engine look the game up here (:func:`omen_solver.core.game.game_named`). The modules behind it
are imported when first used, so that registering the game costs nothing at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omen_solver.core.game import Game, TraceStep, VectorView, register

if TYPE_CHECKING:
    from omen_solver.core.budget import Budget, Progress
    from omen_solver.core.search.moves import Report
    from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
    from omen_solver.omens.actions import OmensAction
    from omen_solver.omens.state import OmensState

__all__ = ["OMENS"]


def _load(path: Path, data: dict[str, Any]) -> OmensState:
    from omen_solver.omens.position import load_state

    return load_state(path, data)


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
            estimate: bool = False, seed: int | None = None) -> SolveResult:
    """The search kernel's answer; it raises
    :class:`~omen_solver.omens.kernel.spec.KernelUnsupported` where it does not apply.
    ``algorithm``: one of :data:`omen_solver.omens.kernel.solve.ALGORITHMS` (by default
    ``portfolio``); ``estimate``: the moves left open get estimates (:mod:`.kernel.estimate`,
    from the random stream of ``seed``)."""
    from omen_solver.omens.kernel.estimate import EvaluationSettings
    from omen_solver.omens.kernel.solve import solve_with_kernel

    evaluate = EvaluationSettings(seed=seed or 0) if estimate else None
    return solve_with_kernel(state, concept, team, budget=budget, simultaneous=simultaneous,
                             progress=progress, algorithm=algorithm or "portfolio",
                             per_move=per_move, report=report, threads=threads,
                             max_memory=max_memory, evaluate=evaluate)


def _vector_start(options: Mapping[str, Any], position: Mapping[str, Any],
                  where: str) -> OmensState:
    from omen_solver.vectors.omens_record import start_state

    return start_state(options, position, where)


def _vector_turn(state: OmensState) -> dict[str, Any]:
    from omen_solver.vectors.omens_record import turn_view

    return turn_view(state)


def _vector_state(state: OmensState) -> dict[str, Any]:
    from omen_solver.vectors.omens_record import state_view

    return state_view(state)


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
    explain=_explain,
    parse=_parse,
    kernel=_kernel,
    vectors=VectorView(start=_vector_start, turn=_vector_turn, state=_vector_state),
))
"""Omens: 4 to 6 players in teams (``Table`` checks the same range), deals as chance nodes,
The Absolute's exchange as a simultaneous node, every team scoring 0 or 1."""
