"""The root's moves on the kernel, by rounds, on one or several threads with the same answers
and node counts.

:class:`RoundDriver` is the kernel's :class:`~omen_solver.core.search.moves.MoveDriver`. In
each **round** every move still open gets a turn (``first_turn`` nodes, doubled every round)
of the default search of the position after it (:meth:`.portfolio.Portfolio.step`). Each
move's searches store in **tables of their own** and read, after them, the **shared tables**
as they stood at the start of the round; at the end of the round the moves' tables are merged
into the shared ones in the order of the moves and emptied (:mod:`.tables`). So what a move's
search reads never depends on which other move finished first: the compiled kernel runs the
moves of a round on ``threads`` threads at once (its searches let go of the GIL, and a shared
table is only read while they run), and the answers, the node counts and every table are the
same with one thread or several, run after run. The pure-Python kernel runs the same rounds
one move after the other (the GIL allows no more), with the same results.

What a round's searches learn about the questions they leave open goes with the merge: a df-pn
search that went through an exchange or a chance node marks the shared tables, so that no
other search reads a disproof made there as a proven loss (:func:`.dfpn.settled_by`); the
constant-sum total and a matrix game without a saddle seen by any search are the root's too.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.core.budget import Budget, Progress
from omen_solver.core.game import GameState
from omen_solver.core.search.moves import MoveDriver, Report
from omen_solver.core.search.root import root_bounds
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel.compiled import CompiledDfpn, CompiledSearch
from omen_solver.omens.kernel.search import skip_shows
from omen_solver.omens.kernel.tables import TableSet
from omen_solver.omens.kernel.view import KernelTwoSided, KernelView

__all__ = ["PARALLEL_NODES", "POLL_SECONDS", "Job", "RoundDriver"]

POLL_SECONDS: Final = 0.25
"""How often the thread waiting for a round's searches reports progress (and sees Ctrl-C)."""

PARALLEL_NODES: Final = 200_000
"""The nodes a move searched alone must have taken in the rounds before for its searches to
prove on every thread (``Tuning.parallel_dfpn``): a move settled in fewer is over in a
fraction of a second, and a solve whose moves never reach them gives the same node counts
with any number of threads."""


@dataclass
class Job:
    """One root move's searches and the tables they store in between two merges."""

    search: KernelTwoSided
    tables: TableSet
    cost: Callable[[int], int]
    """The most nodes its searches take in one step of a given turn (alpha-beta alone: the
    turn; by turns: :meth:`.portfolio.Portfolio.most_nodes_of_a_step`)."""


class _CapReached(BudgetExceeded):
    """A move's searches spent what the node limit left them this round."""


Jobs = Callable[[Progress | None], Job]
"""Makes a move's searches over the shared tables, reporting progress to the callback."""


