"""The published JSON files: one deterministic text form, and schema validation.

Every file the vector export writes goes through :func:`dumps`, so regenerating on the same
version gives byte-identical files: keys keep the order they were built in, lists of plain
values stay on one line (a legal-action list is one line, not forty), so do short lists of such
lists (teams), and everything else is indented by one space per level. :func:`validate` checks
a parsed file against its JSON Schema (draft 2020-12, built by
:mod:`omen_solver.vectors.schemas`) and names the file and the JSON path of the first problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import jsonschema

from omen_solver.core import files
from omen_solver.core.files import json_depth
from omen_solver.errors import VectorFileError
from omen_solver.vectors.schemas import build_schema

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE",
    "SCHEMAS",
    "dumps",
    "json_depth",
    "read_json",
    "read_text",
    "schema",
    "schema_for",
    "validate",
    "validated_files",
]

SCHEMAS: Final = {
    "omen-solver-vectors": "vectors.schema.json",
    "omen-solver-perft": "perft.schema.json",
    "omen-solver-coverage": "coverage.schema.json",
    "omen-solver-reference": "reference.schema.json",
}
"""The ``format`` field of each published file and the schema that describes it."""


_INLINE = 100
"""A list of short lists (teams, ...) stays on one line up to this many characters."""


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _flat(value: Any) -> bool:
    return _scalar(value) or (isinstance(value, list | tuple) and all(map(_scalar, value)))


def _write(value: Any, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, Mapping):
        if not value:
            out.append("{}")
            return
        out.append("{\n")
        items = list(value.items())
        for index, (key, item) in enumerate(items):
            out.append(f"{pad} {json.dumps(str(key), ensure_ascii=False)}: ")
            _write(item, indent + 1, out)
            out.append(",\n" if index < len(items) - 1 else "\n")
        out.append(pad + "}")
        return
    if isinstance(value, list | tuple):
        inline = json.dumps(list(value), ensure_ascii=False)
        if all(_scalar(item) for item in value) or (
            len(inline) <= _INLINE and all(_flat(item) for item in value)
        ):
            out.append(inline)
            return
        out.append("[\n")
        for index, item in enumerate(value):
            out.append(pad + " ")
            _write(item, indent + 1, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append(pad + "]")
        return
    out.append(json.dumps(value, ensure_ascii=False))


def dumps(value: Any) -> str:
    """The one text form of a published file (ends with a newline)."""
    out: list[str] = []
    _write(value, 0, out)
    return "".join(out) + "\n"


def schema(name: str) -> dict[str, Any]:
    """A schema by file name (``vectors.schema.json`` ...)."""
    return build_schema(name)


def schema_for(data: Any, where: str) -> str:
    """The schema file of a parsed file, from its ``format`` field."""
    kind = data.get("format") if isinstance(data, dict) else None
    if kind not in SCHEMAS:
        raise VectorFileError(
            f"{where}: key 'format': expected one of {', '.join(map(repr, SCHEMAS))}, "
            f"not {kind!r}"
        )
    return SCHEMAS[str(kind)]


def _path(error: jsonschema.ValidationError) -> str:
    parts = []
    for part in error.absolute_path:
        parts.append(f"[{part}]" if isinstance(part, int) else f".{part}")
    return "$" + "".join(parts)


def validate(data: Any, where: str) -> str:
    """Check a parsed file against the schema its ``format`` names; return the schema's name.

    Raises :class:`VectorFileError` naming the file, the JSON path and the problem (the most
    relevant one when several are found)."""
    name = schema_for(data, where)
    validator = jsonschema.Draft202012Validator(schema(name))
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        raise VectorFileError(f"{where}: {_path(error)}: {error.message}")
    return name


MAX_FILE: Final = 64 * 1024 * 1024
"""The largest file :func:`read_json` reads, in bytes (64 MiB; the largest shipped file is a
few MiB)."""
MAX_DEPTH: Final = 64
"""The deepest nesting of arrays and objects a file may have (the shipped ones: under 10)."""


def read_text(path: Path, limit: int = MAX_FILE) -> str:
    """A regular file's text, at most ``limit`` bytes: a FIFO, a device or a folder is refused
    at once, so is a larger file (:func:`omen_solver.core.files.read_text`)."""
    return files.read_text(path, VectorFileError, limit)


def read_json(path: Path) -> Any:
    """Parse a JSON file (see :func:`read_text`); a syntax error names the file, the line and
    the column; nesting deeper than :data:`MAX_DEPTH` is refused."""
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise VectorFileError(
            f"{path}: line {error.lineno}, column {error.colno}: not valid JSON: {error.msg}"
        ) from None
    except RecursionError:
        data, depth = None, None
    else:
        depth = json_depth(data)
    if depth is None or depth > MAX_DEPTH:
        raise VectorFileError(f"{path}: JSON nested more than {MAX_DEPTH} levels deep")
    return data


def validated_files(path: Path) -> Iterator[tuple[Path, Any]]:
    """The JSON files under ``path`` (a folder, searched recursively, or one file), each read
    and validated against its schema; the schema files themselves are passed over."""
    if not path.exists():
        raise VectorFileError(f"{path}: no such file or folder")
    for candidate in sorted(path.rglob("*.json")) if path.is_dir() else [path]:
        data = read_json(candidate)
        if isinstance(data, dict) and "$schema" in data:
            continue
        validate(data, str(candidate))
        yield candidate, data
