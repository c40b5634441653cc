"""``omen-solver omen legal|play``: output, JSON keys, exit codes (2 with a message naming the
file and key on bad input)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from omen_solver.cli import main

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omen"
WAR = str(PUZZLES / "war-colossal.toml")
JSON_KEYS = {"step", "active_player", "coins", "hands", "cities", "scores", "game_over",
             "winner", "trace"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "omen", "legal", WAR, "--json")
    assert code == 0 and not err
    assert json.loads(out) == ["keep 2@1:augur", "keep 2@1:hoplite", "keep 2@1:spearman"]


def test_legal_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omen", "legal", WAR)
    assert code == 0 and "seat 2 to act (war step, turn 27)" in out and "keep 2@1:augur" in out


def test_a_chance_node(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    moves = ["keep 2@1:augur", "keep 2@1:hoplite", "offer seer", "take card"]
    code, out, _ = run(capsys, "omen", "play", WAR, "--moves", *moves, "--json")
    report = json.loads(out)
    assert code == 0 and report["to_act"] == "chance"
    assert report["legal"] and all(a.startswith("draw ") for a in report["legal"])
    path = tmp_path / "chance.toml"
    path.write_text((PUZZLES / "war-colossal.toml").read_text().replace(
        'profile = "reign-of-war"', f'profile = "reign-of-war"\nmoves = {json.dumps(moves)}'))
    code, out, _ = run(capsys, "omen", "legal", str(path))
    assert code == 0 and "chance to act" in out and "draw hoplite  3/41" in out


def test_play_json_keys_and_trace(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "omen", "play", WAR, "--moves", "keep 2@1:augur",
                         "keep 2@1:hoplite", "--json")
    assert code == 0 and not err
    report = json.loads(out)
    assert set(report) >= JSON_KEYS
    assert report["step"] in ("offering", "wealth")
    assert report["hands"]["1"] == ["seer"]
    assert report["cities"][0]["seat1"] == ["hoplite"]
    assert report["cities"][0]["seat2"] == ["augur", "hoplite"]
    assert report["scores"] == {"1": 2, "2": 2}
    assert report["game_over"] is False and report["winner"] is None
    rules = [step["rule"] for step in report["trace"]]
    assert {"war.torn", "war.reward", "war.keep", "destroy.war", "action"} <= set(rules)
    assert all(step["text"] for step in report["trace"])


def test_play_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "omen", "play", WAR, "--moves", "keep 2@1:augur; keep 2@1:hoplite")
    assert code == 0
    assert "[war.reward] seat 1 wins city 1 and takes the Reward ambrosia" in out
    assert "> seat 2: keep 2@1:augur" in out


def test_a_finished_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "end.toml"
    path.write_text(
        'game = "omen"\n[turn]\nstep = "offering"\n[seat.1]\nfeats = ["hoard"]\n'
        + '[[city]]\nrewards = []\n' * 3)
    code, out, _ = run(capsys, "omen", "play", str(path), "--json")
    report = json.loads(out)
    assert code == 0 and report["game_over"] is True and report["winner"] == 1
    assert report["step"] == "game-over" and report["legal"] == []
    assert any(step["rule"] == "game.end" for step in report["trace"])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("omen", "play", WAR, "--moves", "keep 2@1:cyclops"),
         "--moves[1] (of 1): 'keep 2@1:cyclops'"),
        (("omen", "play", WAR, "--moves", "jump"), "unknown verb 'jump'"),
        (("omen", "legal", "no-such-file.toml"), "no-such-file.toml: no such file"),
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                           expected: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and not out and expected in err


def test_bad_files_exit_2_naming_the_key(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    cases = {
        "game.toml": ('game = "omens"\n', "key 'game'"),
        "rules.toml": ('game = "omen"\n[rules]\nhand_limit = "6"\n', "rules.hand_limit"),
        "moves.toml": ('game = "omen"\nmoves = ["play hoplite 9"]\n'
                       + "[[city]]\nrewards = []\n" * 3,
                       "'9' is not a city"),
        "city.toml": ('game = "omen"\n[[city]]\nrewards = []\nseat1 = ["dragon"]\n'
                      + "[[city]]\nrewards = []\n" * 2,
                      "city[0].seat1[0]"),
        "toml.toml": ('game = "omen"\n[turn\n', "not valid TOML"),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        code, out, err = run(capsys, "omen", "play", str(path))
        assert code == 2 and not out, name
        assert str(path) in err and expected in err, err


def test_the_installed_command(tmp_path: Path) -> None:
    """The console script, as a user runs it."""
    done = subprocess.run([sys.executable, "-m", "omen_solver", "omen", "legal", WAR, "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)[0] == "keep 2@1:augur"
    bad = subprocess.run([sys.executable, "-m", "omen_solver", "omen", "legal",
                          str(tmp_path / "missing.toml")], capture_output=True, text=True,
                         check=False)
    assert bad.returncode == 2 and "missing.toml" in bad.stderr


def test_profiles_and_cards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "omen", "profiles", "--json")
    report = json.loads(out)
    assert code == 0 and set(report["profiles"]) >= {"reign-of-war", "omega",
                                                        "fires-in-the-east"}
    r1 = next(o for o in report["options"] if o["name"] == "war_trigger")
    assert r1["profiles"]["omega"] == "active" and r1["question"] == "R1"
    code, out, _ = run(capsys, "omen", "cards", "--json")
    cards = json.loads(out)
    assert code == 0 and {c["id"] for c in cards} >= {"bazaar-elder", "marduks-decree"}
    bad = tmp_path / "bad.toml"
    bad.write_text('[[unit]]\nid = "x"\n')
    code, out, err = run(capsys, "omen", "cards", str(bad))
    assert code == 2 and not out and "bad.toml: unit 'x': field 'origin': missing" in err


def test_the_json_shows_every_source_of_points(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """VP tokens and RITUAL Priestesses (004 Priestesses), Challenges (001 Zeus' Challenge),
    Feats done and rotated, Relics and their owners (001 Relics of Olympus) are shown, not only
    summed into the scores."""
    path = tmp_path / "olympus.toml"
    path.write_text(
        'game = "omen"\nprofile = "omega-olympus"\n[turn]\nstep = "offering"\nnumber = 9\n'
        '[seat.1]\nfeats = ["hoard"]\nfeats_rotated = ["full-city"]\nchallenges = ["siege"]\n'
        '[seat.2]\nfeats = ["hoard"]\n'
        '[[city]]\nrewards = ["ambrosia"]\nrelic = "aegis"\nrelic_seat = 2\n'
        '[[city]]\nrewards = ["thunderbolt"]\n[[city]]\nrewards = []\n[deck]\nshuffled = []\n'
        '[pool]\nrewards = []\n')
    code, out, _ = run(capsys, "omen", "play", str(path), "--json")
    report = json.loads(out)
    assert code == 0
    assert report["feats"] == {"1": ["hoard"], "2": ["hoard"]}
    assert report["feats_rotated"] == {"1": ["full-city"], "2": []}
    assert report["challenges"] == {"1": ["siege"], "2": []}
    assert report["cities"][0]["relic"] == "aegis" and report["cities"][0]["relic_seat"] == 2
    assert report["score_breakdown"]["2"]["relics"] == 1
    assert "aegis" not in report["left"]["relics"] and "siege" not in report["left"]["challenges"]
    fires = run(capsys, "omen", "play", str(PUZZLES / "war-order.toml"), "--json")[1]
    report = json.loads(fires)
    assert report["vp_tokens"] == {"1": 1, "2": 0}
    assert report["rituals"] == {"1": ["sun-priestess"], "2": []}
    assert report["left"]["vp_tokens"] == 5
    text = run(capsys, "omen", "play", str(PUZZLES / "war-order.toml"))[1]
    assert "RITUAL Priestesses sun-priestess; VP tokens 1" in text


def test_explain_gives_the_successor_and_its_rule_steps() -> None:
    """``OmenState.explain``, as for Omens: the next state and the trace of the action."""
    from omen_solver.omen import load

    state = load(PUZZLES / "war-order.toml")
    following, steps = state.explain("war 1")
    assert following == state.child(state.string_to_action("war 1"))
    assert steps[0].rule == "war.torn"
    assert any(step.rule == "war.reward" and "seat 2 wins city 1" in step.text for step in steps)
