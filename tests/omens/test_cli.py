"""``omen-solver omens ...``: output, JSON keys read by outside acceptance tests, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omen_solver.cli import main

EXAMPLE = """
# The rulebook's worked example (rules file 000, "How a Bout Is Resolved").
game = "omens"
players = 6
teams = [[1, 4], [2, 5], [3, 6]]
[hands]
1 = [24, 2]
2 = [18, 3]
3 = [4, 5]
4 = [8, 6]
5 = [11, 7]
6 = [19, 35]
[bout]
leader = 1
moves = ["1:24 ask 2", "2:shows 3", "2:18", "3:4", "4:8"]
"""


@pytest.fixture
def example(tmp_path: Path) -> Path:
    path = tmp_path / "example.toml"
    path.write_text(EXAMPLE, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_json(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omens", "legal", str(example), "--json")
    assert code == 0 and json.loads(out) == ["5:7", "5:11"]


def test_legal_text(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omens", "legal", str(example))
    assert code == 0 and "seat 5 to act" in out and "5:11" in out


def test_play_json_keys(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omens", "play", str(example), "--moves", "5:11", "6:19", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["bout_winner"] == 1
    assert report["discarded"] == [4, 11, 24]
    assert report["hands"] == {
        "1": [2],
        "2": [3, 18],
        "3": [5],
        "4": [6, 8],
        "5": [7],
        "6": [19, 35],
    }
    assert report["round_winner_team"] == [2, 5]
    assert report["next_leader"] == 5
    assert all({"rule", "text"} <= set(step) for step in report["trace"])
    assert {"bout.winner.highest", "card.colour.self"} <= {s["rule"] for s in report["trace"]}


def test_play_unfinished_bout_has_no_winner(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "omens", "play", str(example), "--json")
    report = json.loads(out)
    assert code == 0 and report["bout_winner"] is None and report["discarded"] == []
    assert report["next_leader"] is None and report["round_winner_team"] is None
    assert report["to_act"] == 5


def test_play_text_names_rules(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omens", "play", str(example), "--moves", "5:11", "6:19")
    assert code == 0
    assert "[bout.winner.highest]" in out and "round won by the team of seats 2 and 5" in out


def test_bad_move_exits_2(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "omens", "play", str(example), "--moves", "5:12")
    assert code == 2 and out == ""
    assert "--moves[1] (of 1): '5:12'" in err and "legal: 5:7, 5:11" in err


def test_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(EXAMPLE.replace("players = 6", "players = 3"), encoding="utf-8")
    code, _, err = run(capsys, "omens", "legal", str(path))
    assert code == 2 and str(path) in err and "key 'players'" in err
    code, _, err = run(capsys, "omens", "legal", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file" in err


def test_options_cards_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omens", "options", "--json")
    assert code == 0 and any(o["name"] == "fear_pass_on" for o in json.loads(out))
    code, out, _ = run(capsys, "omens", "cards", "--json")
    assert code == 0 and len(json.loads(out)) == 35
    code, out, _ = run(capsys, "omens", "rules")
    assert code == 0 and "bout.winner.mirror" in out
