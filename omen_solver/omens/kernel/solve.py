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
from dataclasses import replace
from fractions import Fraction
from typing import Final

from omen_solver.core.budget import Budget, Progress, Status, deep_recursion
from omen_solver.core.search.maxn import TieBreak
from omen_solver.core.search.moves import Report
from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
from omen_solver.core.search.root import TwoSidedRoot, solve_maxn
from omen_solver.errors import BudgetExceeded, ChoiceError, KernelUnsupported
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.dfpn import DfpnSearch, Prover, settled_by
from omen_solver.omens.kernel.game import GameChain, round_table
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.maxn import KernelMaxn
from omen_solver.omens.kernel.params import DEFAULT_PARAMS, DEFAULT_TABLE_LIMIT, SearchParams, Value
from omen_solver.omens.kernel.portfolio import FIRST_TURN, Portfolio
from omen_solver.omens.kernel.search import KernelSearch
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.kernel.view import KernelSearchLike, KernelTwoSided, KernelView
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope

__all__ = [
    "PURE_PYTHON_VARIABLE",
    "backend_name",
    "dfpn_value",
    "make_dfpn",
    "make_search",
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


Factory = Callable[[SimultaneousMode, Budget], KernelTwoSided]
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
    for question in (1, 0):
        proof = make_dfpn(machine, maximising, question, params)
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
) -> KernelSearchLike:
    """A kernel search: the compiled one when it is built (and not refused), else Python.
    ``algorithm`` (one of :data:`ALGORITHMS`) applies to a round's value under the mixed
    simultaneous mode; a payoff table (a whole game) or another mode always uses alpha-beta."""
    if algorithm not in ALGORITHMS:
        raise ChoiceError(
            f"algorithm {algorithm!r}: unknown; choose one of {', '.join(ALGORITHMS)}"
        )
    use_compiled = _use_compiled() if pure_python is None else not pure_python
    kind: type[KernelSearch] | type[compiled.CompiledSearch] = (
        compiled.CompiledSearch if use_compiled and compiled.AVAILABLE else KernelSearch
    )
    alpha_beta = kind(machine, maximising, params)
    if (algorithm == "alphabeta" or params.payoff is not None
            or params.mode is not SimultaneousMode.MIXED):
        return alpha_beta
    proofs = {
        target: make_dfpn(machine, maximising, target, params, pure_python=pure_python)
        for target in (1, 0)
    }
    return Portfolio(alpha_beta, proofs, params,
                     first_turn=FIRST_TURN if algorithm == "portfolio" else 0)


class _KernelRoot(TwoSidedRoot):
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
        *,
        per_move: bool = True,
        report: Report | None = None,
    ) -> None:
        self._factory = factory
        super().__init__(
            view, concept, team, budget, mode, True, True, (Fraction(0), Fraction(1)), progress,
            per_move=per_move, report=report,
        )

    def new_search(self, mode: SimultaneousMode, budget: Budget) -> KernelTwoSided:
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
    algorithm: str = "portfolio",
    per_move: bool = True,
    report: Report | None = None,
) -> SolveResult:
    """Solve ``state`` on the kernel under a concept already checked against its teams
    (:func:`omen_solver.core.search.solver.resolve_concept`). A bout or a round is searched
    as it is; a game needs the deal of every round that may still be played
    (``Table.later_rounds``, :mod:`.game`). Raises :class:`KernelUnsupported` for what the
    kernel does not play (a chance deal, a rule setting it does not know, max-n), so that the
    caller can use the reference solver. ``per_move`` and ``report``: the root's moves searched
    by turns, each with its answer (:func:`omen_solver.core.search.solve`)."""
    table = state.table
    teams = state.teams()
    game = table.scope is Scope.GAME
    spec = compile_table(round_table(table) if game else table, teams)
    machine = Machine(spec)
    maximising = [seat in teams[team] for seat in range(spec.players)]
    constant_sum = concept is Concept.MINIMAX
    chain: GameChain | None = None
    payoff: Payoff | None = None
    searches: list[KernelSearchLike] = []
    with deep_recursion():
        if game:
            chain = GameChain(machine, table, state.rounds_won, team, concept, simultaneous,
                              budget, progress, make_search)
            try:
                payoff = chain.payoff(tuple(state.rounds_won))
            except BudgetExceeded as exceeded:
                return _unknown_game(state, concept, team, chain, exceeded)
            budget = chain.left()

        def factory(payoff: Payoff | None, side: Sequence[bool] = maximising) -> Factory:
            """Searches for the seats of ``side`` (the asked team's by default)."""

            def make(mode: SimultaneousMode, left: Budget) -> KernelTwoSided:
                params = SearchParams(constant_sum=constant_sum, mode=mode, budget=left,
                                      progress=progress, table_limit=table_limit,
                                      payoff=payoff)
                inner = make_search(machine, side, params, algorithm=algorithm)
                searches.append(inner)
                return KernelTwoSided(inner, machine, side, payoff, left.max_nodes)

            return make

        view = KernelView(machine, from_engine(spec, state))
        if concept is Concept.MAXN:
            if game:
                raise KernelUnsupported("max-n over a whole game runs on the reference solver")
            result = _maxn(view, team, budget, progress, factory)
        else:
            result = _KernelRoot(
                view, concept, team, budget, simultaneous, progress, factory(payoff),
                per_move=per_move, report=report,
            ).run()
        if chain is not None:
            result = _through_later_rounds(result, view, chain, factory)
    memory = sum(getattr(s, "table_bytes", 0) for s in searches)
    result.extra.update(
        {
            "engine": f"kernel ({backend_name()})",
            "algorithm": algorithm,
            "table_entries": sum(s.states for s in searches),
            **({"table_bytes": memory} if memory else {}),
        }
    )
    return result


