"""The solve entry point: choose and check the solution concept, run the search, analyse the
root (every optimal action, a principal variation) and report, within a budget.

Default concept: ``minimax`` with two teams. With three or more teams the game is not
two-sided and no concept is assumed: ``maxn`` or ``paranoid`` must be asked for, and
``minimax`` is refused with the reason.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from fractions import Fraction
from time import perf_counter
from typing import Any, TypeVar

from omen_solver.core.budget import (
    Budget,
    BudgetExceeded,
    Progress,
    Status,
    deep_recursion,
)
from omen_solver.core.enumeration.hooks import ChoiceError, return_bounds
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState, game_of
from omen_solver.core.search.alphabeta import Bound, TwoSidedSearch, exact
from omen_solver.core.search.maxn import MaxnSearch, TieBreak, Vector, pick
from omen_solver.core.search.result import (
    Concept,
    ConceptError,
    MatrixReport,
    SimultaneousMode,
    SolveResult,
)
from omen_solver.core.search.roots import labels, matrix_best_rows, matrix_report, saddle_cell
from omen_solver.errors import OmenSolverError

__all__ = [
    "MAX_LINE",
    "Engine",
    "KernelRefused",
    "TeamName",
    "default_team",
    "resolve_concept",
    "solve",
    "team_index",
]


class Engine(enum.Enum):
    """Which search answers a solve."""

    AUTO = "auto"
    """The game's search kernel where it applies, else the reference search."""
    KERNEL = "kernel"
    """The game's search kernel, or an error saying why it does not apply."""
    REFERENCE = "reference"
    """The reference search over the explaining engine (slow, but it runs on any game)."""


class KernelRefused(OmenSolverError):
    """A game's search kernel does not play a position (says what and why)."""

MAX_LINE = 100_000
"""The longest principal variation followed (a guard against a game that loops)."""


E = TypeVar("E", bound=enum.Enum)


def _named(kind: type[E], what: str, value: E | str) -> E:
    """A member of ``kind`` given by itself or by its value; a clear error otherwise."""
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise ChoiceError(f"{what} {value!r}: unknown; choose one of {known}") from None


def _as_concept(concept: Concept | str | None) -> Concept | None:
    return None if concept is None else _named(Concept, "concept", concept)


def default_team(state: GameState[Any]) -> int:
    """The team of the player to move at the root (of the first acting player at a
    simultaneous root); team 0 at a chance or terminal root."""
    acting = state.acting_players() if state.is_simultaneous_node() else ()
    player = acting[0] if acting else state.current_player()
    return state.team_of(player) if player >= 0 else 0


def resolve_concept(
    state: GameState[Any], concept: Concept | str | None, team: TeamName | None
) -> tuple[Concept, int]:
    """Check that the concept fits the position's teams; pick the defaults. Returns the
    concept and the index in ``state.teams()`` of the team asked about."""
    teams = state.teams()
    players = sorted(p for t in teams for p in t)
    if players != list(range(state.num_players)):
        raise ConceptError(
            f"teams {teams} do not split players 0..{state.num_players - 1} exactly once"
        )
    chosen = _as_concept(concept)
    if chosen is None:
        if len(teams) != 2:
            raise ConceptError(
                f"this position has {len(teams)} teams, so it is not two-sided and no concept "
                "is assumed: choose 'maxn' (each team maximises its own return) or 'paranoid' "
                "(one named team against all the others)"
            )
        chosen = Concept.MINIMAX
    if chosen is Concept.MINIMAX and len(teams) != 2:
        raise ConceptError(
            f"concept 'minimax' (alpha-beta) needs exactly two teams whose returns add up to a "
            f"constant; this position has {len(teams)} teams: use 'maxn' or 'paranoid'"
        )
    index = default_team(state) if team is None else team_index(state, team, "team")
    return chosen, index


TeamName = int | Sequence[int]
"""How a person names a team, as on the command line (``--team 1,3``): its seats from 1, or
any one of them."""


