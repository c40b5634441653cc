"""A test's way to show that a walk does not recurse: Python's recursion limit a hundred or
so frames above the caller's, so that a walk recursing once per ply could not get past a few
dozen plies (``tests/core/test_deep_walks.py``, ``tests/omen/test_endgame_depth.py``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["few_frames"]


def _frames() -> int:
    frame: Any = sys._getframe()
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


@contextmanager
def few_frames(room: int = 100) -> Iterator[None]:
    """Python's recursion limit at ``room`` frames above the caller's."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(_frames() + room)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
