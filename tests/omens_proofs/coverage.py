"""Counters shared by the differential tests and the terminal summary."""

from __future__ import annotations

from collections import Counter

COVERAGE: Counter[str] = Counter()
"""Bouts compared, by kind: ``end-of-bout`` (resolve_bout), ``played`` (whole bouts played
by the engine, hands and round end compared), ``exhaustive`` (every set of cards in play of a
bounded size)."""

SETTINGS: Counter[str] = Counter()
"""How often each ``option=setting`` was in force in a compared bout."""
