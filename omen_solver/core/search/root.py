"""The analysis of a solve's root: the value, every optimal action, a principal variation, the
pure values of simultaneous choices, and the answer of every root move (:mod:`.moves`).

:class:`TwoSidedRoot` is one minimax or paranoid solve. It asks its searches of a
:class:`RootSearches`: the reference's (:class:`ReferenceSearches`, the default) or a game
kernel's (:mod:`.kernels`), which supplies them and never runs the analysis itself.
:func:`solve_maxn` is a max-n solve, told straight (the outcome under each tie-break and each
team's paranoid guarantee). Both are what :func:`omen_solver.core.search.solve` runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from time import perf_counter
from typing import Any, Protocol

from omen_solver.core.budget import Budget, Progress, Status
from omen_solver.core.enumeration.hooks import return_bounds
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.search import moves as _moves
from omen_solver.core.search.alphabeta import Bound, TwoSidedSearch, exact
from omen_solver.core.search.maxn import MaxnSearch, TieBreak, Vector, pick
from omen_solver.core.search.moves import (
    MoveAnswer,
    MoveDriver,
    MoveStatus,
    Report,
    order_best_first,
)
from omen_solver.core.search.result import (
    Concept,
    MatrixReport,
    SimultaneousMode,
    SolveResult,
)
from omen_solver.core.search.roots import labels, matrix_best_rows, matrix_report, saddle_cell
from omen_solver.core.walk import MAX_DEPTH
from omen_solver.errors import BudgetExceeded

__all__ = [
    "MAX_LINE",
    "OUT_OF_MEMORY",
    "ReferenceSearches",
    "RootSearches",
    "TwoSidedRoot",
    "principal_variation",
    "root_bounds",
    "run_turn",
    "solve_maxn",
]

MAX_LINE = MAX_DEPTH
"""The longest principal variation followed: no search proves a value along a longer line."""

OUT_OF_MEMORY = "out of memory for the transposition table"
"""Why a search that the machine's memory stopped answers unknown (never a traceback)."""


def run_turn(search: Any, turn: int, overall: int | None, run: Callable[[], Any]) -> Any:
    """Run ``run`` (a search of ``search``) for at most ``turn`` more nodes: its result, or
    ``None`` when the turn ran out first. The node limit is put back to ``overall`` (counted
    on the search's own counter) afterwards; any other stop (time, depth, memory, the overall
    node limit) raises :class:`BudgetExceeded`."""
    limit = search.nodes + turn
    if overall is not None:
        limit = min(limit, overall)
    search.limit_nodes(limit)
    try:
        return run()
    except BudgetExceeded:
        if search.nodes < limit or (overall is not None and limit >= overall):
            raise
        return None
    finally:
        search.limit_nodes(overall)


class _Turns:
    """A root's search seen as a :class:`~omen_solver.core.search.moves.Stepper`: run in turns,
    bounds read from its table one ply down (:func:`root_bounds`)."""

    def __init__(self, search: Any, overall: int | None) -> None:
        self.search = search
        self.overall = overall

    @property
    def nodes(self) -> int:
        return int(self.search.nodes)

    def elapsed(self) -> float:
        return float(self.search.elapsed())

    def step(self, state: GameState[Any], alpha: Any, beta: Any, turn: int) -> Any:
        own = getattr(self.search, "step", None)
        if own is not None:
            return own(state, alpha, beta, turn)
        return run_turn(self.search, turn, self.overall,
                        lambda: self.search.search(state, alpha, beta))

    def bounds_of(self, state: GameState[Any]) -> tuple[Any, Any]:
        return root_bounds(self.search, state)


PureValues = tuple[Fraction | None, Fraction | None, str | None]
"""A root's pure lower and upper values, and a note when the budget stopped their search."""


