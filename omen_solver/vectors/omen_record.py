"""Omen vectors: a position, an action sequence, and what this library's engine says must hold
after every step.

The position is an Omen position file (``docs/omen.md``) as JSON with every zone listed, so
an engine that does not know this library's defaults ("the rest of the profile's cards") can
set it up: the shuffled deck, the Reward, Relic and Challenge pools, the Feats, the coin
supply and the VP tokens. After every step a vector states who acts and the legal actions
(chance outcomes at a chance node); at the start, at every turn end and after the last step it
also states the table (:func:`state_view`): coins, hands, cities, Rewards, Feats, scores and
the result.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omen_solver.core.game import CHANCE, TraceStep
from omen_solver.errors import OmenSolverError
from omen_solver.omen.cards import default_catalogue
from omen_solver.omen.notation import parse_action
from omen_solver.omen.position import DEFAULT_TURN_NUMBER, state_from_data
from omen_solver.omen.rules import (
    DEFAULT_PROFILE,
    PROFILES,
    Challenges,
    OptionalUnits,
    PortentAndFeats,
    Relics,
    make_rules,
)
from omen_solver.omen.setup import OPTIONAL_TYPES, VP_TOKENS
from omen_solver.omen.state import OmenState
from omen_solver.omen.summary import state_summary
from omen_solver.omen.zones import HIDDEN

__all__ = [
    "OmenRecording",
    "explicit_position",
    "omen_options_json",
    "omen_record",
    "omen_recorded_steps",
    "omen_start",
    "omen_state_view",
    "omen_turn_view",
]


def omen_options_json(profile: str, overrides: Mapping[str, str]) -> dict[str, Any]:
    rules = make_rules(profile, overrides, where="options.overrides")
    return {
        "profile": profile,
        "overrides": dict(sorted(overrides.items())),
        "settings": rules.as_dict(),
    }


def omen_start(options: Mapping[str, Any], position: Mapping[str, Any], where: str) -> OmenState:
    """The state of a vector's options and position (``rules`` spelled out in full)."""
    data = copy.deepcopy(dict(position))
    data["profile"] = options["profile"]
    data["rules"] = dict(options["settings"])
    try:
        return state_from_data(Path(where), data)
    except OmenSolverError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise OmenSolverError(f"{where}: not an Omen position: {error}") from None


def explicit_position(data: Mapping[str, Any]) -> dict[str, Any]:
    """The position with every zone listed (no "rest" default left), checked to describe the
    same state as ``data``."""
    explicit = copy.deepcopy(dict(data))
    explicit.pop("moves", None)
    profile = explicit.setdefault("profile", DEFAULT_PROFILE)
    rules = make_rules(profile, explicit.get("rules", {}))
    catalogue = default_catalogue().resolve(rules.stat_colours)
    extra = explicit.get("sets", [])
    sets = tuple(dict.fromkeys((*PROFILES[profile].sets,
                                *(catalogue.sets() if extra == "all" else extra))))
    removed = OPTIONAL_TYPES if rules.optional_units == OptionalUnits.OFF else ()
    seats = explicit.setdefault("seat", {})
    for seat in ("1", "2"):
        seats.setdefault(seat, {})
    pool = explicit.setdefault("pool", {})
    deck = explicit.setdefault("deck", {})
    turn = explicit.setdefault("turn", {})
    box = list(pool.get("box", []))
    seen: Counter[str] = Counter(box)
    for player in seats.values():
        for key in ("hand", "rewards", "rewards_unused", "rewards_used", "feats",
                    "feats_rotated", "challenges", "rituals"):
            seen.update(player.get(key, []))
    for city in explicit.get("city", []):
        for side in ("seat1", "seat2"):
            seen.update(unit.removesuffix("!") for unit in city.get(side, []))
        seen.update(card for card in city.get("rewards", []) if card != HIDDEN)
        if city.get("relic"):
            seen[city["relic"]] += 1
    seen.update(deck.get("top", []))
    seen.update(deck.get("discard", []))

    def rest(kind: str) -> list[str]:
        cards: list[str] = []
        for card in catalogue.of_kind(kind, sets):
            if card.unit_type not in removed:
                cards += [card.id] * max(card.copies - seen[card.id], 0)
        return sorted(cards)

    if "relics" not in pool:
        pool["relics"] = rest("relic") if rules.relics == Relics.ON else []
    if "challenges" not in pool:
        pool["challenges"] = rest("challenge") if rules.challenges == Challenges.ON else []
    if "feats" not in pool:
        feats = [c.id for c in catalogue.of_kind("feat", sets)]
        pool["feats"] = feats if rules.portent_and_feats == PortentAndFeats.ON else []
    for key, kind in (("shuffled", "unit"),):
        if deck.get(key, "rest") == "rest":
            deck[key] = rest(kind)
    if pool.get("rewards", "rest") == "rest":
        pool["rewards"] = rest("reward")
    pool["box"] = box
    coins = sum(int(player.get("coins", 0)) for player in seats.values())
    turn.setdefault("supply", int(rules.coin_supply) - coins)
    tokens = sum(int(player.get("vp_tokens", 0)) for player in seats.values())
    turn.setdefault("vp_tokens", VP_TOKENS - tokens)
    for key in ("active", "step", "number"):
        turn.setdefault(key, {"active": 1, "step": "wealth", "number": DEFAULT_TURN_NUMBER}[key])
    turn.setdefault("first", turn["number"] == 1)
    original = state_from_data(Path("<explicit>"), {**data, "moves": []})
    again = state_from_data(Path("<explicit>"), explicit)
    if original.key() != again.key():
        raise OmenSolverError("the explicit position does not describe the same state")
    return explicit


