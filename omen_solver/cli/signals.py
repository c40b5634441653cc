"""Ctrl-C and SIGTERM stop a command the same way: whatever a command does on an interrupt
(stop its workers, keep what it recorded, never report a result) it does on SIGTERM too, and
the command line exits 130 or 143 (128 plus the signal's number, as shells report it).

Python runs a signal handler only between two bytecodes of the main thread, so a handler
alone would wait for a z3 check (which catches SIGINT itself while it runs) or any other long
call into C to return. A thread therefore watches the signals through
:func:`signal.set_wakeup_fd` and answers SIGTERM by sending the process SIGINT, which both z3
and Python turn into :class:`KeyboardInterrupt`; the handler raises it itself when the main
thread gets there first. Either way it happens once, and :attr:`Stop.signal` remembers which
signal came, so that an exception the interrupt caused on its way (ctypes wraps one raised
while it converts an argument) is not taken for the command's answer. An interrupt that lands
in a finalizer (``__del__``, where Python would print and drop it) is raised again a moment
later, outside it.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["Stop", "stop_on_signals"]

_STOP_WATCHING = b"\0"
"""Written to the pipe to end the watcher (no signal has the number 0)."""

_pipes: list[tuple[int, int]] = []
"""The watcher's pipe while one runs."""


_RETRY_SECONDS = 0.02
"""How soon an interrupt that arrived in a finalizer is raised again."""


def _in_finalizer(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


class Stop:
    """Which signal (SIGINT or SIGTERM) asked the command to stop, if one did."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.signal: int | None = None
        self.active = True
        """False once the command is over: a retry no longer interrupts anything."""

    def claim(self, signum: int) -> bool:
        """Record the signal; False if one was already recorded."""
        with self._lock:
            if self.signal is not None:
                return False
            self.signal = signum
            return True


def _defaults_in_child() -> None:
    """A worker forked by a command dies of SIGTERM (its parent stops it that way), leaves
    Ctrl-C to its parent, which stops it (a worker interrupted in a finalizer would print a
    traceback), and holds no end of the parent's pipe."""
    if _pipes:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for pipe in _pipes:
            for end in pipe:
                os.close(end)
        _pipes.clear()


os.register_at_fork(after_in_child=_defaults_in_child)


@contextmanager
def stop_on_signals() -> Iterator[Stop]:
    """While in force, SIGINT and SIGTERM raise :class:`KeyboardInterrupt` in the main thread
    (and interrupt a z3 check); the returned object says which arrived."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # signals reach the main thread only
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)

    retries: list[threading.Timer] = []

    def again() -> None:
        if stop.active:
            os.kill(os.getpid(), signal.SIGINT)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        first = stop.claim(signum)
        if signum == signal.SIGTERM and not first:
            return  # the watcher has sent SIGINT already
        if _in_finalizer(frame):
            # Python ignores an exception raised in a __del__ (z3 runs many): ask again once
            # the finalizer is done.
            retry = threading.Timer(_RETRY_SECONDS, again)
            retries.append(retry)
            retry.start()
            return
        raise KeyboardInterrupt

    def watch() -> None:
        while True:
            try:
                data = os.read(read_end, 64)
            except OSError:
                return
            if signal.SIGTERM in data and stop.claim(signal.SIGTERM):
                os.kill(os.getpid(), signal.SIGINT)
            if not data or _STOP_WATCHING in data:
                return

    previous_int = signal.signal(signal.SIGINT, on_signal)
    previous_term = signal.signal(signal.SIGTERM, on_signal)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    watcher = threading.Thread(target=watch, name="signal-watcher", daemon=True)
    watcher.start()
    _pipes.append((read_end, write_end))
    try:
        yield stop
    finally:
        stop.active = False
        for retry in retries:
            retry.cancel()
        signal.set_wakeup_fd(previous_fd)
        signal.signal(signal.SIGTERM, previous_term)
        signal.signal(signal.SIGINT, previous_int)
        os.write(write_end, _STOP_WATCHING)
        watcher.join(timeout=1)
        _pipes.remove((read_end, write_end))
        os.close(write_end)
        os.close(read_end)
