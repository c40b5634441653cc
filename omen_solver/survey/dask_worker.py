"""Loaded by every worker process of the survey's local Dask cluster as it starts (a Dask
*preload*): the worker leaves Ctrl-C to the command, which stops its cluster itself.

A terminal's Ctrl-C reaches every process of the terminal's process group, the cluster's
workers too; a worker that stopped on its own would print its interrupted event loop (two
tracebacks a worker) over the command's one line (``docs/robustness.md``). The workers are
forked with Ctrl-C ignored already (:func:`omen_solver.survey.runner._workers_leave_interrupts`);
this says so again wherever a worker was started otherwise.
"""

from __future__ import annotations

import signal
import threading


def leave_interrupts_to_the_command() -> None:
    """Ignore SIGINT in this process (only the main thread may change it)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


leave_interrupts_to_the_command()
