"""The documentation is true: every command and every Python snippet of the README and of
``docs/`` runs exactly as written, from a copy of a clone (so commands that write files write
them there).

* every line of a ```sh block that starts with ``omen-solver`` (continuation lines joined,
  trailing ``# comments`` dropped, words split as the shell splits them) exits 0;
* every ``$ omen-solver ...`` line of a ```text block exits 0 and prints the lines shown under
  it, in order (``...`` stands for lines left out);
* every ```python block runs without error;
* the example files the docs show (positions, card files) are shipped verbatim under
  ``docs/examples/``, and the docs' commands and snippets use them;
* no link or path in the docs points at a file a clone does not have.

* every command of a ```sh block prints what the docs say it prints: :data:`PRINTS` holds,
  for each, the phrases of its comment or of the text around it, as the output shows them
  (``json:KEY`` for a key of its JSON, ``json:[ITEM]`` for an item of a JSON list), and a
  command the docs add without saying what it prints fails here.

``omen-solver prove`` over every theorem, ``omen-solver witnesses``, the whole vector suites and
the deep puzzle generator take minutes: those commands run in the slow tier (``--runslow``;
``tests/puzzles/test_deep_puzzles.py`` runs the generator bounded by default); the default tier
runs every other one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from omen_solver import cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "puzzles" / "omens" / "README.md", ROOT / "tests" / "README.md"]
SLOW_COMMANDS = {
    "omen-solver prove",
    "omen-solver prove --json",
    "omen-solver prove --dir proofs --counterexamples out/ --jobs 1",
    # two theorems, each proved by default in tests/omens_proofs/test_theorems.py
    "omen-solver prove betrayal-gift jealousy-moves-law",
    "omen-solver witnesses",
    "omen-solver vectors check vectors/omens/gamepark --engine 'omen-solver vectors engine "
    "--preset gamepark'",
    "omen-solver vectors check vectors --engine 'omen-solver vectors engine'",
    "omen-solver vectors check vectors/omens/rulebook --engine 'omen-solver vectors engine "
    "--preset gamepark'",
    # the example engine through every vector: by default its examples, and random play
    # (tests/vectors/test_runner.py, test_fuzz.py; this page's perft and fuzz commands)
    "omen-solver vectors check vectors --engine 'node vectors/adapters/example-omens-engine.js'",
    "omen-solver puzzles generate out/ --kind deep --players 4",
    "omen-solver puzzles generate out/ --kind deep --players 6 --deal later --seed 0 --count 1",
    "omen-solver omen endgame puzzles/omen/endgame-veteran-waits.toml --seat 2 --turns 3 "
    "--draws worst-case --json",
    # every shipped puzzle: by default as puzzles/omens, each checked once
    # (tests/puzzles/test_omens_puzzles.py too)
    "omen-solver puzzles check",
    "omen-solver puzzles check puzzles/omens --max-seconds 30",
    # every Omen puzzle: by default the small ones (tests/omen/test_search.py)
    "omen-solver puzzles check puzzles/omen",
}
"""Documented commands that check the whole proof suite, search every rule option, play
every vector of a suite through the protocol, generate deep puzzles from many deals or search
three turns of an endgame against every draw."""

_ENDGAME = "omen-solver omen endgame puzzles/omen/endgame-veteran-waits.toml"
_NODE = "--engine 'node vectors/adapters/example-omens-engine.js'"
_CHECKED = "agree, 0 contradicted, 0 unknown, 0 unreadable"
PRINTS: dict[str, tuple[str, ...]] = {
    # docs/omen-endgames.md and docs/omen.md: "result, VP margin, traced line"
    _ENDGAME: ("endgame for seat 1: win", "VP margin for seat 1",
               "the line of play, rule by rule:"),
    f"{_ENDGAME} --seat 2 --turns 3 --draws worst-case --json": (
        "json:status", "json:value", "json:best_actions", "json:endgame.draws",
        "json:endgame.turns", "json:endgame.result", "json:endgame.margin", "json:details"),
    "omen-solver solve puzzles/omen/endgame-veteran-waits.toml": (  # "the generic command"
        "question:", "answer: seat 1 wins", "best actions: play veteran 1",
        "endgame for seat 1: win"),
    "omen-solver puzzles check puzzles/omen": (_CHECKED,),
    # docs/omen.md
    "omen-solver omen legal puzzles/omen/war-colossal.toml": (  # the legal actions
        "seat 2 to act (war step, turn 27):", "keep 2@1:augur"),
    "omen-solver omen legal puzzles/omen/war-colossal.toml --json": (  # a JSON list of actions
        "json:[keep 2@1:augur]",),
    "omen-solver omen play puzzles/omen/war-order.toml --moves 'war 1' 'keep 1@1:immortal' "
    "'keep 1@1:immortal' 'destroy 2@2:immortal'": (  # explained play
        "> seat 1: war 1", "> seat 1: destroy 2@2:immortal", "[war.torn]"),
    "omen-solver omen play puzzles/omen/stalled.toml --moves 'wealth card; wealth coin' --json": (
        "json:trace", "json:hands", "json:legal"),
    "omen-solver solve puzzles/omen/war-order.toml": (  # best play (the endgame search)
        "answer: seat 1 wins", "best actions: war 1", "endgame for seat 1: win"),
    "omen-solver omen ask puzzles/omen/endgame-keep-to-hold.toml keep 1 --check": (
        "keep 1@1:pillager; keep 1@1:veteran", "cross-check by the search: agrees"),  # z3, search
    "omen-solver perft puzzles/omen/war-colossal.toml --to turn": (  # the action sequences
        "puzzles/omen/war-colossal.toml (to turn)", "sequences: 2,892"),
    "omen-solver omen profiles": (  # the profiles and every option
        "reign-of-war (003)", "fires-in-the-east (004)", "stat_colours"),
    "omen-solver omen cards docs/examples/omen/my-copy.toml": (  # the cards; your file checked
        "set effects-demo: 8 cards", "all valid"),
    "omen-solver omen legal docs/examples/omen/position.toml": (  # with that card file
        "seat 2 to act (war step, turn 27):", "keep 2@1:hoplite"),
    # docs/omens.md
    "omen-solver omens legal docs/examples/omens/position.toml": (  # the player to act's actions
        "seat 2 to act: 2 legal actions", "2:3", "2:9"),
    "omen-solver omens play docs/examples/omens/position.toml --moves 2:9 3:12 4:5": (
        "[card.law.constraint]", "bout won by seat 1"),  # explained resolution
    "omen-solver omens play docs/examples/omens/position.toml --json": (
        "json:bout_winner", "json:discarded", "json:hands"),
    "omen-solver omens options": ("absolute_timing (O1)", "presets: rulebook="),
    "omen-solver omens cards": ("35 cards from",),
    "omen-solver omens cards --catalogue docs/examples/omens/my-deck.toml": (
        "1 card from docs/examples/omens/my-deck.toml", "Lie"),  # validated and listed
    "omen-solver omens rules": ("setup.absolutes", "[000 Setup]"),  # the rule ids
    # docs/proofs.md
    "omen-solver prove": ("proved, 0 refuted, 0 unknown",),
    "omen-solver prove betrayal-gift jealousy-moves-law": (
        "2 theorems: 2 proved, 0 refuted, 0 unknown",),
    "omen-solver prove --json": ("json:[]name", "json:[]title", "json:[]method",
                                 "json:[]status", "json:[]seconds", "json:[]broken"),
    "omen-solver prove --list": ("theorem method title", "betrayal-gift"),  # titles
    "omen-solver prove betrayal-gift --query": (  # the rule lines, the query, the variants
        "rests on", "def query", "broken variant"),
    "omen-solver prove --dir proofs --counterexamples out/ --jobs 1": (
        "proved, 0 refuted, 0 unknown", "Counterexamples: out"),
    # docs/puzzles.md and puzzles/omens/README.md
    "omen-solver solve puzzles/omens/law-and-wrath.toml": (  # one puzzle, readable
        "question:", "answer: seats 1, 3 win", "stated answer: agrees"),
    "omen-solver solve puzzles/omens/law-and-wrath.toml --json": tuple(
        f"json:{key}" for key in ("question", "answer", "best_actions", "principal_variation",
                                  "nodes", "states", "seconds", "stated", "agrees",
                                  "contradictions")),
    "omen-solver puzzles check": ("puzzles under", _CHECKED),  # every *.toml under puzzles/
    "omen-solver puzzles check puzzles/omens --max-seconds 30": (_CHECKED,),
    "omen-solver puzzles generate out/ --kind deep --players 4": (  # a game start
        "out/deep-4p-start-seed0-1.toml", "3 puzzles written"),
    "omen-solver puzzles generate out/ --kind deep --players 6 --deal later --seed 0 --count 1": (
        "out/deep-6p-later-seed0-1.toml", "1 puzzle written"),
    "omen-solver puzzles check puzzles/omens": (_CHECKED,),
    # docs/position-text.md: a position's text in place of its file, read as the file is
    "omen-solver solve --position 'omens 10,26/11,16/13,20/7 teams=1,3/2,4 lead=4 play=25@4 "
    "played=4'": ("answer: seats 1, 3 win", "best actions: 1:10"),
    "omen-solver omens play 'omens 7,15,30/3,9,28/12,13,22/5,14,26 teams=1,3/2,4 lead=1' "
    "--moves '1:Law lower'": ("[card.law.choose]", "to act: seat 2; legal: 2:3, 2:9"),
    "omen-solver perft 'omens 7,15/3,9/12,13/5,14 teams=1,3/2,4 lead=1' --depth 3": (
        "(depth 3)", "sequences: 12"),
    # docs/vectors.md
    f"omen-solver vectors check vectors {_NODE}": ("passed, 0 failed",),
    f"omen-solver vectors perft vectors/omens/rulebook {_NODE} --walk --max-nodes 200": (
        "agree, 0 differ",),  # the perft suite through the protocol
    f"omen-solver vectors fuzz {_NODE} --rounds 100": (  # random play against this engine
        "played 100 of 100 random lines", "0 disagreement(s)"),
    "omen-solver vectors check vectors/omens/gamepark --engine 'omen-solver vectors engine "
    "--preset gamepark'": ("passed, 0 failed",),
    "omen-solver vectors check vectors --engine 'omen-solver vectors engine'": (
        "passed, 0 failed",),
}
"""What the docs say each command of a ```sh block prints (its comment or the text around it),
as phrases its output shows (words compared with runs of spaces and line breaks as one space:
the output wraps to the width); ``json:KEY`` (``json:A.B`` nested) a key of its JSON object,
``json:[ITEM]`` an item of its JSON list, ``json:[]KEY`` a key of every object of its list."""
SHIPPED_EXAMPLES = {
    ("omens-positions.md", None): "docs/examples/omens/position.toml",
    ("omens-cards.md", None): "docs/examples/omens/my-deck.toml",
    ("omen-cards.md", "## An example"): "docs/examples/omen/my-copy.toml",
    ("omen.md", "## Positions"): "docs/examples/omen/position.toml",
}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    info: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file."""
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = re.match(r"^```(\S*)\s*$", lines[index])
        if match and match.group(1):
            end = index + 1
            while not lines[end].startswith("```"):
                end += 1
            found.append(Block(path, index + 1, match.group(1), "\n".join(lines[index + 1:end])))
            index = end
        index += 1
    return found


