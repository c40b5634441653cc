"""One vocabulary: the words of Omens (``omen_solver/omens/vocabulary.py``) and the settings of
every rule option of both games (the :class:`~omen_solver.core.options.Setting` enums of
``omens/rules.py`` and ``omen/rules.py``) are spelled once. These tests read the package's
source and fail on a second spelling; and they tie the search kernels' integer codes (the
Python kernel's constants and the C kernel's enums) to the order of the declarations."""

from __future__ import annotations

import ast
import functools
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import omen_solver
from omen_solver.core.options import Setting, describe, option_of
from omen_solver.omen.rules import OmenRules
from omen_solver.omens import vocabulary as v
from omen_solver.omens.actions import Verb
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel import spec as kernel_spec
from omen_solver.omens.rules import FearPassOn, OmensRules, make_rules

PACKAGE = Path(omen_solver.__file__).parent
DECLARED_IN = {PACKAGE / "omens" / "rules.py", PACKAGE / "omen" / "rules.py",
               PACKAGE / "omens" / "vocabulary.py"}
HEADER = PACKAGE / "omens" / "kernel" / "_ckernel_machine.h"
C_SOURCE = PACKAGE / "omens" / "kernel" / "_ckernel.c"

OPTIONS = {spec.name: spec for cls in (OmensRules, OmenRules) for spec in describe(cls)}
WORDS: dict[str, str] = {
    str(word): type(word).__name__
    for kind in (v.ChoiceWord, v.NotationWord, v.PendingKind, v.Stage, v.Effect)
    for word in kind
}

COMMON: frozenset[str] = frozenset({"none", "to", "deal"})
"""Words of the vocabulary that are everyday keys and values all over the package (a JSON
key, a flag's name, "none" shown for nothing): not scanned."""

OTHER_MEANINGS: dict[tuple[str, str], tuple[int, str]] = {
    ("cli/omen.py", "ask"): (1, "the 'omen ask' command"),
    ("cli/omen.py", "check"): (1, "the answer's 'check' (JSON key)"),
    ("cli/puzzles.py", "check"): (1, "the 'puzzles check' command"),
    ("cli/vectors.py", "check"): (1, "the 'vectors check' command"),
    ("cli/solve.py", "lower"): (1, "the lower bound of a solve (JSON key)"),
    ("core/search/moves.py", "lower"): (1, "a move's lower bound (JSON key)"),
    ("core/search/result.py", "lower"): (3, "a value's lower bound (JSON key, enum value)"),
    ("web/worker.py", "lower"): (3, "a move's lower bound (JSON key)"),
    ("core/smt.py", "check"): (1, "z3's check() call, by name"),
    ("omens/kernel/machine.py", "law"): (1, "the kernel state's slot"),
    ("omens/state.py", "law"): (1, "the state's field"),
    ("omens/report.py", "law"): (1, "the JSON report's key"),
    ("web/library.py", "law"): (1, "the board's JSON key"),
    ("omens/table.py", "fear"): (1, "the table's attribute"),
    ("omens/position.py", "law"): (7, "the position file's key bout.law"),
    ("omens/position.py", "luck"): (3, "the position file's key end.luck"),
    ("omens/position.py", "pride"): (3, "the position file's key end.outcome.pride"),
    ("omens/text.py", "law"): (2, "the position text's key law"),
    ("omens/text.py", "luck"): (3, "the position text's keys luck and outcome's luck"),
    ("omens/text.py", "pride"): (4, "the position text's outcome's pride"),
    ("omens/proofs/agreement.py", "pride"): (1, "the model record's field"),
    ("omens/proofs/observe.py", "pride"): (1, "the model record's field"),
    ("omens/proofs/observe.py", "dream"): (6, "the model step's kind and field"),
    ("omens/proofs/observe.py", "replay"): (5, "the model step's kind and field"),
    ("omens/proofs/observe.py", "give"): (6, "the model's choice slot of a gift"),
    ("omens/proofs/observe.py", "luck"): (1, "the model's choice slot of Luck's discard"),
    ("omens/proofs/model/play.py", "give"): (2, "the model's choice slot of a gift"),
    ("omens/proofs/model/play.py", "luck"): (2, "the model's choice slot and rule of Luck"),
    ("omens/proofs/model/play.py", "dream"): (1, "the model's rule name"),
    ("omens/proofs/model/play.py", "law"): (1, "the model's rule name"),
    ("omens/proofs/model/play.py", "absolute"): (1, "the model's rule name"),
    ("omens/proofs/model/symbolic.py", "law"): (1, "a z3 variable's name"),
    ("omens/proofs/model/symbolic.py", "absolute"): (1, "a z3 variable's name"),
    ("vectors/holds.py", "replay"): (2, "the vector being replayed (a name in messages)"),
    ("vectors/omens_features.py", "gives"): (2, "a coverage scene's name"),
    ("vectors/omens_mine.py", "absolute"): (1, "a coverage dimension's name"),
    ("vectors/omens_mine.py", "law"): (1, "a situation's name"),
    ("vectors/omens_mine.py", "pride"): (1, "a situation's name"),
    ("vectors/omens_mine.py", "fear"): (1, "a situation's name"),
    ("vectors/omens_features.py", "discards"): (2, "a situation's name"),
}
"""Texts that equal a word of the vocabulary but mean something else where they stand: (a
module under the package, the text) -> (how many times, what it means there). A new use of
the word in that module changes the count, and fails."""


