"""The shipped vector files (``vectors/``): every one validates against its JSON Schema
(``jsonschema``, draft 2020-12), the schemas are current and themselves valid, the export
regenerates the files byte for byte, and the docs' coverage sections are current."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from omen_solver.cli import main
from omen_solver.errors import VectorFileError
from omen_solver.vectors.export import SETS, coverage_markdown, docs_section, export
from omen_solver.vectors.jsonfile import dumps, validate
from omen_solver.vectors.schemas import SCHEMA_FILES, build_schema

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "vectors"
WITNESSES = ROOT / "proofs" / "witnesses"
DOCS = ROOT / "docs" / "vectors.md"
DATA_FILES = sorted((SHIPPED / "omens").glob("*.json")) + sorted((SHIPPED / "omen").glob("*.json"))


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_set_of_both_games_is_shipped() -> None:
    for game, names in SETS.items():
        assert sorted(p.stem for p in (SHIPPED / game).glob("*.json")) == sorted(names)


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_file_validates_against_its_schema(path: Path) -> None:
    data = _load(path)
    name = validate(data, str(path))
    validator = jsonschema.Draft202012Validator(_load(SHIPPED / "schema" / name))
    assert not list(validator.iter_errors(data))


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_shipped_schemas_are_current_and_valid(name: str) -> None:
    shipped = _load(SHIPPED / "schema" / name)
    jsonschema.Draft202012Validator.check_schema(shipped)
    assert shipped["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert (SHIPPED / "schema" / name).read_text(encoding="utf-8") == dumps(build_schema(name))


def test_vector_ids_are_unique_across_the_suite() -> None:
    ids = [v["id"] for path in DATA_FILES for v in _load(path).get("vectors", [])]
    assert len(ids) == len(set(ids)) > 400


def test_a_broken_vector_names_the_file_and_the_json_path(tmp_path: Path) -> None:
    data = _load(SHIPPED / "omens" / "examples.json")
    data["vectors"][2]["options"]["settings"]["fear_pass_on"] = "sometimes"
    with pytest.raises(VectorFileError, match=r"bad\.json: \$\.vectors\[2\]\.options"):
        validate(data, str(tmp_path / "bad.json"))
    del data["vectors"][0]["why"]
    with pytest.raises(VectorFileError, match=r"\$\.vectors\[0\]: 'why' is a required"):
        validate(data, "bad.json")
    with pytest.raises(VectorFileError, match="key 'format'"):
        validate({"format": "something-else"}, "other.json")


def test_omen_export_regenerates_byte_for_byte(tmp_path: Path) -> None:
    """The whole Omen set, and the schemas, regenerate identically."""
    result = export("omen", tmp_path)
    for path, text in result.files.items():
        shipped = SHIPPED / path.relative_to(tmp_path)
        assert shipped.read_text(encoding="utf-8") == text, shipped


def test_omens_examples_and_witnesses_regenerate_byte_for_byte(tmp_path: Path) -> None:
    """The bounded part of the Omens export (the full one: the slow tier)."""
    result = export("omens", tmp_path, witnesses=WITNESSES, only=("examples", "witnesses"))
    assert {p.name for p in result.files if p.parent.name == "omens"} == {
        "examples.json", "witnesses.json"}
    for path, text in result.files.items():
        assert (SHIPPED / path.relative_to(tmp_path)).read_text(encoding="utf-8") == text


@pytest.mark.slow
def test_omens_export_regenerates_byte_for_byte(tmp_path: Path) -> None:
    result = export("omens", tmp_path, witnesses=WITNESSES)
    for path, text in result.files.items():
        assert (SHIPPED / path.relative_to(tmp_path)).read_text(encoding="utf-8") == text


@pytest.mark.parametrize("game", ["omens", "omen"])
def test_docs_coverage_sections_are_current(game: str) -> None:
    report = _load(SHIPPED / game / "coverage.json")
    assert docs_section(DOCS, game) == coverage_markdown(report)


def test_export_command_writes_and_rejects_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["vectors", "export", "--game", "omen", "--out", str(tmp_path), "--only",
                   "examples"])
    assert status == 0
    assert (tmp_path / "omen" / "examples.json").is_file()
    assert not (tmp_path / "omen" / "witnesses.json").exists()
    assert "5 examples" in capsys.readouterr().out
    assert main(["vectors", "export", "--game", "omen", "--out", str(tmp_path), "--only",
                 "enumerated"]) == 2
    assert "omen has no set 'enumerated'" in capsys.readouterr().err
    empty = tmp_path / "nowhere"
    assert main(["vectors", "export", "--game", "omens", "--out", str(tmp_path),
                 "--witnesses", str(empty), "--only", "examples"]) == 2
    assert "no witness summary here" in capsys.readouterr().err
    page = tmp_path / "page.md"
    page.write_text("no markers\n", encoding="utf-8")
    before = sorted(p.name for p in (tmp_path / "omen").iterdir())
    assert main(["vectors", "export", "--game", "omen", "--out", str(tmp_path), "--docs",
                 str(page)]) == 2
    assert "no coverage section for omen" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "omen").iterdir()) == before
