"""Confidence intervals for rates of results in [0, 1]: the Wilson score interval, shared by
the evaluation's estimates (:mod:`omen_solver.omens.kernel.estimate`) and the surveys
(:mod:`omen_solver.survey.stats`)."""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Final

__all__ = ["CONFIDENCE", "wilson"]

CONFIDENCE: Final = 0.95


def wilson(successes: float, count: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional); (0, 1)
    when there is nothing to count."""
    if count <= 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / count
    denominator = 1 + z * z / count
    centre = (p + z * z / (2 * count)) / denominator
    half = z * math.sqrt(max(p * (1 - p), 0.0) / count + z * z / (4 * count * count)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
