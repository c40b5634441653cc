"""What the shipped vectors cover, and that the vectors say what the rules require.

Rulebook: "rules 000" is the Omens rulebook (sections named as printed); the Omen books are
001 (A Reign of War, Omega edition extras), 003 (A Reign of War summary), 004 (Fires in the
East)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from omen_solver.core.options import describe
from omen_solver.omen.rules import OmenRules
from omen_solver.omens.actions import Verb, parse_action
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import option_specs
from omen_solver.vectors.omens_mine import effect_pairs
from omen_solver.vectors.omens_record import record, setup_from_json, state_view

SHIPPED = Path(__file__).resolve().parents[2] / "vectors"


def _coverage(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHIPPED / game / "coverage.json").read_text("utf-8"))
    return data["dimensions"]


def _vectors(game: str, name: str) -> list[dict[str, Any]]:
    data = json.loads((SHIPPED / game / f"{name}.json").read_text(encoding="utf-8"))
    vectors: list[dict[str, Any]] = data["vectors"]
    return vectors


def test_omens_coverage_every_rule_id_but_the_unreachable_one() -> None:
    rules = _coverage("omens")["rule"]
    assert rules["total"] == len(RULES)
    assert rules["missing"] == ["rule:round.end.no_cards"]


def test_omens_coverage_every_option_setting_and_every_effect_pair() -> None:
    dims = _coverage("omens")
    settings = sum(len(spec.settings) for spec in option_specs())
    assert (dims["option"]["covered"], dims["option"]["total"]) == (settings, settings)
    assert dims["pair"]["total"] == len(effect_pairs()) == 700
    assert dims["pair"]["covered"] == 700
    for name in ("round_end", "team_win", "absolute"):
        assert dims[name]["missing"] == [], name
    assert dims["line"]["covered"] / dims["line"]["total"] > 0.9


def test_omen_coverage_every_option_setting_but_stat_colours() -> None:
    """Every setting but those of stat_colours (card files only) and optional_units (which
    positions are allowed at all) has a vector."""
    option = _coverage("omen")["option"]
    settings = sum(len(spec.settings) for spec in describe(OmenRules))
    assert option["total"] == settings
    assert all(m.startswith(("option:stat_colours=", "option:optional_units="))
               for m in option["missing"])
    assert option["covered"] == settings - 5


def _placements(vector: dict[str, Any]) -> list[list[tuple[str, int]]]:
    """The effect cards placed in each bout, in order, with the placing seat: read from the
    actions alone (a card played, or given by Betrayal)."""
    catalogue = default_catalogue()
    bouts: list[list[tuple[str, int]]] = [[]]
    for step in vector["steps"]:
        for part in step["action"].split("&"):
            action = parse_action(part.strip())
            cards = []
            if action.verb is Verb.PLAY:
                cards.append(action.card)
            if action.choice and action.choice[0] == "take":
                cards.append(int(action.choice[2]))
            for card in cards:
                entry = catalogue[card]
                name = "the-absolute" if entry.effect == "absolute" else entry.name.lower()
                bouts[-1].append((name, action.seat + 1))
        if "state" in step:
            bouts.append([])
    return bouts


def _teams_from_the_deal(vector: dict[str, Any]) -> list[list[int]]:
    """Rules 000, "Setup": with 4-5 players the highest and the lowest Absolute against the
    others; with 6, the lowest with the highest, and so on inwards."""
    players = vector["position"]["players"]
    absolute = {}
    for step in vector["steps"][:players]:
        words = step["action"].split()  # deal CARD to SEAT
        absolute[int(words[3])] = int(words[1])
    ranked = sorted(absolute, key=absolute.__getitem__)
    if players == 6:
        return [[ranked[i], ranked[5 - i]] for i in range(3)]
    pair = [ranked[0], ranked[-1]]
    return [pair, [seat for seat in ranked if seat not in pair]]


def test_every_effect_pair_is_played_in_the_vector_that_claims_it() -> None:
    """Each pair a vector's `covers` claims is placed in that bout, in that order, by partners
    or opponents as claimed (read from the actions, not from the miner)."""
    claimed = 0
    for name in ("examples", "witnesses", "enumerated"):
        for vector in _vectors("omens", name):
            pairs = [f for f in vector.get("covers", []) if f.startswith("pair:")]
            if not pairs:
                continue
            teams = vector["position"].get("teams") or _teams_from_the_deal(vector)
            team = {seat: index for index, members in enumerate(teams) for seat in members}
            played = set()
            for bout in _placements(vector):
                for i, (first, by_first) in enumerate(bout):
                    for second, by_second in bout[i + 1:]:
                        relation = "partners" if team[by_first] == team[by_second] else (
                            "opponents")
                        played.add(f"pair:{first}>{second}:{relation}")
            assert set(pairs) <= played, (vector["id"], sorted(set(pairs) - played))
            claimed += len(pairs)
    assert claimed == 702


def test_the_gamepark_vectors_show_pride_unless_luck() -> None:
    """The published digital adaptation (preset gamepark): Pride's choice starts the next round
    unless Luck's discard ended the round (rules 000, "End of a Round"; "Luck")."""
    examples = {v["id"]: v for v in _vectors("omens", "examples")}
    across = examples["omens.example.gamepark-pride-across-the-round-end"]
    luck = examples["omens.example.gamepark-luck-ends-the-round"]
    for vector, leader in ((across, 3), (luck, 2)):
        assert vector["options"]["settings"]["pride_next_round"] == "unless_luck"
        final = vector["steps"][-1]["state"]
        assert final["next_leader"] == leader
        setup = setup_from_json(vector["options"], vector["position"])
        replayed = record(setup.start(), [step["action"] for step in vector["steps"]])
        assert state_view(replayed.final) == final
    witnesses = {v["id"] for v in _vectors("omens", "witnesses")}
    assert "omens.witness.pride_next_round.unless_luck.vs-yes" in witnesses
    assert "omens.witness.pride_next_round.yes.vs-unless_luck" in witnesses


def test_every_vector_cites_known_rule_ids_and_a_rulebook_passage() -> None:
    for name in ("examples", "witnesses", "enumerated"):
        for vector in _vectors("omens", name):
            assert set(vector["rules"]) <= set(RULES), vector["id"]
            assert "000" in vector["why"] or "Rule text" in vector["why"], vector["id"]
