"""The Omens files of ``omen-solver vectors export`` (docs/vectors.md): each suite's vector
sets, perft suite and coverage report, mined under the suite's settings, and the game's
reference; registered on the game in ``publish``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import PRESETS, option_specs
from omen_solver.vectors.omens_mine import MinedSet, OmensMiner, Suite, example_setup, load_examples
from omen_solver.vectors.omens_record import OmensSetup
from omen_solver.vectors.perft_suites import perft_case, perft_file
from omen_solver.vectors.sets import option_json, reference_json, vector_file

__all__ = [
    "OMENS_SETS",
    "SHIPPED_SUITES",
    "build_omens",
    "omens_perft_suite",
    "omens_reference",
    "suite_json",
]

GAME: Final = "omens"
OMENS_SETS: Final = ("examples", "witnesses", "enumerated", "random", "perft", "coverage",
                     "reference")
"""The files of the Omens folder, in the order they are built: every set but ``reference`` is
a suite's (``omens/SUITE/NAME.json``); the reference is the game's (``omens/reference.json``)."""
SHIPPED_SUITES: Final = (Suite("rulebook", "rulebook"), Suite("gamepark", "gamepark"))
"""The Omens suites of ``vectors/``: one per preset."""

_PERFT_CASES: tuple[tuple[str, int, str], ...] = (
    ("worked-example", 9, "The rulebook's worked example (6 players): the bout played out."),
    ("law-then-wrath", 6, "Law, then Wrath sending it back, then Jealousy: immediate effects "
     "that change who must play what."),
    ("five-players-dream", 6, "Five players, Dream played onto a player who has not played."),
    ("absolute-exchange", 10, "The Absolute's secret exchange: a simultaneous node, each joint "
     "action one ply."),
    ("dream-cards-follow-position", 6, "Four players, three cards each, Dream: the bout and the "
     "next."),
    ("pride-names-the-next-leader", 9, "Luck's discard from hand, Pride naming the next leader, "
     "a second bout."),
)
"""Examples whose positions are perft cases: (example id, deepest depth, why)."""


def suite_json(suite: Suite) -> dict[str, Any]:
    """The ``suite`` of a file mined under ``suite``."""
    return {"name": suite.name, **suite.options_json()}


def _vector_file(mined: MinedSet, suite: Suite) -> dict[str, Any]:
    return vector_file(GAME, mined.name, mined.description, mined.vectors, suite_json(suite))


def omens_perft_suite(suite: Suite | None = None) -> dict[str, Any]:
    """The Omens perft cases under a suite's settings (default: the rulebook's)."""
    suite = suite or Suite()
    items = {item["id"]: item for item in load_examples()}
    cases = []
    for example, deepest, why in _PERFT_CASES:
        written = example_setup(items[example])
        setup = OmensSetup(written.players, written.teams, written.hands, written.leader,
                           written.scope, suite.preset, dict(suite.overrides),
                           written.rounds_won, written.box)
        cases.append(
            perft_case(
                f"omens.{suite.name}.perft.{example}", why,
                f"the position of the example {example}",
                setup.options_json(), setup.position_json(), setup.start(), deepest,
            )
        )
    for players in (4, 5, 6):
        setup = OmensSetup(players, (), {}, 1, scope="game", preset=suite.preset,
                           overrides=dict(suite.overrides), new_game=True)
        cases.append(
            perft_case(
                f"omens.{suite.name}.perft.new-game-{players}", f"A new game of {players} "
                "players: the Absolutes dealt face up, then the hands (every ply a card dealt "
                "by chance).",
                "rules 000, Setup", setup.options_json(), setup.position_json(),
                setup.start(), 5,
            )
        )
    return perft_file(GAME, cases, suite.name, suite.describe())


def omens_reference() -> dict[str, Any]:
    """The Omens reference: the cards, the rule ids and the rule options with each preset's
    setting."""
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
        for card in default_catalogue().values()
    ]
    options = [
        option_json(spec, {name: over.get(spec.name, spec.default)
                           for name, over in PRESETS.items()})
        for spec in option_specs()
    ]
    rules = [{"id": r.id, "statement": r.statement, "source": r.source} for r in RULES.values()]
    return reference_json(GAME, cards, rules, options)


def build_omens(witnesses: Path, wanted: Sequence[str], progress: Callable[[str], None],
                suite: Suite | None) -> dict[str, dict[str, Any]]:
    """The Omens files named in ``wanted``, mined under ``suite`` (the examples and witnesses
    are always mined: the enumeration keeps only what they do not cover)."""
    suite = suite or Suite()
    miner = OmensMiner(witnesses, suite)
    built: dict[str, dict[str, Any]] = {}
    where = f"{GAME} ({suite.name})"
    progress(f"{where}: examples")
    examples = miner.examples()
    progress(f"{where}: option witnesses")
    found = miner.witness_vectors()
    progress(f"{where}: siblings under the suite's settings")
    built["examples"] = _vector_file(miner.siblings(examples), suite)
    built["witnesses"] = _vector_file(miner.siblings(found), suite)
    if any(name in wanted for name in ("enumerated", "random", "coverage")):
        progress(f"{where}: enumeration")
        built["enumerated"] = _vector_file(miner.enumeration(), suite)
        progress(f"{where}: random lines")
        built["random"] = _vector_file(miner.random_lines(), suite)
        counts = {name: len(built[name]["vectors"]) for name in ("examples", "witnesses",
                                                                 "enumerated", "random")}
        built["coverage"] = miner.coverage.report(counts, GAME, suite_json(suite))
        built["coverage"]["no_sibling"] = miner.no_sibling
    if "perft" in wanted:
        progress(f"{where}: perft")
        built["perft"] = omens_perft_suite(suite)
    if "reference" in wanted:
        built["reference"] = omens_reference()
    return built