class RootSearches(Protocol):
    """The searches one root analysis (:class:`TwoSidedRoot`) runs, for the side it asks
    about: the reference's (:class:`ReferenceSearches`) or a game kernel's. The analysis
    decides what is searched and when; these only search."""

    def search(self, mode: SimultaneousMode, budget: Budget) -> Any:
        """A search of the root with the interface of
        :class:`~omen_solver.core.search.alphabeta.TwoSidedSearch` (``search``, ``reaches``,
        ``bounds_of``, ``best_move``, ``matrix``, ``nodes``, ``states``, ``low``, ``high``)."""
        ...

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
        """The per-move search of the root's ``options`` (each written, and its state),
        over ``search``'s tables."""
        ...

    def pure_values(
        self, search: Any, value: Fraction, mode: SimultaneousMode
    ) -> PureValues | None:
        """The root's pure values where they follow without a search, else ``None`` (the
        analysis then searches for them)."""
        ...

    def finished(self, result: SolveResult, driver: MoveDriver | None) -> SolveResult:
        """The analysis's answer, with what these searches add to it."""
        ...

    def stopped(self, driver: MoveDriver | None, exceeded: BudgetExceeded) -> BudgetExceeded:
        """The budget ran out: why, as the answer says it (the driver may still report)."""
        ...


class ReferenceSearches:
    """The reference's searches (:class:`TwoSidedSearch` over the game's own states) for the
    seats of one team, the per-move search of the root by turns on its table."""

    def __init__(
        self,
        root: GameState[Any],
        concept: Concept,
        team: int,
        transpositions: bool,
        ordering: bool,
        bounds: tuple[Fraction, Fraction] | None,
        progress: Progress | None,
    ) -> None:
        self.root = root
        self.concept = concept
        self.team = team
        self.options: dict[str, Any] = {
            "transpositions": transpositions, "ordering": ordering, "bounds": bounds,
            "progress": progress,
        }

    def search(self, mode: SimultaneousMode, budget: Budget) -> TwoSidedSearch:
        return TwoSidedSearch(
            self.root, self.root.teams()[self.team],
            constant_sum=self.concept is Concept.MINIMAX, simultaneous=mode, budget=budget,
            **self.options,
        )

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
        return MoveDriver(
            options, maximising, _Turns(search, budget.max_nodes),
            low=search.low, high=search.high, budget=budget,
            first_turn=first_turn, report=report,
        )

    def pure_values(
        self, search: Any, value: Fraction, mode: SimultaneousMode
    ) -> PureValues | None:
        return None

    def finished(self, result: SolveResult, driver: MoveDriver | None) -> SolveResult:
        return result

    def stopped(self, driver: MoveDriver | None, exceeded: BudgetExceeded) -> BudgetExceeded:
        return exceeded


