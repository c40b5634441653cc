"""``omen-solver puzzles generate``: deals from a constraint problem (python-constraint2),
kept when best play has the stated property; the puzzles written are confirmed by
``omen-solver puzzles check`` and by the naive reference solver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Budget
from omen_solver.core.positions import load_state
from omen_solver.core.search import naive_solve
from omen_solver.omens.cards import default_catalogue
from omen_solver.puzzles.constraint import Recipe, candidate_deals
from omen_solver.puzzles.format import read_puzzle


def test_candidate_deals_satisfy_the_card_constraints() -> None:
    recipe = Recipe("only-lead", lead=14, require={2: (26,)}, pool=tuple(range(1, 30)))
    catalogue = default_catalogue()
    deals = []
    for hands in candidate_deals(recipe, catalogue):
        deals.append(hands)
        if len(deals) == 50:
            break
    assert len(deals) == 50
    for hands in deals:
        cards = [card for hand in hands for card in hand]
        assert len(cards) == len(set(cards)) == 8
        assert all(list(hand) == sorted(hand) for hand in hands)
        assert 14 in hands[0] and 26 in hands[2]
        assert all(1 <= card < 30 for card in cards)


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["--kind", "only-lead", "--lead", "14"], "only-lead"),
        (["--kind", "unique-win", "--pool", "2,4,9,11,12,13,14,18,20,22,26,27"], "unique-win"),
    ],
)
def test_generated_puzzles_are_confirmed_by_the_solvers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], kind: str
) -> None:
    status = main(["puzzles", "generate", str(tmp_path), *args, "--count", "2", "--json"])
    assert status == 0
    written = [Path(p) for p in json.loads(capsys.readouterr().out)["written"]]
    assert len(written) == 2 and all(p.name.startswith(kind) for p in written)
    assert main(["puzzles", "check", str(tmp_path)]) == 0
    capsys.readouterr()
    for path in written:
        puzzle = read_puzzle(path)
        assert puzzle is not None
        state = load_state(path)
        reference = naive_solve(state, budget=Budget(max_nodes=500_000))
        assert reference.solved
        assert reference.value == 1
        assert sorted(reference.best_actions) == sorted(puzzle.answer["best_actions"])
        if kind == "only-lead":
            assert all(action.startswith("1:14") for action in reference.best_actions)
        else:
            assert len(reference.best_actions) == 1


def test_bad_recipes_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["puzzles", "generate", str(tmp_path), "--kind", "only-lead"]) == 2
    assert "--lead" in capsys.readouterr().err
    assert main(["puzzles", "generate", str(tmp_path), "--lead", "99", "--kind", "only-lead"]) == 2
    assert "not a card" in capsys.readouterr().err
    assert main(["puzzles", "generate", str(tmp_path), "--require", "7:14"]) == 2
    assert "no seat 7" in capsys.readouterr().err


def test_nothing_found_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Seat 1 holds Life and Love and the others only Absolutes: Life and Love lose to any
    Absolute, so whatever seat 1 leads, the round is decided by the others: no first play of
    seat 1 is the only winning one in the candidates tried."""
    status = main(
        [
            "puzzles",
            "generate",
            str(tmp_path),
            "--pool",
            "1,2,30,31,32,33,34,35",
            "--require",
            "1:1,2",
            "--max-candidates",
            "5",
        ]
    )
    assert status == 1
    assert "0 puzzles written" in capsys.readouterr().out
