"""``omen-solver vectors engine``: this library's engine behind the vector protocol.

It reads requests from stdin, one JSON object per line, and answers each with one line on
stdout (:mod:`omen_solver.vectors.protocol`), so ``omen-solver vectors check DIR --engine
"omen-solver vectors engine"`` checks this library through the very path another engine's
adapter takes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

from omen_solver import __version__
from omen_solver.core.game import Game, GameState, VectorView, game_of, games
from omen_solver.errors import OmenSolverError
from omen_solver.vectors.protocol import PROTOCOL_VERSION

__all__ = ["Adapter", "serve"]


class _Refused(Exception):
    pass


class Adapter:
    """One game in progress, driven by protocol requests."""

    def __init__(self) -> None:
        self.game: str | None = None
        self.state: GameState[Any] | None = None

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        command = request.get("cmd")
        handlers: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
            "hello": self._hello,
            "setup": self._setup,
            "legal": self._legal,
            "play": self._play,
            "state": self._state,
            "quit": lambda _: {},
        }
        handler = handlers.get(str(command))
        if handler is None:
            raise _Refused(f"unknown cmd {command!r}; known: {', '.join(handlers)}")
        return handler(request)

    def _hello(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if request.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
            raise _Refused(f"protocol {request.get('protocol')!r}: this adapter speaks "
                           f"protocol {PROTOCOL_VERSION}")
        return {"name": f"omen-solver {__version__}", "games": [g.name for g in _playable()]}

    def _setup(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = request.get("game")
        options, position = request.get("options"), request.get("position")
        if not isinstance(options, dict) or not isinstance(position, dict):
            raise _Refused("setup needs 'options' and 'position' objects")
        views = {g.name: _view(g) for g in _playable()}
        if not isinstance(game, str) or game not in views:
            raise _Refused(f"unknown game {game!r}; this engine plays {' and '.join(views)}")
        try:
            self.state = views[game].start(options, position, "setup")
        except (KeyError, TypeError) as error:
            raise _Refused(f"setup: missing or malformed field {error}") from None
        self.game = game
        return {}

    def _current(self) -> GameState[Any]:
        if self.state is None:
            raise _Refused("no game: send 'setup' first")
        return self.state

    def _legal(self, request: Mapping[str, Any]) -> dict[str, Any]:
        state = self._current()
        return _view(game_of(state)).turn(state)

    def _play(self, request: Mapping[str, Any]) -> dict[str, Any]:
        state = self._current()
        action = request.get("action")
        if not isinstance(action, str):
            raise _Refused("play needs an 'action' string")
        game = game_of(state)
        assert game.parse is not None, game.name
        self.state = state.child(game.parse(state, action))
        return {}

    def _state(self, request: Mapping[str, Any]) -> dict[str, Any]:
        state = self._current()
        return {"state": _view(game_of(state)).state(state)}


def _playable() -> list[Game[Any]]:
    """The registered games that have vectors."""
    return [game for game in games() if game.vectors is not None]


def _view(game: Game[Any]) -> VectorView[Any]:
    assert game.vectors is not None, game.name
    return game.vectors


def _answer(adapter: Adapter, line: str) -> tuple[dict[str, Any], bool]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"id": None, "ok": False, "error": f"not JSON: {error.msg}"}, False
    if not isinstance(request, dict):
        return {"id": None, "ok": False, "error": "a request is a JSON object"}, False
    answer: dict[str, Any] = {"id": request.get("id")}
    try:
        answer.update({"ok": True, **adapter.handle(request)})
    except (_Refused, OmenSolverError) as error:
        answer.update({"ok": False, "error": str(error)})
    return answer, request.get("cmd") == "quit"


def serve(stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    """Answer requests until ``quit`` or the end of input."""
    adapter = Adapter()
    for line in stdin:
        if not line.strip():
            continue
        answer, done = _answer(adapter, line)
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
        if done:
            break
    return 0
