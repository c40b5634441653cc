"""The compiled kernel behind the interface of :class:`~omen_solver.omens.kernel.search.
KernelSearch`: same arguments, same answers, same node counts, many times faster.

``_ckernel`` is a C extension built with the package when a C compiler is present
(``setup.py``); :data:`AVAILABLE` says whether it was. Without it the pure-Python kernel runs.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.game import GameState
from omen_solver.core.search.matrix import solve_matrix_game
from omen_solver.core.search.maxn import TieBreak
from omen_solver.core.search.result import SimultaneousMode
from omen_solver.errors import BudgetExceeded, ConceptError, OmenSolverError, StaleBuildWarning
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import DEFAULT_PARAMS, SearchParams
from omen_solver.omens.kernel.search import (
    CYCLE_REASON,
    DEPTH_REASON,
    NOT_CONSTANT_SUM,
    Entry,
    Value,
)
from omen_solver.omens.kernel.source_digest import SOURCES, digest

if TYPE_CHECKING:
    from omen_solver.omens.kernel.dfpn import Prover

__all__ = [
    "AVAILABLE",
    "CompiledDfpn",
    "CompiledMaxn",
    "CompiledSearch",
    "new_pool",
    "new_table",
    "record_bout_starts",
]

try:
    from omen_solver.omens.kernel import _ckernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _ckernel = None


def stale_build(module: Any) -> str | None:
    """Why the compiled ``module`` cannot be used although it imports: it was built from other
    C sources than those beside it (``source_digest``), or None when it matches them or when
    no sources are beside it (a wheel)."""
    if module is None:
        return None
    folder = Path(module.__file__).parent
    sources = digest(folder)
    built = getattr(module, "SOURCE", "")
    if sources is None or built == sources:
        return None
    return (
        f"the compiled kernel {module.__file__} was built from other sources than "
        f"{folder / SOURCES[0]} (built {built or 'before the digest was recorded'}, sources "
        f"{sources}); the pure-Python kernel runs instead (same answers, slower). Rebuild it "
        f"with `pip install -e .` in the repository (`make test` and `make demo` rebuild it "
        f"when its sources change)"
    )


STALE: Final = stale_build(_ckernel)
"""Why a compiled kernel that imports is not used (a stale build), else None."""
if STALE is not None:
    warnings.warn(STALE, StaleBuildWarning, stacklevel=1)
    _ckernel = None

AVAILABLE: Final = _ckernel is not None
"""Whether the compiled kernel was built (from the sources beside it, where they are)."""

def new_table(limit: int, pool: Any = None) -> Any:
    """A compiled transposition table of at most ``limit`` entries that searches can share
    (``_ckernel.Table``, :mod:`.tables`), its memory counted in ``pool``."""
    if _ckernel is None:  # pragma: no cover - depends on the build
        raise OmenSolverError("the compiled kernel is not built")
    return _ckernel.Table(limit, pool)


def new_pool(limit: int) -> Any:
    """A count of the bytes a solve's compiled tables may hold (``_ckernel.Pool``)."""
    if _ckernel is None:  # pragma: no cover - depends on the build
        raise OmenSolverError("the compiled kernel is not built")
    return _ckernel.Pool(limit)


def record_bout_starts(on: bool) -> dict[int, int]:
    """A benchmark's count (``benchmarks/omens_waste.py``): the distinct bout starts the
    compiled searches expanded since the recording was last turned on, by the cards still in
    the hands; turning it on clears it."""
    if _ckernel is None:  # pragma: no cover - depends on the build
        raise OmenSolverError("the compiled kernel is not built")
    return dict(_ckernel.record_bout_starts(on))


HINT_STORED_BIT: Final = 1 << 9
"""``Tuning.hint_stored`` in the compiled kernel's tuning bits (``_ckernel.c``:
``TUNE_HINT_STORED``; :meth:`.params.Tuning.mask`)."""

_MODES: Final = {SimultaneousMode.MIXED: 0, SimultaneousMode.LOWER: 1, SimultaneousMode.UPPER: 2}


def _matrix_value(entries: list[list[Value]]) -> Value:
    value = solve_matrix_game([[Fraction(x) for x in row] for row in entries]).value
    return value.numerator if value.denominator == 1 else value


