"""Build of the optional compiled search kernel (everything else is in pyproject.toml).

The extension is optional: without a C compiler the build goes on and the library uses the
pure-Python kernel, which gives the same results (omen_solver/omens/kernel/__init__.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "omen_solver.omens.kernel._ckernel",
            sources=["omen_solver/omens/kernel/_ckernel.c"],
            depends=["omen_solver/omens/kernel/_ckernel_machine.h"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
