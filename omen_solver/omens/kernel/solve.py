"""Solving Omens positions on the kernel: the same answers as the reference solver, faster.

:func:`solve_with_kernel` is what :func:`omen_solver.core.search.solve` runs for an Omens state
unless ``engine="reference"`` is asked for. It compiles the table, searches with the compiled
kernel when it is built (else the pure-Python kernel, which gives identical values, actions and
node counts), and analyses the root with the reference's own code (:mod:`.view`): the same
report, whose actions the explaining engine then replays and explains.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Final

from omen_solver.core.enumeration.budget import Budget, Progress, deep_recursion
from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
from omen_solver.core.search.solver import _TwoSided
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.search import DEFAULT_TABLE_LIMIT, KernelSearch, Value
from omen_solver.omens.kernel.spec import KernelUnsupported, compile_table
from omen_solver.omens.kernel.view import KernelSearchLike, KernelTwoSided, KernelView
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope

__all__ = ["PURE_PYTHON_VARIABLE", "backend_name", "make_search", "solve_with_kernel"]

PURE_PYTHON_VARIABLE: Final = "OMEN_SOLVER_PURE_PYTHON"
"""Set this environment variable to 1 to use the pure-Python kernel even when the compiled one
is built (the results are identical; it is slower)."""


def _use_compiled() -> bool:
    return compiled.AVAILABLE and os.environ.get(PURE_PYTHON_VARIABLE, "") in ("", "0")


def backend_name() -> str:
    """Which kernel runs: ``compiled`` or ``pure Python``."""
    return "compiled" if _use_compiled() else "pure Python"


SearchFactory = Callable[[SimultaneousMode, Budget], KernelSearchLike]


def make_search(
    machine: Machine,
    maximising: Sequence[bool],
    *,
    constant_sum: bool,
    mode: SimultaneousMode = SimultaneousMode.MIXED,
    budget: Budget | None = None,
    progress: Progress | None = None,
    table_limit: int = DEFAULT_TABLE_LIMIT,
    payoff: Sequence[Sequence[Value]] | None = None,
    pure_python: bool | None = None,
) -> KernelSearchLike:
    """A kernel search: the compiled one when it is built (and not refused), else Python."""
    use_compiled = _use_compiled() if pure_python is None else not pure_python
    kind: type[KernelSearch] | type[compiled.CompiledSearch] = (
        compiled.CompiledSearch if use_compiled and compiled.AVAILABLE else KernelSearch
    )
    return kind(
        machine, maximising, constant_sum=constant_sum, mode=mode, budget=budget,
        progress=progress, table_limit=table_limit, payoff=payoff,
    )


class _KernelRoot(_TwoSided):
    """The reference's minimax/paranoid solve, with the kernel searching."""

    def __init__(
        self,
        view: KernelView,
        concept: Concept,
        team: int,
        budget: Budget,
        mode: SimultaneousMode,
        progress: Progress | None,
        factory: Callable[[SimultaneousMode, Budget], KernelTwoSided],
    ) -> None:
        self._factory = factory
        super().__init__(
            view, concept, team, budget, mode, True, True, (Fraction(0), Fraction(1)), progress
        )

    def _new_search(  # type: ignore[override]
        self, mode: SimultaneousMode, budget: Budget
    ) -> KernelTwoSided:
        return self._factory(mode, budget)


def solve_with_kernel(
    state: OmensState,
    concept: Concept,
    team: int,
    *,
    budget: Budget,
    simultaneous: SimultaneousMode = SimultaneousMode.MIXED,
    progress: Progress | None = None,
    table_limit: int = DEFAULT_TABLE_LIMIT,
) -> SolveResult:
    """Solve ``state`` on the kernel under a concept already checked against its teams
    (:func:`omen_solver.core.search.solver.resolve_concept`). Raises
    :class:`KernelUnsupported` for what the kernel does not play (a chance deal, a rule
    setting it does not know), so that the caller can use the reference solver."""
    table = state.table
    if table.scope is Scope.GAME:
        raise KernelUnsupported(
            "the kernel solves a bout or a round; a game needs the deal of every round "
            "(see omen_solver.omens.kernel.game)"
        )
    if concept is Concept.MAXN:
        raise KernelUnsupported("max-n runs on the reference solver")
    teams = state.teams()
    spec = compile_table(table, teams)
    machine = Machine(spec)
    view = KernelView(machine, from_engine(spec, state))
    maximising = [seat in teams[team] for seat in range(spec.players)]
    constant_sum = concept is Concept.MINIMAX
    searches: list[KernelSearchLike] = []

    def factory(mode: SimultaneousMode, left: Budget) -> KernelTwoSided:
        inner = make_search(
            machine, maximising, constant_sum=constant_sum, mode=mode, budget=left,
            progress=progress, table_limit=table_limit,
        )
        searches.append(inner)
        return KernelTwoSided(inner, maximising)

    with deep_recursion():
        result = _KernelRoot(view, concept, team, budget, simultaneous, progress, factory).run()
    memory = sum(getattr(s, "table_bytes", 0) for s in searches)
    result.extra.update(
        {
            "engine": f"kernel ({backend_name()})",
            "table_entries": sum(s.states for s in searches),
            **({"table_bytes": memory} if memory else {}),
        }
    )
    return result
