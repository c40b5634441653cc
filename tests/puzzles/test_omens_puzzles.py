"""The bundled Omens best-play puzzles (``puzzles/omens``).

Every stated answer must hold when the puzzles are checked the way a user checks them
(``omen-solver puzzles check puzzles/omens``), and together the puzzles must cover the points of
the rules they are meant to teach (rules file 000, "Special Card Effects", "End of a Round";
the rules README's O2, O13 and O15). Files declare what they illustrate in a ``# points:``
comment line.
"""

from __future__ import annotations

import io
import json
import re
import tomllib
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from omen_solver import cli
from omen_solver.core.budget import Budget
from omen_solver.core.search import solve
from omen_solver.omens.position import load_state
from omen_solver.puzzles.format import compare, read_puzzle

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omens"

REQUIRED_POINTS = {
    "law-and-wrath": "Law's constraint, and Wrath sending Law back (000 'Law', 'Wrath')",
    "mirror-and-sadness": "Mirror's lowest card wins, over Sadness (000 'Mirror', 'Sadness')",
    "fear-and-luck": "Fear is never discarded, Luck cannot take it (000 'Fear', 'Luck')",
    "dream": "Dream in front of a player who has not played (000 'Dream')",
    "betrayal": "Betrayal takes a card and plays one in its place (000 'Betrayal')",
    "jealousy": "Jealousy swaps places with a card in play (000 'Jealousy')",
    "absolute-mixed": "The Absolute's secret exchange as a matrix game (000 'The Absolute'; O2)",
    "absolute-teammate": "The Absolute's exchange with a teammate (000 'The Absolute')",
    "pride": "Pride chooses the next leader (omens-cards.md 22)",
    "malice": "Malice counts as every colour (omens-cards.md 17)",
    "winter-against-fear": "Winter discards every yellow card but Fear (omens-cards.md 27)",
    "harmony": "Harmony discards the lowest card in play (omens-cards.md 20)",
    "luck-zero-cards": "Luck's 0-card win beats single cards (000 'Luck')",
    "several-singles": "Several players at 1 card: the highest wins (000 'End of a Round')",
    "five-players": "Five players: a pair against a trio (000 'Setup')",
    "six-players-paranoid": "Six players, three teams, paranoid (O15)",
    "six-players-maxn": "Six players, three teams, max-n (O15)",
    "rule-option": "A non-default rule option or preset that changes the answer (rules README)",
    "deep": "A unique win of 3 bouts or more from a real deal, the natural play failing "
    "(000 'Game Sequence'; docs/puzzles.md)",
}
OTHER_POINTS = {"wrath", "bigger"}
MIN_PUZZLES = 48
MIN_EXPLANATION_LINES = 8
BUDGET_MARGIN = 5
"""Each puzzle's node budget must be at least this many times the nodes its solve needs."""


def puzzle_files() -> list[Path]:
    return sorted(PUZZLES.glob("*.toml"))