def team_index(state: GameState[Any], team: TeamName, where: str) -> int:
    """The index in ``state.teams()`` of the team named by its seats (from 1): all of them,
    or any one seat of it. Raises :class:`ChoiceError` naming ``where``."""
    seats = [team] if isinstance(team, int) else team
    shown_teams = "; ".join(str([p + 1 for p in members]) for members in state.teams())
    if (
        isinstance(team, bool | str)
        or not isinstance(seats, Sequence)
        or not seats
        or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in seats)
    ):
        raise ChoiceError(
            f"{where} {team!r}: name a team by its seats, numbered from 1 (e.g. (1, 3)), or by "
            f"one of them; the teams are {shown_teams}"
        )
    players = {seat - 1 for seat in seats}
    for index, members in enumerate(state.teams()):
        if players == set(members) or (len(players) == 1 and players <= set(members)):
            return index
    raise ChoiceError(
        f"{where}: seats {sorted(seats)} are not a team here; the teams are {shown_teams}"
    )


def solve(
    state: GameState[Any],
    *,
    concept: Concept | str | None = None,
    team: TeamName | None = None,
    budget: Budget | None = None,
    simultaneous: SimultaneousMode = SimultaneousMode.MIXED,
    transpositions: bool = True,
    ordering: bool = True,
    bounds: tuple[Fraction, Fraction] | None = None,
    progress: Progress | None = None,
    engine: Engine | str = Engine.AUTO,
    algorithm: str | None = None,
) -> SolveResult:
    """Solve ``state`` exactly (every hand open) under a solution concept.

    ``team`` names the team the value is given for (and for ``paranoid`` the team that plays
    against all the others) as the command line does: its seats from 1, ``team=(1, 3)``, or
    any one of them, ``team=2``. Default: the team to move at the root. The result's
    ``team`` is that team's index in ``result.teams``; ``result.team_seats`` its seats.
    ``bounds`` overrides the return bounds of the game's descriptor. When the budget runs out
    the result is ``UNKNOWN`` with the bounds proven so far.

    ``engine``: a game may offer a fast search kernel (its descriptor's ``kernel``, e.g. Omens);
    ``auto`` uses it where it applies and the reference search otherwise, ``kernel`` insists on
    it, ``reference`` never uses it. Every answer says which one ran (``extra["engine"]``).

    ``algorithm``: the kernel's search, where the game's kernel offers a choice (Omens:
    ``portfolio``, alpha-beta and df-pn by turns, the default; ``alphabeta``; ``dfpn``).
    """
    chosen, team = resolve_concept(state, concept, team)
    budget = budget or Budget()
    choice = _as_engine(engine)
    if algorithm is not None and choice is Engine.REFERENCE:
        raise ChoiceError("algorithm: chooses the kernel's search; the reference search has one")
    if choice is not Engine.REFERENCE:
        fast = _kernel(state, chosen, team, budget, simultaneous, progress, choice, bounds,
                       transpositions, ordering, algorithm)
        if isinstance(fast, SolveResult):
            return fast
        note = fast
    else:
        note = None
    result = _reference(state, chosen, team, budget, simultaneous, transpositions, ordering,
                        bounds, progress)
    result.extra["engine"] = "reference"
    if note:
        result.extra["kernel_refused"] = note
    return result


def _as_engine(engine: Engine | str) -> Engine:
    return _named(Engine, "engine", engine)


