"""Every shipped position through every surface: no surface crashes or hangs on a position the
project ships (docs/robustness.md, "Every shipped position").

The positions: every bundled puzzle (``puzzles/``), every example position of the docs
(``docs/examples/``), every distinct vector start (``vectors/``: the vectors' and the perft
suites' positions, written as position files by their game's codec). The surfaces: the
command line (``solve``, ``omens play``/``legal`` or ``omen play``/``legal``, ``perft``,
``omen endgame``, ``omen ask``), the Python API (``omen_solver.load`` and ``solve``, and for
Omen ``solve_endgame`` with the file's turn limit) and the web API as the board's page calls
it (the board view; the solver for Omens, the endgame solver for Omen with the file's
``[search]`` table; a puzzle opened and tried with its stated answer). Each answers, or says
"unknown" within its budget, with the documented exit status, and no traceback reaches the
user.

The default tier walks a fixed sample, one position of each kind (:data:`SAMPLE`, small
budgets: about 20 seconds); ``--runslow`` walks them all, the web searches with the page's own
time limits.
"""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import omen_solver
from omen_solver import cli
from omen_solver.core.budget import Budget, Status
from omen_solver.core.game import TERMINAL
from omen_solver.core.search import solve

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = {
    "puzzles/omens/harmony.toml",
    "puzzles/omens/six-players-paranoid.toml",
    "puzzles/omen/endgame-a-beast-counts-two.toml",
    "docs/examples/omen/position.toml",
    "docs/examples/omens/worked-example.toml",
    "vectors/omens/rulebook/random.json#omens.rulebook.random.0013",
    "vectors/omen/examples.json#omen.example.war-order-scorned",
}
"""The positions the default tier walks: an Omens puzzle of two and one of three teams, an
Omen endgame whose game never ends (its file's turn limit answers it), an example of each
game (the Omen one names a card file, which the web API refuses to read), a vector start of
each game."""

NOT_POSITIONS = {"docs/examples/omens/my-deck.toml": "a card catalogue",
                 "docs/examples/omen/my-copy.toml": "a card file",
                 "docs/examples/omens/advice-seat1.toml": "a seat's view, for advise",
                 "docs/examples/omens/strategy-fusion.toml": "a seat's view, for advise"}
"""Example files that are not positions (each is walked by its own command's tests)."""


@dataclass(frozen=True)
class Shipped:
    name: str
    game: str
    text: str
    """The position file's text (a vector start: its state's file, :func:`_position_file`)."""
    path: Path | None
    """The file, for shipped files (a vector start has none)."""

    def state(self) -> Any:
        return omen_solver.load(self.path if self.path is not None else self.text)

    def concept(self) -> list[str]:
        """What the page and a user give with three teams or more: a solution concept."""
        return ["--concept", "paranoid"] if len(self.state().teams()) >= 3 else []


def _files() -> list[Shipped]:
    found = []
    for path in sorted([*ROOT.glob("puzzles/*/*.toml"), *ROOT.glob("docs/examples/*/*.toml")]):
        name = str(path.relative_to(ROOT))
        if name in NOT_POSITIONS:
            continue
        text = path.read_text(encoding="utf-8")
        game = tomllib.loads(text).get("game", "omens")
        found.append(Shipped(name, game, text, path))
    return found


