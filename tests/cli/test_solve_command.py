"""``omen-solver solve`` as an interactive tool (docs/search.md, "Command line"): every root
move in the answer and in --json, the budget said first, a position reached by --moves, a deal
written back as a position file with the same answer, what is proven when the budget runs out
or Ctrl-C stops the search.

The positions are seeded game-start deals (rules file 000, "Setup": one Absolute each, teams
and leader from them); their values come from the kernel, itself tested against the
reference solver (tests/omens_kernel/test_solve.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.cli import solve as solve_command
from omen_solver.core.search.moves import MovesReport

DEAL = ["--deal", "7", "--players", "4", "--cards", "3"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_json_answer_has_every_move_the_budget_and_the_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "solve", *DEAL, "--json")
    data = json.loads(out)
    assert status == 0 and data["status"] == "solved"
    assert data["budget"] == {"max_nodes": None, "max_seconds": 30.0}
    leader = data["deal"]["leader"]
    hand = data["deal"]["hands"][str(leader)]
    assert data["hands"] == data["deal"]["hands"]
    # every lead of the leader's hand is a move (an Absolute with each partner to exchange with)
    played = {move["action"].split(" ")[0] for move in data["moves"]}
    assert played == {f"{leader}:{card}" for card in hand}
    for move in data["moves"]:
        assert set(move) == {"action", "status", "value", "lower", "upper", "nodes"}
        assert move["status"] in ("won", "lost", "exact")
    best = [m["action"] for m in data["moves"] if m["value"] == data["value"]]
    assert sorted(best) == sorted(data["best_actions"])


def test_a_written_deal_reads_back_with_the_same_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    path = tmp_path / "deal.toml"
    status, out, _ = _run(capsys, "solve", *DEAL, "--moves", "3:5", "--write", str(path))
    assert status == 0 and f"written: {path}" in out and "after: 3:5" in out
    assert "the deal:" in out and "seat 3 leads" in out
    first = json.loads(_run(capsys, "solve", *DEAL, "--moves", "3:5", "--json")[1])
    again = json.loads(_run(capsys, "solve", str(path), "--json")[1])
    for key in ("value", "best_actions", "moves", "hands", "nodes"):
        assert again[key] == first[key], key
    assert first["played"] == ["3:5"]


def test_moves_are_checked_one_by_one(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "solve", *DEAL, "--moves", "3:5", "3:5")
    assert status == 2 and "--moves: move 2 '3:5'" in err
    status, _, err = _run(capsys, "solve", "puzzles/omens/law-and-wrath.toml", "--moves", "1:99")
    assert status == 2 and "--moves: move 1 '1:99'" in err  # a puzzle's what-if is checked too
    status, _, err = _run(capsys, "solve", "puzzles/omens/law-and-wrath.toml", "--write", "x")
    assert status == 2 and "--write" in err


def test_a_budget_that_runs_out_prints_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "solve", "--deal", "3", "--players", "4",
                            "--max-nodes", "2000")
    assert status == 1
    assert out.splitlines()[0].endswith("solving within 2000 nodes, 30 s")
    assert "answer: unknown: the value of seats 1, 4 lies in [0, 1]" in out
    assert "moves, best first for the side to move:" in out
    assert out.count("unknown") >= 7  # every lead of the leader's five cards, none settled
    assert "not expected within the budget" in err and "--moves" in err


def test_ctrl_c_prints_what_is_proven_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = solve_command.solve

    def interrupted(state: Any, **options: Any) -> Any:
        seen: list[MovesReport] = []

        def report(snapshot: MovesReport) -> None:
            options["report"](snapshot)
            seen.append(snapshot)
            if len(seen) == 3:
                raise KeyboardInterrupt

        return real(state, **{**options, "report": report})

    monkeypatch.setattr(solve_command, "solve", interrupted)
    # hands of 4: a search that is still running at its third report
    status, out, err = _run(capsys, "solve", *DEAL[:-1], "4")
    assert status == 130 and "interrupted" in err
    assert "interrupted: proven so far, the value lies in" in out
    assert "moves, best first for the side to move:" in out


def test_a_search_that_proved_no_bound_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """max^n proves a value only once its search ends: a budget that runs out first leaves no
    bound to print, and the answer says that in words (never "[?, ?]"); exit 1 (unknown)."""
    status, out, _ = _run(capsys, "solve", "--deal", "1", "--players", "6", "--concept",
                          "maxn", "--max-nodes", "2000")
    assert status == 1
    assert ("answer: unknown: no bound on the value of seats 3, 4 was proven within the budget"
            in out)
    assert "?" not in out
