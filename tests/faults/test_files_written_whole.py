"""Every file the package writes goes through one helper, every file it reads through one
reader (``omen_solver/core/files.py``): a full disk or an interrupt leaves the old file or
none, never half of one, a planted link is never followed, and a FIFO, a device or a huge
file handed to any command is refused at once (``docs/robustness.md``).

The package's source is read as a syntax tree; a direct write or read anywhere else fails
here, naming the file and the line.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "omen_solver"

HELPERS = "core/files.py"
"""The one writer (``atomic_file``, ``atomic_write``, ``FolderLock``) and reader
(``read_bytes``, ``read_text``)."""

WRITES_ALLOWED = {
    "survey/store.py": "appends records to the survey's results file, one writer per folder "
    "(FolderLock), and cuts off a line a crash left half written",
}
"""Files allowed a write of their own, and why (not a file a person is handed back)."""

READS_ALLOWED = {
    "core/budget.py": "reads the process's own memory use (/proc/self/statm)",
    "vectors/coverage.py": "compiles the package's own modules to list their lines",
    "survey/store.py": "reads back the survey's results file it appends to",
    "omens/kernel/source_digest.py": "digests the package's own C sources; setup.py loads it "
    "by its path and it imports nothing from the package",
}
"""Files allowed a read of their own, and why (never a file named on a command line)."""

_WRITE_METHODS = {"write_text", "write_bytes"}
_READ_METHODS = {"read_text", "read_bytes"}
_MOVES = {("os", "replace"), ("os", "rename"), ("shutil", "copy"), ("shutil", "copyfile"),
          ("shutil", "copy2"), ("shutil", "move"), ("shutil", "copytree")}
_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func) + "()"
    return "?"


def _mode(call: ast.Call, position: int) -> str | None:
    """The mode string of an ``open`` call (``None`` when not written out: read mode)."""
    for keyword in call.keywords:
        if keyword.arg == "mode" and isinstance(keyword.value, ast.Constant):
            return str(keyword.value.value)
    argument = call.args[position] if len(call.args) > position else None
    return str(argument.value) if isinstance(argument, ast.Constant) else None


def _flags(node: ast.expr) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _handles(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Names bound to a file ``atomic_file`` opened or to an in-memory buffer; names bound to
    the package's own data (``importlib.resources``)."""
    names: set[str] = set()
    resources: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and "resources.files()" in _dotted(node.value):
            resources.update(t.id for t in node.targets if isinstance(t, ast.Name))
        if (isinstance(node, ast.withitem) and isinstance(node.context_expr, ast.Call)
                and _dotted(node.context_expr.func).endswith("atomic_file")
                and isinstance(node.optional_vars, ast.Name)):
            names.add(node.optional_vars.id)
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and _dotted(node.value.func).endswith(("BytesIO", "StringIO"))):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names, resources


def _accesses(tree: ast.AST) -> Iterator[tuple[str, int, str]]:
    """``(kind, line, what)`` for each direct write or read: kind is ``write`` or ``read``."""
    handles, resources = _handles(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if node.args and _dotted(node.args[0]) == "os.devnull":
            continue  # the null device: no file is written or read
        func = node.func
        name = _dotted(func)
        if isinstance(func, ast.Attribute):
            receiver = _dotted(func.value)
            if receiver in ("self", "files") or receiver.endswith("core.files"):
                continue  # an object's own method; the helpers themselves
            if func.attr in _WRITE_METHODS:
                yield "write", node.lineno, name
            elif func.attr in _READ_METHODS:
                # importlib.resources reads the package's own data, never a given file
                if "resources.files()" not in receiver and receiver not in resources:
                    yield "read", node.lineno, name
            elif func.attr == "open" and receiver not in ("os", "io"):
                mode = _mode(node, 0) or "r"
                yield ("write" if set(mode) & set("wax+") else "read"), node.lineno, name
            elif func.attr == "savefig":
                target = node.args[0] if node.args else None
                if not (isinstance(target, ast.Name) and target.id in handles):
                    yield "write", node.lineno, name
            elif (receiver, func.attr) in _MOVES:
                yield "write", node.lineno, name
            elif name == "os.open":
                flags = _flags(node.args[1]) if len(node.args) > 1 else set()
                yield ("write" if flags & _WRITE_FLAGS else "read"), node.lineno, name
            elif name in ("os.fdopen", "io.open"):
                mode = _mode(node, 1) or "r"
                yield ("write" if set(mode) & set("wax+") else "read"), node.lineno, name
        elif name == "open":
            mode = _mode(node, 1) or "r"
            yield ("write" if set(mode) & set("wax+") else "read"), node.lineno, name


@functools.cache
def _found() -> list[tuple[str, str, int, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative == HELPERS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [(kind, relative, line, what) for kind, line, what in _accesses(tree)]
    return found


def test_every_file_is_written_through_the_atomic_helper() -> None:
    direct = [f"omen_solver/{file}:{line}: {what}" for kind, file, line, what in _found()
              if kind == "write" and file not in WRITES_ALLOWED]
    assert direct == [], "write through omen_solver.core.files.atomic_write or atomic_file"


def test_every_file_is_read_through_the_bounded_reader() -> None:
    direct = [f"omen_solver/{file}:{line}: {what}" for kind, file, line, what in _found()
              if kind == "read" and file not in READS_ALLOWED]
    assert direct == [], "read through omen_solver.core.files.read_bytes or read_text"


def test_every_file_allowed_still_needs_it() -> None:
    """An allowance whose file no longer writes (or reads) by itself goes, so the lists stay
    the exceptions there are."""
    found = _found()
    for kind, allowed in (("write", WRITES_ALLOWED), ("read", READS_ALLOWED)):
        used = {file for k, file, _, _ in found if k == kind}
        assert sorted(set(allowed) - used) == [], f"no direct {kind} left: remove the allowance"


def test_the_scan_sees_direct_writes_and_reads() -> None:
    """The scan itself: each way of writing or reading a file is seen (else the two tests
    above would pass on anything)."""
    source = (
        "import os, shutil\n"
        "path.write_text('x')\n"
        "open(name, 'w')\n"
        "path.open('ab')\n"
        "figure.savefig(path)\n"
        "os.replace(a, b)\n"
        "os.open(name, os.O_WRONLY | os.O_CREAT)\n"
        "os.fdopen(fd, 'wb')\n"
        "with atomic_file(path) as handle:\n"
        "    figure.savefig(handle)\n"
        "path.read_text()\n"
        "open(name)\n"
        "path.open('rb')\n"
        "resources.files('omen_solver').joinpath('x').read_text()\n"
        "data = resources.files('omen_solver').joinpath('x')\n"
        "data.read_text()\n"
        "os.open(os.devnull, os.O_WRONLY)\n"
    )
    kinds = [(kind, line) for kind, line, _ in _accesses(ast.parse(source))]
    assert sorted(kinds, key=lambda k: k[1]) == [
        ("write", 2), ("write", 3), ("write", 4), ("write", 5), ("write", 6), ("write", 7),
        ("write", 8), ("read", 11), ("read", 12), ("read", 13),
    ]
