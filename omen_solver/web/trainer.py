"""The puzzle trainer's side of the server: what the list shows of each puzzle, what kind of
answer it asks for, its hint, and its commentary as a player reads it.

A puzzle (``docs/puzzles.md``) asks its question about a position and states the answer. The
trainer asks for one of two things:

* **a move** ("which play wins?"), when the stated answer names the optimal first moves
  (``best_actions`` or ``best_actions_include``) and some legal move is not among them, and
  the asked team is not lost whatever it does: a wrong move is "not this one", and the player
  tries again;
* **a value** ("can seats 1 and 3 win?", "what are seat 1's chances?"), otherwise: every move
  is as good (or the team loses whatever it does), so the answer is the stated value, chosen
  among a few.

Nothing here solves: the kind, the choices and the hint come from the stated answer, which
``omen-solver puzzles check`` (and the test suite) confirms against the solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.game import game_of
from omen_solver.errors import RequestError, shown
from omen_solver.web.games import BOARDS, board_game

__all__ = [
    "VALUE_CHOICES",
    "Judged",
    "commentary",
    "distinct_titles",
    "hint",
    "judge_value",
    "legal_texts",
    "loaded_state",
    "parse_move",
    "stated_judgement",
    "summary",
]

VALUE_CHOICES: Final = ("0", "1/3", "1/2", "2/3", "1")
"""The values a value question offers (the stated one is added when it is not among them)."""


def loaded_state(data: dict[str, Any], game: str) -> Any:
    """The state of a puzzle's position (its own moves played)."""
    return board_game(game)[1].load(data, [])


def parse_move(state: Any, text: str) -> Any:
    """A move of either game read from its canonical text (an illegal one is refused with the
    command line's message)."""
    parse = game_of(state).parse
    assert parse is not None
    return parse(state, text)


def legal_texts(state: Any) -> list[str]:
    """The legal moves as the board lists them (joint moves at a secret exchange)."""
    return BOARDS.of(game_of(state)).legal(state)


def _parts(text: str) -> list[str]:
    return [part.strip() for part in text.split("&")]


def matches(text: str, best: Iterable[str]) -> bool:
    """Whether a move is one of the stated best: its text, or one side's part of a joint
    move (a secret exchange's row, as ``best_actions`` may state it)."""
    chosen = set(best)
    return text in chosen or any(part in chosen for part in _parts(text))


def stated_best(answer: Mapping[str, Any]) -> list[str]:
    return list(answer.get("best_actions") or answer.get("best_actions_include") or [])


def stated_judgement(canonical: str, answer: Mapping[str, Any]) -> bool | None:
    """What the stated answer says of a move: optimal (True), not optimal (False: it is not
    among ``best_actions``, or it is in ``best_actions_exclude``), or nothing (None: the
    solver decides)."""
    if matches(canonical, stated_best(answer)):
        return True
    if answer.get("best_actions") or matches(canonical, answer.get("best_actions_exclude", [])):
        return False
    return None


def _asked_team(state: Any, puzzle: Mapping[str, Any]) -> list[int]:
    """The seats (from 1) of the team the question is about (default: the team to move)."""
    from omen_solver.core.search.solver import default_team

    teams = state.teams()
    raw = puzzle.get("team")
    if raw is not None:
        seats = [raw] if isinstance(raw, int) else list(raw)
        for team in teams:
            if any(seat - 1 in team for seat in seats):
                return [seat + 1 for seat in team]
    return [seat + 1 for seat in teams[default_team(state)]]


def stated_value(answer: Mapping[str, Any], team: Sequence[int]) -> Fraction | None:
    """The asked team's stated value, or what the stated winner implies."""
    if "value" in answer:
        return Fraction(str(answer["value"]))
    winner = answer.get("winner")
    if isinstance(winner, list) and winner:
        return Fraction(1) if set(winner) & set(team) else Fraction(0)
    return None


def kind_of(state: Any, answer: Mapping[str, Any], team: Sequence[int]) -> str:
    """``move`` or ``value``: what the trainer asks for (the module's docstring)."""
    best = stated_best(answer)
    value = stated_value(answer, team)
    if value is None:
        return "move"
    if not best or value == 0:
        return "value"
    legal = legal_texts(state)
    return "move" if any(not matches(text, best) for text in legal) else "value"


def choices(value: Fraction | None) -> list[str]:
    found = {Fraction(v) for v in VALUE_CHOICES}
    if value is not None:
        found.add(value)
    return [str(v) for v in sorted(found)]