class RoundDriver(MoveDriver):
    """The root's moves by rounds on shared tables (see the module's text). ``main`` is the
    root's own search, on the shared tables (``shared``), which the principal variation and
    the pure values use after; ``job`` makes each move's searches."""

    def __init__(
        self,
        options: Sequence[tuple[str, GameState[Any]]],
        maximising: bool,
        main: KernelTwoSided,
        shared: TableSet,
        job: Jobs,
        *,
        threads: int,
        budget: Budget,
        first_turn: int,
        report: Report | None,
        progress: Progress | None,
        lone_shared: bool = False,
        sizes: Callable[[int], tuple[int, ...] | None] | None = None,
        parallel_dfpn: bool = False,
    ) -> None:
        super().__init__(options, maximising, _Stepper(main), low=0, high=1, budget=budget,
                         first_turn=first_turn, report=report, same=_play_of(main))
        self.main = main
        self.shared = shared
        self.threads = max(1, threads)
        self.progress = progress
        self.lone_shared = lone_shared
        """A move searched alone in its round stores straight into the shared tables
        (``Tuning.lone_move_shared``)."""
        self.sizes = sizes
        """The entry limits of a move's own tables when a round searches a given number of
        moves (``Tuning.private_by_round``), or None: as they were made."""
        self.jobs = [job(self._progress_of(move)) for move in self.moves]
        self._counted = False
        self.parallel = self.threads > 1 and all(
            isinstance(search, CompiledSearch | CompiledDfpn)
            for search in _inner_searches(self.jobs[0].search)
        )
        if self.parallel:
            for job_ in self.jobs:
                for search in _inner_searches(job_.search):
                    search._search.threaded = True
        self.parallel_dfpn = self.parallel and parallel_dfpn
        """A move searched alone in its round proves on every thread (``Tuning.parallel_dfpn``;
        the node counts then vary from run to run)."""

    @property
    def nodes(self) -> int:
        return sum(move.nodes for move in self.moves)

    # -- the rounds ----------------------------------------------------------------------------

    def _progress_of(self, move: Any) -> Progress | None:
        """A move's search reports the nodes of the whole solve (its own count on from what it
        had)."""
        progress = self.progress
        if progress is None:
            return None

        def report(nodes: int, seconds: float) -> None:
            progress(self.nodes - move.nodes + nodes, seconds)

        return report

    def run(self) -> Any:
        try:
            return self._rounds()
        finally:
            if not self._counted:
                # the root's own search counts on from every move's nodes
                self.main.nodes = self.main.nodes + self.nodes
                self._counted = True

    def _rounds(self) -> Any:
        self._notify()
        while True:
            value = self.value()
            todo = [move for move in self.moves if self._open(move, value)]
            if not todo:
                found = self.value()
                assert found is not None
                return found
            todo = self.choose(todo)
            caps = self._allot(todo)
            work = [(move, cap, self._window(move, value)) for move, cap in zip(
                todo, caps, strict=True) if cap > 0]
            lone = self.lone_shared and len(work) == 1
            spread = self._spread(work)
            if spread:
                self._workers(work[0][0], self.threads)
            if lone:
                self._store_shared(work[0][0], True)
            elif self.sizes is not None:
                limits = self.sizes(len(work))
                for move, _, _ in work:
                    for table, entries in zip(self.jobs[move.index].tables.all(),
                                              limits or (), strict=False):
                        table.limit = entries
            try:
                outcomes = self._round(work)
            finally:
                if lone:
                    self._store_shared(work[0][0], False)
                if spread:
                    self._workers(work[0][0], 1)
            stopped: BaseException | None = None
            for (move, _, (alpha, beta)), (found, nodes, error) in zip(
                    work, outcomes, strict=True):
                move.nodes += nodes
                if error is not None:
                    stopped = stopped or error
                elif found is not None:
                    _settle(move, found, alpha, beta)
            self._merge([move for move, _, _ in work])
            for move, _, _ in work:
                self._learn(move, self.stepper)
            self._notify()
            if stopped is not None:
                if isinstance(stopped, _CapReached):
                    limit = self.budget.max_nodes
                    raise BudgetExceeded(f"node limit of {limit} reached", self.nodes,
                                         self.stepper.elapsed())
                raise stopped
            self.turned([move for move, _, _ in work])

    # -- which moves have a turn, and how long (a subclass may choose) ----------------------

    def choose(self, todo: list[Any]) -> list[Any]:
        """The open moves that have a turn this round (here: every one)."""
        return todo

    def turn_of(self, move: Any) -> int:
        """The nodes of a move's turn this round (here: the round's, the same for all)."""
        return self.turn

    def turned(self, moves: list[Any]) -> None:
        """After a round in which ``moves`` had a turn (here: every turn doubles)."""
        self.turn *= 2

    def _allot(self, todo: list[Any]) -> list[int]:
        """The nodes each open move may spend this round at most (its searches' turns), in
        move order, within the node limit; 0 where nothing is left."""
        costs = [self.jobs[move.index].cost(self.turn_of(move)) for move in todo]
        limit = self.budget.max_nodes
        if limit is None:
            return costs
        left = limit - self.nodes
        if left < 1:
            raise BudgetExceeded(f"node limit of {limit} reached", self.nodes,
                                 self.stepper.elapsed())
        caps = []
        for cost in costs:
            cap = min(cost, left)
            caps.append(cap)
            left -= cap
        return caps

    def _round(self, work: list[tuple[Any, int, tuple[Any, Any]]]) -> list[
            tuple[Any, int, BaseException | None]]:
        """Every move's turn of this round: (value or None, nodes, the stop if any)."""
        def one(item: tuple[Any, int, tuple[Any, Any]]) -> tuple[Any, int, BaseException | None]:
            move, cap, (alpha, beta) = item
            job = self.jobs[move.index]
            search = job.search
            before = search.nodes
            # the node limit binds: this round's turns may not all be taken in full
            turn = self.turn_of(move)
            limited = cap < job.cost(turn)
            search.cap(before + cap if limited else self.budget.max_nodes)
            try:
                found = search.step(move.state, alpha, beta, turn)
            except BudgetExceeded as stop:
                if limited and search.nodes >= before + cap:
                    return None, search.nodes - before, _CapReached(stop.reason, 0, 0.0)
                return None, search.nodes - before, stop
            return found, search.nodes - before, None

        if not self.parallel or (len(work) < 2 and not self._spread(work)):
            return [one(item) for item in work]
        with concurrent.futures.ThreadPoolExecutor(self.threads) as pool:
            futures = [pool.submit(one, item) for item in work]
            try:
                while True:
                    _, pending = concurrent.futures.wait(futures, timeout=POLL_SECONDS)
                    if not pending:
                        break
                    self._report_progress(work)
            except BaseException:
                for move, _, _ in work:
                    for search in _inner_searches(self.jobs[move.index].search):
                        search._search.interrupt()
                concurrent.futures.wait(futures)
                raise
        return [future.result() for future in futures]

    def _report_progress(self, work: list[tuple[Any, int, tuple[Any, Any]]]) -> None:
        """From the thread that waits: the nodes so far of the moves being searched."""
        if self.progress is not None:
            running = sum(self.jobs[move.index].search.nodes - move.nodes for move, _, _ in work)
            self.progress(self.nodes + running, self.stepper.elapsed())

    def _spread(self, work: list[tuple[Any, int, tuple[Any, Any]]]) -> bool:
        """Whether the move of a round searched alone proves on every thread."""
        return self.parallel_dfpn and len(work) == 1 and work[0][0].nodes >= PARALLEL_NODES

    def _workers(self, move: Any, count: int) -> None:
        """The threads ``move``'s df-pn searches prove on (its alpha-beta keeps one)."""
        for search in _inner_searches(self.jobs[move.index].search):
            if isinstance(search, CompiledDfpn):
                search.workers = count

    def _store_shared(self, move: Any, on: bool) -> None:
        """Let ``move``'s searches store straight into the shared tables (``on``), or in
        their own over the shared ones again. Only a move searched alone in its round does:
        no other search reads the shared tables meanwhile, so what each reads is still the
        same with one thread or several, and a long search keeps what it learns in the
        large tables instead of the small ones of a move, which replace their entries
        between two merges."""
        job = self.jobs[move.index]
        searches = _inner_searches(job.search)
        count = len(searches)  # alpha-beta alone, or with df-pn's two questions
        for search, own, shared in zip(searches, job.tables.all()[:count],
                                       self.shared.all()[:count], strict=True):
            if isinstance(search, CompiledSearch | CompiledDfpn):
                search._search.use(shared if on else own, None if on else shared)
            else:
                search.table = shared if on else own

    def _merge(self, moves: list[Any]) -> None:
        """The moves' tables into the shared ones, in move order; what they saw goes too."""
        mains = _inner_searches(self.main)
        for move in moves:
            job = self.jobs[move.index]
            self.shared.merge(job.tables)
            job.tables.clear()
            for mine, theirs in zip(mains, _inner_searches(job.search), strict=True):
                _share_flags(mine, theirs)
        for move in self.moves:
            for mine, theirs in zip(mains, _inner_searches(self.jobs[move.index].search),
                                    strict=True):
                _share_flags(theirs, mine)


