"""Every flag of every command applies or is refused, never ignored (issue 20, item 1).

The walk is generic: it reads every command and every option from the argparse parsers, so a
flag added later is walked too. Each command has a base invocation on a position file (or the
command's own input); each flag is added alone, with a sample value, and the output is compared
with the base's. A flag passes if it

* changes the output (the answer, or what the answer reports it used: a budget, an override,
  a setting), timings aside; or
* is refused: exit status 2 with the flag named on stderr.

Everything else is a flag silently ignored, and fails. Commands with ``--json`` are compared
through their JSON (``--json`` itself against the text).
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omen_solver import cli

ROOT = Path(__file__).resolve().parents[2]
OMENS = ROOT / "puzzles" / "omens" / "fear-pass-on.toml"
"""An Omens puzzle that sets a rule option (fear_pass_on = "yes")."""
OMEN = ROOT / "puzzles" / "omen" / "endgame-draw-a-hoplite.toml"
KEEP = ROOT / "puzzles" / "omen" / "endgame-keep-to-hold.toml"
ADVICE = ROOT / "docs" / "examples" / "omens" / "advice-seat1.toml"
ENGINE = f"{shlex.quote(sys.executable)} -m omen_solver vectors engine"


BASE: dict[tuple[str, ...], list[str]] = {
    ("omens", "legal"): [str(OMENS)],
    ("omens", "play"): [str(OMENS)],
    ("omens", "options"): [],
    ("omens", "cards"): [],
    ("omens", "rules"): [],
    ("perft",): [str(OMENS)],
    ("graph",): [str(OMENS), "--out", "{tmp}/tree.graphml"],
    ("solve",): [str(OMENS)],
    ("puzzles", "check"): ["{tmp}/puzzles"],
    ("omen", "legal"): [str(OMEN)],
    ("omen", "play"): [str(OMEN)],
    ("omen", "endgame"): [str(OMEN)],
    ("omen", "ask"): [str(KEEP), "keep", "1"],
    ("omen", "profiles"): [],
    ("omen", "cards"): [],
    ("advise",): [str(ADVICE), "--samples", "2", "--exact-limit", "0"],
}
"""The base invocation of each command walked in the default tier."""

OTHER_GAME: dict[tuple[str, ...], list[str]] = {
    ("solve",): [str(OMEN)],
    ("perft",): [str(OMEN), "--depth", "2"],
}
"""Commands that read any game's positions, walked again on an Omen position (an option of
one game's kernel must not be ignored on the other's)."""

SLOW: dict[tuple[str, ...], list[str]] = {
    ("prove",): ["malice_falls", "--jobs", "1", "--counterexamples", "{tmp}/cx"],
    ("vectors", "engine"): [],
    ("puzzles", "generate"): ["{tmp}/generated", "--count", "1", "--max-candidates", "20"],
    ("witnesses",): ["fear_pass_on", "--out", "{tmp}/witnesses", "--no-docs",
                     "--max-nodes", "2000"],
    ("survey",): ["--out", "{tmp}/survey", "--deals", "1", "--players", "4", "--cards", "2",
                  "--workers", "0", "--no-plots", "--no-options", "--no-lines"],
    ("balance",): ["--out", "{tmp}/balance", "--games", "2", "--players", "4",
                   "--presets", "rulebook", "--workers", "0", "--no-plots"],
    ("vectors", "export"): ["--game", "omen", "--out", "{tmp}/vectors", "--only", "examples"],
    ("vectors", "check"): ["{tmp}/puzzles-vectors", "--engine", ENGINE, "--game", "omen"],
    ("vectors", "perft"): [str(ROOT / "vectors" / "omens" / "rulebook" / "perft.json"),
                           "--engine", ENGINE, "--max-nodes", "20"],
    ("vectors", "fuzz"): ["--engine", ENGINE, "--rounds", "2", "--out", "{tmp}/fuzz"],
}
"""Commands whose every run takes seconds: walked with ``--runslow``."""

STDIN = {("vectors", "engine"): '{"id": 1, "cmd": "hello", "protocol": 1}\n'}
"""What a command reads on stdin (the engine answers ``hello`` with the settings it plays)."""

NOT_WALKED: dict[tuple[str, ...], str] = {
    ("serve",): "serves the web board until stopped (tests/web run it with its options)",
}
"""Commands the walk cannot run to an end, and why."""

SAMPLES: dict[str, list[str]] = {
    "rule": ["--rule", "fear_pass_on=no"],
    "preset": ["--preset", "gamepark"],
    "team": ["--team", "2"],
    "deal": ["--deal", "1"],
    "players": ["--players", "5"],
    "cards": ["--cards", "2"],
    "to": ["--to", "bout"],
    "depth": ["--depth", "1"],
    "seat": ["--seat", "2"],
    "moves": ["--moves", "3:19"],
    "catalogue": ["--catalogue", str(ROOT / "docs" / "examples" / "omens" / "my-deck.toml")],
    "max_nodes": ["--max-nodes", "3"],
    "max_seconds": ["--max-seconds", "1000"],
    "max_memory": ["--max-memory", "1"],
    "turns": ["--turns", "1"],
    "reduce": ["--reduce", "commuting"],
    "names": [],
    "dir": ["--dir", "{tmp}/proofs"],
    "counterexamples": ["--counterexamples", "{tmp}/other-cx"],
    "rlimit": ["--rlimit", "1000"],
    "jobs": ["--jobs", "2"],
    "timeout_ms": ["--timeout-ms", "1"],
    "samples": ["--samples", "3"],
    "exact_limit": ["--exact-limit", "1000"],
    "seed": ["--seed", "7"],
    "lead": ["--lead", "14"],
    "hand_size": ["--hand-size", "3"],
    "pool": ["--pool", "4,9,12,14,20"],
    "require": ["--require", "2:26"],
    "count": ["--count", "2"],
    "max_candidates": ["--max-candidates", "5"],
    "min_depth": ["--min-depth", "2"],
    "max_cards": ["--max-cards", "9"],
    "max_deals": ["--max-deals", "3"],
    "depth_nodes": ["--depth-nodes", "100"],
    "out": ["--out", "{tmp}/elsewhere"],
    "docs": ["--docs", "{tmp}/witnesses.md"],
    "files": [],
    "profile": ["--profile", "omega"],
    "format": ["--format", "dot"],
    "write": ["--write", "{tmp}/written.toml"],
    "position": ["--position", "omens 7,15/3,9/12,13/5,14 teams=1,3/2,4 lead=1"],
    "threads": ["--threads", "1"],
    "deal_seconds": ["--deal-seconds", "1000"],
    "match": ["--match", "nothing-matches"],
    "timeout": ["--timeout", "0"],
    "start_timeout": ["--start-timeout", "0"],
    "min_played": ["--min-played", "100000"],
    "max_failures": ["--max-failures", "0"],
    "suite": ["--suite", "mine"],
    "witnesses": ["--witnesses", "{tmp}/no-witnesses"],
    "until_cards": ["--until-cards", "2"],
    "after_bouts": ["--after-bouts", "1"],
    "policy_samples": ["--policy-samples", "2"],
    "policy_nodes": ["--policy-nodes", "100"],
    "line_states": ["--line-states", "1"],
    "scheduler": ["--scheduler", "bogus://x"],
    "connect_timeout": ["--connect-timeout", "1"],
    "workers_timeout": ["--workers-timeout", "1"],
    "batch": ["--batch", "2"],
    "presets": ["--presets", "gamepark"],
    "max_found": ["--max-found", "0"],
    "seconds": ["--seconds", "0.001"],
    "shrink_replays": ["--shrink-replays", "-1"],
}
"""A sample value per option destination (the generic fallbacks: a flag without a value
alone; a choice other than the default; a number)."""

_TIMES = re.compile(r"\d+\.\d+")
_VOLATILE = frozenset({"seconds", "elapsed", "rate", "started", "table_bytes"})
"""JSON keys of timings and memory, which differ from run to run."""


def leaves(parser: argparse.ArgumentParser,
           path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                yield from leaves(command, (*path, name))
            return
    yield path, parser


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions
            if a.option_strings and not isinstance(a, argparse._HelpAction)]


PARSER = cli.build_parser()
COMMANDS = dict(leaves(PARSER))


def cases(walked: dict[tuple[str, ...], list[str]], tag: str = "") -> list[Any]:
    found = []
    for path, base in walked.items():
        for action in options(COMMANDS[path]):
            flag = action.option_strings[-1]
            if flag in base:
                continue  # part of the base: walked where the base leaves it out
            found.append(pytest.param(path, base, action.dest,
                                      id=f"{' '.join(path)}{tag} {flag}"))
    return found


def test_every_command_is_walked() -> None:
    """A new command must get a base invocation here (or say why it has no options)."""
    assert set(COMMANDS) == set(BASE) | set(SLOW) | set(NOT_WALKED)


SAMPLES_OF: dict[tuple[tuple[str, ...], str], list[str]] = {
    (("solve",), "max_memory"): ["--max-memory", "1G"],
}
"""A sample value of one command's option where the common one does not fit (solve's tables
need more than perft's 1 MiB)."""


