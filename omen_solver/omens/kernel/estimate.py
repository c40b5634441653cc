"""The evaluation of a solve's root moves where the exact searches run out: an estimate of each
move that is not proven, beside the proofs, never in their place.

A solve on the kernel searches the root's moves exactly by rounds (:mod:`.rounds`). When every
move has had its first turn and some are still open, the **evaluation** starts: a Monte Carlo
tree search with proven values (:mod:`.mcts`) from the root, given work in proportion to the
exact searches' (its ``share`` of the budget), a chunk after each round, so that the live table
shows every move's estimate from the second round on. When the exact searches' part of the
budget is spent, the evaluation goes on until the whole budget is. Each move that no search has
settled then has an :class:`~omen_solver.core.search.moves.Estimate`: the asked team's win rate
in the playouts through it, a 95 % Wilson interval of that rate, the playouts, and the line the
search expects. A move the tree search **proves** (won, lost, or an exact value the exact oracle
gave) is proven: its bounds are set as any search's proof sets them.

The work of the evaluation is counted in exact nodes: the kernel moves its expansions and
playouts make (eight to a node: they cost about that) and the nodes of its exact oracle. A node
budget (``max_nodes``) is the exact searches' (the answer's ``nodes``); the evaluation's work is
held to the same proportion of it as its share of the time (``share / (1 - share)`` times the
nodes), so with a node budget the whole answer, estimates included, is the same on every run for
the same seed; with a time limit the seed fixes every draw, and where the time ends depends on
the machine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.search.moves import Estimate, MoveAnswer, MoveStatus
from omen_solver.core.stats import wilson
from omen_solver.errors import OmenSolverError
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.mcts import (
    NOT_PROVEN,
    CompiledMcts,
    MctsParams,
    MoveEstimate,
    PythonMcts,
    oracle_params,
)
from omen_solver.omens.kernel.turns import ProofOrderDriver
from omen_solver.omens.kernel.view import KernelView

__all__ = [
    "CHEAP_TURN",
    "CHUNK",
    "DEFAULT_SHARE",
    "PRIOR_PLAYOUTS",
    "EstimatingDriver",
    "Evaluation",
    "EvaluationPlan",
    "EvaluationSettings",
    "exact_budget",
    "maxn_moves",
    "share_for",
]

IN_REACH_SHARE: Final = 0.2
"""The evaluation's share of a solve's budget where the exact value is expected within it
(:mod:`.reach`: a chance of a half or more; the rest is the exact searches')."""
DEFAULT_SHARE: Final = 0.5
"""Its share where the exact value is not expected."""
FAR_SHARE: Final = 0.8
"""Its share where the exact value is far out of reach (a chance below :data:`FAR`): the
exact searches then look for the cheap proofs only."""
FAR: Final = 0.02
PRIOR_PLAYOUTS: Final = 5
"""The weight, in playouts, of the root's mean result in a move's estimate (measured:
docs/benchmarks.md, "Estimates"): a move with 2 playouts both won is estimated near the
root's mean, one with 200 near its own rate."""
CHEAP_TURN: Final = 6_250
"""The first turn of each move's exact searches (nodes a question) where the exact value is
far out of reach (the evaluation's share :data:`FAR_SHARE`; a position that may still be
solved keeps the exact searches' own first turn, and its node counts): the
first pass over the moves is then cheap, and the rest of the exact searches' part goes by
turns that double to the moves whose proof or disproof looks cheapest (:mod:`.turns`), so the
moves' spending follows their proof and disproof numbers instead of every move getting the
same one large first turn."""
POLL_SECONDS: Final = 0.25
"""How often the thread waiting for the trees looks up (and sees Ctrl-C)."""
SLICE: Final = 0.5
"""Seconds between two reports of the evaluation once the exact searches have stopped."""
FINISH_SLICES: Final = 8
"""With a node budget, the evaluation's part left once the exact searches have stopped is
run in this many slices of work (a report after each)."""


def share_for(chance: float) -> float:
    """The evaluation's share of a budget within which the exact value has ``chance``."""
    if chance >= 0.5:
        return IN_REACH_SHARE
    return DEFAULT_SHARE if chance >= FAR else FAR_SHARE
CHUNK: Final = 4096
"""Iterations between two returns to Python (for Ctrl-C and the clock)."""
@dataclass(frozen=True)
class EvaluationSettings:
    """Whether and how a solve evaluates the moves it does not settle."""

    seed: int = 0
    """The evaluation's random stream: the same seed, position and budget give the same
    estimates."""
    share: float | None = None
    """Its share of the budget (None: :data:`DEFAULT_SHARE` where the exact value is not
    expected within the budget, :data:`IN_REACH_SHARE` where it is)."""
    params: MctsParams = field(default_factory=MctsParams)
    """The tree search's settings (its own ``seed`` is replaced by :attr:`seed`)."""

    def __post_init__(self) -> None:
        if self.share is not None and not 0.0 < self.share < 1.0:
            raise OmenSolverError(f"the evaluation's share of the budget must lie strictly "
                                  f"between 0 and 1, not {self.share!r}")

    def mcts(self) -> MctsParams:
        return replace(self.params, seed=self.seed)


def option_key(option: Any) -> int:
    """The tree search's name of a root option: an action, or a joint action of teammates
    (``first << 32 | second``)."""
    if isinstance(option, tuple):
        first, second = option
        return int(first) << 32 | int(second)
    return int(option)


class Evaluation:
    """The tree search of one root, its work counted, and what it says of each root option.

    ``maximising``: the asked side's seats (two sides); ``maxn``: each team for itself, the asked
    team ``team``. The compiled search runs where the kernel is compiled, else the Python one
    (the same estimates). ``trees``: independent searches of the root from the seeds ``seed``,
    ``seed + 1``, ... (root parallelism: the compiled ones run on as many threads at once; the
    Python ones one after the other, with the same results), whose counts are added up."""

    def __init__(self, view: KernelView, maximising: Sequence[bool], settings: EvaluationSettings,
                 *, maxn: bool = False, team: int = 0, pool: Any = None,
                 use_compiled: bool | None = None, trees: int = 1) -> None:
        machine: Machine = view.machine
        params = settings.mcts()
        self.view = view
        self.settings = settings
        self.params = params
        use = compiled.AVAILABLE if use_compiled is None else use_compiled and compiled.AVAILABLE
        self.parallel = use and trees > 1
        self.searches: list[CompiledMcts | PythonMcts] = []
        for index in range(max(1, trees)):
            own = replace(params, seed=params.seed + index)
            oracle = _oracle(machine, maximising, own, maxn, use, pool)
            made: CompiledMcts | PythonMcts
            if use:
                made = tree = CompiledMcts(machine, view.k, maximising, own, maxn=maxn,
                                           team=team, oracle=oracle, pool=pool)
                tree.threaded = self.parallel
            else:
                made = PythonMcts(machine, view.k, maximising, own, maxn=maxn, team=team,
                                  oracle=oracle)
            self.searches.append(made)
        self.seconds = 0.0

    @property
    def search(self) -> CompiledMcts | PythonMcts:
        """The first tree (the only one on one thread)."""
        return self.searches[0]

    @property
    def work(self) -> int:
        """What the searches have done, in exact nodes (:attr:`.mcts.PythonMcts.work`)."""
        return sum(search.work for search in self.searches)

    @property
    def playouts(self) -> int:
        return sum(search.iterations for search in self.searches)

    @property
    def size(self) -> int:
        return sum(search.size for search in self.searches)

    @property
    def oracle_nodes(self) -> int:
        return sum(search.oracle_nodes for search in self.searches)

    def settled(self) -> bool:
        """Every root option proven by some tree."""
        root = self.search.root_moves()
        return all(any(search.estimate(move, 0).proven != NOT_PROVEN
                       or search.estimate(move, 0).exact is not None
                       for search in self.searches) for move in root) if root else all(
            search.settled() for search in self.searches)

    def run(self, work: int | None, deadline: float = 0.0) -> None:
        """Iterations until ``work`` more is done (None: no limit; shared equally by the
        trees), every root option is proven, or the clock passes ``deadline`` (0: none). The
        work is looked at after every iteration, the clock every few, so with a node budget
        the run repeats exactly."""
        began = time.perf_counter()
        share = None if work is None else max(1, work // len(self.searches))
        targets = [0 if share is None else search.work + share for search in self.searches]
        try:
            if self.parallel:
                self._in_threads(targets, deadline)
            else:
                self._in_turn(targets, deadline)
        finally:
            self.seconds += time.perf_counter() - began

    def _in_turn(self, targets: list[int], deadline: float) -> None:
        """The trees on this thread, a chunk of iterations each in turn, so that a clock
        that runs out leaves them with about the same work (a tree run to its end first
        would leave the next one nothing)."""
        running = list(zip(self.searches, targets, strict=True))
        while running:
            going = []
            for search, target in running:
                if search.settled() or (deadline > 0 and time.monotonic() > deadline):
                    continue
                if search.run(CHUNK, deadline, target) >= CHUNK:
                    going.append((search, target))
            running = going

    def _in_threads(self, targets: list[int], deadline: float) -> None:
        import concurrent.futures

        with concurrent.futures.ThreadPoolExecutor(len(self.searches)) as pool:
            futures = [pool.submit(_run_one, search, target, deadline)
                       for search, target in zip(self.searches, targets, strict=True)]
            try:
                while True:
                    _, pending = concurrent.futures.wait(futures, timeout=POLL_SECONDS)
                    if not pending:
                        break
            except BaseException:
                for search in self.searches:
                    search.interrupt()
                concurrent.futures.wait(futures)
                raise
        for future in futures:
            future.result()

    def found(self, option: Any) -> MoveEstimate:
        """What the trees found for the option, added up: the visits and results summed, a
        proof where any tree has one, the line of the tree that visited it most."""
        key = option_key(option)
        found = [search.estimate(key) for search in self.searches]
        if len(found) == 1:
            return found[0]
        proven = next((f.proven for f in found if f.proven != NOT_PROVEN), NOT_PROVEN)
        exact = next((f.exact for f in found if f.exact is not None), None)
        line = max(found, key=lambda f: f.visits).line
        return MoveEstimate(sum(f.visits for f in found), sum(f.wins for f in found), proven,
                            exact, line)

    def estimate(self, option: Any) -> Estimate | None:
        """The option's estimate (None before any playout through it): its playouts' win rate
        drawn toward the mean of the root's playouts (:meth:`prior`) by
        :data:`PRIOR_PLAYOUTS` virtual playouts, so that a move with a handful of playouts
        is not shown with the extreme rate they happen to have; the interval is Wilson's of
        its own playouts, widened where need be to hold that rate."""
        found = self.found(option)
        if found.visits == 0:
            return None
        rate = (found.wins + PRIOR_PLAYOUTS * self.prior()) / (found.visits + PRIOR_PLAYOUTS)
        low, high = wilson(found.wins, found.visits)
        return Estimate(rate, min(low, rate), max(high, rate), found.visits,
                        self.line(option, found))

    def prior(self) -> float:
        """The asked team's mean result in the playouts through the root's moves that no tree
        proved (0.5 before any)."""
        wins = visits = 0.0
        for search in self.searches:
            for move in search.root_moves():
                got = search.estimate(move, 0)
                if got.proven == NOT_PROVEN and got.exact is None:
                    wins += got.wins
                    visits += got.visits
        return wins / visits if visits else 0.5

    def team_rate(self, option: Any, team: int) -> float:
        """Under max-n: the win rate of ``team`` in the playouts through the option."""
        key = option_key(option)
        visits = [search.estimate(key, 0).visits for search in self.searches]
        total = sum(visits)
        if not total:
            return 0.0
        return sum(search.team_rate(key, team) * n
                   for search, n in zip(self.searches, visits, strict=True)) / total

    def proven(self, option: Any) -> Fraction | None:
        """The option's value where the tree search proved it (won 1, lost 0, or an exact
        value its oracle gave), else None."""
        found = self.found(option)
        if found.proven != NOT_PROVEN:
            return Fraction(found.proven)
        return found.exact

    def line(self, option: Any, found: MoveEstimate) -> tuple[str, ...]:
        """The expected line in canonical text, the option itself first."""
        view = self.view
        texts = []
        for move in (option_key(option), *found.line):
            if move >= 1 << 32:
                texts.append(view.joint_to_string((move >> 32, move & 0xFFFFFFFF)))
            else:
                texts.append(view.action_to_string(move))
        return tuple(texts)

    def report(self) -> dict[str, Any]:
        """What the evaluation did, for the answer's JSON."""
        params = self.params
        return {"kind": "estimate", "method": "Monte Carlo tree search with proven values",
                "seed": params.seed, "policy": params.policy, "trees": len(self.searches),
                "playouts": self.playouts, "tree_nodes": self.size, "work": self.work,
                "oracle_nodes": self.oracle_nodes, "seconds": round(self.seconds, 3)}


def _oracle(machine: Machine, maximising: Sequence[bool], params: MctsParams, maxn: bool,
            use_compiled: bool, pool: Any) -> Any:
    """The exact search a tree asks at small bout starts (its own table), or None."""
    if params.oracle_nodes <= 0 or params.oracle_cards <= 0:
        return None
    settings = replace(oracle_params(params), pool=pool)
    if maxn:
        from omen_solver.omens.kernel.maxn import KernelMaxn

        return (compiled.CompiledMaxn(machine, settings) if use_compiled
                else KernelMaxn(machine, settings))
    from omen_solver.omens.kernel.search import KernelSearch

    return (compiled.CompiledSearch(machine, maximising, settings) if use_compiled
            else KernelSearch(machine, maximising, settings))


def _run_one(search: CompiledMcts | PythonMcts, target: int, deadline: float) -> None:
    """One tree's iterations, by chunks, to its work ``target`` (0: none) or ``deadline``."""
    while not search.settled():
        if deadline > 0 and time.monotonic() > deadline:
            break
        if search.run(CHUNK, deadline, target) < CHUNK:
            break


def exact_budget(budget: Budget, share: float) -> Budget:
    """The exact searches' part of a solve's budget: all its nodes (a node limit counts the
    exact searches' nodes; the evaluation's work is counted apart, in the same proportion as
    the time), and the rest of its time."""
    seconds = None if budget.max_seconds is None else budget.max_seconds * (1 - share)
    return Budget(budget.max_nodes, seconds)


@dataclass
class EvaluationPlan:
    """How one solve evaluates its root: the settings, the share of the budget, the whole
    budget's deadline (``time.monotonic()``, 0: none) and the evaluation's work at most (with
    a node budget), and how to make the evaluation of a root."""

    settings: EvaluationSettings
    share: float
    deadline: float
    work: int | None
    pool: Any = None
    use_compiled: bool = True
    """The compiled tree search (else the Python one: the same estimates, slower)."""
    trees: int = 1
    """Independent trees (one a thread)."""

    @classmethod
    def of(cls, settings: EvaluationSettings, budget: Budget, share: float,
           pool: Any = None, use_compiled: bool = True, trees: int = 1) -> EvaluationPlan:
        deadline = 0.0 if budget.max_seconds is None else time.monotonic() + budget.max_seconds
        work = None if budget.max_nodes is None else int(budget.max_nodes * share / (1 - share))
        return cls(settings, share, deadline, work, pool, use_compiled, trees)

    def evaluation(self, view: KernelView, maximising: Sequence[bool], *, maxn: bool = False,
                   team: int = 0) -> Evaluation:
        return Evaluation(view, maximising, self.settings, maxn=maxn, team=team,
                          pool=self.pool, use_compiled=self.use_compiled, trees=self.trees)


class EstimatingDriver(ProofOrderDriver):
    """The root's moves by rounds (:class:`.turns.ProofOrderDriver`), with the evaluation: after
    each round that left a move open, the tree search works in proportion to the round's
    nodes (its share of the budget), and its proofs and estimates join the moves' answers;
    :meth:`finish` gives it what is left of the budget once the exact searches stop."""

    def __init__(self, *args: Any, plan: EvaluationPlan, maximising_seats: Sequence[bool],
                 root: KernelView, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if plan.share >= FAR_SHARE and self.first_turn > CHEAP_TURN:
            self.first_turn = self.turn = CHEAP_TURN
            self.turns = {move.index: CHEAP_TURN for move in self.moves}
        self.plan = plan
        self.root = root
        self.seats = list(maximising_seats)
        self.evaluation: Evaluation | None = None
        self._seen = 0
        self._options = [self._option(move.action) for move in self.moves]

    def _option(self, text: str) -> Any:
        root = self.root
        if root.current_player() >= 0:
            return root.string_to_action(text)
        return root.string_to_joint(text)

    def _notify(self) -> None:
        nodes = self.nodes
        spent, self._seen = nodes - self._seen, nodes
        if spent > 0 and self._wanted() and self._every_move_had_a_turn():
            share = self.plan.share
            self._evaluate(int((nodes if self.evaluation is None else spent)
                               * share / (1 - share)))
        super()._notify()

    def _every_move_had_a_turn(self) -> bool:
        """Whether the exact searches have been through every open move once (until then a
        small position may still be settled without the evaluation)."""
        value = self.value()
        return all(move.nodes > 0 or move.twin is not None or not self._open(move, value)
                   for move in self.moves)

    def _wanted(self) -> bool:
        """Whether a move is still open (the exact searches go on)."""
        value = self.value()
        return any(self._open(move, value) for move in self.moves)

    def _evaluate(self, work: int | None, until: float = 0.0) -> None:
        """The evaluation for ``work`` more (None: as much as the plan leaves), until the
        plan's deadline or ``until`` (a clock time, 0: none), whichever is first."""
        plan = self.plan
        if self.evaluation is None:
            self.evaluation = plan.evaluation(self.root, self.seats)
        if plan.work is not None:
            left = max(0, plan.work - self.evaluation.work)
            work = left if work is None else min(work, left)
        deadline = plan.deadline
        if until and (not deadline or until < deadline):
            deadline = until
        if work is None or work > 0:
            self.evaluation.run(work, deadline)
        self._absorb()

    def _absorb(self) -> None:
        """The tree search's proofs into the moves' bounds, its estimates beside them."""
        evaluation = self.evaluation
        assert evaluation is not None
        for move, option in zip(self.moves, self._options, strict=True):
            estimate = evaluation.estimate(option)
            if estimate is not None:
                self.estimates[move.index] = estimate
            if move.twin is not None:
                continue
            value = evaluation.proven(option)
            if value is not None:
                move.lower = max(move.lower, value)
                move.upper = min(move.upper, value)

    def finish(self) -> None:
        """What is left of the budget, once the exact searches stopped, to the evaluation
        (reported every :data:`SLICE` seconds, as the rounds are)."""
        plan = self.plan
        while self._wanted():
            evaluation = self.evaluation
            before = None if evaluation is None else (evaluation.work, evaluation.playouts)
            if plan.work is not None:
                # a node budget: slices of work, not of time, so the run repeats exactly
                self._evaluate(max(1, plan.work // FINISH_SLICES))
            else:
                self._evaluate(None, time.monotonic() + SLICE)
            super()._notify()
            evaluation = self.evaluation
            assert evaluation is not None
            if (evaluation.work, evaluation.playouts) == before or evaluation.settled():
                break
            if self.plan.deadline and time.monotonic() > self.plan.deadline:
                break
            if self.plan.work is not None and evaluation.work >= self.plan.work:
                break


def maxn_moves(view: KernelView, team: int, first: Any, plan: EvaluationPlan
               ) -> tuple[tuple[MoveAnswer, ...], Evaluation | None]:
    """Every root move of a max-n solve that ran out of budget: the max-n vector where the
    search under the first tie-break (``first``, its table kept; None if it was not made)
    finished the position after the move, and otherwise an estimate from the evaluation under
    max-n for what is left of the budget (a move it proves is won or lost). Moves best first
    for the team choosing: proven ones by their value to it (then to the asked team), the
    others by its win rate in the playouts. A root where two teams choose at once (The
    Absolute's exchange between them) has no moves."""
    machine = view.machine
    spec = machine.spec
    player = view.current_player()
    if player >= 0:
        options: list[Any] = list(view.legal_actions())
        texts = [view.action_to_string(option) for option in options]
        chooser = spec.team_of[player]
    elif player == SIMULTANEOUS_PLAYER:
        seats = view.acting_players()
        if spec.team_of[seats[0]] != spec.team_of[seats[1]]:
            return (), None
        from omen_solver.core.enumeration.tree import joint_actions

        options = joint_actions(view)
        texts = [view.joint_to_string(option) for option in options]
        chooser = spec.team_of[seats[0]]
    else:
        return (), None
    vectors = [_maxn_vector(view, option, first) for option in options]
    evaluation: Evaluation | None = None
    if any(vector is None for vector in vectors):
        side = [spec.team_of[seat] == team for seat in range(spec.players)]
        evaluation = plan.evaluation(view, side, maxn=True, team=team)
        evaluation.run(plan.work, plan.deadline)
    answers: list[tuple[tuple[int, float, float], MoveAnswer]] = []
    for option, text, vector in zip(options, texts, vectors, strict=True):
        if vector is not None:
            mine = vector[team]
            status = (MoveStatus.WON if mine == 1 else MoveStatus.LOST if mine == 0
                      else MoveStatus.EXACT)
            answer = MoveAnswer(text, status, mine, mine, mine, 0)
            answers.append(((0, -float(vector[chooser]), -float(mine)), answer))
            continue
        assert evaluation is not None
        found = evaluation.found(option)
        if found.proven != NOT_PROVEN:
            value = Fraction(found.proven)
            status = MoveStatus.WON if value == 1 else MoveStatus.LOST
            # proven for the asked team only: a loss for it may be another team's win
            answers.append(((1, 0.0, -float(value)),
                            MoveAnswer(text, status, value, value, value, 0)))
            continue
        rate = evaluation.team_rate(option, chooser)
        answers.append(((2, -rate, 0.0), MoveAnswer(text, MoveStatus.UNKNOWN, None, Fraction(0),
                                                      Fraction(1), 0, None,
                                                      evaluation.estimate(option))))
    order = sorted(range(len(answers)), key=lambda i: (*answers[i][0], i))
    return tuple(answers[i][1] for i in order), evaluation


SIMULTANEOUS_PLAYER: Final = -2
"""The protocol's ``current_player()`` at a simultaneous node."""


def _maxn_vector(view: KernelView, option: Any, first: Any) -> tuple[Fraction, ...] | None:
    """The max-n vector of the position after ``option`` where the first tie-break's search
    already holds it (a probe of one node), else None."""
    if first is None:
        return None
    child = view.joint_child(option) if isinstance(option, tuple) else view.child(option)
    if child.is_terminal():
        return tuple(child.returns()[seats[0]] for seats in view.teams())
    from omen_solver.errors import BudgetExceeded

    before = first.nodes
    first.limit_nodes(before + 1)
    try:
        vector: tuple[Fraction, ...] = first.search(child)
    except BudgetExceeded:
        return None
    finally:
        first.nodes = before
        first.limit_nodes(None)
        if hasattr(first, "depth"):
            first.depth = 0
    return vector
