"""Mining Omen vectors from the seed positions of ``data/omen-seeds.toml``.

Two sets: **examples** (a seed with moves: the moves, then the first legal action each time
until the turn ends) and **witnesses** (for every pair of settings of every rule option, the
first seed of that option where the two settings, walked in lockstep, differ: who acts, the
legal actions or the table; one vector per setting up to that step). Omen has two players and
a long turn, so there is no blind enumeration of positions here: the seeds are the positions
the rulebooks' disagreements are about (the table R1-R14 of the rules README and the options
beyond it).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from omen_solver.core.game import CHANCE
from omen_solver.core.options import describe
from omen_solver.errors import OmenSolverError
from omen_solver.omen.notation import Action
from omen_solver.omen.rules import DEFAULT_PROFILE, OmenRules
from omen_solver.omen.state import OmenState
from omen_solver.vectors.coverage import Coverage, Dimension
from omen_solver.vectors.omen_record import (
    explicit_position,
    omen_options_json,
    omen_record,
    omen_start,
    omen_state_view,
    omen_turn_view,
    omen_vector_json,
)
from omen_solver.vectors.omens_mine import MinedSet

__all__ = ["OmenMiner", "Seed", "load_seeds", "seed_position"]

_DEFAULT_REWARDS: Final = {
    "reign-of-war": (("ambrosia", "thunderbolt"), ("athenas-counsel", "winged-sandals"),
                     ("ares-fury", "call-of-hades")),
    "fires-in-the-east": (("lamassu",), ("ishtar-gate",), ("hanging-gardens",)),
}
"""The Rewards of a seed city that lists none: each city its own (as the test helpers), so no
card appears more often than the catalogue holds it."""
_MAX_TURN_STEPS: Final = 200
_LOCKSTEP_NODES: Final = 5_000
_MAX_DEPTH: Final = 12

_UNSEEDED: Final = {
    "stat_colours": "the setting changes how a card file's colour-keyed stats are read; the "
    "demonstration cards name their stats, so no position of the shipped catalogue tells the "
    "settings apart (tests/omen/test_rules_table.py checks it with a card file of its own)",
    "optional_units": "the setting decides which units a new game deals and whether a "
    "position may hold Spirits and Heroes at all; a position valid under both settings plays "
    "the same (tests/omen/test_rule_gaps.py checks the deal and the refusal)",
}


@dataclass(frozen=True)
class Seed:
    id: str
    option: str | None
    why: str
    source: str
    profile: str
    rules: Mapping[str, str]
    data: Mapping[str, Any]
    moves: tuple[str, ...]
    until_turn_end: bool
    settings: tuple[str, ...] = ()
    """For an option seed: the settings it is for (a pair uses it only if it has one of
    them); empty: every pair."""


def _seed_position(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A position from a seed table, with the defaults of the test helpers (cards of any set,
    each city its own Rewards)."""
    turn = {"active": 1, "step": "surge", "number": 5, **raw.get("turn", {})}
    seats = {"1": dict(raw.get("seat", {}).get("1", {})), "2": dict(raw.get("seat", {})
                                                                   .get("2", {}))}
    profile = raw.get("profile", DEFAULT_PROFILE)
    rewards = _DEFAULT_REWARDS["fires-in-the-east" if profile.startswith("fires") else
                               "reign-of-war"]
    cities = [{"rewards": list(rewards[index]), **dict(city)}
              for index, city in enumerate(raw.get("city", [{}] * 3))]
    return {
        "game": "omen",
        "sets": raw.get("sets", "all"),
        "turn": turn,
        "seat": seats,
        "city": cities,
        "deck": {"shuffled": [], **raw.get("deck", {})},
        "pool": {"rewards": [], **raw.get("pool", {})},
    }


def load_seeds() -> list[Seed]:
    text = resources.files("omen_solver.vectors").joinpath("data/omen-seeds.toml")
    data = tomllib.loads(text.read_text(encoding="utf-8"))
    seeds = []
    for raw in data["seed"]:
        seeds.append(
            Seed(
                id=raw["id"],
                option=raw.get("option"),
                why=raw.get("why", ""),
                source=raw.get("source", ""),
                profile=raw.get("profile", DEFAULT_PROFILE),
                rules=dict(raw.get("rules", {})),
                data=_seed_position(raw),
                moves=tuple(raw.get("moves", ())),
                until_turn_end=raw.get("until") == "turn",
                settings=tuple(raw.get("settings", ())),
            )
        )
    return seeds


