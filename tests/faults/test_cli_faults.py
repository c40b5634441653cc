"""Numbers and files a command is handed, and Ctrl-C on a terminal: the defects of a fault
run, each named by its id (docs/robustness.md).

* C2: a node limit of 2**63 or more, a memory size past 64 bits: refused (exit 2) naming the
  option, never an ``OverflowError``.
* C3, H2: ``--timeout`` and ``--start-timeout`` of ``inf`` or ``nan`` (an engine that stops
  answering was waited on for ever with ``nan``): refused. No numeric option of any command
  takes ``nan`` or an infinity, nor a number of seconds a system wait overflows on.
* C5, C6: ``survey --deals 0`` (a plot of nothing) and ``survey --batch 10**30``: refused.
* K1: Ctrl-C on a terminal (SIGINT to the whole process group) into ``survey`` and
  ``balance``: one line and status 130, no worker's traceback.
* K6: ``witnesses --out FILE`` names the file as not a folder; a file that starts with a
  byte-order mark is read (it was "Invalid statement").

The parse-level checks walk every command's options from the parsers, so an option added
later is checked too; the slow tier runs every command with each hostile number."""

from __future__ import annotations

import argparse
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from omen_solver import cli
from omen_solver.cli.args import MAX_SECONDS
from omen_solver.core.budget import MAX_NODES
from tests.cli.test_flags import BASE, COMMANDS, SLOW, options

ROOT = Path(__file__).resolve().parents[2]
HARMONY = ROOT / "puzzles" / "omens" / "harmony.toml"
ADVICE = ROOT / "docs" / "examples" / "omens" / "advice-seat1.toml"
ENGINE = f"{sys.executable} -m omen_solver vectors engine"
HOSTILE = ["nan", "inf", "-inf", "1e300", "-1", "9" * 25, "9" * 5_000]


def _usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """``argv`` is refused as bad input (exit 2): its one line on stderr."""
    try:
        code = cli.main(argv)
    except SystemExit as exited:
        code = int(exited.code or 0)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


def _numeric(action: argparse.Action) -> bool:
    kind = action.type
    if not callable(kind):
        return False
    try:
        sample = kind("1")
    except Exception:
        return False
    return isinstance(sample, int | float) and not isinstance(sample, bool)


NUMERIC = [pytest.param(path, action.dest, id=f"{' '.join(path)} {action.option_strings[-1]}")
           for path, parser in sorted(COMMANDS.items())
           for action in options(parser) if _numeric(action)]


@pytest.mark.parametrize(("path", "dest"), NUMERIC)
def test_no_number_option_takes_nan_an_infinity_or_an_overflowing_time(
        path: tuple[str, ...], dest: str) -> None:
    action = next(a for a in options(COMMANDS[path]) if a.dest == dest)
    assert callable(action.type)
    for text in HOSTILE:
        try:
            value = action.type(text)
        except (argparse.ArgumentTypeError, ValueError, TypeError):
            continue
        assert math.isfinite(value), (path, dest, text)
        if isinstance(value, float):
            assert value <= MAX_SECONDS, (path, dest, text)


def test_c2_node_limits_past_64_bits_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    too_many = str(2**63)
    for argv in (["solve", str(HARMONY)], ["advise", str(ADVICE), "--seat", "1"],
                 ["puzzles", "check"], ["puzzles", "generate", "--kind", "deep"],
                 ["survey"], ["omen", "endgame", str(ROOT / "puzzles/omen/stalled.toml")]):
        err = _usage_error(capsys, [*argv, "--max-nodes", too_many])
        assert "--max-nodes" in err and f"{MAX_NODES:,}" in err
    err = _usage_error(capsys, ["solve", str(HARMONY), "--max-memory", "9000000000G"])
    assert "--max-memory" in err and "TiB" in err
    # The largest limit each takes still runs.
    assert cli.main(["solve", str(HARMONY), "--max-nodes", str(MAX_NODES),
                     "--max-memory", "1024T"]) == 0
    capsys.readouterr()


def test_c3_h2_timeouts_of_inf_or_nan_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["vectors", "check"], ["vectors", "perft"]):
        for flag in ("--timeout", "--start-timeout"):
            for value in ("inf", "nan", "0", "1e300"):
                err = _usage_error(capsys, [*command, "--engine", ENGINE, flag, value])
                assert flag in err
    from omen_solver.errors import OptionError
    from omen_solver.vectors.process import EngineProcess

    for timeout in (math.nan, math.inf, 0.0):
        with pytest.raises(OptionError, match="timeout"):
            EngineProcess(ENGINE, timeout)


