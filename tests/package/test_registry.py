"""The descriptor is the registry (``docs/architecture.md``, "A game, declared once"): a layer
that knows no game, or knows every game through what the games register, never spells a
game's name. Each game is named once, by its descriptor (``omens/game.py``, ``omen/game.py``:
``Game.name``); a game-agnostic module finds the games through the registry
(:func:`omen_solver.core.game.games`, a :class:`~omen_solver.core.game.Feature`'s ``games()``)
and asks each game's part for what differs, and a module of one game refers to its game by the
descriptor (``OMENS.name``). This test reads the source of those layers and fails on a string
constant equal to a registered game's name outside the modules that are one game's own."""

from __future__ import annotations

import ast
from pathlib import Path

import omen_solver
from omen_solver.core.game import games

PACKAGE = Path(omen_solver.__file__).parent
GAME_NAMES = frozenset(game.name for game in games())

AGNOSTIC = ("core", "vectors", "web")
"""The folders whose modules work on every game: ``core/`` knows no game; the generic modules
of ``vectors/`` and ``web/`` know the games through the parts registered on them
(``vectors/views.py``, ``vectors/publish.py``, ``web/games.py``)."""

COMMANDS = ("cli/vectors.py",)
"""Commands that work on every game the same way: ``vectors`` finds the games and their
refusals in the registered parts; its flags of one game name it by the descriptor."""

ALLOWED: dict[str, str] = {
    "vectors/fuzz.py": "`vectors fuzz` fuzzes Omens engines only (docs/vectors.md, "
    "\"Differential fuzzing\"): the whole module is Omens'",
}
"""Modules of those folders that are one game's own although not named after it, and why.
A module named after a game (``vectors/omens_mine.py``, ``web/omen.py``: its name, or its name
and ``_``) is that game's and may name it."""


def _own_game(path: Path) -> bool:
    stem = path.stem
    return any(stem == name or stem.startswith(name + "_") for name in GAME_NAMES)


def _modules() -> list[Path]:
    return sorted([path for folder in AGNOSTIC for path in (PACKAGE / folder).rglob("*.py")]
                  + [PACKAGE / name for name in COMMANDS])


def _spellings(path: Path) -> list[str]:
    """Each string constant of the module equal to a game's name: ``LINE: 'NAME'``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [f"{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in GAME_NAMES]


def test_the_game_agnostic_layers_spell_no_game_name() -> None:
    found = [f"{path.relative_to(PACKAGE)}:{spelling}" for path in _modules()
             if not _own_game(path) and str(path.relative_to(PACKAGE)) not in ALLOWED
             for spelling in _spellings(path)]
    assert not found, ("a game's name spelled in a module that works on every game (ask the "
                       "game's registered part, or use its descriptor's name):\n"
                       + "\n".join(found))


def test_the_allow_list_is_current() -> None:
    """Every allowed module exists, is in those folders and still names a game (else its
    entry goes)."""
    for name in ALLOWED:
        path = PACKAGE / name
        assert path.is_file(), name
        assert name.split("/")[0] in AGNOSTIC, name
        assert _spellings(path), f"{name} no longer names a game: drop it from ALLOWED"


def test_the_registry_knows_both_games_and_the_scan_finds_a_spelling(tmp_path: Path) -> None:
    """The scan reads string constants (not comments, not longer strings) and knows which
    modules are a game's own."""
    assert {"omens", "omen"} == GAME_NAMES
    sample = tmp_path / "sample.py"
    sample.write_text('# omens\nA = "omens"\nB = f"{A} omen"\nC = ("x", "omen")\n',
                      encoding="utf-8")
    assert _spellings(sample) == ["2: 'omens'", "4: 'omen'"]
    assert _own_game(PACKAGE / "vectors" / "omens_mine.py")
    assert _own_game(PACKAGE / "web" / "omen.py")
    assert not _own_game(PACKAGE / "vectors" / "omensish.py")
    assert not _own_game(PACKAGE / "vectors" / "views.py")


def test_every_game_the_vectors_play_is_exported() -> None:
    """The vectors' two registries list the same games: a game the vectors play has its
    published files, and the other way round."""
    from omen_solver.vectors.publish import PUBLISHED
    from omen_solver.vectors.views import VECTORS

    assert ([g.name for g in VECTORS.games()] == [g.name for g in PUBLISHED.games()]
            == [g.name for g in games()])
