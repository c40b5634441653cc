"""Rule-id tracking: a test marked ``@pytest.mark.rules(...)`` must produce those rule ids in
the traces it explains (``test_rule_ids.py`` checks that every id is claimed by some test)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from omen_solver.core.game import TraceStep
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.state import OmensState


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rules(*ids): rule ids the test must exercise")


@pytest.fixture(autouse=True)
def _check_rule_ids(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    marker = request.node.get_closest_marker("rules")
    if marker is None:
        yield
        return
    seen: set[str] = set()
    original = OmensState.explain

    def recording(
        self: OmensState, move: OmensAction | Sequence[OmensAction]
    ) -> tuple[OmensState, list[TraceStep]]:
        state, steps = original(self, move)
        seen.update(step.rule for step in steps)
        return state, steps

    monkeypatch.setattr(OmensState, "explain", recording)
    yield
    missing = sorted(set(marker.args) - seen)
    assert not missing, f"the test claims rule ids its traces never produced: {missing}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests.omens.test_stateful import GAMES

    if GAMES["moves"]:
        terminalreporter.write_line(
            f"Omens random play: {GAMES['finished']} games finished, {GAMES['rounds']} rounds, "
            f"{GAMES['bouts']} bouts, {GAMES['moves']} moves checked"
        )
