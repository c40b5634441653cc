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

``omen-solver prove`` over every theorem and ``omen-solver witnesses`` take minutes: those
commands run in the slow tier (``--runslow``); the default tier runs every other one.
"""

from __future__ import annotations

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
    "omen-solver witnesses",
    "omen-solver vectors check vectors/omens/gamepark --engine 'omen-solver vectors engine "
    "--preset gamepark'",
    "omen-solver vectors check vectors --engine 'omen-solver vectors engine'",
}
"""Documented commands that check the whole proof suite, search every rule option or play
every vector of a suite through the protocol."""
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
    [pytest.param(c, marks=pytest.mark.slow) if c.text in SLOW_COMMANDS else c for c in COMMANDS],
    ids=[f"{c.where}-{c.text[12:60]}" for c in COMMANDS],
)
def test_every_documented_command_runs(command: Command, clone: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    if "node " in command.text and shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    code = cli.main(command.argv[1:])
    out, err = capsys.readouterr()
    assert code == 0, f"{command}: exit {code}\n{err}"
    _shown_in_order(command, out)


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
