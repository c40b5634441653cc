"""The results file of a survey: JSON lines, appended batch by batch.

The first line is the survey's settings (``{"survey": {...}}``); every other line is one deal's
record. A batch's records are written by one ``write`` and flushed to disk, so an interrupted
survey leaves whole lines (a line cut by a crash is dropped on reading, and its deal redone).
Reading keeps the first record of each deal, so nothing is counted twice; resuming skips the
deals already recorded, so nothing is lost.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from omen_solver.errors import SurveyFileError
from omen_solver.survey.analysis import SurveyConfig

__all__ = ["ResultStore", "SurveyFileError"]


class ResultStore:
    """Records of one survey in ``path``, keyed by deal."""

    def __init__(self, path: Path, config: SurveyConfig) -> None:
        self.path = path
        self.config = config
        self.records: dict[str, dict[str, Any]] = {}
        if path.exists():
            self._read()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._append([{"survey": config.to_json()}])

    def _read(self) -> None:
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            # A line cut short by a crash: drop it (its deal is redone).
            with self.path.open("r+b") as handle:
                handle.truncate(end)
            data = data[:end]
        lines = data.decode("utf-8").splitlines()
        if not lines:
            self._append([{"survey": self.config.to_json()}])
            return
        header = self._parse(1, lines[0])
        if "survey" not in header:
            raise SurveyFileError(f"{self.path}: line 1: not a survey results file")
        stored = header["survey"]
        wanted = self.config.to_json()
        if stored != wanted:
            different = sorted(k for k in wanted.keys() | stored.keys()
                               if stored.get(k) != wanted.get(k))
            shown = ", ".join(f"{k}: file {stored.get(k)!r}, now {wanted.get(k)!r}"
                              for k in different)
            raise SurveyFileError(
                f"{self.path}: made by a survey with other settings ({shown}); resume with the "
                "same settings or choose another --out folder"
            )
        for number, line in enumerate(lines[1:], start=2):
            record = self._parse(number, line)
            ident = record.get("id")
            if not isinstance(ident, str):
                raise SurveyFileError(f"{self.path}: line {number}: a record without an 'id'")
            self.records.setdefault(ident, record)

    def _parse(self, number: int, line: str) -> dict[str, Any]:
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise SurveyFileError(f"{self.path}: line {number}: not JSON: {error}") from None
        if not isinstance(value, dict):
            raise SurveyFileError(f"{self.path}: line {number}: expected a JSON object")
        return value

    def _append(self, items: Iterable[dict[str, Any]]) -> None:
        text = "".join(json.dumps(item, separators=(",", ":")) + "\n" for item in items)
        with self.path.open("ab") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())

    def done(self, ident: str) -> bool:
        return ident in self.records

    def add(self, records: list[dict[str, Any]]) -> int:
        """Append the records of deals not yet recorded; returns how many were new."""
        new = [r for r in records if r["id"] not in self.records]
        if new:
            self._append(new)
            for record in new:
                self.records[record["id"]] = record
        return len(new)

    def ordered(self) -> list[dict[str, Any]]:
        """The records in survey order: by players, then deal index."""
        return sorted(self.records.values(), key=lambda r: (r["players"], r["index"]))
