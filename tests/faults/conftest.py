"""Shared pieces of the fault tier (``tests/README.md``, "Fault tier"): a small filesystem
that fills up, and a bound on anything that could block. Each test kills only the processes
it started, by their ids."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

SMALL_DISK_BYTES = 256 * 1024
"""The size of the small filesystem (a tmpfs): a few files fill it."""


class Blocked(Exception):
    """A call the test bounds did not return in time (it blocked)."""


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a filesystem of its own, :data:`SMALL_DISK_BYTES` large (a ``tmpfs``, which
    only root may mount: skipped with the reason elsewhere); unmounted afterwards."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full disk needs a small tmpfs, which only root can mount here")
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={SMALL_DISK_BYTES},mode=0777", "tmpfs",
         str(folder)], capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def fill(folder: Path) -> None:
    """Fill the filesystem of ``folder`` to its last byte (with the file ``filler``)."""
    block = b"\0" * 4096
    with (folder / "filler").open("wb", buffering=0) as out:
        while True:
            try:
                out.write(block)
            except OSError as error:
                assert error.errno == errno.ENOSPC
                break
    for size in (1024, 256, 64, 16, 1):  # the last part of a page
        with (folder / "filler").open("ab", buffering=0) as out:
            try:
                while True:
                    out.write(b"\0" * size)
            except OSError:
                pass


@pytest.fixture
def bounded() -> Iterator[None]:
    """The test fails with :class:`Blocked` instead of hanging if it runs past 20 s (a FIFO
    opened or read by mistake blocks for ever otherwise)."""

    def expired(signum: int, frame: FrameType | None) -> None:
        raise Blocked("the call blocked (20 s)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, 20)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
