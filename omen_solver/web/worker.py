"""The searches of the web board, each run in a process of its own.

A search runs in a process of its own (``python -m omen_solver.web.worker``) so that it
can be stopped at any moment (the page moved on, the page closed: the process is killed), and
so that its memory is capped by the operating system (``RLIMIT_AS``) as well as its time by
its budget. The worker writes its answers to standard output, one JSON object a line:

* ``{"type": "start", ...}``: what is being searched;
* ``{"type": "move", ...}``: the latest answer for one legal action (refined pass after pass);
* ``{"type": "line", ...}``: the line of one legal action (``lines``);
* ``{"type": "result", ...}``: the answer of a one-shot job;
* ``{"type": "done", ...}`` or ``{"type": "error", "error": "..."}``: the last message.

Jobs: ``moves`` (the value of each legal action, refined live), ``solve`` (one position,
once), ``lines`` (the line of each asked action), ``puzzle`` (a puzzle move judged, with the
refutation and the solution, in either game), ``generate``
(a new deep puzzle), ``endgame`` (the Omen endgame solver).
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.enumeration.hooks import return_bounds
from omen_solver.core.files import read_text
from omen_solver.core.game import CHANCE, SIMULTANEOUS
from omen_solver.core.processes import die_with_parent
from omen_solver.core.search import Concept, SolveResult, solve
from omen_solver.core.search.moves import MoveAnswer, MovesReport, MoveStatus
from omen_solver.errors import OmenSolverError, one_line
from omen_solver.omens.state import OmensState

__all__ = ["JOBS", "run_job"]

Send = Callable[[dict[str, Any]], None]

FIRST_PASS_SECONDS: Final = 0.1
"""The time each legal action gets in the first pass of ``moves``; each pass gives four times
more to the actions still unknown."""
PASS_GROWTH: Final = 4


def _limit_memory(megabytes: int | None) -> None:
    if megabytes is None:
        return
    cap = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def verdict(status: str, value: Fraction | None, lower: Fraction | None,
            upper: Fraction | None, low: Fraction, high: Fraction) -> str:
    """``won`` (the team's best return), ``lost`` (its worst), ``value`` (another exact
    value: an expectation, a share) or ``unknown``."""
    if status != "solved" or value is None:
        return "unknown"
    if value == high:
        return "won"
    if value == low:
        return "lost"
    return "value"


def _mover_team(state: OmensState) -> tuple[int, ...]:
    """The seats (from 1) of the team the values are given for: the team to act (The
    Absolute's player at its exchange; the first team at a chance node)."""
    player = state.current_player()
    if player == SIMULTANEOUS:
        player = state.acting_players()[0]
    elif player == CHANCE or player < 0:
        player = state.teams()[0][0]
    return tuple(seat + 1 for seat in state.teams()[state.team_of(player)])


def _concept(state: OmensState, asked: str | None) -> Concept:
    if len(state.teams()) == 2:
        return Concept.MINIMAX
    return Concept(asked) if asked in ("maxn", "paranoid") else Concept.PARANOID


def _answer(result: SolveResult, low: Fraction, high: Fraction) -> dict[str, Any]:
    """A solve's answer for the page; ``moves``: every root move with what is proven, and an
    estimate (never a proof) for each one left open where the evaluation ran."""
    return {
        "status": result.status.value,
        "verdict": verdict(result.status.value, result.value, result.lower, result.upper,
                           low, high),
        "value": _text(result.value),
        "lower": _text(result.lower if result.lower is not None else low),
        "upper": _text(result.upper if result.upper is not None else high),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "line": list(result.principal_variation),
        "note": result.note,
        "moves": [move.to_json() for move in result.moves],
        **({"evaluation": result.extra["evaluation"]} if "evaluation" in result.extra else {}),
    }


def _terminal_answer(state: OmensState, team: tuple[int, ...], low: Fraction,
                     high: Fraction) -> dict[str, Any]:
    index = state.teams().index(tuple(seat - 1 for seat in team))
    value = state.team_returns()[index]
    return {"status": "solved", "verdict": verdict("solved", value, value, value, low, high),
            "value": str(value), "lower": str(value), "upper": str(value), "nodes": 0,
            "seconds": 0.0, "line": [], "note": None, "moves": []}


def _board_state(payload: dict[str, Any]) -> OmensState:
    from omen_solver.web.library import load_board

    return load_board(payload["position"], payload.get("moves", [])).state


def _bounds(state: OmensState) -> tuple[Fraction, Fraction]:
    """The game's bounds on every team's result (its descriptor's: 0 and 1)."""
    bounds = return_bounds(state)
    assert bounds is not None, "Omens declares its return bounds"
    return bounds


def job_moves(payload: dict[str, Any], seconds: float, send: Send) -> None:
    """The value of every legal action for the team to act, refined pass after pass until
    each is exact or the time is up."""
    state = _board_state(payload)
    if state.is_terminal():
        send({"type": "done", "status": "solved", "reason": "the position is over"})
        return
    team = _mover_team(state)
    concept = _concept(state, payload.get("concept"))
    low, high = _bounds(state)
    moves = state.moves()
    texts = [state.action_to_string(move) for move in moves]
    send({"type": "start", "moves": texts, "team": list(team), "concept": concept.value,
          "seconds": seconds})
    if _per_move_search(state, team, concept, seconds, low, high, send):
        return
    deadline = time.monotonic() + seconds
    open_moves = list(range(len(moves)))
    answers: dict[int, dict[str, Any]] = {}
    per_move = FIRST_PASS_SECONDS
    passes = 0
    while open_moves and time.monotonic() < deadline:
        passes += 1
        for index in list(open_moves):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            child = state.child(moves[index])
            if child.is_terminal():
                answer = _terminal_answer(child, team, low, high)
            else:
                result = solve(child, concept=concept, team=team,
                               budget=Budget(max_seconds=min(per_move, left)))
                answer = _answer(result, low, high)
            answer["line"] = [texts[index], *answer["line"]]
            answers[index] = answer
            if answer["status"] == "solved":
                open_moves.remove(index)
            send({"type": "move", "move": texts[index], "pass": passes, **answer})
        per_move *= PASS_GROWTH
    solved = not open_moves
    summary: dict[str, Any] = {"type": "done", "status": "solved" if solved else "unknown",
                               "passes": passes}
    if solved:
        best_value = max(Fraction(answers[i]["value"]) for i in answers)
        best = [texts[i] for i in sorted(answers) if Fraction(answers[i]["value"]) == best_value]
        summary.update(value=str(best_value), best=best,
                       line=answers[texts.index(best[0])]["line"],
                       verdict=verdict("solved", best_value, None, None, low, high))
    else:
        summary["reason"] = f"time limit of {seconds:g} s reached"
    send(summary)


def _move_message(answer: MoveAnswer, turn: int, low: Fraction,
                  high: Fraction) -> dict[str, Any]:
    settled = answer.status is not MoveStatus.UNKNOWN
    verdict_of = {MoveStatus.WON: "won", MoveStatus.LOST: "lost", MoveStatus.EXACT: "value"}
    message: dict[str, Any] = {
        "type": "move", "move": answer.action, "pass": turn,
        "status": "solved" if settled else "unknown",
        "verdict": verdict_of.get(answer.status, "unknown"),
        "value": _text(answer.value),
        "lower": _text(answer.lower if answer.lower is not None else low),
        "upper": _text(answer.upper if answer.upper is not None else high),
        "nodes": answer.nodes, "same_as": answer.same_as, "line": []}
    if answer.estimate is not None and not settled:
        # the shared contract of an estimate (docs/estimates.md): never a proof
        message["estimate"] = answer.estimate.to_json()
    return message


def _per_move_search(state: OmensState, team: tuple[int, ...], concept: Concept,
                     seconds: float, low: Fraction, high: Fraction, send: Send) -> bool:
    """The solver's own per-move answers (``solve(per_move=True)``), streamed after every
    turn of its search, with an estimate for each move the exact searches leave open; False
    where it gives none (a chance root), for the fallback."""
    sent: dict[str, dict[str, Any]] = {}

    def report(snapshot: MovesReport) -> None:
        for answer in snapshot.moves:
            message = _move_message(answer, snapshot.turn, low, high)
            if sent.get(answer.action) != message:
                sent[answer.action] = message
                send(message)

    result = solve(state, concept=concept, team=team, budget=Budget(max_seconds=seconds),
                   per_move=True, report=report, estimate=True)
    if not result.moves:
        return False
    for answer in result.moves:
        message = _move_message(answer, 0, low, high)
        if answer.action == (result.best_actions[:1] or [None])[0]:
            message["line"] = list(result.principal_variation)
        send(message)
    summary: dict[str, Any] = {"type": "done", "status": result.status.value,
                               "search": "per-move", "nodes": result.nodes}
    if result.solved and result.value is not None:
        summary.update(value=str(result.value), best=list(result.best_actions),
                       line=list(result.principal_variation),
                       verdict=verdict("solved", result.value, None, None, low, high))
    else:
        summary["reason"] = f"time limit of {seconds:g} s reached"
        if any(answer.estimate is not None and not answer.settled for answer in result.moves):
            summary["reason"] += ("; each open action has an estimate: a win rate from "
                                  "playouts, not a proof")
            summary["evaluation"] = result.extra.get("evaluation")
    send(summary)
    return True


def job_solve(payload: dict[str, Any], seconds: float, send: Send) -> None:
    """One position, solved once for the team to act (or ``team``)."""
    state = _board_state(payload)
    team = tuple(payload.get("team") or _mover_team(state))
    concept = _concept(state, payload.get("concept"))
    low, high = _bounds(state)
    if state.is_terminal():
        send({"type": "result", **_terminal_answer(state, team, low, high)})
        return
    result = solve(state, concept=concept, team=team, budget=Budget(max_seconds=seconds),
                   estimate=True)
    send({"type": "result", "team": list(team), "concept": concept.value,
          "best": list(result.best_actions), **_answer(result, low, high)})


def _explained_line(state: Any, line: Sequence[str]) -> list[dict[str, Any]]:
    steps = []
    for text in line:
        by = state.current_player()
        state, log = state.explain(text)
        steps.append({"move": text, "by": by + 1 if by >= 0 else None,
                      "steps": [{"rule": s.rule, "text": s.text} for s in log]})
    return steps


def _puzzle_state(payload: dict[str, Any]) -> Any:
    """The position of a puzzle (either game), its own moves played."""
    from omen_solver.web.trainer import loaded_state

    return loaded_state(payload["position"], payload["game"])


def job_puzzle(payload: dict[str, Any], seconds: float, send: Send) -> None:
    """A move in a puzzle judged: right or wrong against the stated answer (the solver
    decides when the file does not say), the line after it explained (when wrong: the
    refutation), and, unless it is wrong, every optimal move and the solution line. Without
    a move: the solution alone."""
    from omen_solver.web.trainer import parse_move, stated_judgement

    state = _puzzle_state(payload)
    move = payload.get("move")
    team = tuple(payload["team"])
    concept = _concept(state, payload.get("concept"))
    low, high = _bounds(state)
    stated = payload.get("answer", {})
    deadline = time.monotonic() + seconds

    def left() -> float:
        return max(0.05, deadline - time.monotonic())

    reply: dict[str, Any] = {"type": "result", "best": [], "root": None, "solution": []}
    right: bool | None = None
    if move is not None:
        action = parse_move(state, move)
        canonical = state.action_to_string(action)
        right = stated_judgement(canonical, stated)
        after = state.child(action)
        if after.is_terminal():
            answer = _terminal_answer(after, team, low, high)
        else:
            # the position searched whole: its line is the refutation the commentaries follow
            answer = _answer(solve(after, concept=concept, team=team, per_move=False,
                                   budget=Budget(max_seconds=left())), low, high)
        reply.update(move=canonical, value=answer["value"], verdict=answer["verdict"],
                     line=_explained_line(state, [canonical, *answer["line"]]))
    if right is not False:
        # the solution is shown once the puzzle is solved, or when asked for
        root = solve(state, concept=concept, team=team, budget=Budget(max_seconds=left()))
        solution = list(root.principal_variation) if root.solved else []
        reply.update(best=list(stated.get("best_actions") or root.best_actions),
                     root=_answer(root, low, high), solution=_explained_line(state, solution))
        if move is not None and right is None and root.solved and answer["status"] == "solved":
            right = root.value is not None and Fraction(answer["value"]) == root.value
    if move is not None:
        reply["right"] = right
    send(reply)


def job_lines(payload: dict[str, Any], seconds: float, send: Send) -> None:
    """The line of each asked legal action: its position solved whole, best play on both
    sides after it (the per-move search proves each action's value but keeps the line of
    the best one only). Each line is sent as it is found, the most promising first."""
    state = _board_state(payload)
    team = _mover_team(state)
    concept = _concept(state, payload.get("concept"))
    low, high = _bounds(state)
    deadline = time.monotonic() + seconds
    legal = {state.action_to_string(move): move for move in state.moves()}
    for text in payload.get("candidates", []):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        if text not in legal:
            continue
        child = state.child(legal[text])
        if child.is_terminal():
            answer = _terminal_answer(child, team, low, high)
        else:
            answer = _answer(solve(child, concept=concept, team=team, per_move=False,
                                   budget=Budget(max_seconds=left)), low, high)
        send({"type": "line", "move": text, "status": answer["status"],
              "verdict": answer["verdict"], "value": answer["value"],
              "line": [text, *answer["line"]] if answer["status"] == "solved" else []})
    send({"type": "done", "status": "solved"})


def job_generate(payload: dict[str, Any], seconds: float, send: Send) -> None:
    """A new deep puzzle from seeded random deals (docs/puzzles.md, "Deep puzzles")."""
    from omen_solver.omens.deals import DealKind
    from omen_solver.puzzles.deep import DeepRecipe, generate_deep, write_deep_puzzle

    players = int(payload.get("players", 4))
    recipe = DeepRecipe(players=players, deal=DealKind(payload.get("deal", "start")),
                        count=1, seed=int(payload.get("seed", 0)),
                        max_deals=int(payload.get("max_deals", 40)),
                        budget=Budget(max_nodes=400_000, max_seconds=seconds))
    recipe.check()
    found, tally = generate_deep(recipe)
    if not found:
        send({"type": "result", "found": False, "tally": tally})
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzle.toml"
        write_deep_puzzle(found[0], path)
        text = read_text(path)
    send({"type": "result", "found": True, "toml": text, "tally": tally})


def job_endgame(payload: dict[str, Any], seconds: float, send: Send) -> None:
    """The Omen endgame solver on a position from the request, searched as the position's
    ``[search]`` table asks (its turn limit, draws and reductions), as ``omen endgame`` does."""
    from omen_solver.omen.endgame import EndgameSettings, solve_endgame
    from omen_solver.web.omen import load_omen

    state, _, _ = load_omen(payload["position"], payload.get("moves", []))
    seat = payload.get("seat")
    settings = state.search or EndgameSettings()
    result = solve_endgame(state, seat=seat, turns=settings.turns, draws=settings.draws,
                           reductions=settings.reductions, budget=Budget(max_seconds=seconds))
    data = result.to_json()
    send({"type": "result", **data})


JOBS: Final[dict[str, Callable[[dict[str, Any], float, Send], None]]] = {
    "moves": job_moves,
    "solve": job_solve,
    "puzzle": job_puzzle,
    "lines": job_lines,
    "generate": job_generate,
    "endgame": job_endgame,
}


def run_job(kind: str, payload: dict[str, Any], seconds: float, memory_mb: int | None,
            output: IO[str]) -> None:
    """Run one job and write its news to ``output``, one JSON object a line."""
    _limit_memory(memory_mb)

    def send(message: dict[str, Any]) -> None:
        output.write(json.dumps(message) + "\n")
        output.flush()

    try:
        JOBS[kind](payload, seconds, send)
    except MemoryError:
        send({"type": "error", "status": "unknown",
              "error": f"memory limit of {memory_mb} MiB reached: the answer is unknown"})
    except (OmenSolverError, ValueError) as error:
        send({"type": "error", "error": one_line(error)})
    except Exception as error:  # pragma: no cover - reported, never hidden
        send({"type": "error", "error": f"internal error: {one_line(repr(error))}"})


def main() -> None:
    """``python -m omen_solver.web.worker``: one job, read as one JSON line from stdin. It
    ends with the server that started it (the job's ``parent``), however the server ends."""
    job = json.loads(sys.stdin.readline())
    die_with_parent(job.get("parent"))
    run_job(job["kind"], job["payload"], float(job["seconds"]), job.get("memory_mb"),
            sys.stdout)


if __name__ == "__main__":
    main()
