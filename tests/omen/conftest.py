"""Omen tests: the random-game counters are printed in the terminal summary."""

from __future__ import annotations

import sys

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    module = sys.modules.get("tests.omen.test_stateful")
    games = getattr(module, "GAMES", None)
    if games and games["games"]:
        terminalreporter.write_line(
            f"Omen random play: {games['games']} games played to the end "
            f"({games['seeded']} seeded, {games['hypothesis']} drawn by Hypothesis; "
            f"{games['natural']} ended by the rulebook's end conditions, {games['limit']} by the "
            f"max_turns safety limit), {games['moves']} moves checked; by profile: "
            + ", ".join(f"{name} {count}" for name, count in sorted(games["profiles"].items()))
        )
