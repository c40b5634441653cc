"""Each game's part in the board in the browser (docs/web.md): how the server reads a
position of it with moves played, lists its legal moves and words a hint. The web registers
it on the game (:class:`omen_solver.core.game.Feature`), as the vectors do theirs; the server
and the puzzle trainer find a game here by name, and list no game by hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.core.game import SIMULTANEOUS, Feature, Game, game_named
from omen_solver.errors import RequestError, shown
from omen_solver.omen.game import OMEN
from omen_solver.omens.game import OMENS

__all__ = ["BOARDS", "BoardPart", "board_game", "board_games"]


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardPart:
    """How the web server reads and shows a game's positions."""

    load: Callable[[dict[str, Any], Sequence[str]], Any]
    """The state of a position's tables after its own moves and then the given ones (bad
    input raises the request's error)."""
    legal: Callable[[Any], list[str]]
    """The legal moves as the board lists them, in canonical text."""
    hint: Callable[[Any, str], dict[str, Any]]
    """A nudge towards the optimal move written ``text`` (its ``hint`` words and the board's
    ``clicks``), not the move itself."""


BOARDS: Final[Feature[BoardPart]] = Feature("web boards")
"""The games the board in the browser shows, each with its part."""


def board_games() -> tuple[str, ...]:
    """The names of the games the board shows, in the order the games were registered."""
    return tuple(game.name for game in BOARDS.games())


def board_game(name: object) -> tuple[Game[Any], BoardPart]:
    """The game of that name and its part; a request naming another is refused, naming the
    games there are."""
    if isinstance(name, str) and name in board_games():
        game = game_named(name)
        return game, BOARDS.of(game)
    known = " or ".join(repr(known) for known in board_games())
    raise RequestError(f"no game {shown(name)}: {known}")


# -- Omens -------------------------------------------------------------------------------------


def _omens_load(data: dict[str, Any], moves: Sequence[str]) -> Any:
    from omen_solver.web.library import load_board

    return load_board(data, list(moves)).state


def _omens_legal(state: Any) -> list[str]:
    return [state.action_to_string(move) for move in state.moves()]


def _omens_hint(state: Any, first: str) -> dict[str, Any]:
    """The card (or the first click) of the move."""
    from omen_solver.web.library import action_clicks

    move = state.parse_move(first)
    if state.current_player() == SIMULTANEOUS or len(move) != 1:
        token = f"hand:{move[0].seat + 1}:{move[0].card}"
    else:
        token = action_clicks(state, move[0])[0]
    return {"hint": _token_words(state, token), "clicks": [token]}


def _token_words(state: Any, token: str) -> str:
    kind, _, rest = token.partition(":")
    name = state.table.name
    if kind == "hand":
        seat, card = rest.split(":")
        return f"Look at {name(int(card))} in seat {seat}'s hand."
    if kind == "play":
        return f"Look at {name(int(rest))}, in play."
    if kind == "seat":
        return f"Look at seat {rest}."
    return f"Look at “{rest}”."


# -- Omen --------------------------------------------------------------------------------------


def _omen_load(data: dict[str, Any], moves: Sequence[str]) -> Any:
    from omen_solver.web.omen import load_omen

    return load_omen(data, list(moves))[0]


def _omen_legal(state: Any) -> list[str]:
    from omen_solver.core.enumeration.tree import branches

    return [branch.text for branch in branches(state)]


def _omen_hint(state: Any, first: str) -> dict[str, Any]:
    """The first words of the move."""
    words = first.split()
    shown_words = words[:-1] if len(words) > 2 else words[:1]
    return {"hint": f"Look at “{' '.join(shown_words)} …”.", "clicks": []}


BOARDS.register(OMENS, BoardPart(load=_omens_load, legal=_omens_legal, hint=_omens_hint))
BOARDS.register(OMEN, BoardPart(load=_omen_load, legal=_omen_legal, hint=_omen_hint))
