"""What the shipped vectors cover, and that the vectors say what the rules require.

Rulebook: "rules 000" is the Omens rulebook (sections named as printed); the Omen books are
001 (A Reign of War, Omega edition extras), 003 (A Reign of War summary), 004 (Fires in the
East)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from omen_solver.core.options import describe
from omen_solver.omen.rules import OmenRules
from omen_solver.omens.actions import Verb, parse_action
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import option_specs
from omen_solver.vectors.omens_features import (
    HAND_EFFECTS,
    NOW_EFFECTS,
    SITUATIONS,
    effect_name,
    placement_features,
    possible_placements,
)
from omen_solver.vectors.omens_mine import effect_pairs
from omen_solver.vectors.omens_record import record, setup_from_json, state_view

SHIPPED = Path(__file__).resolve().parents[2] / "vectors"
SUITES = ("omens/rulebook", "omens/gamepark")
OMENS_SETS = ("examples", "witnesses", "enumerated", "random")


def _coverage(where: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHIPPED / where / "coverage.json").read_text("utf-8"))
    return data["dimensions"]


def _vectors(where: str, name: str) -> list[dict[str, Any]]:
    data = json.loads((SHIPPED / where / f"{name}.json").read_text(encoding="utf-8"))
    vectors: list[dict[str, Any]] = data["vectors"]
    return vectors


def _omens_vectors() -> list[dict[str, Any]]:
    return [v for suite in SUITES for name in OMENS_SETS for v in _vectors(suite, name)]


@pytest.mark.parametrize("suite", SUITES)
def test_omens_coverage_every_rule_id_but_the_unreachable_one(suite: str) -> None:
    rules = _coverage(suite)["rule"]
    assert rules["total"] == len(RULES)
    assert rules["missing"] == ["rule:round.end.no_cards"]


@pytest.mark.parametrize("suite", SUITES)
def test_omens_coverage_every_option_setting_and_every_effect_pair(suite: str) -> None:
    dims = _coverage(suite)
    settings = sum(len(spec.settings) for spec in option_specs())
    assert (dims["option"]["covered"], dims["option"]["total"]) == (settings, settings)
    assert dims["pair"]["total"] == len(effect_pairs()) == 700
    assert dims["pair"]["covered"] == 700
    for name in ("round_end", "team_win", "absolute"):
        assert dims[name]["missing"] == [], name
    assert dims["line"]["covered"] / dims["line"]["total"] > 0.9


@pytest.mark.parametrize("suite", SUITES)
def test_omens_coverage_pair_by_placement_at_target(suite: str) -> None:
    """Every ordered pair of effects with an immediate card (29 effects: each card's own, the
    six Absolutes one, Malice none; 7 of them immediate) at each of the 4 placements, 1568 in
    all, less the 336 no line can have: 196 with the pair's second card placed first, 140
    with its first card placed last when that is not Wrath or Betrayal. All of the 1232
    others are covered by vectors that hold under the suite's preset; so are the scenes
    (31 of 32: Luck's player holding no card needs dream_target_turn = plays_again)."""
    dims = _coverage(suite)
    placement = dims["placement"]
    assert len(placement_features()) == 1568
    assert placement["total"] == len(possible_placements()) == 1232
    assert placement["covered"] == 1232 and placement["missing"] == []
    assert [item["count"] for item in placement["impossible"]] == [196, 140]
    scene = dims["scene"]
    assert (scene["covered"], scene["total"], scene["missing"]) == (31, 31, [])
    assert scene["impossible"][0]["what"] == "Luck discarded while its player holds no card"


@pytest.mark.parametrize("suite", SUITES)
def test_omens_coverage_of_situations_at_target(suite: str) -> None:
    """The situations in which engines go wrong, each crossed with the effects that touch it
    (docs/vectors.md, "Coverage"), are all covered by vectors that hold under the suite's
    preset, but those no line can have, each counted with its reason: a hand emptied during a
    bout (rules 000, "Game Sequence": each player places one card; a hand of 1 ends the round,
    "End of a Round"), Dream's target holding one card (rules 000, "Dream": the target has not
    played yet) and, under betrayal_give_back = forbidden (the gamepark preset), Law given back
    by Betrayal."""
    situation = _coverage(suite)["situation"]
    impossible = {item["what"]: item["count"] for item in situation["impossible"]}
    assert situation["missing"] == [] and situation["covered"] == situation["total"]
    assert situation["total"] + sum(impossible.values()) == len(SITUATIONS)
    assert impossible["a hand empty when an effect takes from it, gives to it or shows from it"] \
        == len(HAND_EFFECTS)
    assert impossible["Dream's target holding one card or only Fear"] == 2
    assert ("Law given back by Betrayal" in impossible) == (suite == "omens/gamepark")
    for feature in ("situation:hand-only-fear:luck", "situation:law-given:one-left",
                    "situation:law-taken:several-left",
                    "situation:pride-luck-round-end:nothing-to-discard",
                    "situation:ends-game:pride", "situation:last:dream"):
        assert feature in SITUATIONS


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
    for vector in _omens_vectors():
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
    assert claimed >= 2 * 700


_PLACES = {0: "last", 1: "second-to-last"}


def _placed_with_placement(vector: dict[str, Any]) -> list[list[tuple[str, str]]]:
    """Each bout's effect cards in the order placed, with where each was placed relative to
    the players still to play: read from the actions alone (a seat's first placement in a
    bout is its turn; Wrath's replacement and Betrayal's gift come from a seat that has had
    its turn). Only for vectors where Dream's target's placement is its turn."""
    players = vector["position"]["players"]
    bouts: list[list[tuple[str, str]]] = [[]]
    turned: set[int] = set()
    count = 0
    for step in vector["steps"]:
        for part in step["action"].split("&"):
            action = parse_action(part.strip())
            placed = []
            if action.verb is Verb.PLAY:
                placed.append(action.card)
            if action.choice and action.choice[0] == "take":
                placed.append(int(action.choice[2]))
            for card in placed:
                seat = action.seat
                if count == 0:
                    where = "first"
                else:
                    still = players - len(turned | {seat})
                    where = _PLACES.get(still, "middle")
                turned.add(seat)
                count += 1
                name = effect_name(card)
                if name is not None:
                    bouts[-1].append((name, where))
        if "state" in step:
            bouts.append([])
            turned, count = set(), 0
    return bouts


def test_every_placement_claim_is_read_from_the_actions() -> None:
    """Each pair x placement a vector's `covers` claims is in its actions: the two effects
    in that order in one bout, the immediate one placed first, with two or more, one or no
    players still to play, as claimed."""
    claimed = 0
    for vector in _omens_vectors():
        claims = [f for f in vector.get("covers", []) if f.startswith("placement:")]
        if not claims or vector["options"]["settings"]["dream_target_turn"] != (
                "placement_is_turn"):
            continue
        found = set()
        for bout in _placed_with_placement(vector):
            for i, (first, first_where) in enumerate(bout):
                for second, second_where in bout[i + 1:]:
                    if first == second:
                        continue
                    for now, where in ((first, first_where), (second, second_where)):
                        if now in NOW_EFFECTS:
                            found.add(f"placement:{first}>{second}:{now}@{where}")
        assert set(claims) <= found, (vector["id"], sorted(set(claims) - found))
        claimed += len(claims)
    assert claimed >= 2 * 1200


def test_the_gamepark_vectors_show_pride_unless_luck_discarded() -> None:
    """The published digital adaptation (preset gamepark): Pride's choice starts the next round
    unless Luck was discarded in the bout that ended it, even when Luck's player had nothing to
    discard (rules 000, "End of a Round"; "Luck"; "Fear")."""
    examples = {v["id"]: v for v in _vectors("omens/rulebook", "examples")}
    across = examples["omens.example.gamepark-pride-across-the-round-end"]
    luck = examples["omens.example.gamepark-luck-ends-the-round"]
    nothing = examples["omens.example.gamepark-luck-with-nothing-to-discard"]
    for vector, leader in ((across, 3), (luck, 2), (nothing, 2)):
        assert vector["options"]["settings"]["pride_next_round"] == "unless_luck_discarded"
        final = vector["steps"][-1]["state"]
        assert final["next_leader"] == leader
        setup = setup_from_json(vector["options"], vector["position"])
        replayed = record(setup.start(), [step["action"] for step in vector["steps"]])
        assert state_view(replayed.final) == final
    witnesses = {v["id"] for v in _vectors("omens/rulebook", "witnesses")}
    for setting, other in itertools.permutations(
            ("no", "yes", "unless_luck", "unless_luck_discarded"), 2):
        assert f"omens.witness.pride_next_round.{setting}.vs-{other}" in witnesses


def test_every_vector_cites_known_rule_ids_and_a_rulebook_passage() -> None:
    for vector in _omens_vectors():
        assert set(vector["rules"]) <= set(RULES), vector["id"]
        assert "000" in vector["why"] or "Rule text" in vector["why"], vector["id"]


def _random_situations(preset: str, lines: int) -> set[str]:
    """The situations random lines meet (the starts and the favoured cards of ``vectors fuzz``,
    every action drawn from the legal ones), under a preset's settings."""
    from omen_solver.vectors.fuzz import random_start
    from omen_solver.vectors.omens_features import BoutTrack, step_features
    from omen_solver.vectors.omens_record import start_state
    from omen_solver.vectors.settings import options_json, preset_settings

    options = options_json("omens", preset_settings("omens", preset), preset)
    seen: set[str] = set()
    for index in range(lines):
        rng = random.Random(f"situations-{index}")
        _, position, favoured = random_start(rng)
        state = start_state(options, position, "test")
        bout = BoutTrack()
        for _ in range(400):
            if state.is_terminal():
                break
            moves = state.moves()
            preferred = [m for m in moves if any(a.card in favoured for a in m)]
            move = rng.choice(preferred if preferred and rng.random() < 0.75 else moves)
            after, trace = state.explain(move)
            bout, features = step_features(state, move, after, trace, bout)
            seen |= {f for f in features if f.startswith("situation:")}
            state = after
    return seen


@pytest.mark.parametrize("preset", ["rulebook", "gamepark"])
@pytest.mark.parametrize("lines", [120, pytest.param(1500, marks=pytest.mark.slow)])
def test_random_play_meets_no_situation_the_coverage_calls_impossible(preset: str, lines: int
                                                                      ) -> None:
    """The readings behind the impossible situations (docs/vectors.md: a hand emptied in a bout,
    rules 000 "Game Sequence"; Dream's target, "Dream"; Law given back, option
    betrayal_give_back) hold in random play; and 1,500 lines meet every situation called
    possible (the slow tier)."""
    from omen_solver.vectors.omens_mine import possible_situations
    from omen_solver.vectors.settings import preset_settings

    possible, _ = possible_situations(preset_settings("omens", preset))
    seen = _random_situations(preset, lines)
    assert seen <= possible, sorted(seen - possible)
    if lines >= 1500:
        assert possible <= seen, sorted(possible - seen)


def _line_situations(text: str, moves: list[str]) -> list[set[str]]:
    """The situations each step of a line from a one-line position brings."""
    from omen_solver.core.positions import load
    from omen_solver.vectors.omens_features import BoutTrack, step_features

    state = load(text)
    bout = BoutTrack()
    found = []
    for text_move in moves:
        move = state.parse_move(text_move)
        after, trace = state.explain(move)
        bout, features = step_features(state, move, after, trace, bout)
        found.append({f for f in features if f.startswith("situation:")})
        state = after
    return found


def test_the_turn_passing_the_last_seat_is_a_situation_by_kind_of_placement() -> None:
    """Rules 000, "Game Sequence" (clockwise from the leader) and "Betrayal": seat 2 leads, so
    once seat 4 has played seat 1 is the next to play; seat 4's Betrayal (a turn) gives Law,
    which seat 2 then resolves with seat 1 still to play."""
    steps = _line_situations("omens 5,6/7,8/9,10/29,15,16 teams=1,3/2,4 lead=2",
                             ["2:7", "3:9", "4:29 take 7 give 15"])
    assert not any(f.startswith("situation:wraps:") for f in steps[0] | steps[1])
    assert {"situation:wraps:betrayal:turn", "situation:wraps:law:betrayal-gift"} <= steps[2]


def test_a_placement_under_law_counts_where_the_constraint_decides() -> None:
    """Rules 000, "Law" (follow it if the hand allows) and "Betrayal" (taking Law ends its
    constraint): a placement under Law counts only from cards on both sides of 15, and
    Betrayal's gift after it takes Law is a situation of its own."""
    text = "omens 15,6/17,20,18/9,10/29,3,16 teams=1,3/2,4 lead=1"
    assert not any("under-law" in f for f in _line_situations(text, ["1:15 higher", "2:20"])[1])
    text = "omens 15,6/7,20,8/9,10/29,3,16 teams=1,3/2,4 lead=1"
    line = ["1:15 higher", "2:20", "3:9"]
    gift = _line_situations(text, [*line, "4:29 take 20 give 16"])[-1]
    assert {"situation:under-law:turn", "situation:under-law:betrayal-gift"} <= gift
    freed = _line_situations(text, [*line, "4:29 take 15 give 3"])[-1]
    assert "situation:under-law:betrayal-gift-law-taken" in freed
    assert "situation:under-law:betrayal-gift" not in freed
