"""The generic commands on toy position files (docs/search.md, docs/puzzles.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from omen_solver import cli

POSITIONS = Path(__file__).parent / "data" / "positions"
PUZZLES = Path(__file__).parent / "data" / "puzzles"
GENERIC = ("perft", "graph", "solve", "puzzles")


@pytest.fixture(autouse=True)
def only_generic_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    # These tests exercise the generic commands alone, whatever the games' modules do.
    monkeypatch.setattr(cli, "COMMANDS", tuple(c for c in cli.COMMANDS if c.name in GENERIC))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_generic_commands_are_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    assert set(GENERIC) <= {command.name for command in cli.COMMANDS}


def test_perft_text_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", str(POSITIONS / "nim10.toml"), "--depth", "2",
                         "--divide")
    assert status == 0
    assert "sequences: 9 (9 of full depth, 0 ended earlier)" in out
    assert "distinct states: 9" in out
    assert "take1" in out and "take3" in out


def test_perft_json_to_a_stopping_point(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", str(POSITIONS / "nim10.toml"), "--to", "half",
                         "--json", "--divide")
    data = json.loads(out)
    assert status == 0
    assert (data["sequences"], data["to"], data["status"]) == (31, "half", "complete")
    assert sum(d["sequences"] for d in data["divide"].values()) == 31


def test_perft_without_divide_leaves_it_out_of_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "perft", str(POSITIONS / "gust3.toml"), "--json")
    data = json.loads(out)
    assert data["sequences"] == 6 and "divide" not in data


def test_perft_budget_is_unknown_with_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", str(POSITIONS / "nim10.toml"), "--max-nodes", "5",
                         "--no-merge")
    assert status == 1 and "unknown: node limit of 5 reached" in out


def test_unknown_stopping_point_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "perft", str(POSITIONS / "nim10.toml"), "--to", "round")
    assert status == 2 and "stopping point 'round'" in err and "known: half" in err


def test_missing_file_is_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "solve", str(tmp_path / "none.toml"))
    assert status == 2 and "none.toml: no such file" in err


@pytest.mark.parametrize("suffix", ["graphml", "dot", "svg"])
def test_graph_export(capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str) -> None:
    if suffix == "dot":
        pytest.importorskip("pydot")
    if suffix == "svg" and shutil.which("dot") is None:
        pytest.importorskip("matplotlib")
    out_path = tmp_path / f"tree.{suffix}"
    status, out, _ = run(capsys, "graph", str(POSITIONS / "gust3.toml"), "--out", str(out_path),
                         "--merge")
    assert status == 0 and out_path.stat().st_size > 0
    assert f"state graph as {suffix}" in out


def test_graph_too_large_is_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "graph", str(POSITIONS / "nim10.toml"), "--out",
                         str(tmp_path / "g.graphml"), "--max-nodes", "10")
    assert status == 2 and "more than 10 nodes" in err
    assert not (tmp_path / "g.graphml").exists()


def test_solve_puzzle_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", str(PUZZLES / "nim7-bounded.toml"), "--json")
    data = json.loads(out)
    assert status == 0
    assert data["question"] == "Can the team of seats 1 and 3, to move, win?"
    assert data["answer"] == [1, 3]
    assert data["best_actions"] == ["take3"]
    assert data["principal_variation"][0] == "take3"
    assert data["agrees"] is True and data["contradictions"] == []
    for key in ("nodes", "states", "seconds", "concept", "status", "value"):
        assert key in data


def test_solve_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", str(PUZZLES / "nim8.toml"))
    assert status == 0
    assert "answer: seats 2, 4 win (minimax; seats 1, 3: 0" in out
    assert "stated answer: agrees" in out


def test_solve_three_teams_needs_a_concept(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    position = tmp_path / "three.toml"
    position.write_text('game = "toy"\n[toy]\nkind = "coins"\nteams = [[0], [1], [2]]\n'
                        'coins = [1, 2, 3]\n')
    status, _, err = run(capsys, "solve", str(position))
    assert status == 2 and "3 teams" in err and "'maxn'" in err
    status, out, _ = run(capsys, "solve", str(position), "--concept", "paranoid", "--team", "2",
                         "--json")
    data = json.loads(out)
    assert status == 0
    assert data["answer"]["concept"] == "paranoid" and data["team"] == [2]


def test_solve_bad_team(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", str(PUZZLES / "nim8.toml"), "--team", "1,2")
    assert status == 2 and "--team: seats [1, 2] are not a team" in err


def test_solve_budget_is_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", str(POSITIONS / "nim10.toml"), "--max-nodes", "3",
                         "--json")
    data = json.loads(out)
    assert status == 1 and data["status"] == "unknown" and data["answer"] is None


def test_matrix_puzzle_reports_pure_values(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", str(PUZZLES / "pennies.toml"))
    assert status == 0
    assert "pure strategies: lower -1, upper 1" in out
    assert "no team is ahead" in out


def test_puzzles_check_all_agree(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "puzzles", "check", str(PUZZLES))
    assert status == 0, out
    assert "4 puzzles: 4 agree, 0 contradicted, 0 unknown, 0 unreadable" in out
    assert "coins3teams.toml" in out  # found below a nested folder


def copy_puzzles(tmp_path: Path) -> Path:
    target = tmp_path / "puzzles"
    shutil.copytree(PUZZLES, target)
    return target


def test_puzzles_check_fails_on_a_contradiction(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    folder = copy_puzzles(tmp_path)
    wrong = folder / "nim8.toml"
    wrong.write_text(wrong.read_text().replace('winner = [2, 4]', 'winner = [1, 3]'))
    status, out, _ = run(capsys, "puzzles", "check", str(folder))
    assert status == 1
    assert "CONTRADICTED" in out and "winner: stated [1, 3], solver found [2, 4]" in out


def test_puzzles_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "puzzles", "check", str(PUZZLES), "--json")
    rows = json.loads(out)
    assert status == 0 and {row["status"] for row in rows} == {"agrees"}
    assert all("principal_variation" in row for row in rows)


def test_puzzles_check_unknown_fails(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "puzzles", "check", str(PUZZLES), "--max-nodes", "2")
    assert status == 1 and "unknown" in out


def test_puzzles_check_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = copy_puzzles(tmp_path)
    (folder / "broken.toml").write_text(
        'game = "toy"\n[toy]\nkind = "nim"\npile = 3\n[puzzle]\nquestion = "?"\n'
        '[puzzle.answer]\nvalue = "one"\n'
    )
    status, _, err = run(capsys, "puzzles", "check", str(folder))
    assert status == 2
    assert "broken.toml: key 'puzzle.answer.value'" in err
    (folder / "broken.toml").write_text('game = "toy"\n[toy]\nkind = "nim"\npile = 3\n')
    status, _, err = run(capsys, "puzzles", "check", str(folder))
    assert status == 2 and "the [puzzle] table is missing" in err


def test_puzzles_check_empty_or_missing_folder(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    status, _, err = run(capsys, "puzzles", "check", str(tmp_path))
    assert status == 2 and "no puzzle files" in err
    status, _, err = run(capsys, "puzzles", "check", str(tmp_path / "nowhere"))
    assert status == 2 and "no such puzzle file or folder" in err


def test_bad_budgets_are_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        run(capsys, "solve", str(PUZZLES / "nim8.toml"), "--max-nodes", "0")
    assert refused.value.code == 2
    assert "'0': a node limit is a whole number from 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        run(capsys, "perft", str(POSITIONS / "nim10.toml"), "--max-seconds", "-3")
    assert exited.value.code == 2
    assert "'-3' is not a positive number of seconds" in capsys.readouterr().err


def test_answer_in_words_uses_seat_or_seats(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    duel = tmp_path / "duel.toml"
    duel.write_text('game = "toy"\n[toy]\nkind = "nim"\npile = 5\nteams = [[0], [1]]\n')
    _, out, _ = run(capsys, "solve", str(duel))
    assert "answer: seat 1 wins (minimax; seat 1: 1; team values 1, 0)" in out
    _, out, _ = run(capsys, "solve", str(duel), "--max-nodes", "2")
    # two nodes prove no bound on the pile's value: said in words, for one seat
    assert "answer: unknown: no bound on the value of seat 1 was proven within the budget" in out
