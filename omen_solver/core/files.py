"""Reading the files a person hands to the library (position files, card files, puzzles), and
writing files whole, one writer per folder.

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

import codecs
import errno
import os
import secrets
import stat
import sys
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any, Final

from omen_solver.errors import FolderLocked, OmenSolverError, PositionError, one_line

__all__ = [
    "LOCK_FILE",
    "MAX_FILE_BYTES",
    "FolderLock",
    "Source",
    "atomic_file",
    "atomic_write",
    "json_depth",
    "parse_toml",
    "read_bytes",
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
    """UTF-8 text; a byte-order mark at the start (as some editors write) is left out."""
    data = data.removeprefix(codecs.BOM_UTF8)
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


def _too_large(name: str, error: type[OmenSolverError], limit: int = MAX_FILE_BYTES,
               size: int | None = None) -> OmenSolverError:
    size_text = f"{size:,} bytes, " if size is not None else ""
    return error(
        f"{name}: {size_text}more than the {limit:,} a file may have here: not a file this "
        "program reads (stopped reading)"
    )


_OPEN_TO_READ: Final = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
"""Opened without blocking: opening a FIFO for reading waits for a writer otherwise."""


def read_bytes(
    path: Path | str, error: type[OmenSolverError] = PositionError, limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of a regular file, at most ``limit`` of them: the one way the library reads a
    file it is handed (positions, catalogues, puzzles, theorem files, advice files, vector
    files, summaries).

    A FIFO, a device or a socket is refused at once (the file is opened without blocking and
    checked before a byte is read), so is a folder and a file larger than ``limit``. Each
    failure raises ``error`` naming the file.
    """
    path = Path(path)
    try:
        descriptor = os.open(path, _OPEN_TO_READ)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a file") from None
    except PermissionError:
        raise error(f"{path}: permission denied") from None
    except OSError as problem:
        raise error(f"{path}: cannot be read: {problem.strerror or problem}") from None
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{path}: is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path}: not a regular file (a FIFO, a device or a socket): not a "
                        "file this program reads")
        if info.st_size > limit:
            raise _too_large(str(path), error, limit, info.st_size)
        os.set_blocking(descriptor, True)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as problem:
        raise error(f"{path}: cannot be read: {problem.strerror or problem}") from None
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:  # grew while being read
        raise _too_large(str(path), error, limit)
    return data


