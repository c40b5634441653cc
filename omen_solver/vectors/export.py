"""``omen-solver vectors export``: build a game's vector sets, perft suite, coverage report and
reference, and write them (with the schemas) under one folder.

Everything is built and validated against its schema in memory first; only then are the files
written (each through a temporary file renamed into place), so a failed export leaves the
folder as it was. The same version writes byte-identical files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import atomic_write, read_text
from omen_solver.core.options import OptionSpec, describe
from omen_solver.errors import OmenSolverError
from omen_solver.omen.cards import default_catalogue as omen_catalogue
from omen_solver.omen.rules import PROFILES, OmenRules, make_rules
from omen_solver.omens.cards import default_catalogue as omens_catalogue
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import PRESETS, option_specs
from omen_solver.vectors.holds import holds_under
from omen_solver.vectors.jsonfile import dumps, validate
from omen_solver.vectors.omen_mine import OmenMiner
from omen_solver.vectors.omens_mine import MinedSet, OmensMiner, Suite
from omen_solver.vectors.perft_suites import omen_perft_suite, omens_perft_suite
from omen_solver.vectors.schemas import SCHEMA_FILES, build_schema

__all__ = [
    "GAMES",
    "SETS",
    "SHIPPED_SUITES",
    "ExportResult",
    "check_docs",
    "coverage_markdown",
    "docs_key",
    "docs_section",
    "export",
    "update_docs",
]

GAMES: Final = ("omens", "omen")
SETS: Final = {
    "omens": ("examples", "witnesses", "enumerated", "random", "perft", "coverage", "reference"),
    "omen": ("examples", "witnesses", "perft", "coverage", "reference"),
}
"""The files of each game's folder (``NAME.json``), in the order they are built. Omens: every
set but ``reference`` is a suite's (``omens/SUITE/NAME.json``); the reference is the game's
(``omens/reference.json``)."""
SHIPPED_SUITES: Final = (Suite("rulebook", "rulebook"), Suite("gamepark", "gamepark"))
"""The Omens suites of ``vectors/``: one per preset."""


@dataclass(frozen=True)
class ExportResult:
    files: dict[Path, str]
    """Every file written and its text."""
    coverage: dict[str, Any] | None
    """The coverage report (None when a partial Omens export did not enumerate)."""
    counts: dict[str, int]
    """Vectors (or perft cases) per set."""


def _vector_file(game: str, mined: MinedSet, suite: Suite | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "omen-solver-vectors",
        "version": 1,
        "game": game,
        "set": mined.name,
        "description": mined.description,
    }
    if suite is not None:
        data["suite"] = _suite_json(suite)
    data["vectors"] = mined.vectors
    return data


def _omens_reference() -> dict[str, Any]:
    cards = [
        {
            "value": card.value,
            "name": card.name,
            "french": card.french,
            "colours": sorted(card.colours),
            "timing": card.timing,
            "effect": card.effect,
            "params": dict(card.params),
            "text": card.text,
        }
        for card in omens_catalogue().values()
    ]
    options = [
        _option_json(spec, {name: over.get(spec.name, spec.default)
                            for name, over in PRESETS.items()})
        for spec in option_specs()
    ]
    rules = [{"id": r.id, "statement": r.statement, "source": r.source} for r in RULES.values()]
    return _reference("omens", cards, rules, options)


def _omen_reference() -> dict[str, Any]:
    catalogue = omen_catalogue().resolve("strength-red")
    cards = [
        {
            "id": c.id,
            "name": c.name,
            "kind": c.kind,
            "set": c.set,
            "origin": c.origin,
            "type": c.unit_type,
            "copies": c.copies,
            "cost": c.cost if c.is_unit else None,
            "offering": c.offering,
            "strength": c.strength,
            "keywords": list(c.keywords()),
            "text": c.text,
            "file": Path(c.source).name,
        }
        for c in (catalogue[card_id] for card_id in sorted(catalogue.cards))
    ]
    options = [
        _option_json(spec, {name: getattr(make_rules(name), spec.name) for name in PROFILES})
        for spec in describe(OmenRules)
    ]
    return _reference("omen", cards, [], options)


def _option_json(spec: OptionSpec, presets: Mapping[str, str]) -> dict[str, Any]:
    """One rule option of a reference file, with its setting under each preset or profile."""
    return {
        "name": spec.name,
        "question": spec.question,
        "summary": spec.summary,
        "settings": dict(spec.settings),
        "default": spec.default,
        "presets": dict(presets),
        "source": spec.source,
    }


def _reference(game: str, cards: list[dict[str, Any]], rules: list[dict[str, Any]],
               options: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "omen-solver-reference",
        "version": 1,
        "game": game,
        "cards": cards,
        "rules": rules,
        "options": options,
    }


def _build_omens(witnesses: Path, wanted: Sequence[str], progress: Callable[[str], None],
                 suite: Suite) -> dict[str, dict[str, Any]]:
    """The Omens files named in ``wanted`` (the examples and witnesses are always mined: the
    enumeration keeps only what they do not cover)."""
    miner = OmensMiner(witnesses, suite)
    built: dict[str, dict[str, Any]] = {}
    where = f"omens ({suite.name})"
    progress(f"{where}: examples")
    examples = miner.examples()
    progress(f"{where}: option witnesses")
    found = miner.witness_vectors()
    progress(f"{where}: siblings under the suite's settings")
    built["examples"] = _vector_file("omens", miner.siblings(examples), suite)
    built["witnesses"] = _vector_file("omens", miner.siblings(found), suite)
    if any(name in wanted for name in ("enumerated", "random", "coverage")):
        progress(f"{where}: enumeration")
        built["enumerated"] = _vector_file("omens", miner.enumeration(), suite)
        progress(f"{where}: random lines")
        built["random"] = _vector_file("omens", miner.random_lines(), suite)
        counts = {name: len(built[name]["vectors"]) for name in ("examples", "witnesses",
                                                                 "enumerated", "random")}
        built["coverage"] = miner.coverage.report(counts, "omens", _suite_json(suite))
        built["coverage"]["no_sibling"] = miner.no_sibling
    if "perft" in wanted:
        progress(f"{where}: perft")
        built["perft"] = omens_perft_suite(suite)
    if "reference" in wanted:
        built["reference"] = _omens_reference()
    return built


def _with_holds(mined: MinedSet) -> MinedSet:
    """Omen vectors with their ``holds_under`` (after ``options``)."""
    vectors = []
    for vector in mined.vectors:
        holds = holds_under("omen", vector)
        with_holds: dict[str, Any] = {}
        for key, value in vector.items():
            with_holds[key] = value
            if key == "options":
                with_holds["holds_under"] = holds
        vectors.append(with_holds)
    return MinedSet(mined.name, mined.description, vectors)


def _suite_json(suite: Suite) -> dict[str, Any]:
    return {"name": suite.name, **suite.options_json()}


def _build_omen(wanted: Sequence[str], progress: Callable[[str], None]
                ) -> dict[str, dict[str, Any]]:
    miner = OmenMiner()
    built: dict[str, dict[str, Any]] = {}
    progress("omen: examples")
    built["examples"] = _vector_file("omen", _with_holds(miner.examples()))
    progress("omen: option witnesses")
    built["witnesses"] = _vector_file("omen", _with_holds(miner.witness_vectors()))
    counts = {name: len(built[name]["vectors"]) for name in ("examples", "witnesses")}
    built["coverage"] = miner.coverage.report(counts, "omen")
    _add_suite_and_reference(built, "omen", wanted, progress)
    return built


def _add_suite_and_reference(built: dict[str, dict[str, Any]], game: str,
                             wanted: Sequence[str], progress: Callable[[str], None]) -> None:
    if "perft" in wanted:
        progress(f"{game}: perft")
        built["perft"] = omens_perft_suite() if game == "omens" else omen_perft_suite()
    if "reference" in wanted:
        built["reference"] = _omens_reference() if game == "omens" else _omen_reference()


def export(
    game: str,
    out: Path,
    *,
    witnesses: Path = Path("proofs/witnesses"),
    only: Sequence[str] = (),
    progress: Callable[[str], None] = lambda _: None,
    suite: Suite | None = None,
) -> ExportResult:
    """Build ``game``'s files, validate them, and write them under ``out/<game>/`` (Omens: a
    suite's under ``out/omens/<suite>/``, mined under the suite's settings, the default
    ``rulebook``) and the schemas under ``out/schema/``. ``only``: write just these sets
    (names of :data:`SETS`)."""
    if game not in GAMES:
        raise OmenSolverError(f"--game: expected one of {', '.join(GAMES)}, not {game!r}")
    unknown = [name for name in only if name not in SETS[game]]
    if unknown:
        raise OmenSolverError(
            f"--only: {game} has no set {unknown[0]!r}; choose from {', '.join(SETS[game])}"
        )
    wanted = list(only) or list(SETS[game])
    if game == "omens":
        suite = suite or Suite()
        built = _build_omens(witnesses, wanted, progress, suite)
    else:
        if suite is not None:
            raise OmenSolverError("--preset, --rule and --suite are for Omens (an Omen vector "
                                  "names its profile and settings itself)")
        built = _build_omen(wanted, progress)
    texts: dict[Path, str] = {}
    for name in SETS[game]:
        if name not in wanted:
            continue
        folder = out / game
        if game == "omens" and name != "reference":
            assert suite is not None
            folder = folder / suite.name
        path = folder / f"{name}.json"
        validate(built[name], str(path))
        texts[path] = dumps(built[name])
    for name in SCHEMA_FILES:
        texts[out / "schema" / name] = dumps(build_schema(name))
    for path, text in texts.items():
        _write(path, text)
    counts = {name: len(data.get("vectors", data.get("cases", []))) for name, data in
              built.items() if name not in ("coverage", "reference")}
    return ExportResult(texts, built.get("coverage"), counts)


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole, unless it holds that text already."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file() and _unchanged(path, text):
        return
    atomic_write(path, text)


def _unchanged(path: Path, text: str) -> bool:
    try:
        return read_text(path, OmenSolverError, 2 * len(text.encode("utf-8")) + 1) == text
    except OmenSolverError:
        return False


# ---------------------------------------------------------------------------------------------
# The coverage section of docs/vectors.md
# ---------------------------------------------------------------------------------------------

_MARK = "<!-- coverage:{game} (generated by omen-solver vectors export --docs; do not edit) -->"
_END = "<!-- end coverage:{game} -->"


def docs_key(game: str, suite: Suite | None = None) -> str:
    """The name of a coverage section of the docs: the game (Omen), or ``omens-SUITE``."""
    if game != "omens":
        return game
    return f"omens-{(suite or Suite()).name}"


def coverage_markdown(report: Mapping[str, Any]) -> str:
    """The coverage report of one game as a Markdown table."""
    lines = [
        "| dimension | covered | total | not covered |",
        "|---|---|---|---|",
    ]
    for name, entry in report["dimensions"].items():
        total = entry["total"]
        missing = entry["missing"]
        if name == "line":
            shown = f"{len(missing)} lines"
        elif missing:
            shown = ", ".join(f"`{m.split(':', 1)[1]}`" for m in missing[:6])
            shown += f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        else:
            shown = "none"
        fraction = "" if total is None else f" ({entry['covered'] / total:.0%})"
        lines.append(
            f"| {entry['title']} | {entry['covered']}{fraction} | "
            f"{'-' if total is None else total} | {shown} |"
        )
    notes = [f"{entry['title']}: {entry['note']}" for entry in report["dimensions"].values()
             if entry.get("note")]
    notes += [f"{entry['title']}: {item['count']} impossible ({item['what']}): {item['why']}."
              for entry in report["dimensions"].values() for item in entry.get("impossible", ())]
    sets = ", ".join(f"{count} {name}" for name, count in report["sets"].items())
    suite = report.get("suite")
    under = f" (suite {suite['name']}, mined under preset {suite['preset']}" + (
        ", " + ", ".join(f"{k} = {v}" for k, v in suite["overrides"].items())
        if suite["overrides"] else "") + ")" if suite else ""
    text = "\n".join(lines) + f"\n\nVectors{under}: {sets}.\n"
    if notes:
        text += "\n" + "\n".join(f"- {note}" for note in notes) + "\n"
    return text


def _section(docs: Path, game: str) -> tuple[str, re.Pattern[str], str, str]:
    text = read_text(docs, OmenSolverError)
    start, end = _MARK.format(game=game), _END.format(game=game)
    pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.DOTALL)
    if not pattern.search(text):
        raise OmenSolverError(f"{docs}: no coverage section for {game} (a line {start!r})")
    return text, pattern, start, end


def check_docs(docs: Path, game: str) -> None:
    """Raise if ``docs`` has no coverage section for ``game`` (checked before exporting)."""
    _section(docs, game)


def docs_section(docs: Path, game: str) -> str:
    """The coverage section of ``game`` as it stands in ``docs`` (without the markers)."""
    text, pattern, start, end = _section(docs, game)
    match = pattern.search(text)
    assert match is not None
    return match.group(0)[len(start) + 1: -len(end)]


def update_docs(docs: Path, game: str, report: Mapping[str, Any]) -> bool:
    """Rewrite the coverage section of ``game`` in ``docs``; return whether it changed."""
    text, pattern, start, end = _section(docs, game)
    new = pattern.sub(lambda _: f"{start}\n{coverage_markdown(report)}{end}", text)
    if new == text:
        return False
    _write(docs, new)
    return True
