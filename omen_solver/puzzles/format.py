"""Best-play puzzles: a position file with a ``[puzzle]`` table (see ``docs/puzzles.md``).

The format is game-agnostic: the position part is read by the game's loader (which ignores the
``puzzle`` table), the ``[puzzle]`` table by :func:`read_puzzle`::

    [puzzle]
    question = "Can seats 1 and 3 win this round?"
    team = [1, 3]           # the team asked about, as its seats (or one seat of it)
    concept = "minimax"     # minimax | maxn | paranoid (needed with three teams or more)
    simultaneous = "mixed"  # mixed | lower | upper
    max_nodes = 2000000     # optional budget
    max_seconds = 60

    [puzzle.answer]         # the stated answer: every key given is checked
    winner = [1, 3]         # the winning team's seats, or "none" when no team is ahead
    value = "1"             # the asked team's exact value ("2/3" for a fraction)
    values = ["1", "0"]     # every team's value, in team order
    best_actions = ["..."]  # exactly the optimal root actions (order does not matter)
    best_actions_include = ["..."]   # among the optimal root actions
    best_actions_exclude = ["..."]   # not optimal
    principal_variation_starts = ["..."]  # the solver's line starts with these
    pure_lower = "-1"       # pure-strategy values at matrix games without a saddle
    pure_upper = "1"

    [puzzle.rating]         # optional: how hard the puzzle is (informative, not checked here)
    depth = 3               # the length of the winning line (Omens: bouts)
    tempting = 2            # tempting first moves that lose
    nodes = 12345           # nodes the solver needs
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

from omen_solver.core.budget import Budget
from omen_solver.core.enumeration.tree import branches, joint_actions
from omen_solver.core.game import SIMULTANEOUS, GameState
from omen_solver.core.positions import read_toml
from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult
from omen_solver.core.search.solver import team_index as solver_team_index
from omen_solver.errors import ChoiceError, PositionError, shown

__all__ = [
    "ACTION_KEYS",
    "ANSWER_KEYS",
    "PUZZLE_KEYS",
    "RATING_KEYS",
    "Puzzle",
    "check_actions",
    "compare",
    "read_puzzle",
    "team_index",
]

PUZZLE_KEYS = frozenset(
    {"question", "team", "concept", "simultaneous", "max_nodes", "max_seconds", "answer", "rating"}
)
RATING_KEYS = frozenset({"depth", "tempting", "nodes"})
ANSWER_KEYS = frozenset(
    {
        "winner", "value", "values", "best_actions", "best_actions_include",
        "best_actions_exclude", "principal_variation_starts", "pure_lower", "pure_upper",
    }
)

ACTION_KEYS = ("best_actions", "best_actions_include", "best_actions_exclude")
"""The answer keys that list root actions: each must be a legal action of the root, or the
stated answer would be checked against nothing (a typo in an exclusion always "agrees")."""


@dataclass(frozen=True)
class Puzzle:
    """A puzzle's question and its stated answer, as written in the file."""

    path: Path
    question: str
    team: tuple[int, ...] | None
    """Seats (from 1) naming the team asked about; ``None``: the team to move."""
    concept: Concept | None
    simultaneous: SimultaneousMode
    budget: Budget
    answer: dict[str, Any] = field(default_factory=dict)
    rating: dict[str, int] = field(default_factory=dict)
    """How hard the puzzle is (``depth``, ``tempting``, ``nodes``), as the file states it."""


def _fail(path: Path, key: str, message: str) -> PositionError:
    return PositionError(f"{path}: key '{key}': {message}")


