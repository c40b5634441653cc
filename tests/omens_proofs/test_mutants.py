"""A handful of engine mutants, each killed by the detectors (the whole run is
``python -m tools.mutants``; its kill table is in docs/proofs.md)."""

from __future__ import annotations

import ast

import pytest

from tools.mutants import (
    LOGGING,
    METHOD_WRITES,
    NOT_RULES,
    PURE_CALLS,
    READ_EQUIVALENT,
    ROOT,
    SKIP_FUNCTIONS,
    TARGETS,
    _digest,
    _enclosing,
    _run_mutant,
    all_mutants,
    engine_functions,
    rule_functions,
)

SAMPLE = (
    # Law's constraint, rules file 000 "Law" and option law_binds: which placements it binds
    ("omen_solver/omens/state.py", "flip comparison", "Eq -> NotEq", "law_binds"),
    # Luck, rules file 000 "Luck": the card discarded from hand
    ("omen_solver/omens/state.py", "drop statement", "work.discard((card,))", ""),
    # Sadness, rules file 000 "Sadness": with two cards or more, the second-highest wins (the
    # vector sadness-two-cards: exactly two)
    ("omen_solver/omens/resolve.py", "flip comparison", "GtE -> Gt", "len(ordered) >= 2"),
)


def _pick(file: str, kind: str, what: str, line_has: str) -> tuple[object, str]:
    """The first mutant of this kind in ``file`` on a line holding ``line_has``."""
    lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
    for mutant, source in all_mutants():
        if (
            mutant.file == file
            and mutant.kind == kind
            and mutant.what.startswith(what)
            and line_has in lines[mutant.line - 1]
        ):
            return mutant, source()
    raise AssertionError(f"no mutant {kind} {what} in {file} on a line with {line_has!r}")


@pytest.mark.parametrize(("file", "kind", "what", "line_has"), SAMPLE)
def test_a_mutant_is_killed_and_the_engine_is_untouched(
    file: str, kind: str, what: str, line_has: str
) -> None:
    before = _digest()
    mutant, source = _pick(file, kind, what, line_has)
    _, killed, _ = _run_mutant(mutant, source, bouts=300, timeout=300)  # type: ignore[arg-type]
    assert killed, f"{mutant} survived"
    assert _digest() == before
    assert all((ROOT / target).is_file() for target in TARGETS)


def test_the_lists_of_engine_functions_name_functions_of_the_engine() -> None:
    """The functions mutated are derived from the engine's code (every function of the target
    files but those ``NOT_RULES`` and ``SKIP_FUNCTIONS`` name, each with its reason), so a rule
    added to the engine is mutated without being listed; a name left in those lists after the
    function is gone or renamed fails here. Pride's leader across the round end (rules file
    000, "End of a Round"; option pride_next_round) is among the rules mutated."""
    defined = set().union(*engine_functions().values())
    assert not (NOT_RULES.keys() | SKIP_FUNCTIONS) - defined
    assert not NOT_RULES.keys() & SKIP_FUNCTIONS
    rules = rule_functions()
    assert {"_pride_keeps_lead", "_round_winner", "_law_filter", "resolve_bout"} <= rules
    assert rules == defined - NOT_RULES.keys() - SKIP_FUNCTIONS
    assert all(reason for reason in NOT_RULES.values())


def test_the_lists_of_calls_name_calls_the_engine_makes() -> None:
    """The survivors' classification reads the engine's calls through three lists (calls that
    only explain, calls that change no state, methods and what they change); a name left in
    them after the engine stopped calling it would silently classify a new function of the same
    name."""
    called = set()
    for target in TARGETS:
        for node in ast.walk(ast.parse((ROOT / target).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called.add(func.attr if isinstance(func, ast.Attribute)
                           else getattr(func, "id", ""))
    for listed in (LOGGING, PURE_CALLS, METHOD_WRITES.keys()):
        assert not set(listed) - called, sorted(set(listed) - called)


def test_every_recorded_reading_names_a_mutant_of_the_engine_as_it_is() -> None:
    """A reading of ``READ_EQUIVALENT`` is keyed by the source line it reads; one that matches no
    mutant of the current engine (the line changed) would classify nothing and must go."""
    sources = {file: (ROOT / file).read_text(encoding="utf-8") for file in TARGETS}
    starts: dict[tuple[str, int], str] = {}  # a statement's first line: its function
    for file, text in sources.items():
        tree = ast.parse(text)
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef):
                for node in ast.walk(function):
                    if isinstance(node, ast.stmt) and _enclosing(function, node) is function:
                        starts.setdefault((file, node.lineno), function.name)
    keys = set()
    for mutant, _ in all_mutants():
        function = starts.get((mutant.file, mutant.line))
        if function is None:  # inside a statement of several lines: classify reads none
            continue
        line = sources[mutant.file].splitlines()[mutant.line - 1].strip()
        keys.add((mutant.file, function, mutant.kind, mutant.what, line))
    assert not set(READ_EQUIVALENT) - keys
