"""Build of the optional compiled search kernel, and the shipped folders copied into the
package (everything else is in pyproject.toml).

The extension is optional: without a C compiler the build goes on and the library uses the
pure-Python kernel, which gives the same results (omen_solver/omens/kernel/__init__.py).

The theorems, puzzles and vectors stay at the top of the repository, where they are read and
edited; ``build_py`` copies them into ``omen_solver/_shipped/`` so that an installed package
finds them from any folder (``omen_solver.shipped``). An editable install reads the
repository's own folders instead.
"""

import importlib.util
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

SHIPPED = ("proofs", "puzzles", "vectors")
"""The same tuple as omen_solver.shipped.SHIPPED (setup.py cannot import the package)."""


def _kernel_source_digest() -> str:
    """The digest of the kernel's C sources (omen_solver/omens/kernel/source_digest.py, loaded
    by its path), compiled into the extension so that a stale build can be told."""
    kernel = Path(__file__).resolve().parent / "omen_solver" / "omens" / "kernel"
    spec = importlib.util.spec_from_file_location("source_digest", kernel / "source_digest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.digest(kernel) or ""


class BuildWithShippedFolders(build_py):
    """``build_py``, then the shipped folders copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        root = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "omen_solver" / "_shipped"
        for name in SHIPPED:
            source = root / name
            if not source.is_dir():
                raise SystemExit(f"setup.py: the shipped folder {source} is missing")
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(source, target / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(
    cmdclass={"build_py": BuildWithShippedFolders},
    ext_modules=[
        Extension(
            "omen_solver.omens.kernel._ckernel",
            sources=["omen_solver/omens/kernel/_ckernel.c"],
            define_macros=[("CKERNEL_SOURCE", f'"{_kernel_source_digest()}"')],
            depends=["omen_solver/omens/kernel/_ckernel_machine.h",
                     "omen_solver/omens/kernel/_ckernel_mcts.h"],
            # no fused multiply-add: the tree search's arithmetic is Python's, bit for bit
            extra_compile_args=["-O3", "-pthread", "-ffp-contract=off"],
            extra_link_args=["-pthread"],
            optional=True,
        )
    ],
)
