"""The folders shipped with the package: the rule theorems (``proofs/``), the best-play puzzles
(``puzzles/``) and the conformance vectors (``vectors/``).

They live at the top of the repository, where people read and edit them. A build copies them
into the package (``omen_solver/_shipped/``, see ``setup.py``), so an installed package finds
them from any folder; a source checkout (an editable install) uses the repository's own. The
commands that read them by default (``prove``, ``puzzles check``, ``vectors check``) resolve
them here and say which folder they read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from omen_solver.errors import OmenSolverError

__all__ = ["PACKAGE_COPY", "SHIPPED", "shipped"]

SHIPPED: Final = ("proofs", "puzzles", "vectors")
"""The folders a build copies into the package."""

PACKAGE_COPY: Final = Path(__file__).resolve().parent / "_shipped"
"""Where a build puts them."""

_CHECKOUT: Final = PACKAGE_COPY.parent.parent
"""The repository, when the package is imported from a source checkout."""


def shipped(name: str) -> Path:
    """The shipped folder ``name`` (one of :data:`SHIPPED`): the package's copy, or in a source
    checkout the repository's own folder."""
    if name not in SHIPPED:
        raise ValueError(f"{name!r} is not a shipped folder; they are {', '.join(SHIPPED)}")
    copy = PACKAGE_COPY / name
    if copy.is_dir():
        return copy
    source = _CHECKOUT / name
    if source.is_dir() and (_CHECKOUT / "pyproject.toml").is_file():
        return source
    raise OmenSolverError(f"the shipped {name}/ folder is missing from this installation "
                          f"(looked in {copy} and {source}): reinstall omen-solver, or give "
                          "the folder")
