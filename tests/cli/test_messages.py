"""Smaller messages that said too little or too much: each names what went wrong, once."""

from __future__ import annotations

from pathlib import Path

import pytest

from omen_solver import cli
from omen_solver.cli import EXIT_CODES

ROOT = Path(__file__).resolve().parents[2]
HARMONY = ROOT / "puzzles" / "omens" / "harmony.toml"
WORKED = ROOT / "docs" / "examples" / "omens" / "worked-example.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exited:
        code = int(exited.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_unknown_stopping_point_lists_the_known_ones_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "perft", str(HARMONY), "--to", "xyz")
    assert code == 2
    assert err == "omen-solver: error: stopping point 'xyz': unknown; known: bout, round\n"


def test_graph_errors_name_the_file_asked_for(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """Not the temporary ``.x.graphml.part`` file the graph is written through."""
    target = tmp_path / "missing" / "x.graphml"
    code, _, err = run(capsys, "graph", str(HARMONY), "--out", str(target))
    assert code == 2 and ".part" not in err
    assert f"{target}: cannot be written: no folder {target.parent}" in err
    code, _, err = run(capsys, "graph", str(HARMONY), "--out", str(tmp_path))
    assert code == 2 and f"{tmp_path}: is a folder; give a file name" in err
    assert list(tmp_path.iterdir()) == []


def test_a_card_file_entry_that_is_a_folder_names_the_key(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    position = tmp_path / "position.toml"
    position.write_text('game = "omen"\ncards = ["."]\n')
    code, _, err = run(capsys, "omen", "legal", str(position))
    assert code == 2
    assert f"{position}: key 'cards': {tmp_path}: is a folder, not a file" in err


def test_puzzles_generate_says_why_it_found_none(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    code, out, _ = run(capsys, "puzzles", "generate", str(tmp_path / "out"), "--kind",
                       "only-lead", "--lead", "14", "--pool", "4,9,12,14")
    assert code == 1
    assert "0 puzzles written from 0 candidate deals: no deal satisfies the card " in out
    assert "loosen them" in out
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("game", "position", "moves", "expected"),
    [
        ("omens", WORKED, ["5:11", "6:99"], "--moves[2] (of 2): '6:99' is not legal here"),
        ("omen", ROOT / "puzzles" / "omen" / "war-order.toml", ["war 1", "jump 1"],
         "--moves[2] (of 2): 'jump 1': unknown verb 'jump'"),
    ],
)
def test_a_bad_move_is_named_by_its_place_and_text_once(
    capsys: pytest.CaptureFixture[str], game: str, position: Path, moves: list[str],
    expected: str,
) -> None:
    code, out, err = run(capsys, game, "play", str(position), "--moves", *moves)
    assert code == 2 and out == ""
    assert err.startswith(f"omen-solver: error: {expected}")
    assert err.count(repr(moves[-1])) == 1


def test_exit_statuses_are_in_every_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert [code for code, _ in EXIT_CODES] == [0, 1, 2, 130, 143, 141]
    for argv in (["--help"], ["perft", "--help"], ["omens", "play", "--help"],
                 ["puzzles", "check", "--help"], ["omen", "cards", "--help"]):
        code, out, _ = run(capsys, *argv)
        text = " ".join(out.split())
        assert code == 0
        assert "exit status: 0 success; 1 a negative or unknown answer" in text, argv
        assert "2 bad input" in text and "130 interrupted" in text, argv
        assert "143 terminated (SIGTERM)" in text, argv


def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "perft", str(HARMONY), "--depth", "５")
    assert code == 2
    assert err == (
        "omen-solver perft: error: argument --depth: '５' is not a whole number 0 or more "
        "(see 'omen-solver perft --help')\n"
    )


def test_an_unknown_action_in_a_stated_answer_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """best_actions_exclude with a typo used to "agree" (nothing to exclude); it names the key
    and the legal actions now (docs/puzzles.md)."""
    text = HARMONY.read_text(encoding="utf-8")
    puzzle = tmp_path / "typo.toml"
    puzzle.write_text(text.split("[puzzle.answer]")[0]
                      + '[puzzle.answer]\nbest_actions_exclude = ["4:99"]\n', encoding="utf-8")
    for argv in (["solve", str(puzzle)], ["puzzles", "check", str(tmp_path)]):
        code, _, err = run(capsys, *argv)
        assert code == 2, argv
        assert "key 'puzzle.answer.best_actions_exclude[1]': '4:99' is not a legal action" in err


DRAW = ROOT / "puzzles" / "omen" / "endgame-draw-a-hoplite.toml"
KEEP = ROOT / "puzzles" / "omen" / "endgame-keep-to-hold.toml"


@pytest.mark.parametrize(("replace", "expected"), [
    (('seat1 = ["hoplite", "hoplite"]', 'seat1 = ["hoplit", "hoplite"]'),
     "key 'city[0].seat1[0]': 'hoplit' is not in the card catalogue; did you mean 'hoplite'?"),
    (('rewards = ["ambrosia"]', 'rewards = ["ambrosa"]'),
     "key 'city[0].rewards[0]': 'ambrosa' is not in the card catalogue; did you mean "
     "'ambrosia'?"),
])
def test_a_misspelt_card_gets_the_closest_names(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path, replace: tuple[str, str],
                                                expected: str) -> None:
    position = tmp_path / "position.toml"
    text = DRAW.read_text(encoding="utf-8")
    assert replace[0] in text
    position.write_text(text.replace(*replace), encoding="utf-8")
    code, _, err = run(capsys, "omen", "legal", str(position))
    assert (code, err) == (2, f"omen-solver: error: {position}: {expected}\n")


@pytest.mark.parametrize(("move", "expected"), [
    ("keep 1@1:cyclop", "'keep 1@1:cyclop' is not legal here (step war); did you mean "
                        "'keep 1@1:cyclops'"),
    ("kep 1@1:cyclops", "'kep 1@1:cyclops': unknown verb 'kep'; did you mean 'keep'?"),
])
def test_a_misspelt_omen_move_gets_the_closest_one(capsys: pytest.CaptureFixture[str],
                                                   move: str, expected: str) -> None:
    code, _, err = run(capsys, "omen", "play", str(KEEP), "--moves", move)
    assert code == 2
    assert expected in err


def test_a_misspelt_option_setting_or_flag_gets_the_closest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, expected in (
        (["--rule", "fear_passon=yes"], "did you mean 'fear_pass_on'?"),
        (["--rule", "fear_pass_on=yess"], "unknown setting 'yess'; did you mean 'yes'?"),
        (["--preset", "gamepak"], "did you mean 'gamepark'?"),
        (["--max-nodez", "5"], "did you mean '--max-nodes'"),
    ):
        code, out, err = run(capsys, "solve", str(HARMONY), *argv)
        assert (code, out) == (2, "") and expected in err, argv


def test_a_stale_build_is_one_plain_line(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A stale compiled kernel (``compiled.stale_build``) is said as one line of the command,
    not with Python's file, line number and source line; other warnings stay Python's."""
    import warnings

    from omen_solver.errors import StaleBuildWarning

    def command(words: list[str]) -> int:
        warnings.warn("the compiled kernel is stale", StaleBuildWarning, stacklevel=1)
        warnings.warn("something else", UserWarning, stacklevel=1)
        return 0

    monkeypatch.setattr(cli, "_main", command)
    before = warnings.showwarning
    with pytest.warns(UserWarning, match="something else"):  # passed on to Python's display
        code, _, err = run(capsys, "solve")
    assert code == 0
    assert err == "omen-solver: warning: the compiled kernel is stale\n"
    assert warnings.showwarning is before
