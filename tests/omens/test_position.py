"""Position files (docs/omens-positions.md): good files load; bad files are rejected with a
message naming the file, the key and the problem, and nothing is half-applied."""

from __future__ import annotations

from pathlib import Path

import pytest

from omen_solver.core.positions import load_state
from omen_solver.errors import PositionError
from omen_solver.omens.position import load_position

GOOD = """
game = "omens"
players = 4
teams = [[1, 3], [2, 4]]
preset = "rulebook"
[rules]
fear_pass_on = "yes"
[hands]
1 = [30, 15, 7]
2 = [28, 3, 9]
3 = [12, 13, 22]
4 = [14, 26, 5]
[bout]
leader = 1
moves = ["1:15 lower"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "position.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_documented_example_loads(tmp_path: Path) -> None:
    position = load_position(write(tmp_path, GOOD))
    assert position.table.rules.fear_pass_on == "yes"
    assert position.state.law == (15, -1)
    assert position.state.current_player() == 1
    assert load_state(write(tmp_path, GOOD)).key() == position.state.key()


def test_game_start_derives_teams_and_leader(tmp_path: Path) -> None:
    text = """
game = "omens"
players = 4
phase = "game-start"
[hands]
1 = [31, 1, 2, 3, 4]
2 = [35, 5, 6, 7, 8]
3 = [30, 9, 10, 11, 12]
4 = [33, 13, 14, 15, 16]
"""
    position = load_position(write(tmp_path, text))
    assert position.state.teams() == ((0, 3), (1, 2))
    assert position.state.leader == 1
    assert position.state.box == (32, 34)


BAD = [
    ("players = 4", "players = 7", "key 'players'"),
    ("1 = [30, 15, 7]", "1 = [30, 15, 3]", "key 'hands.2': card 3 is already in hands.1"),
    ("1 = [30, 15, 7]", "1 = [30, 15, 40]", "key 'hands.1': card 40 is not in the catalogue"),
    ("1 = [30, 15, 7]", "1 = [30, 15, 7, 1, 2, 4]", "key 'hands.1': 6 cards"),
    ("1 = [30, 15, 7]", "1 = [30]", "key 'hands.1': 1 card at the start of a bout"),
    ("4 = [14, 26, 5]", "", "key 'hands.4': missing"),
    ('moves = ["1:15 lower"]', 'moves = ["1:15 sideways"]', "key 'bout.moves[1]'"),
    ('moves = ["1:15 lower"]', 'moves = ["2:28"]', "key 'bout.moves[1]'"),
    ('fear_pass_on = "yes"', 'fear_pass_on = "maybe"', "key 'rules.fear_pass_on': unknown setting"),
    ('fear_pass_on = "yes"', 'fear_passes = "yes"', "unknown rule option"),
    ('preset = "rulebook"', 'preset = "house"', "key 'preset': unknown preset"),
    ("teams = [[1, 3], [2, 4]]", "teams = [[1, 2, 3], [4]]", "key 'teams'"),
    ("teams = [[1, 3], [2, 4]]", "", "key 'teams': missing"),
    ("leader = 1", "leader = 5", "key 'bout.leader'"),
    ('game = "omens"', 'game = "omens"\ncolour = "red"', "key 'colour': unknown key"),
    ("players = 4", 'players = 4\nscope = "match"', "key 'scope'"),
    ("players = 4", 'players = 4\nscope = "game"', "key 'box'"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD)
def test_bad_files_name_the_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(PositionError) as error:
        load_position(path)
    assert str(path) in str(error.value)
    assert message in str(error.value)


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("players = 4", "players = = 4"))
    with pytest.raises(PositionError, match=r"line \d+"):
        load_position(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="no such file"):
        load_position(tmp_path / "nope.toml")


def test_custom_catalogue_relative_to_the_file(tmp_path: Path) -> None:
    from importlib import resources

    text = resources.files("omen_solver.omens").joinpath("data/cards.toml").read_text("utf-8")
    (tmp_path / "deck.toml").write_text(text.replace('name = "Law"', 'name = "Order"'), "utf-8")
    position = load_position(write(tmp_path, 'catalogue = "deck.toml"\n' + GOOD))
    assert position.table.catalogue[15].name == "Order"
    (tmp_path / "deck.toml").write_text(
        text.replace('timing = "now"\neffect = "law"', 'timing = "end"\neffect = "law"'), "utf-8"
    )
    with pytest.raises(PositionError, match=r"key 'catalogue': .*deck.toml:\d+: card #15"):
        load_position(write(tmp_path, 'catalogue = "deck.toml"\n' + GOOD))
