"""The Python API a newcomer reaches for (docs/omens.md, "From Python"): one loader per game,
text where an action is expected, who won, OpenSpiel habits, teams named by their seats."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

import pytest

import omen_solver.omen
import omen_solver.omens
from omen_solver import IllegalActionError, InvalidActionError, PositionError
from omen_solver.core.game import GameResult
from omen_solver.core.search import naive_solve, solve
from omen_solver.errors import OptionError

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "docs" / "examples" / "omens" / "worked-example.toml"
GUESS = ROOT / "puzzles" / "omens" / "absolute-guess.toml"
WAR_ORDER = ROOT / "puzzles" / "omen" / "war-order.toml"


def test_one_loader_per_game_reads_a_path_text_or_a_file() -> None:
    text = WORKED.read_text(encoding="utf-8")
    states = [
        omen_solver.omens.load(WORKED),
        omen_solver.omens.load(str(WORKED)),
        omen_solver.omens.load(text),
        omen_solver.omens.load(io.StringIO(text)),
        omen_solver.omens.load(io.BytesIO(text.encode())),
    ]
    assert all(state == states[0] for state in states)
    assert omen_solver.omens.load_position(text).title == "The rulebook's worked example"
    omen = [omen_solver.omen.load(WAR_ORDER),
            omen_solver.omen.load(WAR_ORDER.read_text(encoding="utf-8"))]
    assert omen[0] == omen[1]


def test_a_loader_names_its_source_in_errors() -> None:
    with pytest.raises(PositionError, match=r"^<string>: key 'players': expected a whole"):
        omen_solver.omens.load('game = "omens"\nplayers = 9\n')
    with pytest.raises(PositionError, match=r"^<string>: key 'game': this is an Omens position"):
        omen_solver.omen.load(WORKED.read_text(encoding="utf-8"))
    with pytest.raises(PositionError, match=r"^<string>: key 'game': this is an Omen position"):
        omen_solver.omens.load(WAR_ORDER.read_text(encoding="utf-8"))
    with pytest.raises(PositionError, match=r"^nothing.toml: no such file"):
        omen_solver.omens.load("nothing.toml")
    with pytest.raises(PositionError, match=r"^<file>: not UTF-8 text: byte 0xff"):
        omen_solver.omens.load(io.BytesIO(b"game = 1\xff"))


def test_text_is_accepted_where_an_action_is_expected() -> None:
    state = omen_solver.omens.load(WORKED)
    action = state.string_to_action("5:11")
    assert state.child("5:11") == state.child(action) == state.child((action,))
    after, trace = state.explain("5:11")
    assert after == state.child(action) and trace[0].rule == "bout.turn"


@pytest.mark.parametrize(
    ("given", "error", "message"),
    [
        ("2:3", IllegalActionError, r"'2:3' is not legal here: seat 5 is to act, not seat 2 "
                                    r"\[bout.turn\]; legal: 5:7, 5:11"),
        ("５:11", InvalidActionError, r"'５:11': an action starts with a seat and a colon"),
        ("5:" + "9" * 5000, InvalidActionError, r"a card value of 5000 digits is too large"),
        (5, InvalidActionError, r"expected an action, a joint action or the text of one"),
        ((), InvalidActionError, r"expected an action, a joint action or the text of one"),
    ],
)
def test_what_is_not_an_action_is_refused_clearly(given: object, error: type[Exception],
                                                  message: str) -> None:
    state = omen_solver.omens.load(WORKED)
    with pytest.raises(error, match=message):
        state.child(given)  # type: ignore[arg-type]


def test_a_joint_action_as_text_or_as_a_pair() -> None:
    """The Absolute's exchange is simultaneous (rules file 000, "The Absolute"): both gifts
    at once, written joined by '&'."""
    state = omen_solver.omens.load(GUESS)
    assert state.is_simultaneous_node()
    pair = state.joint_actions()[0]
    text = state.action_to_string(pair)
    assert text == "1:gives 3 & 2:gives 1"
    assert state.child(text) == state.child(pair) == state.joint_child(pair)
    with pytest.raises(IllegalActionError, match="write both gifts joined by '&'"):
        state.child("1:gives 3")


def test_who_won_per_team_with_seats_from_1() -> None:
    state = omen_solver.omens.load(WORKED)
    assert state.result() is None
    over = state.child("5:11").child("6:19")
    result = over.result()
    assert isinstance(result, GameResult)
    assert result.winner == (2, 5)
    assert result.teams == ((1, 4), (2, 5), (3, 6))
    assert result.returns == (Fraction(0), Fraction(1), Fraction(0))
    assert result.of_seat(5) == 1 and result.of_seat(1) == 0
    assert str(result) == "seats 2 and 5 win (seats 1 and 4: 0, seats 2 and 5: 1, seats 3 and 6: 0)"
    assert result.to_json() == {"winner": [2, 5], "teams": [[1, 4], [2, 5], [3, 6]],
                                "returns": ["0", "1", "0"]}


def test_openspiel_habits() -> None:
    state = omen_solver.omens.load(WORKED)
    action = state.legal_actions()[0]
    player = state.current_player()
    assert state.action_to_string(player, action) == state.action_to_string(action) == "5:7"
    assert state.string_to_action(player, "5:7") == action
    assert state.clone() is state
    with pytest.raises(TypeError, match=r"never changes: write `state = state.child\(action\)`"):
        state.apply_action(action)
    omen = omen_solver.omen.load(WAR_ORDER)
    first = omen.legal_actions()[0]
    assert omen.action_to_string(0, first) == omen.action_to_string(first)
    assert omen.child(omen.action_to_string(first)) == omen.child(first)


def test_people_see_seats_from_1() -> None:
    state = omen_solver.omens.load(WORKED)
    assert state.current_player() == 4  # the protocol's index, as in OpenSpiel
    assert "teams=1,4/2,5/3,6 lead=1" in repr(state)  # docs/position-text.md
    assert "seat 5" in str(state)


def test_solve_names_a_team_as_the_command_line_does() -> None:
    """``--team 1,3`` or one seat of the team: ``team=(1, 3)`` or ``team=3``."""
    state = omen_solver.omens.load(ROOT / "puzzles" / "omens" / "law-and-wrath.toml")
    by_seats = solve(state, team=(1, 3))
    by_one_seat = solve(state, team=3)
    assert by_seats.value == by_one_seat.value and by_seats.team_seats == (1, 3)
    other = solve(state, team=[2, 4])
    assert other.team_seats == (2, 4) and other.value == 1 - by_seats.value
    assert naive_solve(state, team=2).value == other.value
    assert by_seats.winner_seats in ((1, 3), (2, 4))
    with pytest.raises(OptionError, match="team 0: name a team by its seats, numbered from 1"):
        solve(state, team=0)
    with pytest.raises(OptionError, match=r"seats \[1, 2\] are not a team here; the teams are "
                                          r"\[1, 3\]; \[2, 4\]"):
        solve(state, team=(1, 2))
