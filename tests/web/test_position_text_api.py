"""The web API reads and writes a position's one-line text (docs/web.md, "A position as
text"; docs/position-text.md): ``POST /api/GAME/text`` turns a position (its file, its
tables or its text, and moves played on it) into its text and its file, and every route
that takes a position takes ``text`` too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

import omen_solver
from omen_solver.web.app import create_app
from omen_solver.web.jobs import Limits

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "docs/examples/omens/worked-example.toml").read_text(encoding="utf-8")
WAR = (ROOT / "puzzles/omen/war-order.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Limits(max_seconds=20.0, default_seconds=5.0, max_body_bytes=64 * 1024))
    with TestClient(app) as test_client:
        yield test_client


def test_a_board_and_its_moves_become_a_text_and_back(client: TestClient) -> None:
    reply = client.post("/api/omens/text", json={"toml": WORKED, "moves": ["5:11"]})
    assert reply.status_code == 200, reply.text
    text = reply.json()["text"]
    expected = omen_solver.load(ROOT / "docs/examples/omens/worked-example.toml").child("5:11")
    assert text == expected.to_text()
    assert omen_solver.omens.load(reply.json()["toml"]) == expected
    board = client.post("/api/omens/board", json={"text": text, "moves": ["6:19"]})
    assert board.status_code == 200, board.text
    again = client.post("/api/omens/text", json={"text": text})
    assert again.json()["text"] == text


def test_omen_positions_too(client: TestClient) -> None:
    reply = client.post("/api/omen/text", json={"toml": WAR, "moves": ["war 1"]})
    assert reply.status_code == 200, reply.text
    state = omen_solver.omen.load(ROOT / "puzzles/omen/war-order.toml").child("war 1")
    assert reply.json()["text"] == state.to_text()
    assert client.post("/api/omen/board", json={"text": reply.json()["text"]}).status_code == 200


def test_each_games_file_keys_are_refused_and_only_omens_may_leave_out_its_game(
        client: TestClient) -> None:
    """The keys naming other files are the descriptor's ``file_keys`` (Omen: ``cards``); an
    Omens file may leave out ``game`` (its reader's default), an Omen file may not."""
    reply = client.post("/api/omen/text", json={"toml": 'cards = ["mine.toml"]\n' + WAR})
    assert reply.status_code == 400 and "key 'cards': names a file on disk" in reply.json()[
        "error"], reply.text
    unnamed = "\n".join(line for line in WAR.splitlines() if not line.startswith("game ="))
    reply = client.post("/api/omen/text", json={"toml": unnamed})
    assert reply.status_code == 400 and "this board reads 'omen' positions, not" in reply.json()[
        "error"], reply.text
    omens = (ROOT / "docs/examples/omens/worked-example.toml").read_text(encoding="utf-8")
    reply = client.post("/api/omens/text", json={"toml": "\n".join(
        line for line in omens.splitlines() if not line.startswith("game ="))})
    assert reply.status_code == 200, reply.text


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/api/omens/text", {"text": "omens 1,2/3"}, "key 'players'"),
    ("/api/omens/text", {"text": "omen reign-of-war"}, "not the text of 'omens' position"),
    ("/api/chess/text", {"text": "omens 1/2"}, "no game 'chess'"),
    ("/api/omens/text", {"text": 5}, "'text': expected a position's one-line text"),
    ("/api/omens/text", {"text": "omens 1,2/3,4/5,6/7,8 lead=1 catalogue=x.toml teams=1,3/2,4"},
     "names a file on disk"),
])
def test_a_bad_text_is_a_400_naming_the_key(client: TestClient, path: str, body: dict[str, object],
                                            message: str) -> None:
    reply = client.post(path, json=body)
    assert reply.status_code == 400 and message in reply.json()["error"], reply.text
