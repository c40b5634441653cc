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


CITED: dict[int, str] = {
    62: "_jealousy", 97: "_start_end_of_bout", 109: "_stage_exchanges", 146: "_reset_bout",
    148: "_reset_bout", 150: "_reset_bout", 152: "_reset_bout", 154: "_reset_bout",
    156: "_reset_bout", 179: "acting_players", 182: "_nobody_left", 207: "winning_team",
    209: "_apply_action", 214: "_play", 215: "_play", 232: "_start_end_of_bout",
    234: "_start_end_of_bout", 235: "_start_end_of_bout", 239: "_stage_luck",
    266: "_next_bout", 268: "_next_bout", 279: "_now_choices", 280: "_now_choices",
    284: "current_player", 285: "current_player", 292: "_actions", 303: "winning_team",
    317: "_betrayal", 320: "_advance", 325: "_start_end_of_bout",
    327: "_start_end_of_bout", 369: "current_player", 370: "acting_players", 373: "_actions",
    388: "winning_team", 442: "_actions", 454: "winning_team", 455: "winning_team",
    499: "current_player", 505: "_nobody_left", 590: "_with_choices",
}
"""The mutants docs/proofs.md cites by number ("Engine mutants"), each with the function it
changes."""


def test_the_mutants_the_proofs_page_cites_are_the_ones_described() -> None:
    """The mutants are numbered in the order of the code: a function added to the engine, or
    left out of the mutated ones, moves the numbers. Each number docs/proofs.md cites is still
    a mutant of the function its text describes, and the page cites no other."""
    import re

    page = (ROOT / "docs" / "proofs.md").read_text(encoding="utf-8")
    part = page[page.index("The run left 32 survivors"):page.index("## Findings about the rules")]
    text = re.sub(r"`[^`]*`", "", part)  # names and code, not numbers
    cited = {int(n) for n in re.findall(r"(?<![\d.,])\b(\d{2,3})\b(?! random| placement|%)",
                                        text)}
    cited -= {16, 27, 32, 36, 600, 818}  # counts, not mutants
    assert cited == set(CITED), sorted(cited ^ set(CITED))
    mutants = {mutant.number: mutant for mutant, _ in all_mutants()}
    for number, function in CITED.items():
        mutant = mutants[number]
        tree = ast.parse((ROOT / mutant.file).read_text(encoding="utf-8"))
        inside = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                  and node.lineno <= mutant.line <= (node.end_lineno or 0)]
        assert function in inside, (number, mutant, inside)
