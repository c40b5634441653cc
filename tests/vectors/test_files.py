"""The shipped vector files (``vectors/``): every one validates against its JSON Schema
(``jsonschema``, draft 2020-12), the schemas are current and themselves valid, the export
regenerates every file byte for byte (the Omen set, the schemas and each Omens suite's
examples and witnesses by default; everything, both suites, with ``--runslow``), and the
docs' coverage sections are current."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from omen_solver.cli import main
from omen_solver.errors import VectorFileError
from omen_solver.vectors.export import (
    SETS,
    coverage_markdown,
    docs_key,
    docs_section,
    export,
)
from omen_solver.vectors.jsonfile import dumps, validate
from omen_solver.vectors.omens_export import SHIPPED_SUITES
from omen_solver.vectors.schemas import SCHEMA_FILES, build_schema

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "vectors"
WITNESSES = ROOT / "proofs" / "witnesses"
DOCS = ROOT / "docs" / "vectors.md"
DATA_FILES = sorted((SHIPPED / "omens").rglob("*.json")) + sorted((SHIPPED / "omen").glob("*.json"))
SUITES = [suite.name for suite in SHIPPED_SUITES]


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_set_of_both_games_is_shipped() -> None:
    """Omen: one folder; Omens: one folder per shipped suite (preset) and the reference."""
    assert sorted(p.stem for p in (SHIPPED / "omen").glob("*.json")) == sorted(SETS["omen"])
    assert sorted(p.name for p in (SHIPPED / "omens").iterdir()) == sorted(
        [*SUITES, "reference.json"])
    for suite in SUITES:
        assert sorted(p.stem for p in (SHIPPED / "omens" / suite).glob("*.json")) == sorted(
            name for name in SETS["omens"] if name != "reference")


_LARGE = ("enumerated.json", "random.json")
"""The files of a few MiB: validated in the slow tier (every `vectors check` validates them
too)."""


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.name in _LARGE else p for p in DATA_FILES],
    ids=[f"{p.parent.name}/{p.name}" for p in DATA_FILES],
)
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


def _without_covers(vector: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in vector.items() if key != "covers"}


def test_vector_ids_are_unique_in_a_suite_and_shared_ones_are_the_same_vector() -> None:
    """Within a suite every id is unique; a vector two suites ship (an example, a witness) is
    the same vector in both but for ``covers`` (what it was kept for in each), so the runner
    plays it once."""
    seen: dict[str, dict[str, Any]] = {}
    for folder in [SHIPPED / "omen", *(SHIPPED / "omens" / suite for suite in SUITES)]:
        ids = [v["id"] for path in sorted(folder.glob("*.json"))
               for v in _load(path).get("vectors", [])]
        assert len(ids) == len(set(ids)) > 80, folder
        for path in sorted(folder.glob("*.json")):
            for vector in _load(path).get("vectors", []):
                earlier = seen.setdefault(vector["id"], vector)
                assert _without_covers(earlier) == _without_covers(vector), vector["id"]
    assert len(seen) > 1000


def test_a_broken_vector_names_the_file_and_the_json_path(tmp_path: Path) -> None:
    data = _load(SHIPPED / "omens" / "rulebook" / "examples.json")
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


@pytest.mark.parametrize(
    "suite",
    [pytest.param(s, marks=pytest.mark.slow) if s.name != "rulebook" else s
     for s in SHIPPED_SUITES],
    ids=[suite.name for suite in SHIPPED_SUITES],
)
def test_omens_examples_and_witnesses_regenerate_byte_for_byte(tmp_path: Path, suite: Any
                                                               ) -> None:
    """The bounded part of a suite's export: the examples and witnesses with their siblings
    and holds_under (the whole suite: the slow tier)."""
    result = export("omens", tmp_path, witnesses=WITNESSES, only=("examples", "witnesses"),
                    suite=suite)
    assert {p.name for p in result.files if p.parent.name == suite.name} == {
        "examples.json", "witnesses.json"}
    for path, text in result.files.items():
        assert (SHIPPED / path.relative_to(tmp_path)).read_text(encoding="utf-8") == text


@pytest.mark.slow
def test_every_shipped_file_regenerates_byte_for_byte(tmp_path: Path) -> None:
    """Both Omens suites and the Omen set, exported into an empty folder, are the shipped
    files exactly, and nothing else is shipped (but the example adapter)."""
    written: set[Path] = set()
    for suite in SHIPPED_SUITES:
        written |= set(export("omens", tmp_path, witnesses=WITNESSES, suite=suite).files)
    written |= set(export("omen", tmp_path).files)
    for path in written:
        shipped = SHIPPED / path.relative_to(tmp_path)
        assert shipped.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), shipped
    shipped_files = {p.relative_to(SHIPPED) for p in SHIPPED.rglob("*.json")}
    assert shipped_files == {p.relative_to(tmp_path) for p in written}


@pytest.mark.parametrize("where", ["omens/rulebook", "omens/gamepark", "omen"])
def test_docs_coverage_sections_are_current(where: str) -> None:
    report = _load(SHIPPED / where / "coverage.json")
    suite = next((s for s in SHIPPED_SUITES if where.endswith("/" + s.name)), None)
    assert docs_section(DOCS, docs_key(report["game"], suite)) == coverage_markdown(report)


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


def test_export_options_for_a_suite_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--preset``/``--rule``/``--suite`` name an Omens suite; anything else is refused with
    one line and exit 2, before anything is written."""
    cases = [
        (["--game", "omen", "--preset", "gamepark"], "--preset, --rule and --suite are for"),
        (["--game", "omens", "--rule", "law_binds=sometimes"], "unknown setting 'sometimes'"),
        (["--game", "omens", "--rule", "no_such_option=x"], "no_such_option"),
        (["--game", "omens", "--rule", "law_binds"], "write a rule option as NAME=SETTING"),
        (["--game", "omens", "--suite", "My Suite"], "suite name 'My Suite'"),
        (["--game", "omens", "--preset", "tournament"], "invalid choice: 'tournament'"),
    ]
    for extra, message in cases:
        try:
            status = main(["vectors", "export", "--out", str(tmp_path), *extra])
        except SystemExit as usage:  # argparse's own errors
            status = int(str(usage.code))
        assert status == 2, extra
        assert message in capsys.readouterr().err, extra
    assert not any(tmp_path.iterdir())
    status = main(["vectors", "export", "--game", "omens", "--out", str(tmp_path), "--preset",
                   "gamepark", "--rule", "law_binds=turns_only", "--only", "examples"])
    assert status == 0
    data = json.loads((tmp_path / "omens" / "custom" / "examples.json").read_text("utf-8"))
    assert data["suite"]["name"] == "custom"
    assert data["suite"]["overrides"] == {"law_binds": "turns_only"}
    assert data["suite"]["settings"]["law_when_last"] == "skip"
