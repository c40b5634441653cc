"""Reading the files a person hands to the library: position files, card files, puzzles.

Every file is read the same way, so every command answers bad input the same way: at most
:data:`MAX_FILE_BYTES` are read (a device such as ``/dev/zero`` or a huge file is refused, not
read into memory), the bytes must be UTF-8 (TOML 1.0, "Spec": "A TOML file must be a valid
UTF-8 encoded Unicode document"), and the TOML must parse. Each failure raises the caller's
error class (a :class:`ValueError` subclass) whose message names the file and what is wrong,
with the line and column where there is one.

Sources can be a path, TOML text already in memory, or an open file (text or binary), so the
per-game loaders (``omen_solver.omens.load``, ``omen_solver.omen.load``) take all three.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import IO, Any, Final

from omen_solver.errors import OmenSolverError, PositionError

__all__ = [
    "MAX_FILE_BYTES",
    "Source",
    "parse_toml",
    "read_source",
    "read_text",
    "read_toml",
    "source_name",
]

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
"""The most bytes read from one file. The largest shipped file is under 40 KB; a position or
card file a person writes is a few KB."""

Source = str | os.PathLike[str] | IO[str] | IO[bytes]
"""What a loader accepts: a path (``str`` or ``Path``), TOML text, or an open file (text or
binary). A ``str`` that holds a line break, or a ``=`` and names no existing file, is read as
TOML text, not as a path."""


def _decode(data: bytes, name: str, error: type[OmenSolverError]) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        before = data[: problem.start]
        line = before.count(b"\n") + 1
        column = problem.start - (before.rfind(b"\n") + 1) + 1
        byte = data[problem.start : problem.start + 1].hex()
        raise error(
            f"{name}: not UTF-8 text: byte 0x{byte} at line {line}, column {column} "
            "(save the file as UTF-8)"
        ) from None


def _too_large(name: str, error: type[OmenSolverError]) -> OmenSolverError:
    return error(
        f"{name}: larger than {MAX_FILE_BYTES:,} bytes: not a file this program reads "
        "(stopped reading)"
    )


def read_text(path: Path | str, error: type[OmenSolverError] = PositionError) -> str:
    """The UTF-8 text of a file, at most :data:`MAX_FILE_BYTES` of it."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a file") from None
    except PermissionError:
        raise error(f"{path}: permission denied") from None
    except OSError as problem:
        raise error(f"{path}: cannot be read: {problem.strerror or problem}") from None
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(str(path), error)
    return _decode(data, str(path), error)


def parse_toml(
    text: str, name: str, error: type[OmenSolverError] = PositionError
) -> dict[str, Any]:
    """Parse TOML text; a syntax error names ``name``, the line and the column."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{name}: not valid TOML: {problem}") from None
    except RecursionError:
        raise error(f"{name}: not valid TOML here: arrays or tables nested too deeply") from None
    except ValueError as problem:
        # tomllib lets int()'s own errors through, e.g. an integer of more than 4,300 digits.
        raise error(f"{name}: not valid TOML here: {problem}") from None


def read_toml(path: Path | str, error: type[OmenSolverError] = PositionError) -> dict[str, Any]:
    """Read and parse a TOML file (see :func:`read_text` and :func:`parse_toml`)."""
    return parse_toml(read_text(path, error), str(path), error)


def source_name(source: Source) -> str:
    """How messages name a source: the path, ``<string>``, or an open file's name."""
    if isinstance(source, os.PathLike):
        return os.fspath(source)
    if isinstance(source, str):
        return "<string>" if _is_toml_text(source) else source
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "<file>"


def _is_toml_text(text: str) -> bool:
    return "\n" in text or ("=" in text and not os.path.exists(text))


def read_source(
    source: Source, error: type[OmenSolverError] = PositionError
) -> tuple[dict[str, Any], str, Path | None]:
    """Parse a TOML source: ``(data, name for messages, the folder relative names start in)``.

    A path is read from disk (relative file names inside it are relative to its folder); TOML
    text and open files have no folder (relative names are relative to the current folder).
    """
    name = source_name(source)
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not _is_toml_text(source)):
        path = Path(source)
        return read_toml(path, error), str(path), path.parent
    if isinstance(source, str):
        return parse_toml(source, name, error), name, None
    read = getattr(source, "read", None)
    if read is None:
        raise error(
            f"{source!r}: expected TOML text, a path or an open file, not {type(source).__name__}"
        )
    content = read(MAX_FILE_BYTES + 1)
    if len(content) > MAX_FILE_BYTES:
        raise _too_large(name, error)
    text = _decode(content, name, error) if isinstance(content, bytes) else str(content)
    return parse_toml(text, name, error), name, None