def _vector_starts() -> list[Shipped]:
    from omen_solver.vectors.omen_record import omen_start
    from omen_solver.vectors.omens_record import start_state

    seen: set[Any] = set()
    found = []
    for path in sorted(ROOT.glob("vectors/**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = [(v["id"], v["options"], v["position"]) for v in data.get("vectors", [])]
        entries += [(c["id"], c.get("options", {}), c["position"])
                    for c in data.get("cases", []) if "position" in c]
        for ident, options, position in entries:
            start = (start_state if data["game"] == "omens" else omen_start)(
                options, position, f"{path}: {ident}")
            if start.key() in seen:
                continue
            seen.add(start.key())
            found.append(Shipped(f"{path.relative_to(ROOT)}#{ident}", data["game"],
                                 _position_file(start), None))
    return found


def _position_file(state: Any) -> str:
    """A state's position file, as its game's codec writes it (docs/omens-positions.md,
    docs/omen.md)."""
    from omen_solver.core.game import game_of

    write = game_of(state).write_file
    assert write is not None
    return write(state)


FILES = _files()
VECTORS = _vector_starts()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The whole walk with ``--runslow``, the sample otherwise (not thousands of skipped
    tests: their reports alone would cost the default tier a minute)."""
    if "item" not in metafunc.fixturenames:
        return
    whole = metafunc.config.getoption("--runslow")
    walked = [*FILES, *VECTORS]
    if metafunc.function is test_each_puzzle_on_the_web_board:
        walked = [item for item in FILES if item.name.startswith("puzzles/")]
    metafunc.parametrize("item", [pytest.param(item, id=item.name) for item in walked
                                  if whole or item.name in SAMPLE])


@pytest.fixture
def position_file(tmp_path: Path) -> Any:
    def place(item: Shipped) -> Path:
        if item.path is not None:
            return item.path
        path = tmp_path / "start.toml"
        path.write_text(item.text, encoding="utf-8")
        return path
    return place


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exited:
        code = int(exited.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, (argv, err[-2000:])
    return code, out, err


def test_the_walk_covers_every_kind_of_position() -> None:
    names = [item.name for item in FILES]
    assert len([n for n in names if n.startswith("puzzles/omens/")]) >= 40
    assert len([n for n in names if n.startswith("puzzles/omen/")]) >= 18
    assert any(n.startswith("docs/examples/omen/") for n in names)
    assert {item.game for item in VECTORS} == {"omens", "omen"} and len(VECTORS) > 900


def test_the_command_line(item: Shipped, position_file: Any,
                          capsys: pytest.CaptureFixture[str], request: pytest.FixtureRequest
                          ) -> None:
    slow = request.config.getoption("--runslow")
    path = str(position_file(item))
    nodes = ("20000" if slow else "3000") if item.game == "omens" else ("3000" if slow else "300")
    code, out, err = _run(capsys, ["solve", path, "--max-nodes", nodes, "--json",
                                   *item.concept()])
    assert code in (0, 1), err
    answer = json.loads(out)
    assert answer["status"] == ("solved" if code == 0 else "unknown") or (
        code == 1 and "stated" in answer), answer.get("status")
    code, _, err = _run(capsys, ["perft", path, "--depth", "2", "--max-nodes", "20000"])
    assert code in (0, 1), err
    if item.game == "omens":
        for command in (["omens", "legal", path], ["omens", "play", path]):
            code, _, err = _run(capsys, command)
            assert code == 0, (command, err)
        return
    for command in (["omen", "legal", path], ["omen", "play", path]):
        code, _, err = _run(capsys, command)
        assert code == 0, (command, err)
    code, out, err = _run(capsys, ["omen", "endgame", path, "--max-nodes", nodes, "--json"])
    assert code in (0, 1), err
    assert json.loads(out)["status"] == ("solved" if code == 0 else "unknown")
    for question in ("win-city", "fewest-coins", "keep"):
        for city in ("1", "2", "3") if slow else ("1",):
            code, _, err = _run(capsys, ["omen", "ask", path, question, city])
            # "yes" exits 0 and "no" exits 1 (a negative answer); a question the position
            # does not pose (no war, a city that cannot be fought for) is refused as bad
            # input, in one line
            assert code in (0, 1, 2), err
            assert code != 2 or err.count("\n") == 1, err


def test_the_python_api(item: Shipped) -> None:
    state = item.state()
    if state.current_player() != TERMINAL:
        assert state.legal_actions() or state.chance_outcomes()
    nodes = 3000 if item.game == "omens" else 300
    result = solve(state, budget=Budget(max_nodes=nodes),
                   concept="paranoid" if item.concept() else None)
    assert result.status in (Status.SOLVED, Status.UNKNOWN)
    if result.status is Status.SOLVED:
        assert result.value is not None
    else:
        assert result.note
    if item.game == "omen":
        turns = state.search.turns if state.search else None
        found = omen_solver.omen.solve_endgame(state, turns=turns,
                                               budget=Budget(max_nodes=nodes))
        assert found.status in (Status.SOLVED, Status.UNKNOWN)
        assert found.status is Status.SOLVED or found.note


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from omen_solver.web.app import create_app
    from omen_solver.web.jobs import Limits

    with TestClient(create_app(Limits(max_seconds=30.0, default_seconds=10.0))) as test_client:
        yield test_client


def _finished(client: Any, job: str, seconds: float) -> dict[str, Any]:
    """The last message of a search started on the board, polled as a script would."""
    end = time.monotonic() + seconds + 15
    while time.monotonic() < end:
        status = client.get(f"/api/jobs/{job}").json()
        if status["finished"]:
            return dict(client.get(f"/api/jobs/{job}").json()["news"][-1])
        time.sleep(0.1)
    raise AssertionError(f"the search {job} did not end within its {seconds} s")


def test_the_web_api(item: Shipped, client: Any, request: pytest.FixtureRequest) -> None:
    """As the page calls it: the board, then its solver (Omens: 10 s by default; Omen's
    endgame solver: 20 s, the file's turn limit applied). The default tier gives each search
    one second: a sampled position still answers or says unknown."""
    slow = request.config.getoption("--runslow")
    if item.game == "omens":
        board = client.post("/api/omens/board", json={"toml": item.text, "moves": []})
        assert board.status_code == 200, board.text
        view = board.json()
        if not view.get("legal"):
            return  # the round is over: the page offers no search
        seconds = 10 if slow else 1
        body: dict[str, Any] = {"toml": item.text, "moves": [], "seconds": seconds}
        if len(view["teams"]) >= 3:
            body["concept"] = "paranoid"
        started = client.post("/api/omens/solve", json=body)
        assert started.status_code == 200, started.text
        last = _finished(client, started.json()["id"], seconds)
        assert last["type"] in ("done", "result"), last
        assert "internal error" not in json.dumps(last)
        return
    board = client.post("/api/omen/board", json={"toml": item.text, "moves": []})
    if "cards" in tomllib.loads(item.text):
        # a position naming a card file on disk: the web API reads nothing from disk, and
        # says so in one line (the command line reads it)
        assert board.status_code == 400 and "never reads" in board.json()["error"]
        return
    assert board.status_code == 200, board.text
    seconds = 20 if slow else 1
    answer = client.post("/api/omen/endgame",
                         json={"toml": item.text, "moves": [], "seconds": seconds})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["status"] in ("solved", "unknown"), found
    turns = tomllib.loads(item.text).get("search", {}).get("turns")
    if found["status"] == "solved" or "endgame" in found:
        assert found["endgame"]["turns"] == (turns if turns is not None else "end")


def test_each_puzzle_on_the_web_board(item: Shipped, client: Any) -> None:
    """A puzzle opened from the list and tried with its stated answer's first move (or
    value), as the trainer does: an answer, never an error."""
    game, stem = item.name.split("/")[1], Path(item.name).stem
    opened = client.get(f"/api/puzzles/{game}/{stem}")
    assert opened.status_code == 200, opened.text
    answer = tomllib.loads(item.text).get("puzzle", {}).get("answer", {})
    best = answer.get("best_actions") or []
    if best:
        body: dict[str, Any] = {"move": best[0], "seconds": 10}
    else:
        body = {"value": str(Fraction(answer.get("value", "0")))}
    tried = client.post(f"/api/puzzles/{game}/{stem}/try", json=body)
    # an answer, or (a stated action that is one seat's part of a joint move) a refusal in
    # one line saying what to write
    assert tried.status_code in (200, 400), tried.text
    assert "internal error" not in tried.text and "\n" not in tried.text