def sample(path: tuple[str, ...], action: argparse.Action) -> list[str]:
    flag = action.option_strings[-1]
    if (path, action.dest) in SAMPLES_OF:
        return SAMPLES_OF[path, action.dest]
    if action.dest in SAMPLES:
        return SAMPLES[action.dest] or [flag]
    if action.nargs == 0:
        return [flag]
    if action.choices:
        others = [c for c in action.choices if c != action.default]
        return [flag, str(others[-1])]
    raise AssertionError(f"{' '.join(path)} {flag}: give the walk a sample value in SAMPLES")


def normal(out: str) -> Any:
    try:
        return _drop_volatile(json.loads(out))
    except ValueError:
        return _TIMES.sub("#", out)


def one_style(out: str) -> str:
    """``out`` in the one JSON style of every command (``omen_solver.cli.output.print_json``:
    indented by 2, keys in the command's order, characters unescaped)."""
    return json.dumps(json.loads(out), indent=2, ensure_ascii=False) + "\n"


def _drop_volatile(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _drop_volatile(v) for k, v in data.items() if k not in _VOLATILE}
    if isinstance(data, list):
        return [_drop_volatile(item) for item in data]
    return data


def run(capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str | None = None
        ) -> tuple[int, str, str]:
    if stdin is not None:  # a command that serves stdin runs as a process of its own
        done = subprocess.run([sys.executable, "-m", "omen_solver", *argv], input=stdin,
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        return done.returncode, done.stdout, done.stderr
    try:
        code = cli.main(argv)
    except SystemExit as exited:
        code = int(exited.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """What the bases read besides the shipped files: a folder of two puzzles, a copy of the
    theorems, a small set of vectors."""
    puzzles = tmp_path / "puzzles"
    puzzles.mkdir()
    shutil.copy(OMENS, puzzles)
    shutil.copy(OMEN, puzzles)
    shutil.copytree(ROOT / "proofs", tmp_path / "proofs",
                    ignore=shutil.ignore_patterns("counterexamples", "witnesses"))
    vectors = tmp_path / "puzzles-vectors"
    (vectors / "omen").mkdir(parents=True)
    shutil.copy(ROOT / "vectors" / "omen" / "examples.json", vectors / "omen")
    return tmp_path


def _placed(outcome: tuple[int, str, str], tmp: str) -> tuple[int, str, str]:
    """The outcome with the test's folder written ``{tmp}``, as the bases name it."""
    code, out, err = outcome
    return code, out.replace(tmp, "{tmp}"), err.replace(tmp, "{tmp}")


_BASES: dict[tuple[tuple[str, ...], str | None], tuple[int, str, str]] = {}
"""The output of each base invocation, run once (the same input gives the same output)."""


def walk(capsys: pytest.CaptureFixture[str], place: Path, path: tuple[str, ...],
         base: list[str], dest: str) -> None:
    parser = COMMANDS[path]
    action = next(a for a in options(parser) if a.dest == dest)
    tmp = str(place)
    argv = [*path, *(word.replace("{tmp}", tmp) for word in base)]
    has_json = any("--json" in a.option_strings for a in options(parser))
    if has_json and dest != "json":
        argv.append("--json")
    given = [word.replace("{tmp}", tmp) for word in sample(path, action)]
    stdin = STDIN.get(path)
    key = (tuple(word.replace(tmp, "{tmp}") for word in argv), stdin)
    if key not in _BASES:
        _BASES[key] = _placed(run(capsys, argv, stdin), tmp)
    before = _BASES[key]
    assert before[0] in (0, 1), f"the base {argv} fails: {before[2]}"
    if "--json" in argv and stdin is None:
        assert before[1] == one_style(before[1]), f"{argv}: not the JSON style of print_json"
    after = _placed(run(capsys, [*argv, *given], stdin), tmp)
    refused = after[0] == 2 and any(flag in after[2] for flag in action.option_strings)
    changed = (after[0], normal(after[1])) != (before[0], normal(before[1]))
    assert refused or changed, (
        f"{' '.join(path)} {' '.join(given)} is silently ignored: the same output, no refusal"
        f" (stderr: {after[2]!r})"
    )


@pytest.mark.parametrize(("path", "base", "dest"),
                         cases(BASE) + cases(OTHER_GAME, " (Omen)"))
def test_each_flag_applies_or_is_refused(capsys: pytest.CaptureFixture[str], place: Path,
                                         path: tuple[str, ...], base: list[str],
                                         dest: str) -> None:
    walk(capsys, place, path, base, dest)


@pytest.mark.slow
@pytest.mark.parametrize(("path", "base", "dest"), cases(SLOW))
def test_each_flag_of_the_long_commands_applies_or_is_refused(
    capsys: pytest.CaptureFixture[str], place: Path, path: tuple[str, ...], base: list[str],
    dest: str,
) -> None:
    walk(capsys, place, path, base, dest)
