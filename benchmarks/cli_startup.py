"""Benchmark: how long the command line takes to start, as a ratio to a bare Python.

Runs, side by side in one run and each ``--runs`` times (the median is shown), ``python -c
pass`` and ``python -m omen_solver`` with ``--version``, ``--help`` and a few command helps and
quick commands, and prints each one's seconds and its ratio to the bare Python. ``--version``
and ``--help`` import none of the engines (``omen_solver.cli.COMMANDS`` imports a command's
module only when it runs); the target is under 0.3 s on this machine.

Usage::

    python benchmarks/cli_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES: tuple[tuple[str, ...], ...] = (
    ("--version",),
    ("--help",),
    ("solve", "--help"),
    ("prove", "--help"),
    ("omens", "cards"),
)


def seconds(argv: list[str], runs: int) -> float:
    """The median wall time of ``runs`` runs of ``argv`` (output discarded)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       cwd=ROOT)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each case (median)")
    args = parser.parse_args()
    bare = seconds([sys.executable, "-c", "pass"], args.runs)
    print(f"{'command':<32} {'seconds':>8} {'ratio to python -c pass':>24}")
    print(f"{'python -c pass':<32} {bare:>8.3f} {1:>24.1f}")
    for case in CASES:
        spent = seconds([sys.executable, "-m", "omen_solver", *case], args.runs)
        print(f"{'omen-solver ' + ' '.join(case):<32} {spent:>8.3f} {spent / bare:>24.1f}")


if __name__ == "__main__":
    main()
