"""Every command that takes a position takes its one-line text (docs/position-text.md): a
newcomer copies a state's ``repr`` or ``to_text()`` and pastes it into ``solve --position``,
``omens play``, ``omen legal``, ``perft``, ``graph`` or ``advise``; cards may be named; a bad
text exits 2 with one line naming the text's key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import omen_solver
from omen_solver.cli import main

ROOT = Path(__file__).resolve().parents[2]
HARMONY = ROOT / "puzzles/omens/harmony.toml"
WAR = ROOT / "puzzles/omen/war-order.toml"
START = "omens 7,15,30/3,9,28/12,13,22/5,14,26 teams=1,3/2,4 lead=1"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_repr_pasted_into_solve_position_is_the_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    state = omen_solver.load(HARMONY)
    by_file = json.loads(_run(capsys, "solve", str(HARMONY), "--json")[1])
    for pasted in (repr(state), state.to_text()):
        status, out, _ = _run(capsys, "solve", "--position", pasted, "--json")
        answer = json.loads(out)
        assert status == 0
        for key in ("value", "best_actions", "moves"):
            assert answer[key] == by_file[key]
    status, out, _ = _run(capsys, "solve", state.to_text())  # as the first argument too
    assert status == 0 and "best actions: " in out


def test_solve_position_refuses_a_file_or_both(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:  # refused by the argument's reader
        main(["solve", "--position", str(HARMONY)])
    assert exited.value.code == 2 and "is not a position's text" in capsys.readouterr().err
    status, _, err = _run(capsys, "solve", str(HARMONY), "--position", START)
    assert status == 2 and "not both" in err


def test_omens_play_takes_a_text_and_card_names(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/omens-notation.md: a card may be written by its name, in any case."""
    status, out, _ = _run(capsys, "omens", "play", START, "--moves", "1:Law lower", "2:lie")
    assert status == 0 and "1:15 lower" in out and "2:9" in out
    status, out, _ = _run(capsys, "omens", "legal", START.replace("7,15,30", "spring,LAW,30"))
    assert status == 0 and "1:15 lower" in out


def test_omen_commands_take_a_text(capsys: pytest.CaptureFixture[str]) -> None:
    text = omen_solver.load(WAR).to_text()
    status, out, _ = _run(capsys, "omen", "legal", text)
    assert status == 0 and "war 1" in out
    status, out, _ = _run(capsys, "omen", "play", text, "--moves", "War 1")
    assert status == 0 and "war.torn" in out


def test_perft_graph_and_advise_take_a_text(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    small = "omens 7,15/3,9/12,13/5,14 teams=1,3/2,4 lead=1"
    status, out, _ = _run(capsys, "perft", small, "--depth", "3")
    assert status == 0 and "sequences: 12" in out
    status, _, _ = _run(capsys, "graph", small, "--depth", "2", "--out",
                        str(tmp_path / "g.dot"))
    assert status == 0 and (tmp_path / "g.dot").exists()
    status, out, _ = _run(capsys, "advise", small, "--max-seconds", "5")
    assert status in (0, 1) and "1:" in out


@pytest.mark.parametrize(("text", "message"), [
    (START.replace("lead=1", "lead=9"), "key 'lead': expected a whole number from 1 to 4"),
    (START + " fear_pass_on=maybe", "key 'fear_pass_on': unknown setting 'maybe'"),
    (START.replace("7,15,30", "7,Lw,30"), "no card is named 'Lw'; did you mean 'Law'?"),
    (START + " colour=red", "'colour' is not a key of a position's text"),
])
def test_a_bad_text_exits_2_naming_the_key(capsys: pytest.CaptureFixture[str], text: str,
                                           message: str) -> None:
    status, _, err = _run(capsys, "solve", "--position", text)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err
