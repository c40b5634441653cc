"""Deep puzzles from real deals (``omen-solver puzzles generate --kind deep``, docs/puzzles.md).

A deep puzzle's stated answer is checked by ``omen-solver puzzles check``; here its *properties*
are computed again from the position, independently of the generator:

* the team to move wins the round with best play (value 1; with six players, paranoid: against
  both other teams together) and exactly one play does it;
* that play is not a tempting one: not the mover's highest card, and not a play after which the
  team can make sure to win the bout in progress (the position solved with the ``bout`` scope);
  so every tempting play loses, and the file excludes exactly the tempting plays;
* the team cannot make sure to win within two bouts, the one in progress included (rules file
  000, "Game Sequence": a round lasts until a player is down to one card); the stated rating
  (depth, tempting plays, nodes) is what the solvers find.
"""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.core.search import Concept, solve
from omen_solver.omens.position import load_position
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table
from omen_solver.puzzles.deep import RATING_SEARCH
from omen_solver.puzzles.depth import BoutSearch, Goal
from omen_solver.puzzles.format import read_puzzle

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omens"
MIN_DEPTH = 3
MIN_DEEP_PUZZLES = 15
QUICK_SEED = ["--players", "4", "--deal", "start", "--seed", "18", "--max-deals", "1"]
"""A small seeded run that finds a puzzle in its first deal."""


@dataclass(frozen=True)
class Facts:
    players: int
    concept: Concept
    value: object
    best: tuple[str, ...]
    tempting: frozenset[str]
    won_in_two: bool
    depth: int | None
    nodes: int


def _bout_only(path: Path) -> OmensState:
    """The position of the file played only to the end of the bout in progress."""
    position = load_position(path)
    start = position.start
    table = Table(start.num_players(), start.table.rules, start.table.catalogue, Scope.BOUT)
    state = OmensState.start_of_bout(
        table, start.hands, start.teams(), start.leader, out=start.discard_pile, box=start.box
    )
    for move in position.moves:
        state = state.apply_move(move)
    return state


def facts(path: Path) -> Facts:
    """What the solvers say about a deep puzzle's position."""
    position = load_position(path)
    state = position.state
    puzzle = read_puzzle(path)
    assert puzzle is not None and puzzle.team is not None
    team = puzzle.team
    concept = puzzle.concept or Concept.MINIMAX
    result = solve(state, concept=concept, team=team, budget=puzzle.budget,
                   algorithm=RATING_SEARCH, per_move=False)
    assert result.solved, path.name
    mover = state.current_player()
    highest = max(state.hands[mover])
    bout = _bout_only(path)
    tempting = set()
    for move in state.moves():
        text = state.move_to_string(move)
        if move[0].card == highest:
            tempting.add(text)
            continue
        after = solve(bout.apply_move(move), concept=concept, team=team, budget=puzzle.budget)
        assert after.solved, (path.name, text)
        if after.value == 1:
            tempting.add(text)
    search = BoutSearch(state, Goal.team_wins(state.num_players(), team))
    won_in_two = search.won_within(MIN_DEPTH - 1)
    return Facts(
        players=state.num_players(),
        concept=concept,
        value=result.value,
        best=tuple(result.best_actions),
        tempting=frozenset(tempting),
        won_in_two=won_in_two,
        depth=None if won_in_two else search.depth(),
        nodes=solve_reports(path),
    )


def solve_reports(path: Path) -> int:
    """The nodes ``omen-solver solve FILE`` reports: a rating's nodes are exactly these."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["solve", str(path), "--json"])
    report = json.loads(out.getvalue())
    assert code == 0 and report["agrees"], path.name
    nodes: int = report["nodes"]
    return nodes


def read(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def assert_deep(path: Path) -> Facts:
    found = facts(path)
    data = read(path)
    answer, rating = data["puzzle"]["answer"], data["puzzle"]["rating"]
    assert found.value == 1, path.name
    assert len(found.best) == 1 and list(found.best) == answer["best_actions"], path.name
    assert found.tempting and found.best[0] not in found.tempting, path.name
    assert set(answer["best_actions_exclude"]) == found.tempting, path.name
    assert not found.won_in_two, path.name
    assert found.depth is not None and found.depth >= MIN_DEPTH, path.name
    assert rating == {
        "depth": found.depth, "tempting": len(found.tempting), "nodes": found.nodes
    }, path.name
    if found.players == 6:
        assert found.concept is Concept.PARANOID, path.name
    return found


def deep_files() -> list[Path]:
    return sorted(path for path in PUZZLES.glob("*.toml") if "rating" in read(path)["puzzle"])


@pytest.mark.parametrize("path", deep_files(), ids=lambda path: path.stem)
def test_bundled_deep_puzzle_properties(path: Path) -> None:
    assert_deep(path)


def test_the_bundle_has_deep_puzzles_for_every_player_count() -> None:
    files = deep_files()
    assert len(files) >= MIN_DEEP_PUZZLES
    players = [read(path)["players"] for path in files]
    assert {4, 5, 6} <= set(players)
    for path in files:
        data = read(path)
        if data["players"] == 6:
            assert data["puzzle"]["concept"] == "paranoid", path.name


def _generate(out: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    status = main(["puzzles", "generate", str(out), "--kind", "deep", *QUICK_SEED, *extra,
                   "--json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert status == 0, report
    return report


def test_a_small_seeded_run_writes_puzzles_the_solvers_confirm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _generate(tmp_path, capsys, "--count", "1")
    written = [Path(path) for path in report["written"]]
    assert len(written) == 1 and report["deals"] == 1
    assert main(["puzzles", "check", str(tmp_path)]) == 0
    capsys.readouterr()
    for path in written:
        found = assert_deep(path)
        assert report["ratings"][0]["depth"] == found.depth


def test_generation_is_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _generate(tmp_path / "a", capsys)
    second = _generate(tmp_path / "b", capsys)
    assert first["ratings"] == second["ratings"]
    texts = [Path(path).read_text() for path in (*first["written"], *second["written"])]
    half = len(texts) // 2
    assert texts[:half] == texts[half:]


def test_nothing_found_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With two cards in every hand, the round ends with the bout in progress: no position
    of at most 8 cards (4 players) is deep."""
    status = main(["puzzles", "generate", str(tmp_path), "--kind", "deep", *QUICK_SEED,
                   "--max-cards", "8"])
    assert status == 1
    assert "0 puzzles written" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "deep", "--lead", "14"], "--lead applies to --kind unique-win or only-lead"),
        (["--kind", "deep", "--min-depth", "0"], "--min-depth 0"),
        (["--kind", "deep", "--max-cards", "5"], "--max-cards 5"),
        (["--kind", "deep", "--max-deals", "0"], "--max-deals 0"),
        (["--kind", "unique-win", "--deal", "later"], "--deal applies to --kind deep only"),
    ],
)
def test_bad_options_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["puzzles", "generate", str(tmp_path), *args]) == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
