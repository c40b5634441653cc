"""The perft suites of ``vectors/`` (Omens and Omen positions, counts per depth with the
divide): counted again and compared. By default the depths whose recorded tree has at most
3,000 nodes; with ``--runslow`` every recorded depth and the divides."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from omen_solver.vectors.perft_suites import check_suite

SHIPPED = Path(__file__).resolve().parents[2] / "vectors"
BOUND = 3_000


def _suite(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHIPPED / game / "perft.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("game", ["omens", "omen"])
def test_recorded_counts_bounded_depths(game: str) -> None:
    suite = _suite(game)
    checked = sum(row["nodes"] <= BOUND for case in suite["cases"] for row in case["depths"])
    assert checked >= 30
    mismatches = [str(m) for m in check_suite(suite, max_nodes=BOUND)]
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["omens", "omen"])
def test_recorded_counts_every_depth_and_divide(game: str) -> None:
    mismatches = [str(m) for m in check_suite(_suite(game))]
    assert not mismatches, "\n".join(mismatches)


def test_the_rulebook_example_counts_by_hand() -> None:
    """Depth 1 of the rulebook's worked example (rules 000, "How a Bout Is Resolved",
    EXAMPLE; 6 players): seat 1 holds Love (2) and Secret (24). Love is one action; Secret
    either asks one of the 5 other players to show a card (5 actions) or shows seat 1's
    remaining card, Love, to one of them (5 actions) (omens-cards.md 24: "choose a player:
    either they show you a card from their hand, or you show them one of yours"): 11."""
    case = _suite("omens")["cases"][0]
    assert case["id"] == "omens.perft.worked-example"
    assert case["position"]["hands"]["1"] == [2, 24]
    assert case["depths"][0]["at_depth"] == 1 + 5 + 5


def test_a_wrong_count_is_reported_with_its_depth() -> None:
    suite = copy.deepcopy(_suite("omens"))
    suite["cases"] = suite["cases"][1:2]
    suite["cases"][0]["depths"][2]["sequences"] += 1
    found = [str(m) for m in check_suite(suite, max_nodes=200)]
    assert found == [
        f"omens.perft.law-then-wrath: depth 3: sequences: recorded "
        f"{suite['cases'][0]['depths'][2]['sequences']}, counted "
        f"{suite['cases'][0]['depths'][2]['sequences'] - 1}"
    ]