def _fraction(path: Path, key: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _fail(path, key, f"expected an exact number such as 1 or \"2/3\", got {shown(value)}")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise _fail(path, key, f"{shown(value)} is not an exact number such as \"2/3\"") from None


def _texts(path: Path, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(path, key, "expected a list of action texts")
    return list(value)


def _seats(path: Path, key: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in value)
    ):
        raise _fail(path, key,
                    f"expected seats numbered from 1, such as [1, 3], got {shown(value)}")
    return tuple(sorted(value))


def read_puzzle(path: Path | str, data: dict[str, Any] | None = None) -> Puzzle | None:
    """The puzzle of a position file, or ``None`` if it has no ``[puzzle]`` table."""
    path = Path(path)
    data = read_toml(path) if data is None else data
    table = data.get("puzzle")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise _fail(path, "puzzle", "expected a table")
    for key in table:
        if key not in PUZZLE_KEYS:
            known = ", ".join(sorted(PUZZLE_KEYS))
            raise _fail(path, f"puzzle.{key}", f"unknown key; known: {known}")
    question = table.get("question")
    if not isinstance(question, str) or not question.strip():
        raise _fail(path, "puzzle.question", "the question is required, as text")
    team = None if "team" not in table else _seats(path, "puzzle.team", table["team"])
    concept = None
    if "concept" in table:
        try:
            concept = Concept(table["concept"])
        except ValueError:
            known = ", ".join(c.value for c in Concept)
            raise _fail(path, "puzzle.concept", f"unknown concept {shown(table['concept'])}; "
                        f"choose one of {known}") from None
    try:
        mode = SimultaneousMode(table.get("simultaneous", "mixed"))
    except ValueError:
        raise _fail(path, "puzzle.simultaneous", "choose mixed, lower or upper") from None
    try:
        budget = Budget(table.get("max_nodes"), table.get("max_seconds"))
    except ValueError as error:
        raise _fail(path, "puzzle", str(error)) from None
    answer = table.get("answer", {})
    if not isinstance(answer, dict) or not answer:
        raise _fail(path, "puzzle.answer", "a table with the stated answer is required")
    _check_answer(path, answer)
    rating = _rating(path, table.get("rating", {}))
    return Puzzle(path, question.strip(), team, concept, mode, budget, dict(answer), rating)


def _rating(path: Path, table: Any) -> dict[str, int]:
    if not isinstance(table, dict):
        raise _fail(path, "puzzle.rating", "expected a table such as { depth = 3, nodes = 120 }")
    for key, value in table.items():
        where = f"puzzle.rating.{key}"
        if key not in RATING_KEYS:
            raise _fail(path, where, f"unknown key; known: {', '.join(sorted(RATING_KEYS))}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _fail(path, where, f"expected a whole number of at least 0, got {shown(value)}")
    return dict(table)


def _check_answer(path: Path, answer: dict[str, Any]) -> None:
    for key, value in answer.items():
        where = f"puzzle.answer.{key}"
        if key not in ANSWER_KEYS:
            raise _fail(path, where, f"unknown key; known: {', '.join(sorted(ANSWER_KEYS))}")
        if key == "winner":
            if value != "none":
                _seats(path, where, value)
        elif key in ("value", "pure_lower", "pure_upper"):
            _fraction(path, where, value)
        elif key == "values":
            if not isinstance(value, list):
                raise _fail(path, where, "expected a list of exact numbers")
            for item in value:
                _fraction(path, where, item)
        else:
            _texts(path, where, value)


def _root_texts(state: GameState[Any]) -> list[str]:
    """Every way of writing a root action: a legal action, or at a simultaneous node a joint
    action or the part of it one side chooses (the rows and columns of its matrix game)."""
    if state.current_player() != SIMULTANEOUS:
        return [branch.text for branch in branches(state)]
    texts: dict[str, None] = {}
    for joint in joint_actions(state):
        for size in range(1, len(joint) + 1):
            for part in combinations(joint, size):
                texts[" & ".join(state.action_to_string(action) for action in part)] = None
    return list(texts)


def _legal_hint(texts: Sequence[str]) -> str:
    sample = ", ".join(texts[:12]) + (" ..." if len(texts) > 12 else "")
    return f"legal here: {sample}" if texts else "no action is legal here"


def check_actions(puzzle: Puzzle, state: GameState[Any]) -> None:
    """Every action the stated answer names is legal where it is named: the root actions of
    :data:`ACTION_KEYS`, and each step of ``principal_variation_starts`` in turn. Raises
    :class:`PositionError` naming the file, the key and the action."""
    answer = puzzle.answer
    legal = _root_texts(state)
    for key in ACTION_KEYS:
        for number, text in enumerate(answer.get(key, []), start=1):
            if text not in legal:
                raise _fail(puzzle.path, f"puzzle.answer.{key}[{number}]",
                            f"{shown(text)} is not a legal action of the position; "
                            f"{_legal_hint(legal)}")
    here = state
    for number, text in enumerate(answer.get("principal_variation_starts", []), start=1):
        children = {branch.text: branch.child for branch in branches(here)}
        if text not in children:
            raise _fail(puzzle.path, f"puzzle.answer.principal_variation_starts[{number}]",
                        f"{shown(text)} is not legal at that point of the line; "
                        f"{_legal_hint(list(children))}")
        here = children[text]


def team_index(state: GameState[Any], seats: Sequence[int], where: str) -> int:
    """The team named by its seats (all of them, or any one seat of it)."""
    try:
        return solver_team_index(state, tuple(seats), "team")
    except ChoiceError as error:
        raise PositionError(f"{where}: {error.problem}", value=error.value,
                            problem=error.problem) from None


def compare(puzzle: Puzzle, state: GameState[Any], result: SolveResult) -> list[str]:
    """The contradictions between the stated answer and a solved result (empty: it agrees)."""
    problems: list[str] = []
    answer = puzzle.answer
    path = puzzle.path

    def differ(key: str, stated: Any, found: Any) -> None:
        problems.append(f"{key}: stated {stated}, solver found {found}")

    if "winner" in answer:
        stated = None
        if answer["winner"] != "none":
            seats = _seats(path, "puzzle.answer.winner", answer["winner"])
            stated = team_index(state, seats, f"{path}: puzzle.answer.winner")
        if stated != result.winner:
            found = "none" if result.winner is None else _seat_list(state, result.winner)
            differ("winner", answer["winner"], found)
    for key in ("value", "pure_lower", "pure_upper"):
        if key in answer:
            stated_value = _fraction(path, f"puzzle.answer.{key}", answer[key])
            found_value = getattr(result, key)
            if stated_value != found_value:
                differ(key, stated_value, found_value)
    if "values" in answer:
        stated_values = [_fraction(path, "puzzle.answer.values", v) for v in answer["values"]]
        found_values = None if result.values is None else list(result.values)
        if stated_values != found_values:
            differ("values", [str(v) for v in stated_values],
                   None if found_values is None else [str(v) for v in found_values])
    best = set(result.best_actions)
    if "best_actions" in answer and set(answer["best_actions"]) != best:
        differ("best_actions", sorted(answer["best_actions"]), sorted(best))
    missing = [a for a in answer.get("best_actions_include", []) if a not in best]
    if missing:
        problems.append(f"best_actions_include: {missing} are not optimal; optimal: {sorted(best)}")
    wrong = [a for a in answer.get("best_actions_exclude", []) if a in best]
    if wrong:
        problems.append(f"best_actions_exclude: {wrong} are optimal")
    start = answer.get("principal_variation_starts")
    if start is not None and list(result.principal_variation[: len(start)]) != start:
        differ("principal_variation_starts", start, list(result.principal_variation))
    return problems


def _seat_list(state: GameState[Any], team: int) -> list[int]:
    return [player + 1 for player in state.teams()[team]]
