"""The web board's server: the page, its static files and the JSON API under ``/api/``
(``docs/web.md``).

Safe by default: positions come from the request body only (TOML text or the editor's
tables; a key that names a file is refused), bodies are capped, every search runs in a
process of its own with a time and a memory limit, and bad input is answered with the same
one-line message as the command line, as HTTP 400 with ``{"error": "..."}``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from omen_solver import __version__
from omen_solver.errors import (
    JobError,
    OmenSolverError,
    OptionError,
    RequestError,
    one_line,
    shown,
)
from omen_solver.omen.game import OMEN
from omen_solver.omens.game import OMENS
from omen_solver.shipped import shipped
from omen_solver.web import library, trainer
from omen_solver.web.games import board_game, board_games
from omen_solver.web.guard import (
    SameOrigin,
    UnsupportedType,
    check_tables,
    parse_body,
    whole_number,
)
from omen_solver.web.jobs import Busy, Job, Jobs, Limits

__all__ = ["STATIC", "create_app", "default_puzzle_folder"]

STATIC: Final = Path(__file__).parent / "static"

DISCONNECT_POLL: Final = 0.25
"""Seconds between two checks that the client waiting for a search is still there."""


class BodyTooLarge(Exception):
    pass


class ClientGone(Exception):
    """The client left before its answer (mid-body, or while its search ran): nothing is
    answered, nothing is logged, and its search is stopped."""


def default_puzzle_folder() -> Path | None:
    """The bundled puzzles (:func:`omen_solver.shipped.shipped`), if this installation has
    them."""
    try:
        return shipped("puzzles")
    except OmenSolverError:
        return None


@dataclass(frozen=True)
class PuzzleEntry:
    name: str
    game: str
    path: Path


def _catalogue_puzzles(folder: Path | None) -> dict[str, PuzzleEntry]:
    """Every ``*.toml`` under the puzzle folder, named ``game/stem`` (the only puzzles a
    request can name: a name is looked up here, never joined to a path)."""
    found: dict[str, PuzzleEntry] = {}
    if folder is None:
        return found
    for path in sorted(folder.rglob("*.toml")):
        game = path.parent.name
        if game in board_games():
            found[f"{game}/{path.stem}"] = PuzzleEntry(f"{game}/{path.stem}", game, path)
    return found


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _error(message: object, status: int = 400) -> JSONResponse:
    return _json({"error": one_line(message)}, status)


class Api:
    """The handlers, sharing the server's limits, jobs and puzzles."""

    def __init__(self, limits: Limits, puzzles: Path | None) -> None:
        self.limits = limits
        self.jobs = Jobs(limits)
        self.puzzles = _catalogue_puzzles(puzzles)
        self._puzzle_meta: dict[str, dict[str, Any]] = {}

    # -- reading requests --------------------------------------------------------------------

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, read within the size cap and parsed in a worker thread
        within the depth and number limits (:mod:`omen_solver.web.guard`)."""
        cap = self.limits.max_body_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and len(declared) < 20 and (
                int(declared) > cap):
            raise BodyTooLarge()
        chunks = []
        size = 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > cap:
                    raise BodyTooLarge()
                chunks.append(chunk)
        except ClientDisconnect:
            raise ClientGone() from None
        return await run_in_threadpool(parse_body, b"".join(chunks),
                                       request.headers.get("content-type"))

    @staticmethod
    def position_data(body: dict[str, Any], game: str) -> dict[str, Any]:
        """The position of a request: ``toml`` (the file's text), ``text`` (its one-line text,
        docs/position-text.md) or ``position`` (tables). Parses text: call it in a worker
        thread."""
        if "text" in body:
            return library.read_position_line(body["text"], game)
        if "toml" in body:
            return library.read_position_text(body["toml"], game)
        if "position" in body:
            data = body["position"]
            if not isinstance(data, dict):
                raise RequestError(
                    f"'position': expected the position's tables, not {shown(data)}")
            check_tables(data, "'position'")
            return data
        raise RequestError("give the position as 'toml' (its file's text), 'text' (its "
                           "one-line text) or 'position'")

    def board(self, body: dict[str, Any]) -> library.Board:
        return library.load_board(self.position_data(body, OMENS.name),
                                  library.moves_list(body.get("moves")))

    # -- reference -----------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def api_index(self, request: Request) -> Response:
        return _json({
            "name": "omen-solver",
            "version": __version__,
            "docs": "docs/web.md",
            "limits": {"max_seconds": self.limits.max_seconds,
                       "default_seconds": self.limits.default_seconds,
                       "memory_mb": self.limits.memory_mb,
                       "max_searches": self.limits.max_jobs,
                       "max_body_bytes": self.limits.max_body_bytes},
            "endpoints": [f"{' '.join(sorted(route.methods or []))} {route.path}"
                          for route in ROUTES_FOR_INDEX],
        })

    async def cards(self, request: Request) -> Response:
        return _json(library.cards_json())

    async def rules(self, request: Request) -> Response:
        return _json(library.rules_json())

    async def options(self, request: Request) -> Response:
        return _json(library.options_json())

    # -- the Omens board -------------------------------------------------------------------------

    async def omens_board(self, request: Request) -> Response:
        body = await self.body(request)
        board = await run_in_threadpool(self.board, body)
        return _json(library.board_view(board))

    async def omens_export(self, request: Request) -> Response:
        body = await self.body(request)
        board = await run_in_threadpool(self.board, body)
        return _json({"toml": library.export_toml(board)})

    async def omens_position(self, request: Request) -> Response:
        """The editor's tables checked as a position file is: the TOML text and the board."""
        body = await self.body(request)

        def check() -> dict[str, Any]:
            text = library.dump_toml(self.position_data(body, OMENS.name))
            board = library.load_board(library.read_position_text(text, OMENS.name), [])
            return {"toml": text, "board": library.board_view(board)}

        return _json(await run_in_threadpool(check))

    async def position_text(self, request: Request) -> Response:
        """A position (and moves played on it) as its one-line text and its file."""
        game, part = board_game(request.path_params["game"])
        body = await self.body(request)

        def texts() -> dict[str, str]:
            state = part.load(self.position_data(body, game.name),
                              library.moves_list(body.get("moves")))
            return library.position_texts(state)

        return _json(await run_in_threadpool(texts))

    async def omens_deal(self, request: Request) -> Response:
        body = await self.body(request)

        def deal() -> dict[str, Any]:
            data = library.deal_tables(body)
            return {"position": data, "toml": library.dump_toml(data)}

        return _json(await run_in_threadpool(deal))

    # -- searches ----------------------------------------------------------------------------

    def _start(self, kind: str, payload: dict[str, Any], seconds: float) -> Job:
        return self.jobs.start(kind, payload, seconds)

    async def omens_solve(self, request: Request) -> Response:
        """Start the per-action search of a position; read it at ``/api/jobs/ID/events``."""
        body = await self.body(request)
        board = await run_in_threadpool(self.board, body)  # bad input is refused here, at once
        seconds = self.jobs.seconds(body.get("seconds"))
        concept = body.get("concept")
        if concept is not None and concept not in ("paranoid", "maxn"):
            raise RequestError(
                f"'concept': {shown(concept)}; with three teams choose 'paranoid' or 'maxn'")
        replaces = body.get("replaces")
        if isinstance(replaces, str):
            with suppress(JobError):
                self.jobs.cancel(replaces)
        payload = {"position": board.data, "moves": [p.text for p in board.history[
            board.file_moves:]], "concept": concept}
        job = self._start("moves", payload, seconds)
        return _json({"id": job.id, "seconds": seconds, "events": f"/api/jobs/{job.id}/events"})

    async def omens_lines(self, request: Request) -> Response:
        """Start the search of the line of each of ``candidates`` (legal actions); read it at
        ``/api/jobs/ID/events``."""
        body = await self.body(request)
        board = await run_in_threadpool(self.board, body)
        candidates = library.moves_list(body.get("candidates"))
        concept = body.get("concept")
        if concept is not None and concept not in ("paranoid", "maxn"):
            raise RequestError(
                f"'concept': {shown(concept)}; with three teams choose 'paranoid' or 'maxn'")
        payload = {"position": board.data, "moves": [p.text for p in board.history[
            board.file_moves:]], "concept": concept, "candidates": candidates}
        seconds = self.jobs.seconds(body.get("seconds"))
        job = self._start("lines", payload, seconds)
        return _json({"id": job.id, "seconds": seconds, "events": f"/api/jobs/{job.id}/events"})

    async def job_status(self, request: Request) -> Response:
        job = self.jobs.get(request.path_params["id"])
        start = whole_number(request.query_params.get("since", "0"), "since")
        return _json({**job.public(), "since": start, "news": job.events[start:]})

    async def job_cancel(self, request: Request) -> Response:
        job = await run_in_threadpool(self.jobs.cancel, request.path_params["id"])
        return _json(job.public())

    async def job_events(self, request: Request) -> Response:
        """Server-sent events: each message of the job as it comes; the stream ends with the
        job. A stream dropped before the job ends (the page closed or moved on) cancels it."""
        job = self.jobs.get(request.path_params["id"])

        async def stream() -> AsyncIterator[str]:
            sent = 0
            try:
                while True:
                    events = job.events
                    while sent < len(events):
                        yield f"data: {json.dumps(events[sent])}\n\n"
                        sent += 1
                    if job.finished and sent >= len(job.events):
                        yield "event: end\ndata: {}\n\n"
                        return
                    if await request.is_disconnected():
                        return
                    await asyncio.sleep(0.1)
            finally:
                # Not awaited: the stream's task may be cancelled already (the client left).
                if not job.finished:
                    self.jobs.cancel(job.id)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def _run(self, request: Request, kind: str, payload: dict[str, Any],
                   seconds: float) -> dict[str, Any]:
        """Run a search and answer with its result; a client that leaves first stops it (its
        slot is free again at once)."""
        job = self._start(kind, payload, seconds)
        waiting = asyncio.ensure_future(run_in_threadpool(self.jobs.wait, job, seconds + 5.0))
        while not waiting.done():
            await asyncio.wait({waiting}, timeout=DISCONNECT_POLL)
            if not waiting.done() and await request.is_disconnected():
                self.jobs.cancel(job.id)
                await waiting
                raise ClientGone()
        result = waiting.result()
        if result.get("type") == "error":
            raise RequestError(result["error"])
        return result

    # -- puzzles -------------------------------------------------------------------------------

    def _puzzle(self, name: str) -> tuple[PuzzleEntry, str, dict[str, Any]]:
        entry = self.puzzles.get(name)
        if entry is None:
            raise RequestError(f"no puzzle named {shown(name)} on this server")
        text = library.read_text_file(entry.path)
        data = library.read_position_text(text, entry.game)
        return entry, text, data

    def _named(self, request: Request) -> tuple[PuzzleEntry, str, dict[str, Any]]:
        return self._puzzle(f"{request.path_params['game']}/{request.path_params['stem']}")

    def _summaries(self) -> dict[str, dict[str, Any]]:
        """What the list shows of every puzzle (read once: the files are the server's own)."""
        if not self._puzzle_meta:
            listed = []
            for entry in self.puzzles.values():
                _, _, data = self._puzzle(entry.name)
                listed.append(trainer.summary(entry.name, entry.game, entry.path.stem, data))
            trainer.distinct_titles(listed)
            self._puzzle_meta = {item["name"]: item for item in listed}
        return self._puzzle_meta

    async def puzzles_list(self, request: Request) -> Response:
        game = request.query_params.get("game")
        listed = await run_in_threadpool(self._summaries)
        return _json([item for item in listed.values() if game is None or item["game"] == game])

    async def puzzle_get(self, request: Request) -> Response:
        entry, _, data = self._named(request)
        summaries = await run_in_threadpool(self._summaries)
        shown_data = {k: v for k, v in data.items() if k != "puzzle"}
        puzzle = dict(data.get("puzzle", {}))
        puzzle.pop("answer", None)
        return _json({**summaries[entry.name], "toml": library.dump_toml(shown_data),
                      "puzzle": puzzle})

    async def puzzle_try(self, request: Request) -> Response:
        """An answer to a puzzle: a move (right or wrong, why, and the solution) or, for a
        question about the position's value, a value."""
        body = await self.body(request)
        entry, text, data = self._named(request)
        return _json(await self._try_puzzle(request, data, entry.game, text, body))

    async def _try_puzzle(self, request: Request, data: dict[str, Any], game: str, text: str,
                          body: dict[str, Any]) -> dict[str, Any]:
        if "value" in body:
            return await run_in_threadpool(trainer.judge_value, data, game, body["value"])
        move = body.get("move")
        if not isinstance(move, str):
            raise RequestError("'move': expected an action in canonical notation")
        return await self._puzzle_job(request, data, game, text, move, body.get("seconds"))

    async def _puzzle_job(self, request: Request, data: dict[str, Any], game: str, text: str,
                          move: str | None, seconds: object) -> dict[str, Any]:
        puzzle = data.get("puzzle", {})
        answer = puzzle.get("answer", {})
        state = await run_in_threadpool(trainer.loaded_state, data, game)
        canonical = None
        if move is not None:
            # an illegal move is refused at once, with the command line's message
            canonical = state.action_to_string(trainer.parse_move(state, move))
        team = library.puzzle_team(state, puzzle)
        payload = {"game": game, "position": data, "move": move, "team": list(team),
                   "concept": puzzle.get("concept"), "answer": answer}
        result = await self._run(request, "puzzle", payload, self.jobs.seconds(seconds))
        if result.get("type") != "result":
            # out of time: what the stated answer says of the move still holds
            result = {"type": "result", "reason": result.get("reason"), "best": [],
                      "root": None, "solution": [], "line": []}
            if canonical is not None:
                result.update(move=canonical, right=trainer.stated_judgement(canonical, answer),
                              value=None, verdict="unknown")
        result["comments"] = trainer.commentary(text)
        result["question"] = puzzle.get("question")
        return result

    async def _text_puzzle(self, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """A puzzle given as text (a generated one): its tables and its text."""
        data = await run_in_threadpool(self.position_data, body, OMENS.name)
        return data, str(body.get("toml") or "")

    async def puzzle_try_text(self, request: Request) -> Response:
        """An answer to a puzzle given as text (a generated one)."""
        body = await self.body(request)
        data, text = await self._text_puzzle(body)
        return _json(await self._try_puzzle(request, data, OMENS.name, text, body))

    async def puzzle_hint(self, request: Request) -> Response:
        _, _, data = self._named(request)
        return _json(await run_in_threadpool(trainer.hint, data, request.path_params["game"]))

    async def puzzle_hint_text(self, request: Request) -> Response:
        data, _ = await self._text_puzzle(await self.body(request))
        return _json(await run_in_threadpool(trainer.hint, data, OMENS.name))

    async def puzzle_solution(self, request: Request) -> Response:
        """The solution on request: every optimal move, the line explained, the comments."""
        body = await self.body(request)
        entry, text, data = self._named(request)
        return _json(await self._puzzle_job(request, data, entry.game, text, None,
                                            body.get("seconds")))

    async def puzzle_solution_text(self, request: Request) -> Response:
        body = await self.body(request)
        data, text = await self._text_puzzle(body)
        return _json(await self._puzzle_job(request, data, OMENS.name, text, None,
                                            body.get("seconds")))

    async def puzzle_generate(self, request: Request) -> Response:
        body = await self.body(request)
        players = body.get("players", 4)
        seed = body.get("seed", 0)
        if players not in (4, 5, 6) or isinstance(players, bool):
            raise RequestError(f"'players': 4, 5 or 6, not {shown(players)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise RequestError(f"'seed': a whole number from 0, not {shown(seed)}")
        payload = {"players": players, "seed": seed, "deal": body.get("deal", "start")}
        result = await self._run(request, "generate", payload,
                                 self.jobs.seconds(body.get("seconds")))
        if not result.get("found"):
            return _json({"found": False, "tally": result.get("tally"),
                          "error": "no puzzle in the deals tried: try another seed"})
        text = result["toml"]
        data = await run_in_threadpool(library.read_position_text, text, OMENS.name)
        puzzle = dict(data.get("puzzle", {}))
        puzzle.pop("answer", None)
        return _json({"found": True, "toml": text, "puzzle": puzzle,
                      "title": data.get("title"), "question": puzzle.get("question")})

    # -- Omen ----------------------------------------------------------------------------------

    def _omen(self, body: dict[str, Any]) -> Any:
        from omen_solver.web.omen import load_omen

        return load_omen(self.position_data(body, OMEN.name), library.moves_list(body.get("moves")))

    async def omen_board(self, request: Request) -> Response:
        from omen_solver.web.omen import omen_view

        body = await self.body(request)
        loaded = await run_in_threadpool(self._omen, body)
        return _json(omen_view(loaded))

    async def omen_endgame(self, request: Request) -> Response:
        body = await self.body(request)
        await run_in_threadpool(self._omen, body)
        seat = body.get("seat")
        if seat not in (None, 1, 2) or isinstance(seat, bool):
            raise RequestError(f"'seat': 1 or 2, not {shown(seat)}")
        payload = {"position": await run_in_threadpool(self.position_data, body, OMEN.name),
                   "moves": library.moves_list(body.get("moves")), "seat": seat}
        result = await self._run(request, "endgame", payload,
                                 self.jobs.seconds(body.get("seconds")))
        return _json(result)


ROUTES_FOR_INDEX: list[Route] = []


def create_app(
    limits: Limits | None = None,
    puzzles: Path | None = None,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The ASGI application. ``allowed_hosts``: the Host headers answered (the server bound
    to localhost answers only local names, so that no other site can reach it through a
    name of its own that points here)."""
    api = Api(limits or Limits(), puzzles if puzzles is not None else default_puzzle_folder())
    routes = [
        Route("/api", api.api_index, methods=["GET"]),
        Route("/api/omens/cards", api.cards, methods=["GET"]),
        Route("/api/omens/rules", api.rules, methods=["GET"]),
        Route("/api/omens/options", api.options, methods=["GET"]),
        Route("/api/omens/board", api.omens_board, methods=["POST"]),
        Route("/api/omens/export", api.omens_export, methods=["POST"]),
        Route("/api/omens/position", api.omens_position, methods=["POST"]),
        Route("/api/omens/deal", api.omens_deal, methods=["POST"]),
        Route("/api/{game}/text", api.position_text, methods=["POST"]),
        Route("/api/omens/solve", api.omens_solve, methods=["POST"]),
        Route("/api/omens/lines", api.omens_lines, methods=["POST"]),
        Route("/api/jobs/{id}", api.job_status, methods=["GET"]),
        Route("/api/jobs/{id}", api.job_cancel, methods=["DELETE"]),
        Route("/api/jobs/{id}/cancel", api.job_cancel, methods=["POST"]),
        Route("/api/jobs/{id}/events", api.job_events, methods=["GET"]),
        Route("/api/puzzles", api.puzzles_list, methods=["GET"]),
        Route("/api/puzzles/try", api.puzzle_try_text, methods=["POST"]),
        Route("/api/puzzles/generate", api.puzzle_generate, methods=["POST"]),
        Route("/api/puzzles/{game}/{stem}", api.puzzle_get, methods=["GET"]),
        Route("/api/puzzles/{game}/{stem}/try", api.puzzle_try, methods=["POST"]),
        Route("/api/puzzles/hint", api.puzzle_hint_text, methods=["POST"]),
        Route("/api/puzzles/solution", api.puzzle_solution_text, methods=["POST"]),
        Route("/api/puzzles/{game}/{stem}/hint", api.puzzle_hint, methods=["GET"]),
        Route("/api/puzzles/{game}/{stem}/solution", api.puzzle_solution, methods=["POST"]),
        Route("/api/omen/board", api.omen_board, methods=["POST"]),
        Route("/api/omen/endgame", api.omen_endgame, methods=["POST"]),
    ]
    ROUTES_FOR_INDEX[:] = routes
    all_routes = [
        Route("/", api.index, methods=["GET"]),
        *routes,
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]

    async def bad_input(request: Request, error: Exception) -> Response:
        return _error(error)

    async def too_large(request: Request, error: Exception) -> Response:
        return _error(f"the request body is larger than {api.limits.max_body_bytes:,} bytes",
                      413)

    async def busy(request: Request, error: Exception) -> Response:
        return _error(error, 429 if isinstance(error, Busy) else 404)

    async def unsupported(request: Request, error: Exception) -> Response:
        return _error(error, 415)

    async def gone(request: Request, error: Exception) -> Response:
        # The client is not there to read it: an empty answer, and no traceback in the log.
        return Response(status_code=400)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if request.url.path.startswith("/api"):
            return _error(error.detail, error.status_code)
        return Response(error.detail, status_code=error.status_code)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            api.jobs.cancel_all()

    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    middleware.append(Middleware(SameOrigin))
    app = Starlette(
        routes=all_routes,
        middleware=middleware,
        exception_handlers={
            UnsupportedType: unsupported,
            ClientGone: gone,
            JobError: busy,
            OmenSolverError: bad_input,
            OptionError: bad_input,
            BodyTooLarge: too_large,
            HTTPException: http_error,
        },
        lifespan=lifespan,
    )
    app.state.api = api
    return app
