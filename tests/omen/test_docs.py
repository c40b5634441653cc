"""The Omen documentation agrees with the code: the profile tables, the rule ids, the card
file example."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

from omen_solver.core.options import describe
from omen_solver.omen import load
from omen_solver.omen.cards import load_catalogue
from omen_solver.omen.rules import PROFILES, OmenRules, make_rules
from omen_solver.omen.setup import new_game

DOCS = Path(__file__).resolve().parents[2] / "docs"
COLUMNS = ("reign-of-war", "omega", "fires-in-the-east", "fires-in-the-east+reign-of-war")


def _rows(text: str) -> dict[str, list[str]]:
    """Table rows keyed by the option name in backticks, cells after it."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        for index, cell in enumerate(cells[:2]):
            match = re.fullmatch(r"`([a-z_]+)`", cell)
            if match and match.group(1) in {s.name for s in describe(OmenRules)}:
                rows[match.group(1)] = cells[index + 1:]
                break
    return rows


def test_the_profile_tables_match_the_profiles() -> None:
    rows = _rows((DOCS / "omen-profiles.md").read_text(encoding="utf-8"))
    assert set(rows) == {spec.name for spec in describe(OmenRules)}
    for name, cells in rows.items():
        for profile, cell in zip(COLUMNS, cells, strict=False):
            shown = re.findall(r"`([^`]+)`", cell)
            assert shown and shown[0] == getattr(make_rules(profile), name), (name, profile)
            if "omega-olympus" in cell:
                assert shown[1] == getattr(make_rules("omega-olympus"), name), name
            elif profile == "omega":
                assert getattr(make_rules("omega-olympus"), name) == shown[0], name
    for profile in PROFILES:
        assert f"`{profile}`" in (DOCS / "omen-profiles.md").read_text(encoding="utf-8")


def _documented_rule_ids() -> set[str]:
    text = (DOCS / "omen.md").read_text(encoding="utf-8")
    section = text.split("## Rule ids", 1)[1].split("\n## ", 1)[0]
    ids: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            ids.update(re.findall(r"`([a-z_.-]+)`", line.split("|")[1]))
    return ids


def test_every_rule_id_in_a_trace_is_documented() -> None:
    documented = _documented_rule_ids()
    seen: set[str] = set()
    for profile in sorted(PROFILES):
        for seed in range(4):
            rng = random.Random(seed)
            state = new_game(profile, {"max_turns": "100"})
            seen.update(step.rule for step in state.trace)
            while not state.is_terminal():
                state = state.child(rng.choice(state.legal_actions()))
                seen.update(step.rule for step in state.trace)
    assert seen - documented == set()
    assert len(seen) > 40


def test_the_card_file_example_loads(tmp_path: Path) -> None:
    text = (DOCS / "omen-cards.md").read_text(encoding="utf-8")
    example = text.split("## An example", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.toml"
    path.write_text(example, encoding="utf-8")
    catalogue = load_catalogue([path]).resolve("strength-red")
    guard = catalogue["temple-guard"]
    assert (guard.cost, guard.strength, guard.offering) == (2, 3, 1)
    assert catalogue["war-elephant"].colossal


def test_the_position_example_loads(tmp_path: Path) -> None:
    # Whole, with its card file beside it (tests/cli/test_docs_examples.py checks that the
    # shipped files are the docs' examples verbatim).
    text = (DOCS / "omen.md").read_text(encoding="utf-8")
    example = text.split("## Positions", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.toml"
    path.write_text(example, encoding="utf-8")
    shutil.copy(DOCS / "examples" / "omen" / "my-copy.toml", tmp_path / "my-copy.toml")
    state = load(path)
    assert state.rules.war_tiebreak == "total-cost" and state.cities[0].relic == "aegis"
    assert state.players[0].rewards == ("ambrosia",)  # seat 1 won city 1