class _Compiled:
    """What every compiled search object offers: its counters, its table and its budget."""

    _search: Any
    _budget: Budget

    @property
    def nodes(self) -> int:
        return int(self._search.nodes)

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._search.nodes = value

    @property
    def states(self) -> int:
        return int(self._search.states)

    @property
    def total(self) -> int | None:
        """With minimax: what the two teams' returns add up to (None before any leaf)."""
        total = int(self._search.total)
        return None if total < 0 else total

    @total.setter
    def total(self, value: int | None) -> None:
        self._search.total = -1 if value is None else value

    @property
    def table_bytes(self) -> int:
        """Memory held by the transposition table."""
        return int(self._search.table_bytes)

    def elapsed(self) -> float:
        return float(self._search.elapsed)

    @property
    def node_limit(self) -> int | None:
        """The node limit (``None``: none): :meth:`limit_nodes` sets it."""
        return self._budget.max_nodes

    def limit_nodes(self, limit: int | None) -> None:
        """Set the node limit (``None``: none), keeping the time limit and the table."""
        self._budget = replace(self._budget, max_nodes=limit)
        self._search.max_nodes = limit or 0


def _made(
    machine: Machine, maximising: Sequence[bool], params: SearchParams
) -> tuple[Any, Budget]:
    """The C search object for these settings, and its budget."""
    if _ckernel is None:  # pragma: no cover - depends on the build
        raise OmenSolverError("the compiled kernel is not built")
    budget = params.budget
    search = _ckernel.Search(
        machine.spec.as_tuple(),
        [int(flag) for flag in maximising],
        int(params.constant_sum),
        _MODES[params.mode],
        budget.max_nodes or 0,
        float(budget.max_seconds or 0.0),
        params.table_limit,
        params.progress,
        _matrix_value,
        params.payoff,
        params.tuning.mask(),
        pool=params.pool,
        table=params.table,
        shared=params.shared,
    )
    return search, budget


class CompiledSearch(_Compiled):
    """:class:`KernelSearch` on the compiled kernel."""

    def __init__(
        self, machine: Machine, maximising: Sequence[bool], params: SearchParams = DEFAULT_PARAMS
    ) -> None:
        self.machine = machine
        self.params = params
        self.mode = params.mode
        self._search, self._budget = _made(machine, maximising, params)

    @property
    def gap_seen(self) -> bool:
        return bool(self._search.gap_seen)

    @gap_seen.setter
    def gap_seen(self, value: bool) -> None:
        self._search.gap_seen = value

    def search(self, state: KState, alpha: Value, beta: Value) -> Value:
        try:
            value, stop = self._search.search(state.key(), alpha, beta)
        except ArithmeticError:
            raise ConceptError(NOT_CONSTANT_SUM) from None
        if value is None:
            raise _exceeded(stop, self._budget, self.nodes, self.elapsed())
        return value  # type: ignore[no-any-return]

    def entry(self, state: KState) -> Entry | None:
        found = self._search.entry(state.key())
        return None if found is None else (found[0], found[1], found[2])

    def use_proofs(self, zero: CompiledDfpn | None, one: CompiledDfpn | None) -> None:
        """:meth:`.search.KernelSearch.use_proofs`: compiled df-pn searches or None."""
        for proof in (zero, one):
            if proof is not None and not isinstance(proof, CompiledDfpn):
                raise TypeError(f"alpha-beta reads compiled df-pn searches, not {proof!r}")
        self._search.proofs(*(None if proof is None else proof._search
                               for proof in (zero, one)),
                            self.params.tuning.alpha_beta_asks)


class CompiledMaxn(_Compiled):
    """:class:`~omen_solver.omens.kernel.maxn.KernelMaxn` on the compiled kernel."""

    def __init__(
        self,
        machine: Machine,
        params: SearchParams = DEFAULT_PARAMS,
        *,
        tie_break: TieBreak = TieBreak.FIRST,
    ) -> None:
        params.refuse("max-n", mode=True, payoff=True)
        spec = machine.spec
        self.machine = machine
        self.tie_break = tie_break
        self.team_of = list(spec.team_of)
        self._search, self._budget = _made(
            machine, [False] * spec.players, replace(params, constant_sum=False)
        )

    def search(self, state: GameState[Any]) -> tuple[Fraction, ...]:
        """The max-n vector of a protocol view of a kernel state."""
        k: KState = state.k  # type: ignore[attr-defined]
        vector, stop = self._search.maxn(k.key(), self.tie_break is TieBreak.LAST)
        if vector is None:
            raise _exceeded(stop, self._budget, self.nodes, self.elapsed())
        return tuple(Fraction(v) for v in vector)


