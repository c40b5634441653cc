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
from typing import IO, Any, Final

from omen_solver import __version__
from omen_solver.core.budget import Budget
from omen_solver.core.enumeration import perft
from omen_solver.core.game import Game, GameState, game_of
from omen_solver.errors import OmenSolverError
from omen_solver.vectors.protocol import PROTOCOL_VERSION
from omen_solver.vectors.settings import SWITCHABLE, EngineRules, preset_key
from omen_solver.vectors.views import VECTORS, VectorView

__all__ = ["Adapter", "serve"]


_PERFT_NODES: Final = 5_000_000
"""The most nodes one ``perft`` request walks."""


class _Refused(Exception):
    pass


class _Unsupported(_Refused):
    """A setup this engine does not play (answered with ``"unsupported": true``)."""


class Adapter:
    """One game in progress, driven by protocol requests.

    ``fixed``: per game, the settings this engine plays and nothing else (declared in
    ``hello``; a setup under other settings is answered ``unsupported``), as an engine whose
    rule choices are built in; a game not named is switchable (any setup's settings)."""

    def __init__(self, fixed: Mapping[str, EngineRules] | None = None) -> None:
        self.game: str | None = None
        self.state: GameState[Any] | None = None
        self.fixed = dict(fixed or {})

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        command = request.get("cmd")
        handlers: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
            "hello": self._hello,
            "setup": self._setup,
            "legal": self._legal,
            "play": self._play,
            "state": self._state,
            "perft": self._perft,
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
        options: dict[str, Any] = {}
        for game in (g.name for g in _playable()):
            rules = self.fixed.get(game)
            if rules is None or rules.settings is None:
                options[game] = SWITCHABLE
            elif rules.preset is not None:
                options[game] = {preset_key(game): rules.preset,
                                 "overrides": dict(rules.overrides or {})}
            else:
                options[game] = {"settings": dict(rules.settings)}
        return {"name": f"omen-solver {__version__}", "games": [g.name for g in _playable()],
                "options": options}

    def _setup(self, request: Mapping[str, Any]) -> dict[str, Any]:
        game = request.get("game")
        options, position = request.get("options"), request.get("position")
        if not isinstance(options, dict) or not isinstance(position, dict):
            raise _Refused("setup needs 'options' and 'position' objects")
        views = {g.name: _view(g) for g in _playable()}
        if not isinstance(game, str) or game not in views:
            raise _Refused(f"unknown game {game!r}; this engine plays {' and '.join(views)}")
        rules = self.fixed.get(str(game))
        if rules is not None and rules.settings is not None:
            asked = options.get("settings")
            differ = sorted(name for name, setting in rules.settings.items()
                            if not isinstance(asked, dict) or asked.get(name) != setting)
            if differ:
                raise _Unsupported(f"this engine plays {rules.describe()} only; the setup "
                                   f"asks for other settings of {', '.join(differ)}")
            options = {**options, "settings": dict(rules.settings)}
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

    def _perft(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The perft counts from the current position (docs/vectors.md, "Perft suites")."""
        state = self._current()
        depth = request.get("depth")
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 64:
            raise _Refused("perft needs a 'depth' from 0 to 64")
        result = perft(state, depth, budget=Budget(max_nodes=_PERFT_NODES))
        if result.total is None:
            raise _Refused(f"perft to depth {depth}: {result.reason or 'budget exceeded'}")
        return {**result.total.to_json(),
                "divide": {text: count.sequences for text, count in result.divide}}

    def _state(self, request: Mapping[str, Any]) -> dict[str, Any]:
        state = self._current()
        return {"state": _view(game_of(state)).state(state)}


def _playable() -> tuple[Game[Any], ...]:
    """The registered games that have vectors."""
    return VECTORS.games()


def _view(game: Game[Any]) -> VectorView[Any]:
    return VECTORS.of(game)


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
        if isinstance(error, _Unsupported):
            answer["unsupported"] = True
    return answer, request.get("cmd") == "quit"


def serve(stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout,
          fixed: Mapping[str, EngineRules] | None = None) -> int:
    """Answer requests until ``quit`` or the end of input (``fixed``: see :class:`Adapter`)."""
    adapter = Adapter(fixed)
    for line in stdin:
        if not line.strip():
            continue
        answer, done = _answer(adapter, line)
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
        if done:
            break
    return 0
