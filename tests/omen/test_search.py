"""The game-agnostic enumeration and search code runs on Omen unchanged.

The example positions of ``puzzles/omen`` are best-play puzzles (``docs/puzzles.md``): the
last turn of a game, or the last two (their ``[search]`` table says how many turns), with
their stated answers explained in each file from the rulebooks. ``puzzles check`` confirms
them with the Omen endgame search (``docs/omen-endgames.md``); on the last-turn ones the generic
solver and the naive reference solver (no table, no pruning) agree with it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.enumeration import perft
from omen_solver.core.search import Budget, Status, naive_solve, solve
from omen_solver.errors import OptionError
from omen_solver.omen import load
from omen_solver.omen.endgame import solve_endgame

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omen"
SMALL = ["war-order.toml", "war-colossal.toml", "endgame-ishtar-gate-draw.toml",
         "endgame-draw-a-hoplite.toml"]
"""Puzzles the naive solver walks in well under a second."""


@pytest.mark.slow  # as docs/omen-endgames.md's `puzzles check puzzles/omen`
def test_every_omen_puzzle_agrees_with_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "check", str(PUZZLES)]) == 0
    out = capsys.readouterr().out
    assert "0 contradicted" in out and "0 unknown" in out


def test_small_omen_puzzles_agree_with_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    """The default tier's share of the check above: each stated answer of the small puzzles
    confirmed by ``puzzles check`` (docs/puzzles.md)."""
    for name in SMALL:
        assert main(["puzzles", "check", str(PUZZLES / name)]) == 0, name
        out = capsys.readouterr().out
        assert "0 contradicted" in out and "0 unknown" in out, (name, out)


def _agree(name: str) -> None:
    state = load(PUZZLES / name)
    fast = solve(state)
    slow = naive_solve(state, budget=Budget(max_nodes=3_000_000))
    endgame = solve_endgame(state, margin=False)
    assert fast.status == slow.status == endgame.status == Status.SOLVED
    assert fast.values == slow.values == endgame.values
    assert set(fast.best_actions) == set(endgame.best_actions)


@pytest.mark.parametrize("name", SMALL)
def test_the_naive_solver_agrees(name: str) -> None:
    _agree(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in PUZZLES.glob("*.toml")
                                         if not p.name.startswith("endgame-")
                                         or "[search]" not in p.read_text()))
def test_the_naive_solver_agrees_on_every_puzzle(name: str) -> None:
    _agree(name)


def test_perft_to_the_end_of_the_turn() -> None:
    state = load(PUZZLES / "war-colossal.toml")
    turn = perft(state, stop="turn").total
    assert turn is not None and turn.sequences > 0
    assert perft(state, stop="turn").total == turn  # deterministic
    step = perft(state, stop="step").total
    assert step is not None and step.sequences < turn.sequences
    with pytest.raises(OptionError, match="stopping point 'bout'"):
        perft(state, stop="bout")
