"""df-pn's seed fitted offline (``Tuning.seed_model``): a logistic regression that gives the
probability that the side that proves wins a bout start for sure, from what a bout start's
hands say at a glance.

The coefficients are data (``omens/data/seed_model.toml``), fitted by
``benchmarks/fit_seed.py`` on bout starts the kernel solved exactly; ``_ckernel.c``
(``seed_model_p``) computes the same features in the same order with the same numbers, so
both kernels seed alike (``tests/omens_kernel/test_seed_model.py``, ``test_tuning.py``).
``docs/benchmarks.md``, "A seed fitted offline", has the data set, the fit and what the seed
does in the search.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Final

from omen_solver.omens.kernel.machine import KState
from omen_solver.omens.kernel.spec import E_ABSOLUTE, E_MIRROR, E_SADNESS, Spec

__all__ = ["FEATURES", "coefficients", "features", "model_wins", "probability"]

FEATURES: Final = (
    "bias", "near_a1", "near_a2", "near_d1", "near_d2", "cards_a", "cards_d", "seats_near_a",
    "seats_near_d", "top_a", "top_near_a", "top_near_d", "near_a1_top", "near_d1_top",
    "near_top_gap", "lead_a", "abs_a", "abs_d", "mirror_a", "mirror_d", "sadness_a",
    "sadness_d", "low_a")
"""The model's inputs, in the order of its coefficients: for the side that proves (``a``)
and the others (``d``), whether the nearest player must still lose 1 or 2 cards to hold one
(``near_*``), the cards the side holds (a quarter each), its players that near (a half each),
whether the side holds the highest card in hand (``top_a``), whether a nearest player of a
side holds it (``top_near_*``, and with ``near_*1`` too), the gap between the highest cards
of the two sides' nearest players (an eighth a rank), whether the side leads, the Absolutes
each side holds (a half each), who holds Mirror and Sadness, whether the side holds the lowest
card in hand."""


@cache
def coefficients() -> tuple[float, ...]:
    """The shipped model's coefficients, one a feature."""
    text = resources.files("omen_solver.omens").joinpath("data/seed_model.toml").read_text(
        "utf-8")
    values = tuple(float(c) for c in tomllib.loads(text)["coefficients"])
    if len(values) != len(FEATURES):  # pragma: no cover - the shipped file is checked
        raise ValueError(f"seed_model.toml: {len(FEATURES)} coefficients, not {len(values)}")
    return values


def features(hands: Sequence[int], side: Sequence[bool], leader: int, absolutes: int,
             mirror: int, sadness: int) -> list[float]:
    """A bout start's :data:`FEATURES` for the seats ``side`` (the side that proves):
    ``hands`` each seat's hand as a bit set of ranks; ``absolutes``, ``mirror`` and
    ``sadness`` the ranks of those effects, as bit sets (any catalogue: none of them may be
    there)."""
    near = [99, 99]  # [the others, the side]
    cards = [0, 0]
    held = [0, 0]
    for seat, hand in enumerate(hands):
        if hand:
            a = int(side[seat])
            near[a] = min(near[a], hand.bit_count() - 1)
            cards[a] += hand.bit_count()
            held[a] |= hand
    every = held[0] | held[1]
    top = 1 << (every.bit_length() - 1) if every else 0
    low = every & -every
    seats_near = [0, 0]
    near_top = [-1, -1]  # the highest rank a nearest player of each side holds
    top_near = [0, 0]
    for seat, hand in enumerate(hands):
        a = int(side[seat])
        if hand and hand.bit_count() - 1 == near[a]:
            seats_near[a] += 1
            near_top[a] = max(near_top[a], hand.bit_length() - 1)
            if hand & top:
                top_near[a] = 1
    d, a = held
    return [1.0, float(near[1] == 1), float(near[1] == 2), float(near[0] == 1),
            float(near[0] == 2), cards[1] / 4, cards[0] / 4, seats_near[1] / 2,
            seats_near[0] / 2, float(bool(a & top)), float(top_near[1]), float(top_near[0]),
            float(near[1] == 1 and top_near[1]), float(near[0] == 1 and top_near[0]),
            (near_top[1] - near_top[0]) / 8, float(side[leader % len(hands)]),
            (a & absolutes).bit_count() / 2, (d & absolutes).bit_count() / 2,
            float(bool(a & mirror)), float(bool(d & mirror)), float(bool(a & sadness)),
            float(bool(d & sadness)), float(bool(a & low))]


def probability(spec: Spec, state: KState, side: Sequence[bool]) -> float:
    """The model's probability that ``side`` wins the bout start ``state`` for sure (summed
    in :data:`FEATURES`' order, as ``_ckernel.c``: seed_model_p)."""
    x = features(state.hands[:spec.players], side, state.leader, spec.effect_mask[E_ABSOLUTE],
                 spec.effect_mask[E_MIRROR], spec.effect_mask[E_SADNESS])
    z = 0.0
    for c, v in zip(coefficients(), x, strict=True):
        z += c * v
    return 1.0 / (1.0 + math.exp(-z))


def model_wins(spec: Spec, state: KState, side: Sequence[bool], count: int) -> int:
    """The model's probability as wins of ``count`` playouts, rounded half up (C's lround)."""
    return math.floor(count * probability(spec, state, side) + 0.5)
