"""Solving Omens positions on the kernel: the same answers as the reference solver, faster.

:func:`prepare` is what :func:`omen_solver.core.search.solve` asks of the Omens kernel (through
the game's descriptor) unless ``engine="reference"`` is asked for. It compiles the table,
converts the state, and hands the core an :class:`OmensKernelRoot`: the root on the kernel's
machine (:mod:`.view`) and the searches of each side, the compiled kernel's when it is built
(else the pure-Python kernel's, which give identical values, actions and node counts). The
core analyses the root with the reference's own code
(:func:`omen_solver.core.search.kernels.solve_kernel_root`): the same report, whose actions the
explaining engine then replays and explains. :func:`solve_with_kernel` does both, with the
kernel's own settings besides (table limits, tuning), for tests and benchmarks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget, Progress, Status, deep_recursion
from omen_solver.core.game import GameState
from omen_solver.core.search.kernels import NextRound, solve_kernel_root
from omen_solver.core.search.maxn import TieBreak
from omen_solver.core.search.moves import MoveDriver, Report
from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
from omen_solver.core.search.root import PureValues
from omen_solver.errors import BudgetExceeded, ChoiceError, KernelUnsupported
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.dfpn import DfpnSearch, Prover, settled_by
from omen_solver.omens.kernel.estimate import (
    EstimatingDriver,
    EvaluationPlan,
    EvaluationSettings,
    exact_budget,
    maxn_moves,
    share_for,
)
from omen_solver.omens.kernel.game import GameChain, round_table
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.maxn import KernelMaxn
from omen_solver.omens.kernel.params import DEFAULT_PARAMS, SearchParams, Tuning, Value
from omen_solver.omens.kernel.portfolio import FIRST_TURN, Portfolio
from omen_solver.omens.kernel.rounds import Job
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.kernel.tables import MemoryPlan, Table, TableSet
from omen_solver.omens.kernel.turns import ProofOrderDriver
from omen_solver.omens.kernel.view import KernelSearchLike, KernelTwoSided, KernelView
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope

__all__ = [
    "PURE_PYTHON_VARIABLE",
    "OmensKernelRoot",
    "backend_name",
    "dfpn_value",
    "make_dfpn",
    "make_search",
    "prepare",
    "solve_with_kernel",
]

PURE_PYTHON_VARIABLE: Final = "OMEN_SOLVER_PURE_PYTHON"
"""Set this environment variable to 1 to use the pure-Python kernel even when the compiled one
is built (the results are identical; it is slower)."""


def _use_compiled() -> bool:
    return compiled.AVAILABLE and os.environ.get(PURE_PYTHON_VARIABLE, "") in ("", "0")


def backend_name() -> str:
    """Which kernel runs: ``compiled`` or ``pure Python``."""
    return "compiled" if _use_compiled() else "pure Python"


Payoff = list[list[Value]]


def make_dfpn(
    machine: Machine,
    maximising: Sequence[bool],
    target: int,
    params: SearchParams = DEFAULT_PARAMS,
    *,
    pure_python: bool | None = None,
) -> Prover:
    """A df-pn search of "is the value for ``maximising`` equal to ``target``?": the compiled
    one when it is built (and not refused), else Python."""
    use_compiled = _use_compiled() if pure_python is None else not pure_python
    if use_compiled and compiled.AVAILABLE:
        return compiled.CompiledDfpn(machine, maximising, target, params)
    return DfpnSearch(machine, maximising, target, params)


def dfpn_value(
    machine: Machine,
    maximising: Sequence[bool],
    state: KState,
    params: SearchParams = DEFAULT_PARAMS,
) -> tuple[int | None, int, int]:
    """The round's value for the maximising side by df-pn: 1 or 0, or None when neither side
    wins for sure (a mixed matrix game). Also the nodes searched and the table's entries, over
    both questions. Raises :class:`BudgetExceeded` when the budget runs out."""
    nodes = states = 0
    asked: Prover | None = None
    for question in (1, 0):
        proof = make_dfpn(machine, maximising, question, params)
        if params.tuning.hint and asked is not None:
            proof.use_hint(asked)
        asked = proof
        proved = proof.prove(state)
        nodes, states = nodes + proof.nodes, states + proof.states
        settled = settled_by(question, proved, proof)
        if settled is not None:
            return settled, nodes, states
    return None, nodes, states


ALGORITHMS: Final = ("portfolio", "alphabeta", "dfpn")
"""The kernel's searches for a round: alpha-beta and df-pn by turns (:mod:`.portfolio`, the
default), alpha-beta alone, or df-pn settling 0 and 1 with alpha-beta for fractions only."""


def make_search(
    machine: Machine,
    maximising: Sequence[bool],
    params: SearchParams = DEFAULT_PARAMS,
    *,
    pure_python: bool | None = None,
    algorithm: str = "alphabeta",
    tables: TableSet | None = None,
    shared: TableSet | None = None,
) -> KernelSearchLike:
    """A kernel search: the compiled one when it is built (and not refused), else Python.
    ``algorithm`` (one of :data:`ALGORITHMS`) applies to a round's value under the mixed
    simultaneous mode; a payoff table (a whole game) or another mode always uses alpha-beta.
    ``tables``: the tables its searches store in (:mod:`.tables`), over ``shared`` ones if
    given; else each search makes its own of ``params.table_limit`` entries."""
    if algorithm not in ALGORITHMS:
        raise ChoiceError(
            f"algorithm {algorithm!r}: unknown; choose one of {', '.join(ALGORITHMS)}"
        )
    use_compiled = _use_compiled() if pure_python is None else not pure_python
    kind: type[KernelSearch] | type[compiled.CompiledSearch] = (
        compiled.CompiledSearch if use_compiled and compiled.AVAILABLE else KernelSearch
    )

    def on(table: Any, base: Any) -> SearchParams:
        if table is None:
            return params
        return replace(params, table=table, shared=base if kind is not KernelSearch else None)

    alpha_beta = kind(machine, maximising, on(tables and tables.alpha_beta,
                                              shared and shared.alpha_beta))
    if (algorithm == "alphabeta" or params.payoff is not None
            or params.mode is not SimultaneousMode.MIXED):
        return alpha_beta
    proofs = {
        target: make_dfpn(machine, maximising, target,
                          on(tables and tables.proofs[target], shared and shared.proofs[target]),
                          pure_python=pure_python)
        for target in (1, 0)
    }
    return Portfolio(alpha_beta, proofs, params,
                     first_turn=FIRST_TURN if algorithm == "portfolio" else 0)


class _Searches:
    """A side's kernel searches for one root analysis (:class:`~omen_solver.core.search.root.
    RootSearches`): the root's own search, and the root's moves by rounds on shared tables
    (:mod:`.rounds`), with estimates where ``plan`` asks for them (:mod:`.estimate`)."""

    def __init__(
        self,
        factory: Factory,
        root: KernelView,
        threads: int,
        progress: Progress | None,
        plan: EvaluationPlan | None,
    ) -> None:
        self.factory = factory
        self.root = root
        self.threads = threads
        self.progress = progress
        self.plan = plan
        self.started = time.perf_counter()

    def search(self, mode: SimultaneousMode, budget: Budget) -> KernelTwoSided:
        return self.factory.search(mode, budget)

    def pure_values(self, search: Any, value: Fraction,
                    mode: SimultaneousMode) -> PureValues | None:
        """The pure lower and upper values of a round without chance (no random discard by
        Luck, no payoff table), found without a search. Every end of such a round is won or
        lost (1 or 0), and with the choices at an exchange revealed in a fixed order the round
        is a game of perfect information, so each pure value is 0 or 1, and they hold the
        mixed value between them. A mixed value of 1 is also the pure lower value: a mixed
        strategy that guarantees 1 puts its weight only on rows that win against every answer
        (and likewise 0 the pure upper one). So a fraction lies between 0 and 1, and 0 or 1
        is all three values. Elsewhere (``None``) the two searches of the core run."""
        factory = self.factory
        if (factory.params.payoff is not None or factory.machine.spec.luck_random
                or not search.gap_seen or mode is not SimultaneousMode.MIXED):
            return None
        if value in (0, 1):
            return value, value, None
        return Fraction(0), Fraction(1), None

    def driver(
        self,
        search: Any,
        options: list[tuple[str, GameState[Any]]],
        maximising: bool,
        *,
        budget: Budget,
        first_turn: int,
        report: Report | None,
    ) -> MoveDriver:
        main = search
        count = len(options)
        factory = self.factory

        def job(progress: Progress | None) -> Job:
            return factory.job(main, count, progress)

        lone = factory.params.tuning.lone_move_shared
        sizes = factory.private_limits if factory.params.tuning.private_by_round else None
        parallel = factory.params.tuning.parallel_dfpn
        width = factory.params.tuning.round_width
        if self.plan is not None:
            return EstimatingDriver(
                options, maximising, main, factory.tables_of(main), job, threads=self.threads,
                budget=budget, first_turn=first_turn, report=report,
                progress=self.progress, lone_shared=lone, parallel_dfpn=parallel, sizes=sizes,
                width=width, plan=self.plan, maximising_seats=factory.side, root=self.root,
            )
        return ProofOrderDriver(
            options, maximising, main, factory.tables_of(main), job, threads=self.threads,
            budget=budget, first_turn=first_turn, report=report,
            progress=self.progress, lone_shared=lone, parallel_dfpn=parallel, sizes=sizes,
            width=width,
        )

    def finished(self, result: SolveResult, driver: MoveDriver | None) -> SolveResult:
        if isinstance(driver, EstimatingDriver) and driver.evaluation is not None:
            result.extra["evaluation"] = driver.evaluation.report()
        return result

    def stopped(self, driver: MoveDriver | None, exceeded: BudgetExceeded) -> BudgetExceeded:
        """The exact searches stopped: what is left of the budget goes to the evaluation,
        whose estimates join the moves that nothing settled."""
        if isinstance(driver, EstimatingDriver):
            driver.finish()
            plan = driver.plan
            shared = (f"{exceeded.reason} (the exact searches' part of the budget: "
                      f"{plan.share:.0%} of the time went to the estimates)")
            exceeded = BudgetExceeded(shared, exceeded.nodes,
                                      time.perf_counter() - self.started)
        return exceeded


class Factory:
    """Makes a side's kernel searches within a solve's memory plan: the root's own, on tables
    of their own, and each root move's, on tables over the root's (:mod:`.rounds`)."""

    def __init__(
        self,
        machine: Machine,
        side: Sequence[bool],
        params: SearchParams,
        algorithm: str,
        plan: MemoryPlan,
        pool: Any,
        table_limit: int | None,
        made: list[KernelSearchLike],
    ) -> None:
        self.machine = machine
        self.side = list(side)
        self.params = params
        self.algorithm = algorithm
        self.plan = plan
        self.pool = pool
        self.table_limit = table_limit
        self.made = made
        self.compiled = _use_compiled()
        self._tables: dict[int, TableSet] = {}
        self.all_tables: list[TableSet] = []
        """Every table set made (the root's and its moves'), for the report."""

    def _tables_for(self, scale: float, shared: TableSet | None) -> TableSet:
        if self.table_limit is not None:
            # the caller's limit for every table: the same in both kernels
            made = _own_tables(self.compiled, self.table_limit, self.pool, shared)
        else:
            made = self.plan.tables(self.compiled, _maker(self.compiled, self.pool),
                                    scale=scale, shared=shared)
        self.all_tables.append(made)
        return made

    def search(self, mode: SimultaneousMode, left: Budget) -> KernelTwoSided:
        """The root's own search (on tables of its own)."""
        params = replace(self.params, mode=mode, budget=left, pool=self.pool)
        if self.table_limit is not None:
            params = replace(params, table_limit=self.table_limit)
        tables = self._tables_for(1.0, None)
        inner = make_search(self.machine, self.side, params, algorithm=self.algorithm,
                            tables=tables)
        self.made.append(inner)
        made = KernelTwoSided(inner, self.machine, self.side, params.payoff, left.max_nodes)
        self._tables[id(made)] = tables
        return made

    def private_limits(self, moves: int) -> tuple[int, ...] | None:
        """The entry limits of a root move's tables (alpha-beta's, then df-pn's "value 1?"
        and "value 0?") when ``moves`` moves share the memory of the moves' tables in a
        round (``Tuning.private_by_round``), or None where the caller fixed every table's
        limit."""
        if self.table_limit is not None:
            return None
        scale = MemoryPlan.PRIVATE_SHARE / (sum(MemoryPlan.SHARES.values()) * max(moves, 1))
        return tuple(self.plan.limit(MemoryPlan.SHARES[part] * scale, self.compiled)
                     for part in ("alpha_beta", 1, 0))

    def tables_of(self, search: KernelTwoSided) -> TableSet:
        return self._tables[id(search)]

    def job(self, main: KernelTwoSided, moves: int, progress: Progress | None) -> Job:
        """A root move's searches: tables of their own over ``main``'s, with a share of the
        memory for them divided among the ``moves``."""
        shared = self.tables_of(main)
        scale = MemoryPlan.PRIVATE_SHARE / (sum(MemoryPlan.SHARES.values()) * moves)
        tables = self._tables_for(scale, shared)
        inner_params = main.inner
        params = replace(self.params, mode=main.mode, budget=_budget_of(inner_params),
                         progress=progress, pool=self.pool)
        inner = make_search(self.machine, self.side, params, algorithm=self.algorithm,
                            tables=tables, shared=shared)
        cost = inner.most_nodes_of_a_step if isinstance(inner, Portfolio) else _one_turn
        return Job(KernelTwoSided(inner, self.machine, self.side, params.payoff, main.overall),
                   tables, cost)


def _one_turn(turn: int) -> int:
    """The most nodes a step of alpha-beta alone takes: its turn."""
    return turn


def _maker(compiled_kernel: bool, pool: Any) -> Callable[[int, Any], Any]:
    """How a table of a given limit over a base table is made: the compiled kernel's in the
    solve's pool (its searches are told their base), or a pure-Python one over its base."""

    def make(limit: int, base: Any) -> Any:
        return compiled.new_table(limit, pool) if compiled_kernel else Table(limit, shared=base)

    return make


def _own_tables(compiled_kernel: bool, limit: int, pool: Any,
                shared: TableSet | None = None) -> TableSet:
    """Tables of ``limit`` entries each (a limit asked for by the caller), over ``shared``."""
    make = _maker(compiled_kernel, pool)
    return TableSet(make(limit, shared and shared.alpha_beta),
                    {q: make(limit, shared and shared.proofs[q]) for q in (1, 0)})


def _budget_of(search: Any) -> Budget:
    """The budget a root search was made with (its moves' searches keep its deadline)."""
    params = getattr(search, "params", None)
    if params is None:  # a Portfolio keeps its searches' params
        params = search.alpha_beta.params
    budget: Budget = params.budget
    return budget


def solve_with_kernel(
    state: OmensState,
    concept: Concept,
    team: int,
    *,
    budget: Budget,
    simultaneous: SimultaneousMode = SimultaneousMode.MIXED,
    progress: Progress | None = None,
    table_limit: int | None = None,
    algorithm: str = "portfolio",
    per_move: bool = True,
    report: Report | None = None,
    threads: int | None = None,
    max_memory: int | None = None,
    tuning: Tuning | None = None,
    keep: list[Factory] | None = None,
    evaluate: EvaluationSettings | None = None,
) -> SolveResult:
    """Solve ``state`` on the kernel under a concept already checked against its teams
    (:func:`omen_solver.core.search.solver.resolve_concept`): the kernel's searches
    (:func:`prepare`) analysed by the core (:func:`~omen_solver.core.search.kernels.
    solve_kernel_root`), as :func:`omen_solver.core.search.solve` does, with the kernel's own
    settings besides: ``table_limit``, the entries each table keeps at most (instead of
    ``max_memory``); ``tuning``, how the searches order and seed their nodes
    (:class:`.params.Tuning`, the defaults if None; the answers are the same); ``keep``, a list
    the solve's :class:`Factory` objects are appended to, whose searches and tables a benchmark
    reads afterwards."""
    prepared = prepare(state, concept, team, budget=budget, simultaneous=simultaneous,
                       progress=progress, table_limit=table_limit, algorithm=algorithm,
                       per_move=per_move, threads=threads, max_memory=max_memory,
                       tuning=tuning, keep=keep, evaluate=evaluate)
    if isinstance(prepared, SolveResult):
        return prepared
    return solve_kernel_root(prepared, concept, team, simultaneous, progress,
                             per_move=per_move, report=report)


def prepare(
    state: OmensState,
    concept: Concept,
    team: int,
    *,
    budget: Budget,
    simultaneous: SimultaneousMode = SimultaneousMode.MIXED,
    progress: Progress | None = None,
    table_limit: int | None = None,
    algorithm: str = "portfolio",
    per_move: bool = True,
    threads: int | None = None,
    max_memory: int | None = None,
    tuning: Tuning | None = None,
    keep: list[Factory] | None = None,
    evaluate: EvaluationSettings | None = None,
) -> OmensKernelRoot | SolveResult:
    """The kernel's searches of ``state`` for the core's root analysis
    (:class:`~omen_solver.core.search.kernels.KernelRoot`), or the answer when the values of a
    game's later rounds (searched first) already ran out of budget. A bout or a round is
    searched as it is; a game needs the deal of every round that may still be played
    (``Table.later_rounds``, :mod:`.game`). Raises :class:`KernelUnsupported` for what the
    kernel does not play (a chance deal, a rule setting it does not know, max-n over a game),
    so that the caller can use the reference solver. ``per_move``: the root's moves are
    searched by turns (only then are there estimates); ``threads``: how many of them the
    compiled kernel searches at once, and a move searched alone is proved on all of them (the
    same answers with any number, :mod:`.rounds`; default 1, 0 for the machine's cores);
    ``max_memory``: the bytes the tables keep to (:class:`.tables.MemoryPlan`, default 2 GiB);
    ``evaluate``: the moves the exact searches leave open get estimates (:mod:`.estimate`),
    with a share of the budget. ``table_limit``, ``tuning`` and ``keep``: as
    :func:`solve_with_kernel` says."""
    table = state.table
    teams = state.teams()
    game = table.scope is Scope.GAME
    spec = compile_table(round_table(table) if game else table, teams)
    machine = Machine(spec)
    chain: GameChain | None = None
    payoff: Payoff | None = None
    plan = MemoryPlan() if max_memory is None else MemoryPlan(max_memory)
    threads = (os.cpu_count() or 1) if threads == 0 else (threads or 1)
    pool = compiled.new_pool(plan.table_bytes) if _use_compiled() else None
    if game:
        chain = GameChain(machine, table, state.rounds_won, team, concept, simultaneous,
                          budget, progress, make_search)
        try:
            with deep_recursion():
                payoff = chain.payoff(tuple(state.rounds_won))
        except BudgetExceeded as exceeded:
            return _unknown_game(state, concept, team, chain, exceeded)
        budget = chain.left()
    view = KernelView(machine, from_engine(spec, state))
    evaluation: EvaluationPlan | None = None
    if evaluate is not None and not game and simultaneous is SimultaneousMode.MIXED \
            and per_move:
        share = evaluate.share
        if share is None:
            with deep_recursion():
                share = share_for(_chance(state, budget, threads))
        evaluation = EvaluationPlan.of(evaluate, budget, share, pool, _use_compiled(),
                                       trees=threads)
        budget = exact_budget(budget, share)
    if concept is Concept.MAXN and game:
        raise KernelUnsupported("max-n over a whole game runs on the reference solver")
    return OmensKernelRoot(
        view, budget, concept, team, chain, payoff,
        _Setup(constant_sum=concept is Concept.MINIMAX, progress=progress, tuning=tuning,
               algorithm=algorithm, plan=plan, pool=pool, table_limit=table_limit, keep=keep,
               threads=threads, evaluation=evaluation),
    )


@dataclass(frozen=True)
class _Setup:
    """How a solve's kernel searches are made (the same for every side and round)."""

    constant_sum: bool
    progress: Progress | None
    tuning: Tuning | None
    algorithm: str
    plan: MemoryPlan
    pool: Any
    table_limit: int | None
    keep: list[Factory] | None
    threads: int
    evaluation: EvaluationPlan | None


class OmensKernelRoot:
    """The Omens kernel's part in a solve (:class:`~omen_solver.core.search.kernels.
    KernelRoot`): the root on the kernel's machine, and the searches of each side within the
    solve's memory plan; a whole game's later rounds from its :class:`.game.GameChain`."""

    bounds: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))

    def __init__(
        self,
        root: KernelView,
        budget: Budget,
        concept: Concept,
        team: int,
        chain: GameChain | None,
        payoff: Payoff | None,
        setup: _Setup,
    ) -> None:
        self.root = root
        self.budget = budget
        self.concept = concept
        self.team = team
        self.chain = chain
        self.payoff = payoff
        self.setup = setup
        self.rounds_after = chain is not None
        self.factories: list[Factory] = []
        self.made: list[KernelSearchLike] = []
        self.maxn_made: list[KernelMaxn | compiled.CompiledMaxn] = []

    def _side(self, team: int) -> list[bool]:
        spec = self.root.machine.spec
        return [spec.team_of[seat] == team for seat in range(spec.players)]

    def _factory(self, payoff: Payoff | None, side: Sequence[bool]) -> Factory:
        setup = self.setup
        params = SearchParams(constant_sum=setup.constant_sum, progress=setup.progress,
                              payoff=payoff, tuning=setup.tuning or Tuning())
        made = Factory(self.root.machine, side, params, setup.algorithm, setup.plan, setup.pool,
                       setup.table_limit, self.made)
        self.factories.append(made)
        if setup.keep is not None:
            setup.keep.append(made)
        return made

    def searches(self, team: int) -> _Searches:
        """The searches for the seats of the team of that index; the asked team's keep the
        payoff of a game's later rounds and the estimates' plan (a max-n solve asks each
        team's paranoid guarantee, on a round alone)."""
        asked = team == self.team and self.concept is not Concept.MAXN
        payoff = self.payoff if asked else None
        plan = self.setup.evaluation if asked else None
        return _Searches(self._factory(payoff, self._side(team)), self.root,
                         self.setup.threads, self.setup.progress, plan)

    def maxn_search(self, tie: TieBreak, budget: Budget) -> KernelMaxn | compiled.CompiledMaxn:
        """Max-n on the kernel's machine. One max-n search runs at a time (a tie-break after
        the other), so its table keeps the caller's limit of entries or else the whole of the
        memory plan's table bytes, within the solve's pool (``--max-memory``)."""
        setup = self.setup
        limit = (setup.table_limit if setup.table_limit is not None
                 else setup.plan.limit(1.0, _use_compiled()))
        kind = compiled.CompiledMaxn if _use_compiled() else KernelMaxn
        params = SearchParams(budget=budget, progress=setup.progress, pool=setup.pool,
                              table_limit=limit)
        search = kind(self.root.machine, params, tie_break=tie)
        self.maxn_made.append(search)
        return search

    def spent(self) -> tuple[int, int]:
        chain = self.chain
        return (0, 0) if chain is None else (chain.nodes, chain.states)

    def next_round(self, state: GameState[Any]) -> NextRound | None:
        """After a round won while the game goes on: the next round's start, its value and the
        searches of the asked team under the payoff of the rounds after it."""
        chain = self.chain
        assert isinstance(state, KernelView)
        if chain is None or not (state.is_terminal() and state.k.winner >= 0
                                 and max(state.k.won) < 2):
            return None
        score = tuple(state.k.won)
        leader = chain.machine.next_round_leader(state.k)
        value = chain.value(score, leader)
        start = KernelView(chain.machine, chain.start(score, leader))
        left = chain.left()
        searches = _Searches(self._factory(chain.payoff(score), self._side(self.team)), start,
                             self.setup.threads, self.setup.progress, None)
        return NextRound(start, left, chain.mode, searches, value)

    def finish(self, result: SolveResult) -> SolveResult:
        """The estimates of a max-n solve that ran out of budget, and what ran: the kernel,
        its search, its tables and threads."""
        setup = self.setup
        if self.concept is Concept.MAXN and setup.evaluation is not None and not result.solved:
            result = _maxn_estimates(result, self.root, self.team, self.maxn_made,
                                     setup.evaluation)
        pool = setup.pool
        memory = int(pool.peak) if pool is not None else 0
        if pool is not None:
            pool.drop_memos()  # the searches' memos of playouts: no search runs now
        result.extra.update(
            {
                "engine": f"kernel ({backend_name()})",
                "algorithm": setup.algorithm,
                "table_entries": sum(s.states for s in [*self.made, *self.maxn_made]),
                **({"table_bytes": memory} if memory else {}),
                "max_memory": setup.plan.max_bytes,
                "table_collections": sum(t.collections for f in self.factories
                                         for t in f.all_tables),
                "threads": setup.threads,
            }
        )
        return result


def _chance(state: OmensState, budget: Budget, threads: int) -> float:
    """The chance that the exact value is found within the budget (:mod:`.reach`)."""
    from omen_solver.omens.kernel.reach import expected

    return expected(state, budget, threads=threads, pure_python=not _use_compiled()).chance


def _maxn_estimates(result: SolveResult, view: KernelView, team: int,
                    made: Sequence[KernelMaxn | compiled.CompiledMaxn],
                    plan: EvaluationPlan) -> SolveResult:
    """A max-n solve that ran out of budget: every root move with its vector where the first
    tie-break's search finished it, else an estimate (:func:`.estimate.maxn_moves`)."""
    first = made[0] if made else None
    began = time.perf_counter()
    moves, evaluation = maxn_moves(view, team, first, plan)
    extra = dict(result.extra)
    note = result.note
    if evaluation is not None:
        extra["evaluation"] = evaluation.report()
        note = (f"{note} (the exact searches' part of the budget: {plan.share:.0%} of the "
                "time went to the estimates)")
    return replace(result, moves=moves, extra=extra, note=note,
                   seconds=result.seconds + time.perf_counter() - began)


def _unknown_game(
    state: OmensState, concept: Concept, team: int, chain: GameChain,
    exceeded: BudgetExceeded,
) -> SolveResult:
    return SolveResult(
        Status.UNKNOWN, concept, state.teams(), team, None, None, Fraction(0), Fraction(1),
        (), (), chain.nodes, chain.states, exceeded.seconds,
        note=f"{exceeded.reason} while solving the later rounds",
        extra={"engine": f"kernel ({backend_name()})"},
    )
