"""Fixtures of the game-agnostic tests: the toy games are registered (``game = "toy"`` in
position files) for the duration of each test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from core_toys import TOY_DESCRIPTORS

from omen_solver.core.game import registered

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    with ExitStack() as stack:
        for game in TOY_DESCRIPTORS:
            stack.enter_context(registered(game))
        yield


@pytest.fixture
def data_dir() -> Path:
    return DATA