def seed_position(seed: Seed, overrides: Mapping[str, str]) -> dict[str, Any]:
    data = {**seed.data, "profile": seed.profile, "rules": dict(overrides)}
    explicit = explicit_position(data)
    explicit.pop("rules", None)
    return explicit


def _observe(state: OmenState) -> tuple[Any, ...]:
    view = omen_turn_view(state)
    return (view["to_act"], tuple(sorted(view["legal"])), omen_state_view(state))


def _describe(first: tuple[Any, ...], second: tuple[Any, ...], names: tuple[str, str]) -> str:
    """What differs between two observations, in words."""
    a, b = names
    if first[0] != second[0]:
        return f"to act: {first[0]} under {a}, {second[0]} under {b}"
    if first[1] != second[1]:
        only_a = sorted(set(first[1]) - set(second[1]))
        only_b = sorted(set(second[1]) - set(first[1]))
        return (f"legal actions: under {a} also {', '.join(only_a) or 'nothing'}; under {b} "
                f"also {', '.join(only_b) or 'nothing'}")
    keys = [key for key in first[2] if first[2][key] != second[2][key]]
    return "; ".join(_field_difference(key, first[2][key], second[2][key], names)
                     for key in keys)


def _field_difference(key: str, first: Any, second: Any, names: tuple[str, str]) -> str:
    """One state field that differs, with both values when they are short."""
    shown = (json.dumps(first), json.dumps(second))
    if max(map(len, shown)) > 80:
        return f"{key} differ (compare the states of the two vectors)"
    return f"{key}: {shown[0]} under {names[0]}, {shown[1]} under {names[1]}"


class _Lockstep:
    """Walk two states with the same action texts until they differ: iterative deepening, so
    the shortest difference is found first (the seed's ``moves`` are tried first at each
    depth; chance events follow their first outcome)."""

    def __init__(self, preferred: Sequence[str]) -> None:
        self.preferred = preferred
        self.nodes = 0

    def search(self, a: OmenState, b: OmenState
               ) -> tuple[list[str], tuple[Any, ...], tuple[Any, ...]] | None:
        for depth in range(_MAX_DEPTH + 1):
            found = self._run(a, b, [], depth)
            if found is not None or self.nodes >= _LOCKSTEP_NODES:
                return found
        return None

    def _run(self, a: OmenState, b: OmenState, path: list[str], depth: int
             ) -> tuple[list[str], tuple[Any, ...], tuple[Any, ...]] | None:
        self.nodes += 1
        seen_a, seen_b = _observe(a), _observe(b)
        if seen_a != seen_b:
            return path, seen_a, seen_b
        if a.is_terminal() or len(path) >= depth or self.nodes >= _LOCKSTEP_NODES:
            return None
        actions: list[Action] = list(a.legal_actions())
        if a.current_player() == CHANCE:
            actions = actions[:1]
        if len(path) < len(self.preferred):
            wanted = self.preferred[len(path)]
            actions.sort(key=lambda action: 0 if str(action) == wanted else 1)
        for action in actions:
            text = str(action)
            child_b = b.child(b.string_to_action(text))
            found = self._run(a.child(action), child_b, [*path, text], depth)
            if found is not None:
                return found
        return None


def _until_turn_end(state: OmenState, moves: list[str]) -> list[str]:
    """Moves, then the first legal action each time until the turn (or the game) ends."""
    start_turn = state.turn.number
    for text in moves:
        state = state.child(state.string_to_action(text))
    moves = list(moves)
    for _ in range(_MAX_TURN_STEPS):
        if state.is_terminal() or state.turn.number != start_turn:
            return moves
        action = state.legal_actions()[0]
        moves.append(str(action))
        state = state.child(action)
    raise OmenSolverError(f"the turn does not end within {_MAX_TURN_STEPS} steps")


def _dimensions() -> tuple[Dimension, ...]:
    settings = frozenset(
        f"option:{spec.name}={setting}"
        for spec in describe(OmenRules)
        for setting in spec.settings
    )
    return (
        Dimension(
            "option",
            "rule option settings, each in a vector where it plays differently from another "
            "setting of the same option",
            settings,
            " ".join(f"{name}: {why}." for name, why in _UNSEEDED.items()),
        ),
        Dimension(
            "rule",
            "rule ids of the Omen engine's trace (no fixed table: the count of those seen)",
            None,
        ),
    )


