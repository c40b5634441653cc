"""The "out of reach" note (kernel/reach.py): said only where the measured model gives the
exact value less than an even chance within the budget, never for the positions the kernel
solves in a fraction of it, and never suggesting what the command line already asks for."""

from __future__ import annotations

import re

import pytest

from omen_solver.core.budget import Budget
from omen_solver.core.search import solve
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.reach import expected, out_of_reach
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table

SEED = 20261130
DEFAULT = Budget(max_seconds=30.0)


def _deal(players: int, index: int, cards: int | None) -> OmensState:
    table = Table(players, make_rules("rulebook"))
    return deal_position(table, random_deal(table, SEED + index, "first", cards))


def test_full_deals_are_out_of_reach_and_small_ones_are_not() -> None:
    for players in (4, 5, 6):
        note = out_of_reach(_deal(players, 0, None), DEFAULT, pure_python=False)
        assert note is not None and "not expected" in note and "estimate" in note
        assert out_of_reach(_deal(players, 0, 2), DEFAULT, pure_python=False) is None
    assert out_of_reach(_deal(4, 0, 3), DEFAULT, pure_python=False) is None


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the C kernel is not built")
@pytest.mark.parametrize(("players", "cards"), [(4, 3), (5, 2), (5, 3), (6, 2)])
def test_no_failure_is_predicted_for_what_solves_in_a_fraction_of_the_budget(
        players: int, cards: int) -> None:
    """Seeded deals the kernel solves within a million nodes (a second or two here): with the
    default 30 s the note is never said of them."""
    for index in range(3):
        state = _deal(players, index, cards)
        concept = "paranoid" if players == 6 else "minimax"
        result = solve(state, concept=concept, budget=Budget(max_nodes=1_000_000), threads=1)
        if result.solved:
            assert out_of_reach(state, DEFAULT, threads=1, pure_python=False) is None, index


def _suggested_cards(note: str) -> list[int]:
    return [int(k) for k in re.findall(r"--cards (\d+)", note)]


def test_the_note_never_asks_for_what_the_command_line_gives() -> None:
    state = _deal(4, 1, 4)
    tight = Budget(max_seconds=2.0)
    note = out_of_reach(state, tight, given={"deal": 1, "cards": 4}, pure_python=False)
    assert note is not None
    assert all(k < 4 for k in _suggested_cards(note))
    # a file has no --cards to change
    note = out_of_reach(state, tight, given={}, pure_python=False)
    assert note is not None and "--cards" not in note
    # more time than the position needs: no "more time"; a node limit that binds: more nodes
    long = out_of_reach(_deal(4, 1, None), Budget(max_seconds=3000.0), pure_python=False)
    assert long is None or "--max-seconds" not in long
    nodes = out_of_reach(state, Budget(max_nodes=1000, max_seconds=3000.0), pure_python=False)
    assert nodes is not None and "--max-nodes" in nodes and "--max-seconds" not in nodes


def test_the_chance_grows_with_the_budget_and_falls_with_the_cards() -> None:
    state = _deal(4, 1, 4)
    small, large = (expected(state, Budget(max_nodes=n), pure_python=False).chance
                    for n in (10_000, 10**9))
    assert small < 0.5 < large
    fewer, more = (expected(_deal(5, 1, k), DEFAULT, pure_python=False).chance for k in (2, 4))
    assert fewer > more


def test_the_command_line_prints_the_note_on_stderr(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    from omen_solver.cli import main

    assert main(["solve", "--deal", "2", "--players", "4", "--cards", "3", "--max-nodes",
                 "100", "--threads", "1", "--no-estimates"]) == 1
    err = capsys.readouterr().err
    assert "not expected" in err and "--cards 3" not in err and "--cards 4" not in err
    assert "--max-nodes" in err
