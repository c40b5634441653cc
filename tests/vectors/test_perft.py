"""The perft suites of ``vectors/`` (Omens positions under each suite's preset, Omen positions;
counts per depth with the divide): counted again and compared, in the library and through the
protocol (``vectors perft``: a ``perft`` request or a walk of ``legal`` and ``play``). By
default the depths whose recorded tree has at most 3,000 nodes; with ``--runslow`` every
recorded depth and the divides."""

from __future__ import annotations

import copy
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.vectors.perft_suites import check_suite

SHIPPED = Path(__file__).resolve().parents[2] / "vectors"
BOUND = 3_000


SUITES = ["omens/rulebook", "omens/gamepark", "omen"]
SELF = f"{shlex.quote(sys.executable)} -m omen_solver vectors engine"


def _suite(where: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHIPPED / where / "perft.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("game", SUITES)
def test_recorded_counts_bounded_depths(game: str) -> None:
    suite = _suite(game)
    checked = sum(row["nodes"] <= BOUND for case in suite["cases"] for row in case["depths"])
    assert checked >= 30
    mismatches = [str(m) for m in check_suite(suite, max_nodes=BOUND)]
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.slow
@pytest.mark.parametrize("game", SUITES)
def test_recorded_counts_every_depth_and_divide(game: str) -> None:
    mismatches = [str(m) for m in check_suite(_suite(game))]
    assert not mismatches, "\n".join(mismatches)


def test_the_rulebook_example_counts_by_hand() -> None:
    """Depth 1 of the rulebook's worked example (rules 000, "How a Bout Is Resolved",
    EXAMPLE; 6 players): seat 1 holds Love (2) and Secret (24). Love is one action; Secret
    either asks one of the 5 other players to show a card (5 actions) or shows seat 1's
    remaining card, Love, to one of them (5 actions) (omens-cards.md 24: "choose a player:
    either they show you a card from their hand, or you show them one of yours"): 11."""
    case = _suite("omens/rulebook")["cases"][0]
    assert case["id"] == "omens.rulebook.perft.worked-example"
    assert case["position"]["hands"]["1"] == [2, 24]
    assert case["depths"][0]["at_depth"] == 1 + 5 + 5


def test_a_wrong_count_is_reported_with_its_depth() -> None:
    suite = copy.deepcopy(_suite("omens/rulebook"))
    suite["cases"] = suite["cases"][1:2]
    suite["cases"][0]["depths"][2]["sequences"] += 1
    found = [str(m) for m in check_suite(suite, max_nodes=200)]
    assert found == [
        f"omens.rulebook.perft.law-then-wrath: depth 3: sequences: recorded "
        f"{suite['cases'][0]['depths'][2]['sequences']}, counted "
        f"{suite['cases'][0]['depths'][2]['sequences'] - 1}"
    ]


@pytest.mark.parametrize("walk", [True, False], ids=["walked", "perft-request"])
def test_the_perft_suites_through_the_protocol(
    capsys: pytest.CaptureFixture[str], walk: bool
) -> None:
    """This library's engine counts the cases again over the protocol, walking its own
    ``legal`` and ``play`` answers or answering ``perft`` requests; the gamepark suite's
    cases have the gamepark settings."""
    where = SHIPPED / "omens" / "gamepark" / "perft.json"
    argv = ["vectors", "perft", str(where), "--engine", SELF, "--match", "law-then-wrath",
            "--max-nodes", "400", "--json"] + (["--walk"] if walk else [])
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    case = report["cases"][0]
    assert case["case"] == "omens.gamepark.perft.law-then-wrath"
    assert case["how"] == ("walked" if walk else "perft request")
    assert case["depths"] == [row["depth"] for row in _suite("omens/gamepark")["cases"][1][
        "depths"] if row["nodes"] <= 400]


def test_a_wrong_count_through_the_protocol_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine that counts one node too many at every depth (through its ``perft``
    answers), and an engine fixed to another preset, which is not asked."""
    script = tmp_path / "engine.py"
    script.write_text(
        "import json, sys\n"
        "from omen_solver.vectors.engine import Adapter\n"
        "real = Adapter()\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    answer = {'id': r['id'], 'ok': True, **real.handle(r)}\n"
        "    if r['cmd'] == 'perft':\n"
        "        answer['nodes'] += 1\n"
        "    print(json.dumps(answer), flush=True)\n",
        encoding="utf-8",
    )
    engine = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    where = SHIPPED / "omens" / "rulebook" / "perft.json"
    status = main(["vectors", "perft", str(where), "--engine", engine, "--match",
                   "law-then-wrath", "--max-nodes", "100"])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL omens.rulebook.perft.law-then-wrath" in out
    assert "depth 1: nodes: recorded" in out and "the engine counts" in out
    status = main(["vectors", "perft", str(where), "--engine", f"{SELF} --preset gamepark",
                   "--max-nodes", "100"])
    out = capsys.readouterr().out
    assert status == 1
    assert "counted 0 of 9 perft cases" in out and "FAIL: no perft case was counted" in out
    assert "skipped 9: recorded under other settings (betrayal_give_back" in out