def omen_state_view(state: OmenState) -> dict[str, Any]:
    """The table as the vectors state it."""
    summary = state_summary(state)
    return {
        "turn": summary["turn"],
        "active": summary["active_player"],
        "step": summary["step"],
        "coins": summary["coins"],
        "supply": summary["supply"],
        "hands": summary["hands"],
        "rewards": summary["rewards"],
        "feats": summary["feats"],
        "cities": [
            {key: city[key] for key in ("rewards", "seat1", "seat2", "relic")}
            for city in summary["cities"]
        ],
        "scores": summary["scores"],
        "over": summary["game_over"],
        "winner": summary["winner"],
        "shared_victory": summary["shared_victory"],
    }


def omen_turn_view(state: OmenState) -> dict[str, Any]:
    """Who acts (a seat, ``"chance"``, None when the game is over) and the legal actions."""
    player = state.current_player()
    to_act: int | str | None
    if state.is_terminal():
        to_act = None
    elif player == CHANCE:
        to_act = "chance"
    else:
        to_act = player + 1
    return {"to_act": to_act, "legal": [str(action) for action in state.legal_actions()]}


def _cards_of(text: str) -> Iterable[str]:
    action = parse_action(text)
    for arg in action.args:
        if "@" in arg:
            yield arg.split(":", 1)[1].removesuffix("!")
        elif arg not in ("card", "coin", "1", "2", "3"):
            yield arg


@dataclass
class OmenRecording:
    """A played Omen sequence."""

    start: OmenState
    moves: list[str] = field(default_factory=list)
    states: list[OmenState] = field(default_factory=list)
    traces: list[tuple[TraceStep, ...]] = field(default_factory=list)

    def rules(self) -> list[str]:
        cited = {step.rule for step in self.start.trace}
        cited |= {step.rule for trace in self.traces for step in trace}
        return sorted(cited)

    def cards(self) -> list[str]:
        return sorted({card for move in self.moves for card in _cards_of(move)})

    def steps_json(self) -> list[dict[str, Any]]:
        steps = []
        previous = self.start
        for index, (move, state) in enumerate(zip(self.moves, self.states, strict=True)):
            step: dict[str, Any] = {"action": move, **omen_turn_view(state)}
            turn_over = state.is_terminal() or state.turn.number != previous.turn.number
            if turn_over or index == len(self.moves) - 1:
                step["state"] = omen_state_view(state)
            steps.append(step)
            previous = state
        return steps


def omen_record(start: OmenState, moves: Sequence[str]) -> OmenRecording:
    recording = OmenRecording(start)
    state = start
    for text in moves:
        state = state.child(state.string_to_action(text))
        recording.moves.append(text)
        recording.states.append(state)
        recording.traces.append(state.trace)
    return recording


def omen_vector_json(
    vector_id: str,
    why: str,
    source: str,
    options: Mapping[str, Any],
    position: Mapping[str, Any],
    recording: OmenRecording,
    covers: Sequence[str] = (),
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": vector_id,
        "game": "omen",
        "why": why.strip(),
        "source": source,
        "rules": recording.rules(),
        "cards": recording.cards(),
    }
    if covers:
        data["covers"] = list(covers)
    data.update(
        {
            "options": dict(options),
            "position": dict(position),
            "start": {**omen_turn_view(recording.start),
                      "state": omen_state_view(recording.start)},
            "steps": recording.steps_json(),
        }
    )
    return data


def omen_recorded_steps(start: OmenState, moves: Sequence[str]) -> list[dict[str, Any]]:
    """The steps of ``moves`` played from ``start`` as a vector records them."""
    return omen_record(start, moves).steps_json()
