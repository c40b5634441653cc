"""The optional extras of the package: what each one installs, and the check a command makes
before it needs one, so that a missing extra is named at once (with the ``pip install`` line
and what to do without it) and never found out at the end of a long run.

``pip install omen-solver`` answers rules questions and solves positions without any of them
(docs/install.md)."""

from __future__ import annotations

import importlib.util
from typing import Final

from omen_solver.errors import MissingDependencyError

__all__ = ["EXTRAS", "has", "missing", "require"]

EXTRAS: Final[dict[str, tuple[str, ...]]] = {
    "survey": ("distributed", "matplotlib"),
    "draw": ("matplotlib",),
    "web": ("starlette", "uvicorn"),
    "dot": ("pydot",),
    "openspiel": ("pyspiel",),
}
"""Each extra of pyproject.toml and the modules it brings (the ones a command imports)."""


def has(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing(module: str, extra: str, needed_for: str, instead: str = "") -> MissingDependencyError:
    """The error of a missing ``module``, naming ``extra`` (one wording for every command):
    ``needed_for`` says what needs it, ``instead`` how to do without it."""
    without = f"; or {instead}" if instead else ""
    return MissingDependencyError(
        f"{needed_for}: needs the '{extra}' extra ({module} is not installed): "
        f"pip install 'omen-solver[{extra}]'{without}")


def require(module: str, extra: str, needed_for: str, instead: str = "") -> None:
    """Raise :func:`missing`'s error when ``module`` cannot be imported."""
    if not has(module):
        raise missing(module, extra, needed_for, instead)