class TwoSidedRoot:
    """One minimax or paranoid solve: the search plus the analysis of its root.

    With ``per_move`` (the default) a root where one side chooses is searched move by move
    (:class:`~omen_solver.core.search.moves.MoveDriver`): the result's ``moves`` give every
    move's answer, and ``report`` (if given) is called with a snapshot after every turn. Without
    it the root is searched as one position and the optimal actions found after (the moves'
    answers then say only which reach the value). ``searches``: whose searches run (a game
    kernel's); by default the reference's, with ``transpositions``, ``ordering``, ``bounds``
    and ``progress``."""

    def __init__(
        self,
        root: GameState[Any],
        concept: Concept,
        team: int,
        budget: Budget,
        mode: SimultaneousMode,
        transpositions: bool,
        ordering: bool,
        bounds: tuple[Fraction, Fraction] | None,
        progress: Progress | None,
        *,
        per_move: bool = True,
        report: Report | None = None,
        first_turn: int | None = None,
        searches: RootSearches | None = None,
    ) -> None:
        self.root = root
        self.concept = concept
        self.team = team
        self.budget = budget
        self.mode = mode
        self.per_move = per_move
        self.report = report
        self.first_turn = first_turn or _moves.FIRST_TURN
        self.bounds = bounds
        self.searches: RootSearches = searches or ReferenceSearches(
            root, concept, team, transpositions, ordering, bounds, progress
        )
        self.search = self.searches.search(mode, budget)
        self.driver: MoveDriver | None = None
        self.matrix_game: Any = None
        """The root's matrix game, where both sides choose at once (its entries exact)."""

    # -- the solve -----------------------------------------------------------------------------

    def run(self) -> SolveResult:
        return self.searches.finished(self._solve(), self.driver)

    def _solve(self) -> SolveResult:
        search = self.search
        value: Fraction | None = None
        matrix: MatrixReport | None = None
        try:
            driver = self._driver()
            if driver is not None:
                value = exact(driver.run())
                best = self._driver_best(driver, value)
            else:
                value = exact(search.search(self.root, search.low, search.high))
                best, matrix = self._best_actions(value)
            line = principal_variation(search, self.root, value)
        except BudgetExceeded as exceeded:
            return self._unknown(value, exceeded)
        except MemoryError:
            return self._unknown(value, BudgetExceeded(OUT_OF_MEMORY, search.nodes,
                                                       search.elapsed()))
        pure_lower, pure_upper, note = self._pure_values(value)
        return SolveResult(
            Status.SOLVED, self.concept, self.root.teams(), self.team, value,
            self._team_values(value), value, value, tuple(best), line, search.nodes,
            search.states, search.elapsed(), pure_lower, pure_upper, matrix, note,
            moves=self._moves(value),
        )

    def _driver(self) -> MoveDriver | None:
        """The per-move search of a root where one side chooses (``None``: no such root, or
        ``per_move`` is off)."""
        if not self.per_move:
            return None
        choice = _choices(self.search, self.root)
        if choice is None:
            return None
        options, make, text, maximising = choice
        self.driver = self.searches.driver(
            self.search, [(text(o), make(o)) for o in options], maximising,
            budget=self.budget, first_turn=self.first_turn, report=self.report,
        )
        return self.driver

    def _driver_best(self, driver: MoveDriver, value: Fraction) -> list[str]:
        if driver.maximising:
            return [move.action for move in driver.moves if move.lower >= value]
        return [move.action for move in driver.moves if move.upper <= value]

    def _moves(self, value: Fraction | None) -> tuple[MoveAnswer, ...]:
        """Every root move's answer, best first for the side choosing."""
        if self.driver is not None:
            return self.driver.snapshot().moves
        if value is None:
            return ()
        return self._moves_after(value)

    def _moves_after(self, value: Fraction) -> tuple[MoveAnswer, ...]:
        """Without the per-move search: what the root's search proved about each move (a
        matrix root: each row's guarantee against every answer)."""
        search, root = self.search, self.root
        if self.matrix_game is not None:
            game = self.matrix_game
            rows = labels(game.rows, root.action_to_string)
            return tuple(order_best_first(
                [self._answer(text, min(row), min(row)) for text, row in zip(
                    rows, game.entries, strict=True)], True
            ))
        choice = _choices(search, root)
        if choice is None:
            return ()
        options, make, text, maximising = choice
        answers = []
        for option in options:
            low, high = root_bounds(search, make(option))
            answers.append(self._answer(text(option), low, high))
        return tuple(order_best_first(answers, maximising))

    def _answer(self, action: str, low: Bound, high: Bound) -> MoveAnswer:
        search = self.search
        lower = exact(low) if _is_exact(low) else None
        upper = exact(high) if _is_exact(high) else None
        if lower is not None and lower == upper:
            status = (MoveStatus.WON if lower == search.high else
                      MoveStatus.LOST if lower == search.low else MoveStatus.EXACT)
            return MoveAnswer(action, status, lower, lower, upper, 0)
        return MoveAnswer(action, MoveStatus.UNKNOWN, None, lower, upper, 0)

    def _team_values(self, value: Fraction) -> tuple[Fraction, ...] | None:
        if self.concept is not Concept.MINIMAX:
            return None
        total = self.search.total
        if total is None:  # pragma: no cover - a solved tree has a terminal
            return None
        other = total - value
        return (value, other) if self.team == 0 else (other, value)

    def _best_actions(self, value: Fraction) -> tuple[list[str], MatrixReport | None]:
        search, root = self.search, self.root
        player = root.current_player()
        if player == SIMULTANEOUS and len(_sides(search, root)) == 2:
            game = self.matrix_game = search.matrix(root)
            rows = labels(game.rows, root.action_to_string)
            columns = labels(game.columns, root.action_to_string)
            report = matrix_report(game.entries, game.solution, rows, columns)
            return [rows[i] for i in matrix_best_rows(game.entries, game.solution, self.mode)], (
                report
            )
        choice = _choices(search, root)
        if choice is None:
            return [], None
        options, make, text, maximising = choice
        return [text(o) for o in options if search.reaches(make(o), value, maximising)], None

    def _pure_values(self, value: Fraction) -> PureValues:
        """With a matrix game that has no saddle, the pure lower and upper values of the root
        (the asked side's choices revealed first, or the other side's), each in a search of
        its own within what is left of the budget (unless the searches know them already)."""
        if not self.search.gap_seen or self.mode is not SimultaneousMode.MIXED:
            return None, None, None
        known = self.searches.pure_values(self.search, value, self.mode)
        if known is not None:
            return known
        found: list[Fraction | None] = []
        bounds = self.bounds
        for mode in (SimultaneousMode.LOWER, SimultaneousMode.UPPER):
            # lower <= value <= upper: a value at a declared bound pins that side for free.
            if bounds is not None and value == bounds[0 if mode is SimultaneousMode.LOWER else 1]:
                found.append(value)
                continue
            try:
                spent = self.search.nodes, self.search.elapsed()
                search = self.searches.search(mode, self.budget.remaining(*spent))
                found.append(exact(search.search(self.root, search.low, search.high)))
                self.search.nodes += search.nodes
            except BudgetExceeded as exceeded:
                self.search.nodes += exceeded.nodes
                found.append(None)
        note = None
        if None in found:
            note = "the budget ran out before the pure lower and upper values were found"
        return found[0], found[1], note

    def _unknown(self, value: Fraction | None, exceeded: BudgetExceeded) -> SolveResult:
        search = self.search
        driver = self.driver
        exceeded = self.searches.stopped(driver, exceeded)
        if value is None and driver is not None:
            found = driver.value()
            value = exact(found) if found is not None and _is_exact(found) else None
        moves = driver.snapshot().moves if driver is not None else ()
        if value is not None:
            lower: Fraction | None = value
            upper: Fraction | None = value
            if moves and all(move.status is not MoveStatus.UNKNOWN for move in moves):
                note = (f"{exceeded.reason}: the value and every move's value are exact, the "
                        "line of play is not")
            else:
                note = (f"{exceeded.reason}: the value is exact, the optimal actions are not "
                        "all known")
        elif driver is not None:
            lower, upper = _finite(driver.bounds())
            note = exceeded.reason
        else:
            lower, upper = _finite(root_bounds(search, self.root))
            note = exceeded.reason
        nodes = max(exceeded.nodes, search.nodes)
        return SolveResult(
            Status.UNKNOWN, self.concept, self.root.teams(), self.team, None, None, lower,
            upper, (), (), nodes, search.states, exceeded.seconds, note=note, moves=moves,
        )


