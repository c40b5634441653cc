"""Processes that end with the command that started them.

A command that starts worker processes (``prove``'s theorem checks, the web server's
searches) stops them itself when it ends normally, on an error, on Ctrl-C or on SIGTERM. If it
dies without a word (``kill -9``, a crash), its workers must not go on computing for minutes:
each worker watches the process that started it and ends as soon as that one is gone.

On Linux the kernel does the watching: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks it to kill the
worker the moment its parent ends (z3 or a C search inside the worker included, since the whole
process ends). Elsewhere, and as a second guard (the parent may end between the fork and the
``prctl``), a thread of the worker checks twice a second that its parent is still the one it
started with.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Final

__all__ = ["POLL_SECONDS", "die_with_parent", "parent_death_signal", "start_worker"]

POLL_SECONDS: Final = 0.5
"""How often the watching thread looks at the parent."""

_PR_SET_PDEATHSIG: Final = 1
"""``prctl``'s option number (``<linux/prctl.h>``)."""


def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except (ImportError, OSError):
        return None
    prctl: Callable[..., int] = libc.prctl
    return prctl


_PRCTL = _prctl()
"""Looked up once, in the parent: a child after ``fork`` then only calls it."""


def parent_death_signal() -> bool:
    """Ask the kernel to kill this process (SIGKILL) when its parent ends; False where the
    system has no such request. Safe as ``subprocess.Popen(preexec_fn=...)``: it only calls
    the function looked up at import.

    The kernel watches the *thread* that started the process: start it from a thread that
    outlives it (the main thread, a pool's thread that waits for it)."""
    if _PRCTL is None:
        return False
    return _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0


def die_with_parent(parent: int | None = None) -> None:
    """Make this process (a worker) end when ``parent`` (default: the current parent) ends.

    Meant as the first call of a worker: ``ProcessPoolExecutor(initializer=die_with_parent,
    initargs=(os.getpid(),))``, or at the start of a worker program. When ``parent`` is not
    this process's own parent (a pool that forks its workers from a server process of its
    own), the thread watches ``parent`` itself.
    """
    expected = os.getppid() if parent is None else parent
    direct = os.getppid() == expected
    if direct:
        parent_death_signal()
    if not _alive(expected, direct=direct):  # gone already, before the request took effect
        os.kill(os.getpid(), signal.SIGKILL)
    watcher = threading.Thread(target=_watch, args=(expected, direct), daemon=True,
                               name="watch-parent")
    watcher.start()


def _alive(parent: int, *, direct: bool) -> bool:
    if direct:
        return os.getppid() == parent  # an orphan is adopted by another process
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _watch(parent: int, direct: bool) -> None:
    stopped = threading.Event()
    while not stopped.wait(POLL_SECONDS):
        if not _alive(parent, direct=direct):
            os.kill(os.getpid(), signal.SIGKILL)


def start_worker(parent: int) -> None:
    """The first call of a pool's worker process (``ProcessPoolExecutor(initializer=
    start_worker, initargs=(os.getpid(),))``): it ends with ``parent``
    (:func:`die_with_parent`), and it leaves Ctrl-C to ``parent``, which stops its workers
    itself. A terminal's Ctrl-C reaches the whole process group: a worker that stopped on its
    own would print its interrupted computation (z3's finalizers, the pool's traceback) over
    the command's one line."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
