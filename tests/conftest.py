"""Test tiers: the default run is bounded; ``--runslow`` adds the exhaustive tiers."""

from __future__ import annotations

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None, print_blob=True)
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("default")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run the slow exhaustive tiers"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow exhaustive tier: run with --runslow (make test-slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)
