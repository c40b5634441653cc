"""The solve entry point: choose and check the solution concept, run the search, analyse the
root (every optimal action, a principal variation) and report, within a budget.

Default concept: ``minimax`` with two teams. With three or more teams the game is not
two-sided and no concept is assumed: ``maxn`` or ``paranoid`` must be asked for, and
``minimax`` is refused with the reason.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, TypeVar

from omen_solver.core.budget import Budget, Progress
from omen_solver.core.enumeration.hooks import return_bounds
from omen_solver.core.game import GameState, game_of
from omen_solver.core.search.kernels import solve_kernel_root
from omen_solver.core.search.moves import Report
from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
from omen_solver.core.search.root import (
    MAX_LINE,
    TwoSidedRoot,
    principal_variation,
    root_bounds,
    solve_maxn,
)
from omen_solver.errors import ChoiceError, ConceptError, KernelRefused

__all__ = [
    "MAX_LINE",
    "Engine",
    "TeamName",
    "default_team",
    "principal_variation",
    "resolve_concept",
    "root_bounds",
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
    if players != list(range(state.num_players())):
        raise ConceptError(
            f"teams {teams} do not split players 0..{state.num_players() - 1} exactly once"
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
        problem = (f"name a team by its seats, numbered from 1 (e.g. (1, 3)), or by one of "
                   f"them; the teams are {shown_teams}")
        raise ChoiceError(f"{where} {team!r}: {problem}", key=where, value=team, problem=problem)
    players = {seat - 1 for seat in seats}
    for index, members in enumerate(state.teams()):
        if players == set(members) or (len(players) == 1 and players <= set(members)):
            return index
    raise ChoiceError(key=where, value=team, problem=f"seats {sorted(seats)} are not a team "
                      f"here; the teams are {shown_teams}")


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
    per_move: bool = True,
    report: Report | None = None,
    threads: int | None = None,
    max_memory: int | None = None,
    estimate: bool = False,
    seed: int | None = None,
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

    ``per_move`` (the default): a root where one side chooses is searched move by move, by
    turns on the searches' shared tables (:mod:`omen_solver.core.search.moves`), and
    ``result.moves`` gives every move's answer (``won``, ``lost``, ``exact`` or ``unknown``
    with proven bounds), also when the budget runs out; ``report`` is then called with a
    snapshot (:class:`~omen_solver.core.search.moves.MovesReport`) after every turn. Without
    it the root is searched as one position (the node counts of earlier versions).

    ``threads`` and ``max_memory`` are the game kernel's (Omens): how many threads its
    compiled search uses (root moves at once, and a move searched alone proved on all of them:
    the same answers with any number; default 1; 0: as many as the machine has cores), and
    the bytes its tables keep to (default 2 GiB).
    Where the kernel does not answer, a number of threads or a memory budget is refused
    (:class:`ChoiceError`), never ignored (0 threads asks only for the default).

    ``estimate``: where the game's kernel can, the root moves the exact searches leave open
    also get an **estimate** (``result.moves[i].estimate``: a win rate with an interval from
    an evaluation that proves nothing; Omens: :mod:`omen_solver.omens.kernel.estimate`), with a
    share of the budget; ``seed`` fixes the evaluation's random stream (default 0). Estimates
    never change a status, a value or a bound. ``result.extra["evaluation"]`` says what ran;
    with the reference search none runs, and a ``seed`` is refused there.
    """
    chosen, team = resolve_concept(state, concept, team)
    budget = budget or Budget()
    choice = _as_engine(engine)
    if algorithm is not None and choice is Engine.REFERENCE:
        raise ChoiceError("algorithm: chooses the kernel's search; the reference search has one")
    if seed is not None and not estimate:
        raise ChoiceError(key="seed", value=seed,
                          problem="the seed of the estimates; ask for them (estimate=True)")
    if choice is not Engine.REFERENCE:
        roots: dict[str, Any] = {"per_move": per_move, "report": report}
        if estimate:
            roots["estimate"] = True
            roots["seed"] = seed
        if threads is not None:
            roots["threads"] = threads
        if max_memory is not None:
            roots["max_memory"] = max_memory
        fast = _kernel(state, chosen, team, budget, simultaneous, progress, choice, bounds,
                       transpositions, ordering, algorithm, roots)
        if isinstance(fast, SolveResult):
            return fast
        note = fast
    else:
        note = None
    for name, given in (("threads", threads or None), ("max_memory", max_memory),
                        ("seed", seed)):
        if given is not None:
            why = f" ({note})" if note else ""
            raise ChoiceError(key=name, value=given, problem="applies to the game's search "
                              f"kernel, which does not answer here{why}")
    result = _reference(state, chosen, team, budget, simultaneous, transpositions, ordering,
                        bounds, progress, per_move, report)
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
    roots: dict[str, Any] | None = None,
) -> SolveResult | str | None:
    """The kernel's answer, or why it does not apply (an error if ``engine`` is ``kernel``):
    the kernel answers whole, or hands over its searches and the root is analysed here."""
    kernel = game_of(state).kernel
    reason: str | None = None
    if kernel is None:
        reason = f"{type(state).__name__} has no search kernel"
    elif bounds is not None or not transpositions or not ordering:
        reason = "the kernel always uses its table, its ordering and the game's bounds"
    else:
        options = dict(roots or {})
        try:
            answer = kernel(state, concept, team, budget=budget, simultaneous=simultaneous,
                            progress=progress, algorithm=algorithm, **options)
        except KernelRefused as refused:
            reason = str(refused)
        else:
            if isinstance(answer, SolveResult):
                return answer
            return solve_kernel_root(answer, concept, team, simultaneous, progress,
                                     per_move=options.get("per_move", True),
                                     report=options.get("report"))
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
    per_move: bool = True,
    report: Report | None = None,
) -> SolveResult:
    if chosen is Concept.MAXN:
        return solve_maxn(state, team, budget, transpositions, progress)
    return TwoSidedRoot(
        state, chosen, team, budget, simultaneous, transpositions, ordering,
        bounds if bounds is not None else return_bounds(state), progress,
        per_move=per_move, report=report,
    ).run()
