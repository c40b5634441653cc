"""``omens play`` ends with the whole board, and a move the position does not allow is refused
with the rule that forbids it (issue 20, item 3; rules file 000 and docs/omens-rules.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omen_solver import cli

ROOT = Path(__file__).resolve().parents[2]
LAW = ROOT / "docs" / "examples" / "omens" / "law-and-wrath.toml"
LUCK = """game = "omens"
players = 4
teams = [[1, 3], [2, 4]]
[hands]
1 = [13, 4]
2 = [22, 5]
3 = [9, 6]
4 = [20, 7]
[bout]
leader = 1
"""
"""Seat 1 plays Luck (13); Lie (9) discards the highest yellow card, Luck, so seat 1 must
discard a card from hand before the bout ends (rules file 000, "Luck")."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def luck(tmp_path: Path) -> Path:
    path = tmp_path / "luck.toml"
    path.write_text(LUCK, encoding="utf-8")
    return path


def test_the_board_at_the_end_shows_play_law_and_who_acts(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """Law (15) lies in play with "lower": its constraint is part of the board (000, "Law")."""
    code, out, _ = run(capsys, "omens", "play", str(LAW))
    board = out[out.index("the board:"):].splitlines()
    assert code == 0
    assert "  seat 2 (team 2): Sadness (26), Wrath (28)" in board
    assert "  in play: Law (15) before seat 1" in board
    assert "  Law: lower than 15" in board
    assert board[-1] == "  to act: seat 2; legal: 2:26, 2:28 return 15"


def test_a_pending_luck_discard_says_why(capsys: pytest.CaptureFixture[str], luck: Path) -> None:
    code, out, _ = run(capsys, "omens", "play", str(luck), "--moves", "1:13", "2:22", "3:9",
                       "4:20")
    assert code == 0
    assert ("  pending: seat 1 discards a card from hand (never Fear): Luck was discarded in "
            "front of seat 1 [card.luck.discard]") in out.splitlines()
    _, out, _ = run(capsys, "omens", "play", str(luck), "--moves", "1:13", "2:22", "3:9", "4:20",
                    "--json")
    report = json.loads(out)
    assert report["pending"] == [{"text": "seat 1 discards a card from hand (never Fear): Luck "
                                          "was discarded in front of seat 1",
                                  "rule": "card.luck.discard"}]
    assert report["in_play"] == [{"card": 20, "before": 4, "by": 4}]


@pytest.mark.parametrize(("moves", "reason"), [
    (["2:26", "3:25"], "Law (15) asks for a card lower than 15, and seat 3 holds one "
                       "(Friendship (3)): it must play it [card.law.constraint]"),
    (["3:3"], "seat 2 is to act, not seat 3 [bout.turn]"),
    (["2:27"], "seat 2 does not hold Winter (27); it holds Sadness (26), Wrath (28) "
               "[bout.turn]"),
    (["2:28"], "Wrath (28) acts at once and its player chooses how: 2:28 return 15 "
               "[card.wrath.return]"),
    (["2:26", "3:3", "4:9>2"], "Lie (9) is placed in front of its own player (only Dream goes "
                               "in front of another); here it is played as 4:9 [bout.turn]"),
])
def test_an_illegal_move_names_the_rule(capsys: pytest.CaptureFixture[str], moves: list[str],
                                        reason: str) -> None:
    code, _, err = run(capsys, "omens", "play", str(LAW), "--moves", *moves)
    assert code == 2
    assert f"is not legal here: {reason}; legal: " in err


def test_a_pending_decision_comes_first(capsys: pytest.CaptureFixture[str], luck: Path) -> None:
    code, _, err = run(capsys, "omens", "play", str(luck), "--moves", "1:13", "2:22", "3:9",
                       "4:20", "2:5")
    assert code == 2
    assert ("'2:5' is not legal here: the rules wait for this first: seat 1 discards a card "
            "from hand (never Fear): Luck was discarded in front of seat 1 "
            "[card.luck.discard]; legal: 1:discards 4") in err


def test_an_unknown_choice_lists_that_card_s_words(capsys: pytest.CaptureFixture[str]) -> None:
    """'1:15 up': Law takes lower or higher (000, "Law"), not every card's choice words."""
    code, _, err = run(capsys, "omens", "play", str(LAW.with_name("position.toml")), "--moves",
                       "1:15 up")
    assert code == 2
    assert "unknown choice 'up'; Law (15) takes lower or higher" in err
    assert "swap" not in err


def test_every_pending_kind_says_its_rule() -> None:
    """Each decision the engine can wait for is told with the rule that asks for it."""
    from omen_solver.omens import state
    from omen_solver.omens.rule_ids import RULES
    from omen_solver.omens.why import PENDING_RULES

    kinds = {state.DREAM, state.REPLAY, state.RESOLVE, state.SHOW, state.EXCHANGE, state.GIVE,
             state.GIVE_BACK, state.LUCK, state.END_ABSOLUTE}
    assert set(PENDING_RULES) == kinds
    assert set(PENDING_RULES.values()) <= set(RULES)