def test_c5_c6_survey_deals_and_batches_out_of_range_are_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = str(tmp_path / "survey")
    for flags, said in ((["--deals", "0"], "at least 1"), (["--deals", "4:0"], "at least 1"),
                        (["--batch", str(10**30)], "1,000,000"),
                        (["--workers", str(10**30)], "4,096"),
                        (["--connect-timeout", "inf"], "not a positive number")):
        err = _usage_error(capsys, ["survey", "--out", out, *flags])
        assert said in err, err
    assert not Path(out).exists()
    err = _usage_error(capsys, ["balance", "--out", out, "--games", "0"])
    assert "at least 1" in err


def test_k6_an_out_folder_that_is_a_file_is_named(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    target = tmp_path / "results.txt"
    target.write_text("mine\n", encoding="utf-8")
    err = _usage_error(capsys, ["witnesses", "fear_pass_on", "--out", str(target), "--no-docs"])
    assert f"{target}: is a file, not a folder" in err and ".lock" not in err
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_k6_a_file_with_a_byte_order_mark_is_read(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    """Some editors start UTF-8 files with a byte-order mark; the file is read as without."""
    marked = tmp_path / "harmony.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + HARMONY.read_bytes())
    assert cli.main(["solve", str(marked)]) == 0
    plain = cli.main(["solve", str(HARMONY)])
    out = capsys.readouterr().out
    assert plain == 0 and out.count("stated answer: agrees") == 2


# -- K1: Ctrl-C on a terminal ----------------------------------------------------------------


def _interrupt_group(argv: list[str], results: Path) -> tuple[int, str]:
    """Start ``argv`` in a process group of its own (as a terminal does), wait until its
    workers have recorded something (the file's first line is the run's settings), then send
    SIGINT to the whole group (a terminal's Ctrl-C) while they work on."""
    process = subprocess.Popen([sys.executable, "-m", "omen_solver", *argv],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists() and results.read_bytes().count(b"\n") >= 2:
                break
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    return process.returncode, err


@pytest.mark.slow
def test_k1_ctrl_c_into_survey_prints_no_worker_traceback(tmp_path: Path) -> None:
    out = tmp_path / "survey"
    code, err = _interrupt_group(
        ["survey", "--out", str(out), "--deals", "300", "--players", "4", "--cards", "3",
         "--workers", "2", "--no-plots", "--no-options", "--no-lines"], out / "deals.jsonl")
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "interrupted" in err


def test_k1_ctrl_c_into_balance_prints_no_worker_traceback(tmp_path: Path) -> None:
    out = tmp_path / "balance"
    code, err = _interrupt_group(
        ["balance", "--out", str(out), "--games", "400", "--players", "4", "--presets",
         "rulebook", "--workers", "2", "--no-plots"], out / "games.jsonl")
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


# -- the slow tier: every command with each hostile number -------------------------------------


def _runs(walked: dict[tuple[str, ...], list[str]]) -> list[Any]:
    found = []
    for path, base in walked.items():
        for action in options(COMMANDS[path]):
            if _numeric(action) and action.option_strings[-1] not in base:
                found.append(pytest.param(path, base, action.option_strings[-1],
                                          id=f"{' '.join(path)} {action.option_strings[-1]}"))
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("path", "base", "flag"), _runs(BASE) + _runs(SLOW))
def test_every_number_option_answers_or_refuses_hostile_numbers(
        tmp_path: Path, path: tuple[str, ...], base: list[str], flag: str) -> None:
    """Each numeric option of each command, given a huge number, a negative one and zero:
    the command answers (0 or 1) or refuses (2), within two minutes, with no traceback."""
    from tests.cli.test_flags import OMEN, OMENS

    (tmp_path / "puzzles").mkdir()
    shutil.copy(OMENS, tmp_path / "puzzles")
    shutil.copy(OMEN, tmp_path / "puzzles")
    shutil.copytree(ROOT / "proofs", tmp_path / "proofs",
                    ignore=shutil.ignore_patterns("counterexamples", "witnesses"))
    (tmp_path / "puzzles-vectors" / "omen").mkdir(parents=True)
    shutil.copy(ROOT / "vectors" / "omen" / "examples.json",
                tmp_path / "puzzles-vectors" / "omen")
    argv = [*path, *(word.replace("{tmp}", str(tmp_path)) for word in base)]
    for value in ("9" * 25, "-1", "0"):
        done = subprocess.run([sys.executable, "-m", "omen_solver", *argv, flag, value],
                              capture_output=True, text=True, timeout=120, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
        assert done.returncode in (0, 1, 2), (value, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (value, done.stderr[-2000:])