def _sides(search: TwoSidedSearch, state: GameState[Any]) -> set[bool]:
    return {search.maximising[p] for p in state.acting_players()}


Choice = tuple[Sequence[Any], Callable[[Any], Any], Callable[[Any], str], bool]


def _choices(search: TwoSidedSearch, state: GameState[Any]) -> Choice | None:
    """The options of the one side choosing at ``state`` (actions or joint actions), how to
    apply one, how to write one, and whether that side maximises; ``None`` if no one chooses."""
    player = state.current_player()
    if player >= 0:
        return state.legal_actions(), state.child, state.action_to_string, search.maximising[
            player
        ]
    if player == SIMULTANEOUS:
        sides = _sides(search, state)
        if len(sides) == 1:
            return joint_actions(state), state.joint_child, state.joint_to_string, sides.pop()
    return None


def principal_variation(
    search: TwoSidedSearch, root: GameState[Any], value: Fraction
) -> tuple[str, ...]:
    """A line of optimal play from the root, each step proven to keep the root's value.

    At each node the table's best action is tried first, then the others in legal order. The
    line stops at a terminal state, at a chance node, and at a matrix game that has to be
    played mixed.
    """
    line: list[str] = []
    state = root
    while len(line) < MAX_LINE:
        player = state.current_player()
        if player in (TERMINAL, CHANCE):
            break
        if player == SIMULTANEOUS and len(_sides(search, state)) == 2:
            game = search.matrix(state)
            cell = saddle_cell(game.entries, game.solution, search.mode)
            if cell is None:
                break
            joint = game.joint(*cell)
            line.append(state.joint_to_string(joint))
            state = state.joint_child(joint)
            continue
        choice = _choices(search, state)
        if choice is None:  # pragma: no cover - covered by the kinds above
            break
        options, make, text, maximising = choice
        best = search.best_move(state)
        children = [make(option) for option in options]
        # the table's best action, then the children its bounds already prove keep the value
        # (each then checked in a node or two), then the others
        proven = [index for index, child in enumerate(children)
                  if _proves(search.bounds_of(child), value, maximising)]
        order = [best] if 0 <= best < len(options) else []
        order += [index for index in proven if index not in order]
        order += [index for index in range(len(options)) if index not in order]
        for index in order:
            child = children[index]
            if search.reaches(child, value, maximising):
                line.append(text(options[index]))
                state = child
                break
        else:  # pragma: no cover - an internal invariant
            raise ArithmeticError(f"{state}: no action keeps the value {value}")
    return tuple(line)