def _kernel(
    state: GameState[Any],
    concept: Concept,
    team: int,
    budget: Budget,
    simultaneous: SimultaneousMode,
    progress: Progress | None,
    engine: Engine,
    bounds: tuple[Fraction, Fraction] | None,
    transpositions: bool,
    ordering: bool,
    algorithm: str | None = None,
) -> SolveResult | str | None:
    """The kernel's answer, or why it does not apply (an error if ``engine`` is ``kernel``)."""
    kernel = game_of(state).kernel
    reason: str | None = None
    if kernel is None:
        reason = f"{type(state).__name__} has no search kernel"
    elif bounds is not None or not transpositions or not ordering:
        reason = "the kernel always uses its table, its ordering and the game's bounds"
    else:
        try:
            return kernel(state, concept, team, budget=budget, simultaneous=simultaneous,
                          progress=progress, algorithm=algorithm)
        except KernelRefused as refused:
            reason = str(refused)
    if engine is Engine.KERNEL:
        raise ChoiceError(f"engine 'kernel': {reason}")
    if algorithm is not None:
        raise ChoiceError(f"algorithm {algorithm!r}: the kernel does not apply here ({reason})")
    return reason


def _reference(
    state: GameState[Any],
    chosen: Concept,
    team: int,
    budget: Budget,
    simultaneous: SimultaneousMode,
    transpositions: bool,
    ordering: bool,
    bounds: tuple[Fraction, Fraction] | None,
    progress: Progress | None,
) -> SolveResult:
    with deep_recursion():
        if chosen is Concept.MAXN:
            return _solve_maxn(state, team, budget, transpositions, progress)
        return _TwoSided(
            state, chosen, team, budget, simultaneous, transpositions, ordering,
            bounds if bounds is not None else return_bounds(state), progress,
        ).run()


class _TwoSided:
    """One minimax or paranoid solve: the search plus the analysis of its root."""

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
    ) -> None:
        self.root = root
        self.concept = concept
        self.team = team
        self.budget = budget
        self.mode = mode
        self.options: dict[str, Any] = {
            "transpositions": transpositions, "ordering": ordering, "bounds": bounds,
            "progress": progress,
        }
        self.search = self._new_search(mode, budget)

    def _new_search(self, mode: SimultaneousMode, budget: Budget) -> TwoSidedSearch:
        return TwoSidedSearch(
            self.root, self.root.teams()[self.team], constant_sum=self.concept is Concept.MINIMAX,
            simultaneous=mode, budget=budget, **self.options,
        )

    def run(self) -> SolveResult:
        search = self.search
        value: Fraction | None = None
        try:
            value = exact(search.search(self.root, search.low, search.high))
            best, matrix = self._best_actions(value)
            line = principal_variation(search, self.root, value)
        except BudgetExceeded as exceeded:
            return self._unknown(value, exceeded)
        except RecursionError:
            return self._unknown(value, too_deep(search.nodes, search.elapsed()))
        pure_lower, pure_upper, note = self._pure_values(value)
        return SolveResult(
            Status.SOLVED, self.concept, self.root.teams(), self.team, value,
            self._team_values(value), value, value, tuple(best), line, search.nodes,
            search.states, search.elapsed(), pure_lower, pure_upper, matrix, note,
        )

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
            game = search.matrix(root)
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

    def _pure_values(
        self, value: Fraction
    ) -> tuple[Fraction | None, Fraction | None, str | None]:
        """With a matrix game that has no saddle, the pure lower and upper values of the root
        (the asked side's choices revealed first, or the other side's), each in a search of
        its own within what is left of the budget."""
        if not self.search.gap_seen or self.mode is not SimultaneousMode.MIXED:
            return None, None, None
        found: list[Fraction | None] = []
        bounds = self.options["bounds"]
        for mode in (SimultaneousMode.LOWER, SimultaneousMode.UPPER):
            # lower <= value <= upper: a value at a declared bound pins that side for free.
            if bounds is not None and value == bounds[0 if mode is SimultaneousMode.LOWER else 1]:
                found.append(value)
                continue
            try:
                spent = self.search.nodes, self.search.elapsed()
                search = self._new_search(mode, self.budget.remaining(*spent))
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
        if value is not None:
            lower: Fraction | None = value
            upper: Fraction | None = value
            note = f"{exceeded.reason}: the value is exact, the optimal actions are not all known"
        else:
            lower, upper = _finite(root_bounds(search, self.root))
            note = exceeded.reason
        return SolveResult(
            Status.UNKNOWN, self.concept, self.root.teams(), self.team, None, None, lower,
            upper, (), (), exceeded.nodes, search.states, exceeded.seconds, note=note,
        )


