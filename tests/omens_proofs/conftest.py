"""Counts of what the z3-versus-engine differential tests covered, printed after the run."""

from __future__ import annotations

import pytest

from tests.omens_proofs.coverage import COVERAGE


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if any(COVERAGE.values()):
        shown = ", ".join(f"{name} {count:,}" for name, count in COVERAGE.items() if count)
        terminalreporter.write_line(f"z3 model vs engine, bouts compared: {shown}")
