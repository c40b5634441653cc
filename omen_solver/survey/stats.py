"""Confidence intervals for rates.

Every rate here is the mean of values in [0, 1] (a team's value under best play is 1 or 0, or a
fraction where chance or a mixed strategy enters). The Wilson score interval is used: for a
variable bounded in [0, 1] with mean p the variance is at most p(1 - p), the Bernoulli variance
the interval assumes, so it is conservative for fractional values too.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from omen_solver.core.stats import CONFIDENCE, wilson

__all__ = ["CONFIDENCE", "Rate", "Tally", "rate", "wilson"]


@dataclass(frozen=True)
class Rate:
    """A mean of values in [0, 1] with its interval, and how many values were unknown."""

    total: Fraction
    count: int
    unknown: int = 0
    unknown_low: Fraction = Fraction(0)
    """The sum of the proven lower bounds of the unknown values."""
    unknown_high: Fraction | None = None
    """The sum of their proven upper bounds (``None``: each unknown is at most 1)."""

    @property
    def mean(self) -> float | None:
        return None if self.count == 0 else float(self.total / self.count)

    @property
    def span(self) -> tuple[float, float] | None:
        """With unknown values: the mean over every value, known or not, when each unknown
        lies anywhere within its proven bounds (``None`` when every value is known)."""
        if not self.unknown:
            return None
        every = self.count + self.unknown
        high = Fraction(self.unknown) if self.unknown_high is None else self.unknown_high
        return (float((self.total + self.unknown_low) / every),
                float((self.total + high) / every))

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(float(self.total), self.count)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "mean": None if self.mean is None else round(self.mean, 6),
            "low": round(low, 6),
            "high": round(high, 6),
            "count": self.count,
            "unknown": self.unknown,
            **({} if self.span is None else
               {"with_unknown_bounds": [round(v, 6) for v in self.span]}),
        }

    def text(self) -> str:
        """``0.62 [0.55, 0.69] (n=200)``; ``-`` when nothing is known."""
        if self.mean is None:
            return f"- (n=0, {self.unknown} unknown)" if self.unknown else "-"
        low, high = self.interval
        tail = ""
        if self.unknown:
            span = self.span
            assert span is not None
            tail = f", {self.unknown} unsettled: {span[0]:.3f} to {span[1]:.3f} with them"
        return f"{self.mean:.3f} [{low:.3f}, {high:.3f}] (n={self.count}{tail})"


def rate(values: list[Fraction | None]) -> Rate:
    """The rate of known values; ``None`` values are counted as unknown, never as 0 or 1."""
    known = [v for v in values if v is not None]
    return Rate(sum(known, Fraction(0)), len(known), len(values) - len(known))


class Tally:
    """A :class:`Rate` gathered one value at a time (memory does not grow with the values).

    Whole values (a round won or lost) are summed as integers, fractions apart, so that the
    many values of a large survey cost little."""

    __slots__ = ("count", "high", "low", "part", "unknown", "whole")

    def __init__(self) -> None:
        self.whole = 0
        self.part = Fraction(0)
        self.count = 0
        self.unknown = 0
        self.low = Fraction(0)
        self.high = Fraction(0)

    def add(self, value: Fraction | None,
            bounds: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))) -> None:
        """A known value, or (``None``) an unknown one with its proven bounds."""
        if value is None:
            self.unknown += 1
            self.low += bounds[0]
            self.high += bounds[1]
        else:
            if value.denominator == 1:
                self.whole += value.numerator
            else:
                self.part += value
            self.count += 1

    def rate(self) -> Rate:
        return Rate(self.part + self.whole, self.count, self.unknown, self.low, self.high)