ALL_BLOCKS = [block for path in DOCS for block in blocks(path)]


@dataclass(frozen=True)
class Command:
    where: str
    text: str
    expected: tuple[str, ...] = ()

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.text, comments=True)

    def __str__(self) -> str:
        return f"{self.where}: {self.text}"


def _logical_lines(text: str) -> list[str]:
    return text.replace("\\\n", " ").splitlines()


def documented_commands() -> list[Command]:
    commands = []
    for block in ALL_BLOCKS:
        if block.info == "sh":
            for line in _logical_lines(block.text):
                words = shlex.split(line, comments=True)
                if words and words[0] == "omen-solver":
                    commands.append(Command(block.where, shlex.join(words)))
        elif block.info == "text":
            lines = _logical_lines(block.text)
            for number, line in enumerate(lines):
                if line.startswith("$ omen-solver "):
                    shown = []
                    for after in lines[number + 1:]:
                        if after.startswith("$ "):
                            break
                        shown.append(after)
                    commands.append(Command(block.where, line[2:], tuple(shown)))
    return commands


COMMANDS = documented_commands()
RUN = [c for n, c in enumerate(COMMANDS)
       if c.expected or all(c.text != d.text or d.expected for d in COMMANDS[:n])]
"""The commands run: a command the docs show in several places without its output, once."""


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of what a clone holds that the docs use, as the current folder."""
    for name in ("docs", "puzzles", "proofs", "vectors"):
        shutil.copytree(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    monkeypatch.chdir(tmp_path)
    # The docs run `omen-solver` as a user who installed it does: on the PATH (a command such
    # as `vectors check --engine "omen-solver vectors engine"` starts it as a process).
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return tmp_path


def test_the_docs_document_commands_and_snippets() -> None:
    assert len(COMMANDS) >= 28
    assert sum(block.info == "python" for block in ALL_BLOCKS) >= 6
    assert any(command.expected for command in COMMANDS)


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=pytest.mark.slow) if c.text in SLOW_COMMANDS else c for c in RUN],
    ids=[f"{c.where}-{c.text[12:60]}" for c in RUN],
)
def test_every_documented_command_runs(command: Command, clone: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    if "node " in command.text and shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    code = cli.main(command.argv[1:])
    out, err = capsys.readouterr()
    assert code == 0, f"{command}: exit {code}\n{err}"
    _shown_in_order(command, out)
    if not command.expected:
        _prints_what_the_docs_say(command, out)


def test_every_command_shown_without_its_output_says_what_it_prints() -> None:
    """A ```sh command is listed in :data:`PRINTS` (and no other)."""
    bare = {command.text for command in COMMANDS if not command.expected}
    assert bare == set(PRINTS)
    assert all(PRINTS.values())


def _prints_what_the_docs_say(command: Command, out: str) -> None:
    words = " ".join(out.split())
    for said in PRINTS[command.text]:
        if not said.startswith("json:"):
            assert " ".join(said.split()) in words, f"{command}: does not print {said!r}"
            continue
        data = json.loads(out)
        said = said.removeprefix("json:")
        if said.startswith("[]"):
            assert isinstance(data, list) and data, f"{command}: not a JSON list"
            assert all(said[2:] in item for item in data), f"{command}: no {said[2:]!r}"
        elif said.startswith("["):
            assert said[1:-1] in data, f"{command}: {said[1:-1]!r} not in its list"
        else:
            for key in said.split("."):
                assert key in data, f"{command}: no {said!r} in its JSON"
                data = data[key]


def _shown_in_order(command: Command, out: str) -> None:
    """The lines the docs show are printed as shown: consecutive lines consecutively, in the
    same order, with ``...`` standing for lines left out (at the start, the end or between)."""
    lines = [line.rstrip() for line in out.splitlines()]
    runs: list[list[str]] = [[]]
    for shown in command.expected:
        if shown.strip() == "...":
            runs.append([])
        elif shown.strip():
            runs[-1].append(shown.rstrip())
    at = 0
    for run in (run for run in runs if run):
        starts = [i for i in range(at, len(lines) - len(run) + 1)
                  if lines[i:i + len(run)] == run]
        assert starts, f"{command}: the docs show these lines, not printed as shown: {run}"
        at = starts[0] + len(run)


@pytest.mark.parametrize(
    "block",
    [b for b in ALL_BLOCKS if b.info == "python"],
    ids=lambda b: b.where,
)
def test_every_python_snippet_runs(block: Block, clone: Path) -> None:
    if "open_spiel" in block.text:
        pytest.importorskip("pyspiel")
    exec(compile(block.text, block.where, "exec"), {"__name__": "__docs__"})


@pytest.mark.parametrize(("doc", "after"), list(SHIPPED_EXAMPLES), ids=lambda x: str(x))
def test_example_files_are_shipped_verbatim(doc: str, after: str | None) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    if after is not None:
        text = text.split(after, 1)[1]
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    shipped = ROOT / SHIPPED_EXAMPLES[(doc, after)]
    assert shipped.read_text(encoding="utf-8") == block


def test_every_example_file_loads_with_what_the_docs_say() -> None:
    import omen_solver.omen
    import omen_solver.omens

    state = omen_solver.omens.load(ROOT / "docs/examples/omens/position.toml")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["2:3", "2:9"]
    omen = omen_solver.omen.load(ROOT / "docs/examples/omen/position.toml")
    # The card file is in force: its Temple Guard is in the catalogue, and its Feat replaces
    # the shipped card of the same id (docs/omen-cards.md, "Which card wins").
    assert "temple-guard" in omen.catalogue
    assert omen.catalogue["oracle-in-every-city"].source.endswith("my-copy.toml")


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PATH = re.compile(r"`((?:\.\./)*(?:docs|puzzles|proofs|tests|omen_solver|benchmarks|shared)/"
                  r"[\w./-]*)`")


PLACEHOLDER = re.compile(r"(?:^|/)[A-Z][A-Z_]+(?:--[A-Z][A-Z_]+)?(?:\.\w+)?$")
"""A path ending in a name to fill in: ``proofs/NAME.py``,
``counterexamples/NAME--VARIANT.toml``."""


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_link_or_path_leads_outside_a_clone(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if "://" in target:
            continue
        path = (doc.parent / target).resolve()
        assert path.exists() and ROOT in path.parents, f"{doc.name}: link {target}"
    for target in PATH.findall(text):
        assert not target.startswith(("../", "shared/")), f"{doc.name}: path {target}"
        pattern = "*" in target or PLACEHOLDER.search(target)  # proofs/NAME.py, out/*.toml
        assert (ROOT / target.rstrip("/")).exists() or pattern, f"{doc.name}: {target}"
