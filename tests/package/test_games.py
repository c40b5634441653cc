"""Each game is declared once, in its descriptor (``omen_solver/omens/game.py``,
``omen_solver/omen/game.py``), and generic code finds it there."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import omen_solver.omen
import omen_solver.omens
from omen_solver.core.enumeration import perft, resolve_stop
from omen_solver.core.game import Game, game_named, game_of, games, register
from omen_solver.core.positions import load_state
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS
from omen_solver.vectors.views import VECTORS

ROOT = Path(__file__).resolve().parents[2]
OMENS_FILE = ROOT / "docs/examples/omens/worked-example.toml"
OMEN_FILE = ROOT / "puzzles/omen/war-order.toml"


def test_both_games_are_registered_in_order_with_everything_generic_code_reads() -> None:
    assert [game.name for game in games()] == ["omens", "omen"]
    for game in games():
        assert game.load and game.kernel and game.explain and game.parse
        assert VECTORS.of(game).start
        assert game.return_bounds == (Fraction(0), Fraction(1))
        assert game.stop_points and game.stop_predicate


def test_the_rule_sets_and_new_games_are_the_descriptors() -> None:
    """The rules a game names (docs/omens-options.md: presets rulebook and gamepark;
    docs/omen-profiles.md: one profile per rulebook) and its new games come from its
    descriptor, as the command line and the vectors read them."""
    from omen_solver.cli.overrides import rule_set
    from omen_solver.omen.rules import DEFAULT_PROFILE, PROFILES, OmenRules
    from omen_solver.omens.rules import PRESETS, OmensRules
    from omen_solver.vectors.settings import base_name, preset_names

    omens, omen = game_named("omens"), game_named("omen")
    assert omens.rule_set and omen.rule_set and omens.new_game and omen.new_game
    assert (omens.rule_set().options, omen.rule_set().options) == (OmensRules, OmenRules)
    assert tuple(omens.rule_set().presets) == tuple(PRESETS) == preset_names("omens")
    assert tuple(omen.rule_set().presets) == tuple(PROFILES) == preset_names("omen")
    assert (base_name("omens"), base_name("omen")) == ("rulebook", DEFAULT_PROFILE)
    assert rule_set("omens") == omens.rule_set() and rule_set("chess") is None
    assert (omens.rule_set().preset_key, omen.rule_set().preset_key) == ("preset", "profile")
    assert omens.rule_set().make("gamepark").fear_pass_on == PRESETS["gamepark"]["fear_pass_on"]
    assert omen.rule_set().preset_refusal and not omens.rule_set().preset_refusal
    assert omens.new_game(5, seed=3) == omen_solver.omens.new_game(5, seed=3)
    assert omens.new_game(5, seed=3).num_players() == 5
    assert omen.new_game(seed=1) == omen_solver.omen.new_game(seed=1)


def test_the_omens_descriptor_allows_the_players_a_table_allows() -> None:
    # docs/omens-rules.md (setup): 4 to 6 players.
    assert game_named("omens").players == tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    assert game_named("omen").players == (2,)


@pytest.mark.parametrize(("path", "name"), [(OMENS_FILE, "omens"), (OMEN_FILE, "omen")])
def test_a_loaded_state_finds_its_game_and_the_loader_is_the_game_s(path: Path, name: str) -> None:
    state = load_state(path)
    assert game_of(state) is game_named(name)
    loaded = (omen_solver.omens.load if name == "omens" else omen_solver.omen.load)(path)
    assert loaded.key() == state.key()


@pytest.mark.parametrize("path", [OMENS_FILE, OMEN_FILE])
def test_every_stopping_point_of_a_descriptor_is_reached_by_play(path: Path) -> None:
    root = load_state(path)
    for stop in game_of(root).stop_points:
        reached = resolve_stop(root, stop)
        assert reached is not None
        state = root.child(root.legal_actions()[0])
        for _ in range(500):
            if reached(state) or state.is_terminal():
                break
            state = state.child(state.legal_actions()[0])
        assert reached(state), stop
        assert perft(root, 1, stop=stop).total is not None


def test_a_second_game_under_a_taken_name_is_refused_at_once() -> None:
    other = Game(name="omens", title="another game", players=(2,), chance=False,
                 simultaneous=False)
    with pytest.raises(ValueError, match="registered already"):
        register(other)
    assert register(game_named("omens")) is game_named("omens")


def test_an_unknown_game_name_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: 'omens', 'omen'"):
        game_named("chess")