def _through_later_rounds(
    result: SolveResult,
    view: KernelView,
    chain: GameChain,
    factory: Callable[..., Factory],
) -> SolveResult:
    """A game's answer: the nodes of every round searched, and the principal variation carried
    on through the later rounds (each analysed like the first) while play goes on."""
    line = list(result.principal_variation)
    nodes = result.nodes + chain.nodes
    states = result.states + chain.states
    state = view
    if not result.solved:
        return replace(result, nodes=nodes, states=states)
    try:
        for text in line:
            state = _follow(state, text)
        while state.is_terminal() and state.k.winner >= 0 and max(state.k.won) < 2:
            score = tuple(state.k.won)
            leader = chain.machine.next_round_leader(state.k)
            value = chain.value(score, leader)
            start = KernelView(chain.machine, chain.start(score, leader))
            part = _KernelRoot(
                start, result.concept, result.team, chain.left(), chain.mode, chain.progress,
                factory(chain.payoff(score)), per_move=False,
            ).run()
            nodes += part.nodes
            if not part.solved or part.value != value or not part.principal_variation:
                break
            line.extend(part.principal_variation)
            state = start
            for text in part.principal_variation:
                state = _follow(state, text)
    except BudgetExceeded:
        pass
    return replace(result, principal_variation=tuple(line), nodes=nodes, states=states)


def _maxn(
    view: KernelView,
    team: int,
    budget: Budget,
    progress: Progress | None,
    factory: Callable[[Payoff | None, Sequence[bool]], Factory],
) -> SolveResult:
    """Max-n on the kernel's machine (the reference's max-n search over a protocol view of
    it), with each team's paranoid guarantee from the kernel search."""

    spec = view.machine.spec

    def paranoid(index: int, left: Budget) -> SolveResult:
        side = [spec.team_of[seat] == index for seat in range(spec.players)]
        return _KernelRoot(view, Concept.PARANOID, index, left, SimultaneousMode.MIXED,
                           progress, factory(None, side), per_move=False).run()

    def make(tie: TieBreak, left: Budget) -> KernelMaxn | compiled.CompiledMaxn:
        kind = compiled.CompiledMaxn if _use_compiled() else KernelMaxn
        return kind(view.machine, SearchParams(budget=left, progress=progress), tie_break=tie)

    return solve_maxn(view, team, budget, True, progress, paranoid=paranoid, make=make)


def _follow(view: KernelView, text: str) -> KernelView:
    """The state after a move of a principal variation (a joint one at an exchange)."""
    if view.is_simultaneous_node():
        return view.joint_child(view.string_to_joint(text))
    return view.child(view.string_to_action(text))


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
