"""Loading theorem files (``proofs/*.py``, format in ``docs/proofs.md``).

A theorem file is a Python module that defines ``THEOREM``, a
:class:`~omen_solver.omens.proofs.theorems.theorem.Theorem` whose name is the file's stem with ``_``
written ``-`` (``proofs/life_and_death.py`` defines ``life-and-death``). Files whose
name starts with ``_`` are helpers and are not loaded as theorems. Modules are loaded by path,
so the folder need not be a package.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

from omen_solver.core.files import read_text
from omen_solver.errors import OmenSolverError, TheoremFileError
from omen_solver.omens.proofs.theorems.theorem import Theorem

__all__ = ["TheoremFileError", "load_theorem", "load_theorems", "select"]


def _module_name(path: Path) -> str:
    return f"omen_solver_proofs.{path.stem}"


def load_theorem(path: Path) -> Theorem:
    """Load one theorem file."""
    name = _module_name(path)
    # Read like every other input file (a regular file, bounded in size), then run.
    source = read_text(path, TheoremFileError)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TheoremFileError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except OmenSolverError:
        raise
    except Exception as error:  # a theorem file is code: report any error with the file name
        del sys.modules[name]
        raise TheoremFileError(
            f"{path}: could not be loaded: {type(error).__name__}: {error}"
        ) from error
    theorem = getattr(module, "THEOREM", None)
    if not isinstance(theorem, Theorem):
        raise TheoremFileError(f"{path}: key 'THEOREM': the file must define THEOREM, a Theorem")
    expected = path.stem.replace("_", "-")
    if theorem.name != expected:
        raise TheoremFileError(
            f"{path}: key 'THEOREM.name': {theorem.name!r} should be {expected!r}, the file's name"
        )
    return theorem


def load_theorems(folder: Path) -> list[Theorem]:
    """Every theorem of a folder, in file-name order."""
    if not folder.is_dir():
        raise TheoremFileError(
            f"{folder}: no such folder of theorems (run from the project folder, or give --dir)"
        )
    files = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    if not files:
        raise TheoremFileError(f"{folder}: no theorem files (*.py) in this folder")
    return [load_theorem(path) for path in files]


def select(theorems: Sequence[Theorem], names: Sequence[str]) -> list[Theorem]:
    """The theorems named (all if none); an unknown name is an error listing the known ones."""
    if not names:
        return list(theorems)
    by_name = {t.name: t for t in theorems}
    chosen = []
    for name in names:
        key = name.replace("_", "-")
        if key not in by_name:
            known = ", ".join(sorted(by_name))
            raise TheoremFileError(f"no theorem named {name!r}; known theorems: {known}")
        chosen.append(by_name[key])
    return chosen