@functools.cache
def _modules() -> tuple[tuple[str, ast.AST], ...]:
    """Every module of the package but the declarations, parsed (once)."""
    return tuple((path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text("utf-8")))
                 for path in sorted(PACKAGE.rglob("*.py")) if path not in DECLARED_IN)


def _texts(node: ast.AST) -> list[ast.Constant]:
    """The string constants a node is or holds (a tuple, list or set of them)."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [item for item in items if isinstance(item, ast.Constant)
            and isinstance(item.value, str)]


def _option_name(node: ast.AST) -> str | None:
    """The option a node reads: ``rules.NAME``, ``getattr(rules, "NAME")`` or
    ``settings["NAME"]``."""
    if isinstance(node, ast.Attribute) and node.attr in OPTIONS:
        return node.attr
    if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and node.slice.value in OPTIONS):
        return str(node.slice.value)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "getattr" and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant) and node.args[1].value in OPTIONS):
        return str(node.args[1].value)
    return None


def _settings_spelled(tree: ast.AST) -> Iterator[tuple[int, str, str]]:
    """``(line, option, text)`` for every setting of an option written as text next to it."""
    for node in ast.walk(tree):
        pairs: list[tuple[str, ast.AST]] = []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            pairs = [(name, side) for name in filter(None, map(_option_name, sides))
                     for side in sides]
        elif isinstance(node, ast.Call):
            pairs = [(str(k.arg), k.value) for k in node.keywords if k.arg in OPTIONS]
            named = [a.value for a in node.args if isinstance(a, ast.Constant)
                     and a.value in OPTIONS]
            pairs += [(str(name), arg) for name in named for arg in node.args]
        elif isinstance(node, ast.Dict):
            pairs = [(str(k.value), value) for k, value in zip(node.keys, node.values,
                                                                strict=True)
                     if isinstance(k, ast.Constant) and k.value in OPTIONS]
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
            name = _option_name(node.slice)
            pairs = [(name, key) for key in node.value.keys if name and key is not None]
        for name, side in pairs:
            for text in _texts(side):
                if text.value in OPTIONS[name].settings:
                    yield text.lineno, name, text.value


def test_no_setting_is_spelled_outside_its_declaration() -> None:
    """A rule option's settings are its Setting enum's members: code compares with a member,
    never with the text, so the text is written once (docs/architecture.md, the checklist)."""
    found = [f"{module}:{line}: {name} = {text!r}" for module, tree in _modules()
             for line, name, text in _settings_spelled(tree)]
    assert not found, "settings spelled outside their declaration:\n" + "\n".join(found)


def _words(tree: ast.AST) -> Iterator[ast.Constant]:
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value in WORDS and node.value not in COMMON):
            yield node


def _words_spelled(module: str, tree: ast.AST) -> Iterator[tuple[int, str]]:
    found = list(_words(tree))
    counts = Counter(node.value for node in found)
    for node in found:
        allowed = OTHER_MEANINGS.get((module, node.value))
        if allowed is None or allowed[0] != counts[node.value]:
            yield node.lineno, node.value


def test_no_word_of_the_vocabulary_is_spelled_twice() -> None:
    """Choice words, notation words, pending kinds, stages and effect keywords come from
    omens/vocabulary.py (Omen, a game with its own notation, is read by its own modules)."""
    found = [f"{module}:{line}: {word!r} ({WORDS[word]})" for module, tree in _modules()
             if not module.startswith("omen/")
             for line, word in _words_spelled(module, tree)]
    assert not found, "words spelled outside omens/vocabulary.py:\n" + "\n".join(found)


def test_every_other_meaning_is_still_there() -> None:
    """The list of other meanings holds no entry the source no longer has."""
    spelled = {(module, node.value) for module, tree in _modules() for node in _words(tree)}
    assert not set(OTHER_MEANINGS) - spelled, set(OTHER_MEANINGS) - spelled


@pytest.mark.parametrize("spelling", ['rules.jealousy_own_card == "allowed"', "('lower',)",
                                      'settings["dream_target_turn"] == "plays_again"'])
def test_the_scan_finds_a_second_spelling(spelling: str) -> None:
    """The scans above can fail: a setting compared as text (an option read as an attribute
    or from a mapping of settings), a choice word as text."""
    tree = ast.parse(f"x = {spelling}")
    assert list(_settings_spelled(tree)) or list(_words_spelled("omens/new.py", tree))


# -- the declarations themselves -----------------------------------------------------------------


def test_every_option_has_its_own_settings_enum() -> None:
    for spec in OPTIONS.values():
        assert issubclass(spec.kind, Setting) and list(spec.settings) == list(spec.kind)
        assert option_of(spec.kind) is spec and spec.default in spec.kind


def test_a_rule_set_holds_members_and_reads_as_text() -> None:
    rules = make_rules("rulebook", {"fear_pass_on": "yes"})
    assert rules.fear_pass_on is FearPassOn.YES and rules.fear_pass_on == "yes"
    assert rules.setting(FearPassOn.YES) and not rules.setting(FearPassOn.NO)
    assert rules.as_dict()["fear_pass_on"] == "yes" and type(rules.as_dict()["fear_pass_on"]) is str
    assert repr(FearPassOn.YES) == "'yes'" and f"{FearPassOn.YES}" == "yes"


# -- the kernels' codes follow the declarations --------------------------------------------------


def _c_enum(first: str) -> list[str]:
    """The names of the C enum that starts with ``first`` (``_ckernel_machine.h``)."""
    found = re.search(r"enum\s*\{\s*(" + first + r"\b[^}]*)\}", HEADER.read_text("utf-8"))
    assert found, first
    return [name.split("=")[0].strip() for name in found.group(1).split(",") if name.strip()]


KERNEL_PENDING = {v.PendingKind.END_ABSOLUTE: "END_ABS"}
"""The kernels' short names for a kind, where they differ from the declaration's."""


def test_the_kernels_pending_kinds_follow_the_declaration() -> None:
    names = [f"P_{KERNEL_PENDING.get(kind, kind.name)}" for kind in v.PendingKind]
    assert [getattr(m, name) for name in names] == list(range(len(names)))
    assert _c_enum("P_DREAM") == names


def test_the_kernels_stages_follow_the_declaration() -> None:
    names = [f"S_{stage.name}" for stage in v.Stage]
    assert [getattr(m, name) for name in names] == list(range(len(names)))
    assert _c_enum("S_LUCK_BEFORE") == names


def test_the_kernels_choice_codes_follow_the_declaration() -> None:
    """Choice codes sort as the engine sorts choices (by keyword): 0 for none, then each word
    in the declaration's order, which is alphabetical."""
    assert list(v.ChoiceWord) == sorted(v.ChoiceWord)
    names = ["CK_NONE", *(f"CK_{word.name}" for word in v.ChoiceWord)]
    assert [getattr(m, name) for name in names] == list(range(len(names)))
    assert _c_enum("CK_NONE") == names


