"""The results file of a survey (or of a balance run): JSON lines, appended batch by batch.

The first line is the run's settings (``{"survey": {...}}`` or ``{"balance": {...}}``); every
other line is one record, ``{"id": "4p-17", ...}``. A batch's records are written by one
``write`` and flushed to disk, so an interrupted run leaves whole lines (a line cut by a crash
is dropped when the file is opened again, and its record redone). Reading keeps the first
record of each id, so nothing is counted twice; resuming skips the ids already recorded, so
nothing is lost.

**One writer.** Opening a store takes the folder's lock
(:class:`omen_solver.core.files.FolderLock`): a second run on the same folder is refused at
once, naming the process that holds it, or waits for it (``wait=True``).

**Flat memory.** The store keeps no record in memory: only which ids are done, one bit per
record (an id is ``PREFIX-NUMBER``; a bit set per prefix), so a run of millions of records holds
a few hundred kilobytes. The records are read back one at a time (:meth:`ResultStore.records`),
which is how the tables are made.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from omen_solver.core.files import FolderLock
from omen_solver.errors import SurveyFileError

__all__ = ["DoneIndex", "ResultStore", "SurveyFileError"]

_CHUNK = 1 << 16
_ID = b'{"id":"'


class _Settings(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class DoneIndex:
    """A set of ids ``PREFIX-NUMBER``: a bit set per prefix (any other id in a plain set)."""

    def __init__(self) -> None:
        self._bits: dict[str, bytearray] = {}
        self._other: set[str] = set()
        self.count = 0

    @staticmethod
    def _split(ident: str) -> tuple[str, int] | None:
        prefix, dash, number = ident.rpartition("-")
        if not dash or not number.isdigit() or not number.isascii():
            return None
        return prefix, int(number)

    def __contains__(self, ident: str) -> bool:
        split = self._split(ident)
        if split is None:
            return ident in self._other
        bits = self._bits.get(split[0])
        byte, bit = divmod(split[1], 8)
        return bits is not None and byte < len(bits) and bool(bits[byte] & 1 << bit)

    def add(self, ident: str) -> bool:
        """Add ``ident``; ``False`` if it was there already."""
        if ident in self:
            return False
        split = self._split(ident)
        if split is None:
            self._other.add(ident)
        else:
            bits = self._bits.setdefault(split[0], bytearray())
            byte, bit = divmod(split[1], 8)
            if byte >= len(bits):
                bits.extend(bytes(byte + 1 - len(bits)))
            bits[byte] |= 1 << bit
        self.count += 1
        return True

    def __len__(self) -> int:
        return self.count


class ResultStore:
    """Records of one run in ``path``, keyed by id. Hold it in a ``with`` block (or call
    :meth:`close`): it is the folder's one writer until then."""

    def __init__(self, path: Path, config: _Settings, *, key: str = "survey",
                 wait: bool = False) -> None:
        self.path = path
        self.config = config
        self.key = key
        self.done_ids = DoneIndex()
        self._lock: FolderLock | None = FolderLock(path.parent, wait=wait)
        self._lock.acquire()
        try:
            if path.is_symlink() or (path.exists() and not path.is_file()):
                raise SurveyFileError(f"{path}: not a regular file")
            if path.exists() and path.stat().st_size > 0:
                self._read()
            else:
                self._append([{key: config.to_json()}])
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the folder (the records stay readable)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __del__(self) -> None:
        self.close()

    # -- reading ----------------------------------------------------------------------------

    def _drop_cut_line(self) -> None:
        """A last line cut short by a crash is dropped (its record is redone)."""
        with self.path.open("r+b") as handle:
            end = handle.seek(0, os.SEEK_END)
            position = end
            while position > 0:
                start = max(0, position - _CHUNK)
                handle.seek(start)
                chunk = handle.read(position - start)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    keep = start + newline + 1
                    break
                position = start
            else:
                keep = 0
            if keep < end:
                handle.truncate(keep)

    def _lines(self) -> Generator[tuple[int, dict[str, Any]], None, None]:
        with self.path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.endswith(b"\n"):
                    return  # a line another process is writing: not ours to read yet
                yield number, self._parse(number, raw)

    def _read(self) -> None:
        self._drop_cut_line()
        lines = self._lines()
        first = next(lines, None)
        lines.close()
        if first is None:
            self._append([{self.key: self.config.to_json()}])
            return
        header = first[1]
        if self.key not in header:
            raise SurveyFileError(f"{self.path}: line 1: not a {self.key} results file")
        stored = header[self.key]
        wanted = self.config.to_json()
        if stored != wanted:
            different = sorted(k for k in wanted.keys() | stored.keys()
                               if stored.get(k) != wanted.get(k))
            shown = ", ".join(f"{k}: file {stored.get(k)!r}, now {wanted.get(k)!r}"
                              for k in different)
            raise SurveyFileError(
                f"{self.path}: made by a run with other settings ({shown}); resume with the "
                "same settings or choose another --out folder"
            )
        for number, raw in self._raw_lines(2):
            self.done_ids.add(self._ident(number, raw))

    def _raw_lines(self, start: int) -> Iterator[tuple[int, bytes]]:
        with self.path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.endswith(b"\n"):
                    return
                if number >= start:
                    yield number, raw

    def _ident(self, number: int, raw: bytes) -> str:
        """A record's id: read from the line's start as this store writes it (``{"id":"...",``),
        else from the whole line parsed."""
        if raw.startswith(_ID) and raw.endswith(b"}\n"):
            end = raw.find(b'"', len(_ID))
            if end > 0 and raw[end + 1 : end + 2] == b"," and b"\\" not in raw[:end]:
                return raw[len(_ID):end].decode("utf-8", "replace")
        ident = self._parse(number, raw).get("id")
        if not isinstance(ident, str):
            raise SurveyFileError(f"{self.path}: line {number}: a record without an 'id'")
        return ident

    def _parse(self, number: int, raw: bytes) -> dict[str, Any]:
        try:
            value = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
            raise SurveyFileError(f"{self.path}: line {number}: not JSON: {error}") from None
        if not isinstance(value, dict):
            raise SurveyFileError(f"{self.path}: line {number}: expected a JSON object")
        return value

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record, one at a time, in file order; an id recorded twice is read once."""
        seen = DoneIndex()
        lines = self._lines()
        next(lines, None)
        for _, record in lines:
            ident = record.get("id")
            if isinstance(ident, str) and seen.add(ident):
                yield record

    def ordered(self) -> list[dict[str, Any]]:
        """Every record in memory, sorted by id's prefix and number (for small runs and
        tests; the tables read :meth:`records`)."""
        def key(record: dict[str, Any]) -> tuple[str, int, str]:
            split = DoneIndex._split(record["id"])
            return (record["id"], 0, "") if split is None else (split[0], split[1], "")

        return sorted(self.records(), key=key)

    # -- writing ----------------------------------------------------------------------------

    def _append(self, items: Iterable[dict[str, Any]]) -> None:
        text = "".join(json.dumps(item, separators=(",", ":")) + "\n" for item in items)
        try:
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT
                                 | getattr(os, "O_NOFOLLOW", 0), 0o666)
            with os.fdopen(descriptor, "ab") as handle:
                handle.write(text.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as problem:
            # A full disk names no file by itself. A part of the batch written before the
            # failure is a line cut short: dropped, and its deal redone, when the file is
            # opened again.
            raise OSError(problem.errno, problem.strerror or str(problem),
                          str(self.path)) from None

    def done(self, ident: str) -> bool:
        return ident in self.done_ids

    def __len__(self) -> int:
        return len(self.done_ids)

    def add(self, records: list[dict[str, Any]]) -> int:
        """Append the records whose ids are not yet recorded; returns how many were new."""
        if self._lock is None:
            raise SurveyFileError(f"{self.path}: the store is closed")
        new = [r for r in records if r["id"] not in self.done_ids]
        unique: list[dict[str, Any]] = []
        for record in new:
            if self.done_ids.add(record["id"]):
                unique.append(record)
        if unique:
            self._append(unique)
        return len(unique)
