"""Traceability: every rule id is exercised by some test, every trace cites a known id, and
the generated documentation pages are up to date."""

from __future__ import annotations

import ast
from pathlib import Path

from omen_solver.omens.docgen import options_page, rules_page
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.state import OmensState

from .test_stateful import OmensGames  # noqa: F401  (a module that exercises the engine)

HERE = Path(__file__).parent
DOCS = HERE.parent.parent / "docs"


def _claimed_ids() -> set[str]:
    """The ids named in ``@pytest.mark.rules(...)`` markers of the Omens tests."""
    claimed: set[str] = set()
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "rules"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "mark"
            ):
                claimed.update(
                    arg.value
                    for arg in node.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                )
    return claimed


def test_every_rule_id_is_exercised_by_a_test() -> None:
    """Each test's marker is checked at run time (conftest): its traces produce those ids."""
    claimed = _claimed_ids()
    assert not claimed - set(RULES), f"unknown ids claimed: {sorted(claimed - set(RULES))}"
    assert not set(RULES) - claimed, f"ids no test exercises: {sorted(set(RULES) - claimed)}"


def test_every_traced_rule_id_is_known() -> None:
    from .helpers import play, position

    state = position({1: [21, 30, 12], 2: [17, 31, 13], 3: [19, 32, 16], 4: [18, 33, 14]})
    _, trace = play(state, "1:21>2", "2:17>1", "3:19", "4:18")
    assert trace and all(step.rule in RULES for step in trace)
    assert isinstance(state, OmensState)


def test_generated_pages_are_up_to_date() -> None:
    """Regenerate with ``python -m omen_solver.omens.docgen``."""
    assert (DOCS / "omens-rules.md").read_text(encoding="utf-8") == rules_page()
    assert (DOCS / "omens-options.md").read_text(encoding="utf-8") == options_page()