def test_the_kernels_verbs_and_effects_follow_the_declaration() -> None:
    verbs = [f"V_{verb.name}" for verb in Verb if verb is not Verb.DEAL]
    assert [getattr(m, name) for name in verbs] == [verb.value for verb in Verb][:len(verbs)]
    assert _c_enum("V_PLAY") == verbs
    assert dict(kernel_spec.EFFECT_CODES) == {effect: code for code, effect in enumerate(v.Effect)}
    codes = {"DISCARD_EXTREME": "E_EXTREME", "DISCARD_ALL": "E_ALL", "DISCARD_SELF_IF": "E_SELF_IF"}
    names = [codes.get(effect.name, f"E_{effect.name}") for effect in v.Effect]
    assert _c_enum("E_NONE") == [*names, "E_COUNT"]


def test_the_kernels_option_table_is_the_declaration() -> None:
    """The kernel plays every setting of every option of the declaration; its spec passes
    the options to C in one order (OPTION_FLAGS), which ``spec_from_py`` reads in that order
    into fields of the same names; each flag is set by a setting of its own option."""
    assert dict(kernel_spec.OPTION_SETTINGS) == {
        spec.name: tuple(spec.settings) for spec in describe(OmensRules)}
    read = re.findall(r"s->(\w+) = opt\[(\d+)\]", C_SOURCE.read_text("utf-8"))
    assert [name for name, _ in sorted(read, key=lambda item: int(item[1]))] == list(
        kernel_spec.OPTION_FLAGS)
    flagged = {option_of(setting).name for setting in kernel_spec.OPTION_FLAGS.values()}
    assert flagged == set(kernel_spec.OPTION_SETTINGS) - {"reshuffle_absolutes"}
    pride = next(iter(kernel_spec.PRIDE_CODES))
    assert set(kernel_spec.PRIDE_CODES) == set(option_of(pride).kind)