def _proves(bounds: tuple[Bound, Bound], value: Fraction, maximising: bool) -> bool:
    """Whether proven ``bounds`` on a child show that it keeps ``value`` for its chooser."""
    low, high = bounds
    return low >= value if maximising else high <= value


def root_bounds(search: TwoSidedSearch, root: GameState[Any]) -> tuple[Bound, Bound]:
    """Bounds on the root's value proven by the table: its own entry, intersected with what
    its children's entries prove (a decision node's value is the max or min of its
    children's, a chance node's their expectation)."""
    low, high = search.bounds_of(root)
    player = root.current_player()
    if player >= 0:
        children = [search.bounds_of(root.child(a)) for a in root.legal_actions()]
        best = max if search.maximising[player] else min
        low = max(low, best(c[0] for c in children))
        high = min(high, best(c[1] for c in children))
    elif player == CHANCE:
        outcomes = root.chance_outcomes()
        children = [search.bounds_of(root.child(o)) for o, _ in outcomes]
        if all(_is_exact(c[0]) for c in children):
            low = max(low, sum((p * c[0] for (_, p), c in zip(outcomes, children, strict=True)),
                               Fraction(0)))
        if all(_is_exact(c[1]) for c in children):
            high = min(high, sum((p * c[1] for (_, p), c in zip(outcomes, children, strict=True)),
                                 Fraction(0)))
    return low, high


def _is_exact(value: Any) -> bool:
    return isinstance(value, Fraction | int) and not isinstance(value, bool)


def _finite(bounds: tuple[Any, Any]) -> tuple[Fraction | None, Fraction | None]:
    low, high = bounds
    return (
        exact(low) if _is_exact(low) else None,
        exact(high) if _is_exact(high) else None,
    )


# -- max-n ---------------------------------------------------------------------------------


def solve_maxn(
    root: GameState[Any],
    team: int,
    budget: Budget,
    transpositions: bool,
    progress: Progress | None,
    paranoid: Callable[[int, Budget], SolveResult] | None = None,
    make: Callable[[TieBreak, Budget], Any] | None = None,
) -> SolveResult:
    """Max-n told straight: the value under each tie-break (:class:`TieBreak`), and each
    team's paranoid guarantee (what it can force whatever all the others do). The reported
    value, best actions, moves and line are those of the ``first`` tie-break; ``extra["maxn"]``
    says whether the outcome depends on the tie-break and whether some team can force a win.
    ``paranoid`` solves one team's paranoid value and ``make`` builds the max-n search (a
    game's kernel gives its own)."""
    started = perf_counter()
    build = make or (lambda tie, left: MaxnSearch(
        root, transpositions=transpositions, budget=left, progress=progress, tie_break=tie
    ))
    spent = 0
    vectors: dict[TieBreak, Vector] = {}
    best: list[str] = []
    moves: tuple[MoveAnswer, ...] = ()
    line: tuple[str, ...] = ()
    states = 0
    try:
        for tie in TieBreak:
            search = build(tie, budget.remaining(spent, perf_counter() - started))
            try:
                vectors[tie] = search.search(root)
                if tie is TieBreak.FIRST:
                    best, moves = _maxn_best(search, root, team)
                    line = _maxn_line(search, root)
            finally:
                spent += search.nodes
                states += search.states
        guarantees = []
        for index in range(len(root.teams())):
            left = budget.remaining(spent, perf_counter() - started)
            found = (paranoid or _paranoid_of(root, progress))(index, left)
            spent += found.nodes
            if not found.solved:
                raise BudgetExceeded(found.note or "budget", spent, perf_counter() - started)
            guarantees.append(found.value)
    except BudgetExceeded as exceeded:
        return SolveResult(
            Status.UNKNOWN, Concept.MAXN, root.teams(), team, None, None, None, None, (), (),
            spent, states, perf_counter() - started, note=exceeded.reason, moves=moves,
        )
    vector = vectors[TieBreak.FIRST]
    report = _maxn_report(root, vectors, guarantees)
    return SolveResult(
        Status.SOLVED, Concept.MAXN, root.teams(), team, vector[team], vector, vector[team],
        vector[team], tuple(best), line, spent, states, perf_counter() - started,
        note=report["summary"], extra={"maxn": report}, moves=moves,
    )


