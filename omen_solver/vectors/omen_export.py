"""The Omen files of ``omen-solver vectors export`` (docs/vectors.md): the vector sets with
their ``holds_under``, the perft suite, the coverage report and the reference; registered on
the game in ``publish``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from omen_solver.core.options import describe
from omen_solver.omen.cards import default_catalogue
from omen_solver.omen.rules import PROFILES, OmenRules, make_rules
from omen_solver.vectors.holds import holds_under
from omen_solver.vectors.omen_mine import OmenMiner, load_seeds, seed_position
from omen_solver.vectors.omen_record import omen_options_json, omen_start
from omen_solver.vectors.omens_mine import MinedSet, Suite
from omen_solver.vectors.perft_suites import perft_case, perft_file
from omen_solver.vectors.sets import option_json, reference_json, vector_file

__all__ = ["OMEN_SETS", "build_omen", "omen_perft_suite", "omen_reference"]

GAME: Final = "omen"
OMEN_SETS: Final = ("examples", "witnesses", "perft", "coverage", "reference")
"""The files of the Omen folder (``omen/NAME.json``), in the order they are built."""

_PERFT_CASES: tuple[tuple[str, int], ...] = (
    ("war-order-scorned", 6),
    ("wealth-three-coins-bonus", 8),
    ("dirge-destroys", 8),
    ("feat-soldier-in-every-city", 8),
    ("score-at-the-end", 4),
)
"""Omen example seeds whose positions are perft cases: (seed id, deepest depth)."""


def omen_perft_suite() -> dict[str, Any]:
    """The Omen perft cases: example seeds' positions."""
    seeds = {seed.id: seed for seed in load_seeds()}
    cases = []
    for seed_id, deepest in _PERFT_CASES:
        seed = seeds[seed_id]
        options = omen_options_json(seed.profile, seed.rules)
        position = seed_position(seed, seed.rules)
        start = omen_start(options, position, f"seed {seed_id}")
        cases.append(
            perft_case(f"omen.perft.{seed_id}", seed.why, seed.source, options, position,
                       start, deepest)
        )
    return perft_file(GAME, cases)


def omen_reference() -> dict[str, Any]:
    """The Omen reference: the cards (with the red strength side) and the rule options with
    each profile's setting."""
    catalogue = default_catalogue().resolve("strength-red")
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
        option_json(spec, {name: getattr(make_rules(name), spec.name) for name in PROFILES})
        for spec in describe(OmenRules)
    ]
    return reference_json(GAME, cards, [], options)


def _with_holds(mined: MinedSet) -> dict[str, Any]:
    """Omen vectors with their ``holds_under`` (after ``options``), as a vector file."""
    vectors = []
    for vector in mined.vectors:
        holds = holds_under(GAME, vector)
        with_holds: dict[str, Any] = {}
        for key, value in vector.items():
            with_holds[key] = value
            if key == "options":
                with_holds["holds_under"] = holds
        vectors.append(with_holds)
    return vector_file(GAME, mined.name, mined.description, vectors)


def build_omen(witnesses: Path, wanted: Sequence[str], progress: Callable[[str], None],
               suite: Suite | None) -> dict[str, dict[str, Any]]:
    """The Omen files named in ``wanted`` (the examples and witnesses are always mined: the
    coverage report counts them). Omen has no suites (``suite`` is None) and no witness
    files: its witnesses are mined from its example seeds."""
    del witnesses, suite
    miner = OmenMiner()
    built: dict[str, dict[str, Any]] = {}
    progress(f"{GAME}: examples")
    built["examples"] = _with_holds(miner.examples())
    progress(f"{GAME}: option witnesses")
    built["witnesses"] = _with_holds(miner.witness_vectors())
    counts = {name: len(built[name]["vectors"]) for name in ("examples", "witnesses")}
    built["coverage"] = miner.coverage.report(counts, GAME)
    if "perft" in wanted:
        progress(f"{GAME}: perft")
        built["perft"] = omen_perft_suite()
    if "reference" in wanted:
        built["reference"] = omen_reference()
    return built