class _Stepper:
    """The root's own search, for the bounds the shared tables prove and the clock."""

    def __init__(self, main: KernelTwoSided) -> None:
        self.main = main

    @property
    def nodes(self) -> int:
        return int(self.main.nodes)

    def elapsed(self) -> float:
        return float(self.main.elapsed())

    def step(self, state: GameState[Any], alpha: Any, beta: Any, turn: int) -> Any:
        raise NotImplementedError("the rounds run the moves' own searches")

    def bounds_of(self, state: GameState[Any]) -> tuple[Any, Any]:
        return root_bounds(self.main, state)  # type: ignore[arg-type]


def _play_of(main: KernelTwoSided) -> Callable[[GameState[Any]], Hashable]:
    """The key of the play a root move leads to, as the searches see it: Secret's shows
    skipped (every answer leaves the same play), so the moves that differ only by them are
    searched once."""
    machine = main.machine

    def play(state: GameState[Any]) -> Hashable:
        assert isinstance(state, KernelView)
        return skip_shows(machine, state.k).key()

    return play


def _settle(move: Any, found: Any, alpha: Any, beta: Any) -> None:
    if found <= alpha:
        move.upper = min(move.upper, found)
    elif found >= beta:
        move.lower = max(move.lower, found)
    else:
        move.lower = move.upper = found


def _inner_searches(search: KernelTwoSided) -> list[Any]:
    """The kernel searches under a root search: alpha-beta, and df-pn's (1, then 0)."""
    inner = search.inner
    proofs = getattr(inner, "proofs", None)
    if proofs is None:
        return [inner]
    return [inner.alpha_beta, proofs[1], proofs[0]]  # type: ignore[attr-defined]


def _share_flags(into: Any, source: Any) -> None:
    """What ``source`` met that ``into`` must know: a mixed node (df-pn), a matrix game
    without a saddle, the constant-sum total."""
    for flag in ("mixed_seen", "gap_seen"):
        if getattr(source, flag, False) and hasattr(into, flag):
            setattr(into, flag, True)
    if getattr(into, "total", None) is None and getattr(source, "total", None) is not None:
        into.total = source.total
