"""The rule-option witnesses of proofs/witnesses: each pair of files replays, and the two
settings really do play differently there (checked again here, independently of the search
that found them); options without a witness are recorded as such."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.omens.position import load_position
from omen_solver.omens.rules import option_specs
from omen_solver.vectors.witness import (
    find_witness,
    observe,
    read_summary,
    setting_pairs,
    witness_table,
)

FOLDER = Path(__file__).resolve().parents[2] / "proofs" / "witnesses"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "omens-option-witnesses.md"
SUMMARY: list[dict[str, Any]] = json.loads((FOLDER / "summary.json").read_text(encoding="utf-8"))
FOUND = [item for item in SUMMARY if item["found"]]


def test_every_pair_of_settings_has_a_recorded_search() -> None:
    """One search per option and pair of its settings (one pair for most options; six for
    pride_next_round, whose fourth setting reproduces the published digital adaptation)."""
    recorded = sorted((item["option"], *item["settings"]) for item in SUMMARY)
    expected = sorted(
        (spec.name, *pair) for spec in option_specs() for pair in setting_pairs(spec.name)
    )
    assert recorded == expected


@pytest.mark.parametrize(
    "item", FOUND, ids=["-".join([item["option"], *item["settings"]]) for item in FOUND]
)
def test_witness_pair_plays_differently(item: dict[str, Any]) -> None:
    """Replay both files: the same moves, and the state reached differs (who acts, the legal
    moves, or the outcome)."""
    option = item["option"]
    states = []
    for setting, name in zip(item["settings"], item["files"], strict=True):
        position = load_position(FOLDER / name)
        assert getattr(position.table.rules, option) == setting
        for name, value in item["companions"].items():
            assert getattr(position.table.rules, name) == value
        assert [position.start.move_to_string(m) for m in position.moves[:1]] == item["moves"][:1]
        state, _ = position.replay()
        states.append(state)
    first, second = states
    assert observe(first) != observe(second)


def test_no_difference_is_recorded_with_its_bounds() -> None:
    for item in SUMMARY:
        if not item["found"]:
            assert item["deals"] > 0 and item["searched"]
            assert not list(FOLDER.glob(f"{item['option']}--*.toml"))


def test_the_search_is_deterministic_and_the_files_are_current() -> None:
    """Searching again finds the same witness as the committed files."""
    for option in ("law_binds", "fear_pass_on", "card_owner"):
        recorded = next(item for item in SUMMARY if item["option"] == option)
        assert find_witness(option).to_json() == recorded
    for item in SUMMARY:
        if item["option"] == "pride_next_round":
            pair = (item["settings"][0], item["settings"][1])
            assert find_witness("pride_next_round", pair=pair).to_json() == item


def test_the_docs_table_is_current() -> None:
    assert DOCS.read_text(encoding="utf-8") == witness_table(read_summary(FOLDER / "summary.json"))


def test_the_command_writes_files_and_rejects_unknown_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(["witnesses", "fear_pass_on", "--out", str(tmp_path), "--no-docs", "--json"])
    assert status == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["option"] for r in results] == ["fear_pass_on"]
    assert results[0]["found"]
    assert (tmp_path / "fear_pass_on--no.toml").is_file()
    assert (tmp_path / "fear_pass_on--yes.toml").is_file()
    assert main(["witnesses", "no_such_option"]) == 2
    assert "no rule option named 'no_such_option'" in capsys.readouterr().err
