"""Omen endgames to the end of the game: no book limits the length of an Omen game (rule
option ``max_turns``, "none": "No book limits the length of a game"), so a search to the end
can meet a line that never ends. It is followed on the searches' own stacks to
``MAX_DEPTH`` actions and answered "unknown" with the reason and what to do (search a number
of turns), never a ``RecursionError``; and the web board's endgame worker searches the turns
the position file asks for (its ``[search]`` table), as ``omen endgame`` does.

The position: ``puzzles/omen/endgame-a-beast-counts-two.toml`` (003 Scoring: "2 of the 3 City
Reward Card stacks are depleted" ends the game; past its two turns both seats can go on
taking Wealth actions for ever)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Status
from omen_solver.core.enumeration.perft import perft
from omen_solver.core.search import naive_solve, solve
from omen_solver.core.walk import MAX_DEPTH
from omen_solver.omen import load, solve_endgame
from omen_solver.web.worker import run_job
from tests.frames import few_frames

ROOT = Path(__file__).resolve().parents[2]
ENDLESS = ROOT / "puzzles" / "omen" / "endgame-a-beast-counts-two.toml"
DEEP = f"{MAX_DEPTH:,} actions deep"


@pytest.mark.slow
def test_the_endgame_search_to_the_end_of_an_endless_game_is_unknown() -> None:
    """``solve_endgame(state)`` with its defaults (to the end of the game)."""
    state = load(ENDLESS)
    with few_frames():
        result = solve_endgame(state)
    assert result.status is Status.UNKNOWN
    assert result.note is not None and DEEP in result.note and "turns" in result.note
    assert (result.lower, result.upper) == (0, 1)


def test_the_position_files_turns_answer_it() -> None:
    """The same position over the two turns its ``[search]`` table asks for: seat 1 wins."""
    state = load(ENDLESS)
    assert state.search is not None and state.search.turns == 2
    result = solve_endgame(state, turns=state.search.turns, margin=False)
    assert result.status is Status.SOLVED and result.value == 1
    assert result.best_actions == ("play harpy 1",)


def test_the_command_says_unknown_with_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    """``omen endgame FILE --turns end``: the same search from the command line."""
    with few_frames(200):
        code = main(["omen", "endgame", str(ENDLESS), "--turns", "end"])
    out, err = capsys.readouterr()
    assert code == 1
    assert DEEP in out and "--turns N" in out
    assert "Traceback" not in out + err


def test_the_web_worker_searches_the_turns_the_file_asks_for() -> None:
    """The board's "Endgame solver" sends the position's text; the worker reads its
    ``[search]`` table (two turns here: to the end of the game the search would not end)
    and answers, as ``omen endgame FILE`` does."""
    output = io.StringIO()
    path = ROOT / "puzzles" / "omen" / "endgame-decree-ends-it.toml"
    payload = {"position": _tables(path), "moves": [], "seat": None}
    run_job("endgame", payload, 60.0, None, output)
    answer = json.loads(output.getvalue().splitlines()[-1])
    assert answer["type"] == "result", answer
    assert answer["status"] == "solved"
    assert answer["endgame"]["turns"] == 2 and answer["endgame"]["margin"]["status"] == "solved"


@pytest.mark.slow
def test_every_reference_walk_on_an_endless_game_is_unknown() -> None:
    """The reference searches (minimax, max-n, the naive walk) and perft to the end of the
    game, on the same line: each stops at ``MAX_DEPTH`` plies, "unknown"."""
    state = load(ENDLESS)
    with few_frames():
        results = [solve(state, engine="reference"), solve(state, concept="maxn",
                                                             engine="reference"),
                   naive_solve(state)]
        counted = perft(state)
    for result in results:
        assert result.status is Status.UNKNOWN
        assert result.note is not None and DEEP in result.note
    assert counted.status is Status.UNKNOWN and DEEP in (counted.reason or "")


def _tables(path: Path) -> dict[str, object]:
    import tomllib

    return tomllib.loads(path.read_text(encoding="utf-8"))
