"""The digest of the compiled kernel's C sources, so that a build can be told stale.

``setup.py`` builds the extension with this digest of the sources it compiled
(``_ckernel.SOURCE``); :mod:`.compiled` computes it again from the sources beside the module
and refuses a build whose digest differs (an editable install whose sources changed after the
build, e.g. after a pull without ``pip install -e .``). A wheel ships no C sources, so there
is nothing to compare and the build is taken as it is.

This module imports nothing from the package: ``setup.py`` loads it by its path.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

SOURCES = ("_ckernel.c", "_ckernel_machine.h", "_ckernel_mcts.h")
"""The files the extension is compiled from, in the order they are digested."""


def digest(folder: Path) -> str | None:
    """The first 16 hexadecimal digits of the SHA-256 of the sources in ``folder`` (each
    file's name, then its bytes), or None when any of them is missing."""
    sha = hashlib.sha256()
    for name in SOURCES:
        path = folder / name
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        sha.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return sha.hexdigest()[:16]
