"""Fixtures of the game-agnostic tests: the toy game is registered as ``game = "toy"``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from core_toys import load_toy

from omen_solver.core.positions import GAME_LOADERS

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(GAME_LOADERS, "toy", load_toy)
    yield


@pytest.fixture
def data_dir() -> Path:
    return DATA
