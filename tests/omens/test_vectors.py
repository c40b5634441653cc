"""The hand-written Omens examples (``omen_solver/vectors/data/omens-examples.toml``, the source
of the ``examples.json`` of each suite of ``vectors/omens/``): one test loops over them and
reports the vector, its line, what the rules require and what the engine did (style guide:
python-chess's ``data/endgame.epd``)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import omen_solver.vectors
from omen_solver.omens.position import parse_position
from omen_solver.omens.report import play_report

VECTORS = Path(omen_solver.vectors.__file__).parent / "data" / "omens-examples.toml"
_POSITION_KEYS = ("players", "teams", "preset", "rules", "scope", "box")


def _lines() -> dict[str, int]:
    lines: dict[str, int] = {}
    for number, line in enumerate(VECTORS.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("id = "):
            lines[line.split('"')[1]] = number
    return lines


def _position(vector: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "omens"}
    data.update({key: vector[key] for key in _POSITION_KEYS if key in vector})
    data.setdefault("teams", [[1, 3], [2, 4]])
    data["hands"] = vector["hands"]
    data["bout"] = {"leader": vector["leader"]}
    return data


def _actual(vector: dict[str, Any]) -> dict[str, Any]:
    position = parse_position(_position(vector), f"vector {vector['id']}")
    state, report = play_report(position, list(vector["moves"]))
    hands = report["hands"]
    if state.last_bout is not None and report["bout_winner"] is not None:
        # the hands at the end of the bout, before a new round is dealt
        hands = {str(seat + 1): list(hand) for seat, hand in enumerate(state.last_bout.hands)}
    return {
        "bout_winner": report["bout_winner"] or 0,
        "discarded": report["discarded"],
        "hands": hands,
        "next_leader": report["next_leader"] or 0,
        "round_winner_team": report["round_winner_team"] or [],
        "legal": report["legal"],
    }


def test_vectors() -> None:
    vectors = tomllib.loads(VECTORS.read_text(encoding="utf-8"))["vector"]
    lines = _lines()
    assert len(vectors) >= 20 and len({v["id"] for v in vectors}) == len(vectors)
    failures = []
    for vector in vectors:
        assert vector["why"].strip(), vector["id"]
        expected = dict(vector["expect"])
        expected["hands"] = {seat: list(cards) for seat, cards in expected["hands"].items()}
        actual = _actual(vector)
        for key, value in expected.items():
            if actual[key] != value:
                failures.append(
                    f"{VECTORS.name}:{lines[vector['id']]} {vector['id']}: {key}: "
                    f"expected {value!r}, engine gives {actual[key]!r}"
                )
    assert not failures, "\n".join(failures)