def summary(name: str, game: str, stem: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """What the list shows of a puzzle, and what the page needs to ask it: ``kind``, the
    asked ``team``, ``plays`` (legal first moves and how many of them the answer names), the
    stated ``rating`` (depth, tempting plays, nodes) where the file has one, and the value
    ``choices`` of a value question."""
    puzzle = data.get("puzzle", {})
    answer = puzzle.get("answer", {})
    state = loaded_state(dict(data), game)
    team = _asked_team(state, puzzle)
    kind = kind_of(state, answer, team)
    legal = legal_texts(state)
    best = stated_best(answer)
    winning = sum(matches(text, best) for text in legal) if best else None
    entry: dict[str, Any] = {
        "name": name, "game": game,
        "title": data.get("title") or stem.replace("-", " ").capitalize(),
        "question": puzzle.get("question"),
        "players": data.get("players", 2),
        "team": team,
        "kind": kind,
        "rating": puzzle.get("rating"),
        "plays": {"legal": len(legal), "named": winning, "complete": "best_actions" in answer},
    }
    if kind == "value":
        entry["choices"] = choices(stated_value(answer, team))
    return entry


def distinct_titles(entries: list[dict[str, Any]]) -> None:
    """Titles shared by several puzzles of one game get the file's name after them."""
    seen: dict[tuple[str, str], int] = {}
    for entry in entries:
        key = (entry["game"], entry["title"])
        seen[key] = seen.get(key, 0) + 1
    for entry in entries:
        if seen[(entry["game"], entry["title"])] > 1:
            entry["title"] = f"{entry['title']} ({entry['name'].split('/', 1)[1]})"


@dataclass(frozen=True)
class Judged:
    right: bool
    answered: str


def judge_value(data: Mapping[str, Any], game: str, asked: object) -> dict[str, Any]:
    """A value question answered: right when ``asked`` is the stated value."""
    if not isinstance(asked, str | int) or isinstance(asked, bool):
        raise RequestError(f"'value': a value such as \"1/2\", not {shown(asked)}")
    try:
        value = Fraction(str(asked))
    except (ValueError, ZeroDivisionError):
        raise RequestError(f"'value': {shown(asked)} is not a value such as \"1/2\"") from None
    puzzle = data.get("puzzle", {})
    state = loaded_state(dict(data), game)
    stated = stated_value(puzzle.get("answer", {}), _asked_team(state, puzzle))
    if stated is None:
        raise RequestError("this puzzle states no value to compare with")
    return {"value": str(value), "right": value == stated}


def hint(data: Mapping[str, Any], game: str) -> dict[str, Any]:
    """A nudge, not the answer: the game's words for an optimal move (:mod:`.games`: for
    Omens the card or the first click of it, for Omen its first words)."""
    puzzle = data.get("puzzle", {})
    answer = puzzle.get("answer", {})
    best = stated_best(answer)
    state = loaded_state(dict(data), game)
    team = _asked_team(state, puzzle)
    if kind_of(state, answer, team) == "value":
        return {"hint": "No first move changes the answer here: the question is what "
                f"the position is worth to seat{'s' if len(team) > 1 else ''} "
                f"{' and '.join(map(str, team))}. Play the lines through on the board.",
                "clicks": []}
    if not best:
        raise RequestError("this position states no answer to give a hint from (a puzzle's "
                           "[puzzle.answer] table names its best actions)")
    legal = legal_texts(state)
    first = next((text for text in legal if matches(text, best)), best[0])
    return BOARDS.of(game_of(state)).hint(state, first)


_DROPPED_STARTS: Final = ("points:", "--")


def commentary(text: str) -> list[str]:
    """The opening comment lines of a puzzle file, the commentary of its solution, as a
    player reads it: without the file's metadata (``points: ...``) and without the commands
    that reproduce it (a line naming ``omen-solver`` and the lines continuing it)."""
    lines: list[str] = []
    continuing = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            if stripped:
                break
            continue
        body = stripped[1:].removeprefix(" ")
        words = body.strip()
        if continuing and (words.startswith("--") or lines_continue(body)):
            continuing = words.endswith("\\")
            continue
        continuing = False
        if words.startswith(_DROPPED_STARTS):
            continue
        if "omen-solver " in words:
            before = body[: body.index("omen-solver ")].rstrip().rstrip("`").rstrip()
            continuing = True
            if before.strip() and not before.strip().startswith("From "):
                lines.append(before.removesuffix(":") + ("." if before.endswith(":") else ""))
            continue
        lines.append(body)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def lines_continue(body: str) -> bool:
    """A comment line that goes on with the command above it (indented deeper, no prose)."""
    return body.startswith("    ") and not body.strip()[:1].isupper()