class OmenMiner:
    """Builds the Omen vector sets and their coverage."""

    def __init__(self) -> None:
        self.seeds = load_seeds()
        self.coverage = Coverage(_dimensions())

    def _keep(self, mined: MinedSet, vector: dict[str, Any], features: set[str]) -> None:
        covers = self.coverage.new(features)
        self.coverage.add(features, vector["id"])
        if covers:
            vector = {**vector}
            keys = list(vector)
            index = keys.index("cards") + 1
            items = list(vector.items())
            items.insert(index, ("covers", covers))
            vector = dict(items)
        mined.vectors.append(vector)

    def examples(self) -> MinedSet:
        mined = MinedSet(
            "examples",
            "Positions of the rulebooks' rules played out to the end of the turn "
            "(omen_solver/vectors/data/omen-seeds.toml).",
        )
        for seed in self.seeds:
            if seed.option is not None:
                continue
            options = omen_options_json(seed.profile, seed.rules)
            position = seed_position(seed, seed.rules)
            start = omen_start(options, position, f"seed {seed.id}")
            moves = _until_turn_end(start, list(seed.moves)) if seed.until_turn_end else list(
                seed.moves)
            recording = omen_record(start, moves)
            vector = omen_vector_json(
                f"omen.example.{seed.id}", seed.why, seed.source, options, position, recording
            )
            self._keep(mined, vector, {f"rule:{r}" for r in recording.rules()})
        return mined

    def witness_vectors(self) -> MinedSet:
        mined = MinedSet(
            "witnesses",
            "For every pair of settings of every rule option, a position and moves where the "
            "two settings play differently, one vector per setting.",
        )
        specs = {spec.name: spec for spec in describe(OmenRules)}
        for name, spec in specs.items():
            seeds = [seed for seed in self.seeds if seed.option == name]
            if not seeds:
                if name not in _UNSEEDED:
                    raise OmenSolverError(f"omen-seeds.toml: no seed for the option {name!r}")
                continue
            settings = list(spec.settings)
            for index, first in enumerate(settings):
                for second in settings[index + 1:]:
                    for vector, features in self._pair(seeds, name, (first, second)):
                        self._keep(mined, vector, features)
        return mined

    def _pair(self, seeds: Sequence[Seed], name: str, pair: tuple[str, str]
              ) -> Iterator[tuple[dict[str, Any], set[str]]]:
        spec = next(s for s in describe(OmenRules) if s.name == name)
        for seed in seeds:
            if seed.settings and not set(seed.settings) & set(pair):
                continue
            overrides = [{**seed.rules, name: setting} for setting in pair]
            options = [omen_options_json(seed.profile, o) for o in overrides]
            positions = [seed_position(seed, o) for o in overrides]
            starts = [omen_start(o, p, f"seed {seed.id}") for o, p in zip(options, positions,
                                                                         strict=True)]
            found = _Lockstep(seed.moves).search(starts[0], starts[1])
            if found is None:
                continue
            moves, seen_a, seen_b = found
            difference = _describe(seen_a, seen_b, pair)
            for setting, other, option_json, position, start in zip(
                pair, pair[::-1], options, positions, starts, strict=True
            ):
                recording = omen_record(start, moves)
                why = (
                    f"Rule option {name} = {setting} ({spec.question}: "
                    f"{spec.summary.rstrip('.')}): {spec.settings[setting]}. Under {other} "
                    f"({spec.settings[other]}) the same moves play differently: {difference}. "
                    f"Rule text: {spec.source}."
                )
                vector = omen_vector_json(
                    f"omen.witness.{name}.{setting}.vs-{other}", why,
                    f"option witness (seed {seed.id} of omen-seeds.toml)", option_json,
                    position, recording,
                )
                features = {f"rule:{r}" for r in recording.rules()}
                features.add(f"option:{name}={setting}")
                yield vector, features
            return
        raise OmenSolverError(
            f"omen-seeds.toml: no seed of option {name!r} shows a difference between "
            f"{pair[0]!r} and {pair[1]!r}"
        )


