"""Random Omen endgame positions for tests and benchmarks: a few cards in hand, a few units
in the cities, a Reward or two left, a short deck partly known, partly shuffled.

Every card is drawn from the profile's copies without replacement, so a position never holds
more copies of a card than the catalogue (the position loader checks it anyway).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from omen_solver.omen.cards import default_catalogue
from omen_solver.omen.position import state_from_data
from omen_solver.omen.rules import PROFILES
from omen_solver.omen.state import OmenState

__all__ = ["random_endgame"]


def _copies(kind: str, profile: str, optional: bool) -> list[str]:
    catalogue = default_catalogue()
    cards = []
    for card in catalogue.of_kind(kind, PROFILES[profile].sets):
        if kind == "unit" and not optional and card.unit_type in ("Spirit", "Hero"):
            continue
        cards += [card.id] * card.copies
    return cards


def _side(rng: random.Random, units: list[str], most: int) -> list[str]:
    """Up to ``most`` units from the shuffled pool, within the city capacity."""
    catalogue = default_catalogue()
    side: list[str] = []
    size = 0
    for _ in range(rng.randint(0, most)):
        if not units:
            break
        card = units.pop()
        grow = 2 if catalogue[card].colossal else 1
        if size + grow > 5 or catalogue[card].unit_type == "Hero":
            units.insert(0, card)
            break
        side.append(card)
        size += grow
    return side


def random_endgame(profile: str, seed: int, *, step: str = "surge", deck_rest: int = 2,
                   rewards_left: int = 1, hand: int = 2) -> OmenState:
    """A position near the end of a game of ``profile`` (see the module docstring)."""
    rng = random.Random(seed)
    optional = profile.startswith("omega")
    units = _copies("unit", profile, optional)
    rewards = _copies("reward", profile, optional)
    rng.shuffle(units)
    rng.shuffle(rewards)
    cities: list[dict[str, Any]] = []
    with_rewards = set(rng.sample(range(3), rewards_left))
    for index in range(3):
        stack = [rewards.pop()] if index in with_rewards else []
        cities.append({"rewards": stack, "seat1": _side(rng, units, 3),
                       "seat2": _side(rng, units, 3)})
    def take(count: int) -> list[str]:
        return [units.pop() for _ in range(min(count, len(units)))]

    seats = {}
    for seat in ("1", "2"):
        seats[seat] = {"coins": rng.randint(0, 5), "hand": take(rng.randint(0, hand)),
                       "rewards_used": [rewards.pop()] if rng.random() < 0.5 else []}
    data: dict[str, Any] = {
        "game": "omen", "profile": profile,
        "rules": {"optional_units": "on"} if optional else {},
        "turn": {"active": rng.randint(1, 2), "step": step, "number": 20},
        "seat": seats, "city": cities,
        "deck": {"top": take(rng.randint(0, 2)), "shuffled": take(deck_rest),
                 "discard": take(rng.randint(0, 2))},
        "pool": {"rewards": [], "box": units + rewards},
    }
    return state_from_data(Path(f"random-endgame-{profile}-{seed}.toml"), data)