def too_deep(nodes: int, seconds: float) -> BudgetExceeded:
    """Play that went deeper than Python's frames allow: it can repeat for ever under the
    position's rules (e.g. Omens with ``wrath_replay = "allowed"``), so the answer is unknown."""
    return BudgetExceeded(
        "play went deeper than the search can follow without ending: under these rules it can "
        "repeat for ever", nodes, seconds,
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
        order = list(range(len(options)))
        if 0 <= best < len(options):
            order.remove(best)
            order.insert(0, best)
        for index in order:
            child = make(options[index])
            if search.reaches(child, value, maximising):
                line.append(text(options[index]))
                state = child
                break
        else:  # pragma: no cover - an internal invariant
            raise ArithmeticError(f"{state}: no action keeps the value {value}")
    return tuple(line)


def root_bounds(search: TwoSidedSearch, root: GameState[Any]) -> tuple[Bound, Bound]:
    """Bounds on the root's value proven by the table: its own entry, intersected with what
    its children's entries prove (a decision node's value is the max or min of its
    children's, a chance node's their expectation)."""
    low, high = search.bounds_of(root)
    player = root.current_player()
    if player >= 0:
        children = [search.bounds_of(root.child(a)) for a in root.legal_actions()]
        pick = max if search.maximising[player] else min
        low = max(low, pick(c[0] for c in children))
        high = min(high, pick(c[1] for c in children))
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


def _is_exact(value: Bound) -> bool:
    return isinstance(value, Fraction | int)


def _finite(bounds: tuple[Bound, Bound]) -> tuple[Fraction | None, Fraction | None]:
    low, high = bounds
    return (
        exact(low) if _is_exact(low) else None,
        exact(high) if _is_exact(high) else None,
    )


# -- max-n ---------------------------------------------------------------------------------


def _solve_maxn(
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
    value, best actions and line are those of the ``first`` tie-break; ``extra["maxn"]`` says
    whether the outcome depends on the tie-break and whether some team can force a win."""
    started = perf_counter()
    build = make or (lambda tie, left: MaxnSearch(
        root, transpositions=transpositions, budget=left, progress=progress, tie_break=tie
    ))
    spent = 0
    vectors: dict[TieBreak, Vector] = {}
    best: list[str] = []
    line: tuple[str, ...] = ()
    states = 0
    try:
        for tie in TieBreak:
            search = build(tie, budget.remaining(spent, perf_counter() - started))
            try:
                try:
                    vectors[tie] = search.search(root)
                    if tie is TieBreak.FIRST:
                        best = _maxn_best(search, root)
                        line = _maxn_line(search, root)
                except RecursionError:
                    raise too_deep(search.nodes, search.elapsed()) from None
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
            spent, states, perf_counter() - started, note=exceeded.reason,
        )
    vector = vectors[TieBreak.FIRST]
    report = _maxn_report(root, vectors, guarantees)
    return SolveResult(
        Status.SOLVED, Concept.MAXN, root.teams(), team, vector[team], vector, vector[team],
        vector[team], tuple(best), line, spent, states, perf_counter() - started,
        note=report["summary"], extra={"maxn": report},
    )


def _paranoid_of(
    root: GameState[Any], progress: Progress | None
) -> Callable[[int, Budget], SolveResult]:
    def run(team: int, left: Budget) -> SolveResult:
        return _TwoSided(
            root, Concept.PARANOID, team, left, SimultaneousMode.MIXED, True, True,
            return_bounds(root), progress,
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


def _maxn_best(search: MaxnSearch, root: GameState[Any]) -> list[str]:
    options = _maxn_options(search, root)
    if options is None:
        return []
    choices, make, text, team = options
    values = [search.search(make(c)) for c in choices]
    top = max(v[team] for v in values)
    return [text(c) for c, v in zip(choices, values, strict=True) if v[team] == top]


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
