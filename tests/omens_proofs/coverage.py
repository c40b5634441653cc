"""Counters shared by the differential tests and the terminal summary."""

from __future__ import annotations

from collections import Counter

COVERAGE: Counter[str] = Counter()
"""Bouts compared, by kind: ``whole bouts`` (random bouts played by the engine and by the
model), ``placements`` (their placements), ``ends of bouts`` (every small set of cards in
play, the end of the bout alone)."""