class CompiledDfpn(_Compiled):
    """:class:`~omen_solver.omens.kernel.dfpn.DfpnSearch` on the compiled kernel."""

    def __init__(
        self,
        machine: Machine,
        maximising: Sequence[bool],
        target: int,
        params: SearchParams = DEFAULT_PARAMS,
    ) -> None:
        params.refuse("df-pn", mode=True, payoff=True)
        self.machine = machine
        self.target = target
        self._search, self._budget = _made(machine, maximising, params)

    @property
    def mixed_seen(self) -> bool:
        return bool(self._search.mixed_seen)

    @mixed_seen.setter
    def mixed_seen(self, value: bool) -> None:
        self._search.mixed_seen = value

    def use_hint(self, other: Prover | None) -> None:
        """:meth:`.dfpn.DfpnSearch.use_hint`: ``other`` a compiled df-pn search or None."""
        if other is self:
            raise ValueError("a search cannot be its own hint")
        if other is not None and not isinstance(other, CompiledDfpn):
            raise TypeError(f"a hint for the compiled df-pn must be one too, not {other!r}")
        if other is None:
            self._search.hint(None)
        else:
            self._search.hint(other._search, other.target)

    @property
    def playouts(self) -> int:
        """The playouts of a bout start's seed from now on (:attr:`.dfpn.DfpnSearch.playouts`)."""
        return int(self._search.tuning) >> 5 & 15

    @playouts.setter
    def playouts(self, count: int) -> None:
        if not 0 <= count <= 15:
            raise ValueError(f"playouts: from 0 to 15, not {count!r}")
        self._search.tuning = int(self._search.tuning) & ~(15 << 5) | count << 5

    @property
    def hint_stored(self) -> bool:
        """Whether the hint reaches stored entries from now on
        (:attr:`.dfpn.DfpnSearch.hint_stored`)."""
        return bool(int(self._search.tuning) & HINT_STORED_BIT)

    @hint_stored.setter
    def hint_stored(self, on: bool) -> None:
        tuning = int(self._search.tuning) & ~HINT_STORED_BIT
        self._search.tuning = tuning | (HINT_STORED_BIT if on else 0)

    @property
    def workers(self) -> int:
        """Threads proving at once from the root on this search's table (Kaneko's parallel
        df-pn, ``_ckernel.c``: ``dfpn_parallel``); 1: this thread alone. With more than one
        the answers are the same, the node counts vary from run to run."""
        return int(self._search.workers)

    @workers.setter
    def workers(self, count: int) -> None:
        self._search.workers = count

    def numbers(self, state: KState) -> tuple[int, int] | None:
        found = self._search.entry(state.key())
        return None if found is None else (int(found[0]), int(found[1]))

    def prove(self, state: KState) -> bool:
        try:
            answer, stop = self._search.prove(state.key(), self.target)
        except ArithmeticError:
            raise ConceptError(NOT_CONSTANT_SUM) from None
        if answer is None:
            raise _exceeded(stop, self._budget, self.nodes, self.elapsed())
        return bool(answer)


def _exceeded(stop: str, budget: Budget, nodes: int, seconds: float) -> BudgetExceeded:
    if stop == "nodes":
        reason = f"node limit of {budget.max_nodes} reached"
    elif stop == "time":
        reason = f"time limit of {budget.max_seconds:g} s reached"
    elif stop == "depth":
        reason = DEPTH_REASON
    elif stop == "cycle":
        reason = CYCLE_REASON
    elif stop == "memory":
        reason = "out of memory for the transposition table"
    elif stop == "interrupted":
        reason = "interrupted"
    else:
        reason = "a position beyond the compiled kernel's fixed capacities"
    return BudgetExceeded(reason, nodes, seconds)
