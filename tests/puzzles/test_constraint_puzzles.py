"""Constraint puzzles worth posing (issue 20, item 6): the deals of one run are not near
copies of each other, their hands have the size asked for, and what a file states is what the
solver reports for it."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import tomllib
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.omens.cards import default_catalogue
from omen_solver.puzzles.constraint import Recipe, candidate_deals, shared, too_alike


def _run(*argv: str) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, json.loads(out.getvalue())


def _hands(path: Path) -> list[list[int]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [data["hands"][str(seat)] for seat in range(1, data["players"] + 1)]


@pytest.mark.parametrize(("kind", "size"), [("unique-win", 2), ("unique-win", 3),
                                            ("only-lead", 2)])
def test_a_run_writes_distinct_puzzles_of_the_hand_size_asked(tmp_path: Path, kind: str,
                                                               size: int) -> None:
    extra = ["--lead", "14"] if kind == "only-lead" else []
    code, report = _run("puzzles", "generate", str(tmp_path), "--kind", kind, "--count", "3",
                        "--hand-size", str(size), "--max-candidates", "300", *extra, "--json")
    written = [Path(str(p)) for p in report["written"]]  # type: ignore[attr-defined]
    assert code == 0 and len(written) == 3
    deals = [_hands(path) for path in written]
    for hands in deals:
        assert [len(hand) for hand in hands] == [size] * 4
    for first, second in itertools.combinations(deals, 2):
        assert 2 * shared(first, second) <= 4 * size, (first, second)
    for path in written:  # what the file states is what solve reports (stated answer agrees)
        code, solved = _run("solve", str(path), "--json")
        assert (code, solved["agrees"]) == (0, True), path.name


def test_candidates_are_not_near_copies_in_a_row() -> None:
    """The old stream changed one card of the last hand from one deal to the next."""
    deals = list(itertools.islice(candidate_deals(Recipe("unique-win"), default_catalogue()),
                                  20))
    assert len(set(deals)) == 20
    assert max(shared(a, b) for a, b in itertools.pairwise(deals)) <= 4


def test_too_alike_counts_cards_held_by_the_same_seat() -> None:
    kept = [((1, 2), (3, 4), (5, 6), (7, 8))]
    assert too_alike(((1, 2), (3, 4), (5, 6), (7, 9)), kept)  # 7 of 8 shared
    assert too_alike(((1, 2), (3, 4), (5, 9), (7, 10)), kept)  # 5 of 8
    assert not too_alike(((1, 2), (3, 9), (5, 10), (11, 12)), kept)  # 4 of 8: half
    assert not too_alike(((3, 4), (1, 2), (7, 8), (5, 6)), kept)  # the same cards, other seats