def _paranoid_of(
    root: GameState[Any], progress: Progress | None
) -> Callable[[int, Budget], SolveResult]:
    def run(team: int, left: Budget) -> SolveResult:
        return TwoSidedRoot(
            root, Concept.PARANOID, team, left, SimultaneousMode.MIXED, True, True,
            return_bounds(root), progress, per_move=False,
        ).run()

    return run


def _maxn_report(
    root: GameState[Any], vectors: dict[TieBreak, Vector], guarantees: list[Fraction | None]
) -> dict[str, Any]:
    teams = root.teams()

    def seats(index: int) -> str:
        return ", ".join(str(p + 1) for p in teams[index])

    forced = [i for i, g in enumerate(guarantees) if g is not None and g == 1]
    outcomes = {tie.value: [str(v) for v in vector] for tie, vector in vectors.items()}
    depends = len({vector for vector in vectors.values()}) > 1
    parts = []
    if forced:
        parts.append(f"seats {seats(forced[0])} can force a win whatever the others do")
    else:
        shown = "; ".join(f"seats {seats(i)}: {g}" for i, g in enumerate(guarantees))
        parts.append(f"no team can force a win (each team's paranoid guarantee: {shown})")
    if depends:
        ties = "; ".join(
            f"ties to the {tie.value} action: " + ", ".join(str(v) for v in vector)
            for tie, vector in vectors.items()
        )
        parts.append(f"max-n's outcome depends on how ties are broken ({ties})")
    else:
        parts.append("max-n gives the same outcome whichever way ties are broken")
    return {
        "tie_breaks": outcomes,
        "depends_on_tie_break": depends,
        "paranoid": [None if g is None else str(g) for g in guarantees],
        "forced_winner": [p + 1 for p in teams[forced[0]]] if forced else None,
        "summary": "; ".join(parts),
    }


def _maxn_options(
    search: MaxnSearch, state: GameState[Any]
) -> tuple[Sequence[Any], Callable[[Any], Any], Callable[[Any], str], int] | None:
    """The options of the one team choosing at ``state`` (a cross-team exchange: None)."""
    player = state.current_player()
    if player >= 0:
        return state.legal_actions(), state.child, state.action_to_string, search.team_of[player]
    if player == SIMULTANEOUS:
        teams = {search.team_of[p] for p in state.acting_players()}
        if len(teams) == 1:
            return joint_actions(state), state.joint_child, state.joint_to_string, teams.pop()
    return None


def _maxn_best(
    search: MaxnSearch, root: GameState[Any], asked: int
) -> tuple[list[str], tuple[MoveAnswer, ...]]:
    """Every action of the best value for the team choosing, and every move's answer: its
    max-n value for the ``asked`` team (won or lost at the game's declared return bounds),
    best first for the chooser."""
    options = _maxn_options(search, root)
    if options is None:
        return [], ()
    choices, make, text, team = options
    values = [search.search(make(c)) for c in choices]
    top = max(v[team] for v in values)
    bounds = return_bounds(root)
    answers = []
    for choice, vector in zip(choices, values, strict=True):
        mine = vector[asked]
        status = MoveStatus.EXACT
        if bounds is not None and mine in bounds:
            status = MoveStatus.WON if mine == bounds[1] else MoveStatus.LOST
        answers.append(MoveAnswer(text(choice), status, mine, mine, mine, 0))
    chooser_best = sorted(
        range(len(answers)), key=lambda i: (-values[i][team], -values[i][asked], i)
    )
    best = [text(c) for c, v in zip(choices, values, strict=True) if v[team] == top]
    return best, tuple(answers[i] for i in chooser_best)


def _maxn_line(search: MaxnSearch, root: GameState[Any]) -> tuple[str, ...]:
    """The line max-n play follows (the tie-break's choice), up to a chance node or a
    cross-team exchange."""
    line: list[str] = []
    state = root
    while len(line) < MAX_LINE:
        options = _maxn_options(search, state)
        if options is None:
            break
        choices, make, text, team = options
        children = [make(c) for c in choices]
        index = pick([search.search(child) for child in children], team, search.tie_break)
        line.append(text(choices[index]))
        state = children[index]
    return tuple(line)
