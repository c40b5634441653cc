"""The command line as a process: what starts it, what stops it (README, "Exit statuses")."""

from __future__ import annotations

import argparse
import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from omen_solver import cli

ROOT = Path(__file__).resolve().parents[2]


def test_bare_command_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: omen-solver")
    for command in cli.COMMANDS:
        assert command.name in out and command.help.split()[0] in out


def test_each_command_is_registered_by_its_group_alone() -> None:
    """COMMANDS says which group adds which command, so the order of the groups is free."""
    for group in cli.COMMAND_GROUPS:
        parser = argparse.ArgumentParser()
        parser.register("action", "parsers", cli._Commands)
        subparsers = parser.add_subparsers()
        group(subparsers)
        listed = [c.name for c in cli.COMMANDS if c.register is group]
        assert list(subparsers.choices) == listed, group


def test_every_command_module_is_a_group() -> None:
    """Each module of omen_solver/cli/ with a ``register`` is imported by a command group of
    cli/__init__.py (a plain import, so a new module cannot be left out unnoticed)."""
    modules = {path.stem for path in (ROOT / "omen_solver" / "cli").glob("*.py")
               if "\ndef register(" in path.read_text(encoding="utf-8")}
    tree = ast.parse((ROOT / "omen_solver" / "cli" / "__init__.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "omen_solver.cli" for alias in node.names}
    assert modules and imported == modules


@pytest.mark.parametrize("command", [c.name for c in cli.COMMANDS])
def test_a_command_loads_only_its_own_group(command: str) -> None:
    """``omen-solver CMD --help`` builds the parser of CMD's group alone."""
    parser = cli.build_parser(command, lazy=True)
    choices = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    full = [name for name, sub in choices.choices.items() if sub._actions[1:]]
    group = next(c.register for c in cli.COMMANDS if c.name == command)
    assert set(full) == {c.name for c in cli.COMMANDS if c.register is group}


def test_help_and_version_load_no_command_module() -> None:
    """``--help`` and ``--version`` start fast because they import none of the engines (the
    start-up time itself is measured in benchmarks/cli_startup.py, not here)."""
    probe = (
        "import sys\n"
        "from omen_solver.cli import main\n"
        "for argv in (['--help'], ['--version']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = ['rich', 'z3', 'networkx', 'omen_solver.omens.state', 'omen_solver.omen.state',\n"
        "         'omen_solver.core.search']\n"
        "heavy += [m for m in sys.modules if m.startswith('omen_solver.cli.')\n"
        "          and m != 'omen_solver.cli.signals']\n"
        "print(' '.join(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.splitlines()[-1] == ""


def _handles_sigterm(pid: int) -> bool:
    """Whether the process has installed a SIGTERM handler (its SigCgt mask, Linux)."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(("signum", "status", "message"), [
    (signal.SIGTERM, 143, "omen-solver: terminated (SIGTERM)\n"),
    (signal.SIGINT, 130, "omen-solver: interrupted\n"),
])
def test_a_long_search_stops_on_a_signal(signum: int, status: int, message: str) -> None:
    """SIGTERM stops a command as Ctrl-C does, with its own status; no result is printed."""
    command = [sys.executable, "-m", "omen_solver", "solve", "--deal", "3", "--players", "4",
               "--max-seconds", "120"]
    # A shell starts background jobs with SIGINT ignored; the command must answer it anyway.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not _handles_sigterm(process.pid):
            assert time.monotonic() < deadline, "the command never started its search"
            time.sleep(0.02)
        time.sleep(0.3)  # into the search
        process.send_signal(signum)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == status and err.endswith(message), err
    assert "answer:" not in out  # at most what is proven so far, never a result
    assert os.getpid() != process.pid
