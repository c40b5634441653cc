""""Did you mean": the known names closest to a misspelt one, for every message that refuses
a name (a rule option or setting, a command or flag, a card, a unit, a choice word).

Closeness is :func:`difflib.get_close_matches`' ratio (the standard library's; what Python
itself uses for ``NameError`` suggestions is similar), with the case ignored.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["CUTOFF", "closest", "did_you_mean"]

CUTOFF = 0.6
"""How alike a known name must be to be suggested (0 to 1; difflib's default)."""


def closest(word: str, known: Iterable[str], count: int = 3) -> list[str]:
    """The known names closest to ``word``, closest first (at most ``count``)."""
    names = list(dict.fromkeys(known))
    folded = {name.casefold(): name for name in reversed(names)}
    found = difflib.get_close_matches(word.casefold(), list(folded), n=count, cutoff=CUTOFF)
    return [folded[name] for name in found]


def did_you_mean(word: str, known: Iterable[str], count: int = 3) -> str:
    """``"did you mean 'x'?"`` (or ``'x' or 'y'``), or ``""`` when nothing is close."""
    found = closest(word, known, count)
    if not found:
        return ""
    return "did you mean " + " or ".join(repr(name) for name in found) + "?"