def read(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def leading_comments(path: Path) -> list[str]:
    """The comment block a file opens with."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return lines


def points_of(path: Path) -> set[str]:
    found: set[str] = set()
    for line in leading_comments(path):
        match = re.fullmatch(r"# points: (.+)", line)
        if match:
            found.update(point.strip() for point in match.group(1).split(","))
    return found


def files_with(point: str) -> list[Path]:
    return [path for path in puzzle_files() if point in points_of(path)]


@pytest.fixture(scope="module")
def checked() -> dict[str, dict[str, Any]]:
    """``omen-solver puzzles check puzzles/omens --json``, by file name."""
    out = io.StringIO()
    with redirect_stdout(out):
        status = cli.main(["puzzles", "check", str(PUZZLES), "--json"])
    rows = json.loads(out.getvalue())
    assert status == 0, [row for row in rows if row["status"] != "agrees"]
    return {Path(row["file"]).name: row for row in rows}


def test_every_stated_answer_holds(checked: dict[str, dict[str, Any]]) -> None:
    assert len(checked) >= MIN_PUZZLES
    assert sorted(checked) == [path.name for path in puzzle_files()]
    for name, row in checked.items():
        assert row["status"] == "agrees", (name, row.get("contradictions"), row.get("error"))
        assert row["agrees"] is True and row["contradictions"] == [], name
        assert row["stated"], name


def test_budgets_are_comfortable(checked: dict[str, dict[str, Any]]) -> None:
    """Every puzzle names a node budget well above what its solve needs."""
    for path in puzzle_files():
        budget = read(path)["puzzle"].get("max_nodes")
        assert isinstance(budget, int), f"{path.name}: no puzzle.max_nodes"
        assert budget >= BUDGET_MARGIN * checked[path.name]["nodes"], path.name


def test_each_file_explains_its_answer() -> None:
    for path in puzzle_files():
        comments = leading_comments(path)
        assert len(comments) >= MIN_EXPLANATION_LINES, f"{path.name}: explain the answer first"
        data = read(path)
        assert data["game"] == "omens"
        assert data.get("title"), f"{path.name}: no title"
        assert data["puzzle"]["question"].endswith("?"), path.name
        unknown = points_of(path) - set(REQUIRED_POINTS) - OTHER_POINTS
        assert points_of(path) and not unknown, f"{path.name}: points {sorted(unknown)}"


def test_points_cover_the_list() -> None:
    covered = set().union(*(points_of(path) for path in puzzle_files()))
    assert set(REQUIRED_POINTS) <= covered, sorted(set(REQUIRED_POINTS) - covered)
    assert len(files_with("rule-option")) >= 2


def test_rule_option_puzzles_change_the_answer() -> None:
    """A puzzle about a rule option states an answer that the default rules contradict."""
    for path in files_with("rule-option"):
        data = read(path)
        assert data.get("preset", "rulebook") != "rulebook" or data.get("rules"), path.name
        default = {key: value for key, value in data.items() if key not in ("preset", "rules")}
        state = load_state(path, default)
        puzzle = read_puzzle(path, default)
        assert puzzle is not None
        result = solve(state, concept=puzzle.concept, team=puzzle.team,
                       simultaneous=puzzle.simultaneous,
                       budget=Budget(puzzle.budget.max_nodes))
        assert result.solved, path.name
        assert compare(puzzle, state, result), f"{path.name}: the option changes nothing"


def test_player_counts_and_solution_concepts() -> None:
    """Five players: a pair and a trio; six players: three teams and a stated concept (O15)."""
    for path in files_with("five-players"):
        data = read(path)
        assert data["players"] == 5
        assert sorted(len(team) for team in data["teams"]) == [2, 3]
    for path in puzzle_files():
        data = read(path)
        if data["players"] == 6:
            assert len(data["teams"]) == 3
            assert data["puzzle"].get("concept") in ("paranoid", "maxn"), path.name
            assert data["puzzle"].get("team"), path.name
    concepts = {
        point: {read(path)["puzzle"].get("concept") for path in files_with(point)}
        for point in ("six-players-paranoid", "six-players-maxn")
    }
    assert concepts == {"six-players-paranoid": {"paranoid"}, "six-players-maxn": {"maxn"}}
    assert {read(path)["players"] for path in puzzle_files()} == {4, 5, 6}


def test_setups_vary() -> None:
    leaders = {read(path)["bout"]["leader"] for path in puzzle_files()}
    assert len(leaders) >= 4
    started = [path for path in puzzle_files() if read(path)["bout"].get("moves")]
    assert 0 < len(started) < len(puzzle_files())


def test_absolute_mixed_values() -> None:
    """The secret exchange is a simultaneous move (O2): one puzzle's pure values differ."""
    gaps = []
    for path in files_with("absolute-mixed"):
        answer = read(path)["puzzle"]["answer"]
        if "pure_lower" in answer and "pure_upper" in answer:
            gaps.append((answer["pure_lower"], answer["value"], answer["pure_upper"]))
    assert any(low != high for low, _, high in gaps)


def test_absolute_teammate_exchange_is_with_a_teammate() -> None:
    pattern = re.compile(r"(\d+):3[0-5] with (\d+)$")
    for path in files_with("absolute-teammate"):
        data = read(path)
        answer = data["puzzle"]["answer"]
        actions = [*data["bout"].get("moves", []), *answer.get("best_actions", [])]
        pairs = [tuple(map(int, m.groups())) for m in map(pattern.match, actions) if m]
        assert any(
            any(a in team and b in team for team in data["teams"]) for a, b in pairs
        ), path.name


def test_readme_lists_every_puzzle() -> None:
    readme = (PUZZLES / "README.md").read_text(encoding="utf-8")
    for path in puzzle_files():
        assert f"[`{path.name}`]({path.name})" in readme, path.name