def read_text(path: Path | str, error: type[OmenSolverError] = PositionError,
              limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file, at most ``limit`` bytes of it (see
    :func:`read_bytes`)."""
    return _decode(read_bytes(path, error, limit), str(Path(path)), error)


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


# -- writing ------------------------------------------------------------------------------------
#
# Every file the library writes goes through :func:`atomic_file` (or :func:`atomic_write`): the
# bytes go to a new temporary file in the target's folder, with a unique name, created
# exclusively (``O_EXCL``, never through a symbolic link: a link planted at any name is never
# followed), flushed to disk and renamed over the target in one step. A reader sees the old
# file or the new one, never half of one; a failure (a full disk, an interrupt) removes the
# temporary file and leaves the target as it was, and the error names the target.


@contextmanager
def atomic_file(path: Path | str, mode: str = "wb") -> Iterator[IO[Any]]:
    """An open file whose content replaces ``path`` when the block ends without an error.

    ``mode`` is ``"wb"`` (bytes) or ``"w"`` (UTF-8 text). The folder must exist. If ``path`` is
    a symbolic link the link itself is replaced, its target is never written.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode {mode!r}: atomic files are written whole ('wb' or 'w')")
    path = Path(path)
    descriptor, temporary = _create_temporary(path)
    try:
        handle: IO[Any] = (os.fdopen(descriptor, "wb") if mode == "wb"
                           else os.fdopen(descriptor, "w", encoding="utf-8", newline=""))
    except BaseException:
        os.close(descriptor)
        _remove(temporary)
        raise
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as problem:
        _remove(temporary)
        raise _named(problem, path) from None
    except BaseException:
        _remove(temporary)
        raise
    _sync_folder(path.parent)


_CREATE: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_TRIES: Final = 100


def _create_temporary(path: Path) -> tuple[int, str]:
    """A new file ``.NAME.RANDOM.tmp`` beside ``path``, created exclusively (the permissions
    of an ordinary new file: the umask applies)."""
    for _ in range(_TRIES):
        temporary = str(path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp"))
        try:
            return os.open(temporary, _CREATE, 0o666), temporary
        except FileExistsError:
            continue
        except OSError as problem:
            raise _named(problem, path) from None
    raise OSError(errno.EEXIST, "no unused temporary name beside it", str(path))


def atomic_write(path: Path | str, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole, through :func:`atomic_file`."""
    with atomic_file(path, "w" if isinstance(data, str) else "wb") as handle:
        handle.write(data)


def _named(problem: OSError, path: Path) -> OSError:
    """The error with the target's name (a write that fails names no file by itself)."""
    return OSError(problem.errno, problem.strerror or str(problem), str(path))


def _remove(temporary: str) -> None:
    with suppress(OSError):
        os.unlink(temporary)


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk (where the system allows opening a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)


# -- one writer per folder ----------------------------------------------------------------------

LOCK_FILE: Final = ".lock"
"""The file in a folder whose operating-system lock (``flock``) marks its one writer."""


class FolderLock:
    """The one writer of a folder: an exclusive ``flock`` on ``FOLDER/.lock``, held while the
    ``with`` block runs and released by the system when the process ends, however it ends.

    ``wait=False`` raises :class:`FolderLocked` at once when another process holds it, naming
    that process (its id, command line and start time, which the holder writes into the lock
    file); ``wait=True`` blocks until it is free (an interrupt still stops the wait). The lock
    file itself is opened without following a symbolic link.
    """

    def __init__(self, folder: Path | str, *, wait: bool = False, what: str = "") -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_FILE
        self.wait = wait
        self.what = what or " ".join(sys.argv) or "python"
        self._descriptor: int | None = None

    def __enter__(self) -> FolderLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        import fcntl

        for folder in (self.folder, *self.folder.parents):
            if folder.exists() and not folder.is_dir():
                # mkdir would say "FOLDER/.lock: File exists", naming a file no one gave.
                raise OSError(errno.ENOTDIR, "is a file, not a folder", str(folder))
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                                 0o644)
        except OSError as problem:
            raise _named(problem, self.path) from None
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
            except BlockingIOError:
                holder = self._holder(descriptor)
                raise FolderLocked(
                    f"{self.folder}: in use by {holder}; wait for it to end, or pass --wait "
                    "to wait for it"
                ) from None
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            text = f"process {os.getpid()} ({self.what}) since {stamp}\n"
            # The holder's name is for the message of another run: a full disk that refuses
            # it must not stop this one (the lock itself needs no byte on the disk).
            with suppress(OSError):
                os.ftruncate(descriptor, 0)
                os.pwrite(descriptor, text.encode("utf-8", "replace"), 0)
        except BaseException:
            os.close(descriptor)
            raise
        self._descriptor = descriptor

    def release(self) -> None:
        if self._descriptor is not None:
            # Closing the file releases the lock (the lock file stays: removing it would let
            # a second writer lock a new file while a third still waits on the old one).
            os.close(self._descriptor)
            self._descriptor = None

    @staticmethod
    def _holder(descriptor: int) -> str:
        try:
            text = os.pread(descriptor, 1000, 0).decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        return one_line(text) if text else "another process"


def json_depth(value: Any, limit: int | None = None) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (a scalar: 0), with a stack
    of its own. With a ``limit`` nothing below that depth is visited (a hostile value costs no
    more than its first ``limit`` levels): the answer is then ``limit + 1`` for any deeper value."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if limit is None or depth <= limit:
            todo.extend((child, depth) for child in children)
    return deepest
