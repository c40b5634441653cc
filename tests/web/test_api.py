"""The web board's JSON API (docs/web.md), through Starlette's test client.

Positions come from the request body only; bad input is answered with the command line's
one-line message as HTTP 400; searches run in their own process under a time limit.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from omen_solver.cli import main
from omen_solver.web.app import create_app
from omen_solver.web.jobs import Limits
from omen_solver.web.library import dump_toml, read_position_text

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "docs/examples/omens/worked-example.toml").read_text(encoding="utf-8")
LAW_AND_WRATH = (ROOT / "puzzles/omens/law-and-wrath.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Limits(max_seconds=20.0, default_seconds=5.0, max_body_bytes=64 * 1024))
    with TestClient(app) as test_client:
        yield test_client


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> Ran:
    """The command line, run in this process (as ``omen-solver ARGS``)."""
    capsys.readouterr()
    code = main([(str(ROOT / a) if a.startswith(("docs/", "puzzles/")) else a) for a in args])
    out, err = capsys.readouterr()
    return Ran(code, out, err)


def test_worked_example_played_through_the_api(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rules file 000, "How a Bout Is Resolved", EXAMPLE: Secret wins and is discarded with
    Calm and Summer; the other cards go back to hand (rules bout.winner.highest,
    bout.discard.simultaneous, bout.return)."""
    reply = client.post("/api/omens/board", json={"toml": WORKED, "moves": ["5:11"]})
    assert reply.status_code == 200
    view = reply.json()
    assert view["to_act"] == 6
    assert {entry["text"] for entry in view["legal"]} >= {"6:19", "6:35 with 1"}
    assert next(e for e in view["legal"] if e["text"] == "6:35 with 3")["clicks"] == [
        "hand:6:35", "seat:3"]
    view = client.post("/api/omens/board", json={"toml": WORKED,
                                                 "moves": ["5:11", "6:19"]}).json()
    last = view["history"][-1]
    assert last["move"] == "6:19"
    assert last["bout"]["winner"] == 1
    assert last["bout"]["discarded"] == [4, 11, 24]
    rules = [step["rule"] for step in last["steps"]]
    assert "bout.winner.highest" in rules and "bout.discard.simultaneous" in rules
    assert view["seats"][1]["hand"] == [3, 18]  # Day went back to seat 2's hand
    # The same trace as the command line's.
    cli = _cli(capsys, "omens", "play", "docs/examples/omens/worked-example.toml", "--moves",
               "5:11", "6:19", "--json")
    expected = json.loads(cli.stdout)
    assert [(s["rule"], s["text"]) for s in expected["trace"]] == [
        (s["rule"], s["text"]) for entry in view["history"] for s in entry["steps"]]


def test_every_legal_action_has_distinct_clicks(client: TestClient) -> None:
    for text in (WORKED, LAW_AND_WRATH):
        view = client.post("/api/omens/board", json={"toml": text}).json()
        clicks = [tuple(entry["clicks"]) for entry in view["legal"]]
        assert len(clicks) == len(set(clicks))
        for entry in view["legal"]:
            assert all(c.split(":")[0] in ("hand", "play", "seat", "word") for c in entry["clicks"])


def test_bad_input_gets_the_cli_message_as_400(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = WORKED.replace("5 = [11, 7]", "5 = [11, 11]")
    reply = client.post("/api/omens/board", json={"toml": bad})
    assert reply.status_code == 400
    path = tmp_path / "position.toml"
    path.write_text(bad, encoding="utf-8")
    cli = _cli(capsys, "omens", "legal", str(path))
    assert cli.returncode == 2
    cli_message = cli.stderr.strip().removeprefix("omen-solver: error: ")
    assert reply.json()["error"] == cli_message.replace(str(path), "position")
    assert "\n" not in reply.json()["error"]
    illegal = client.post("/api/omens/board", json={"toml": WORKED, "moves": ["5:19"]})
    assert illegal.status_code == 400
    assert illegal.json()["error"].startswith("moves[1] (of 1): '5:19' is not legal here")
    assert client.post("/api/omens/board", content=b"not json",
                       headers={"Content-Type": "application/json"}).status_code == 400
    assert client.post("/api/omens/board", json={"toml": "game = 'omens'\nplayers = 3"}
                       ).json()["error"] == (
        "position: key 'players': expected a whole number from 4 to 6, not 3")


def test_positions_never_name_a_file(client: TestClient) -> None:
    """A position naming a catalogue (or, for Omen, card files) is refused: the server reads
    nothing from disk for a request."""
    text = WORKED.replace('game = "omens"', 'game = "omens"\ncatalogue = "/etc/passwd"')
    reply = client.post("/api/omens/board", json={"toml": text})
    assert reply.status_code == 400
    assert "never reads" in reply.json()["error"]
    # A bare path given as the position is TOML that does not parse, never a file read.
    reply = client.post("/api/omens/board", json={"toml": "docs/examples/omens/position.toml"})
    assert reply.status_code == 400
    assert reply.json()["error"].startswith("position: not valid TOML")
    omen = client.post("/api/omen/board", json={"toml": 'game = "omen"\ncards = ["x.toml"]'})
    assert omen.status_code == 400 and "never reads" in omen.json()["error"]


def test_body_size_is_capped(client: TestClient) -> None:
    reply = client.post("/api/omens/board", json={"toml": "#" * (70 * 1024)})
    assert reply.status_code == 413
    assert "larger than" in reply.json()["error"]


def test_export_round_trips_through_the_cli(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    reply = client.post("/api/omens/export", json={"toml": WORKED, "moves": ["5:11"]})
    text = reply.json()["toml"]
    path = tmp_path / "exported.toml"
    path.write_text(text, encoding="utf-8")
    cli = _cli(capsys, "omens", "play", str(path), "--moves", "6:19", "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["discarded"] == [4, 11, 24]


def test_editor_tables_checked_like_a_file(client: TestClient) -> None:
    tables = read_position_text(WORKED, "omens")
    reply = client.post("/api/omens/position", json={"position": tables})
    assert reply.status_code == 200
    assert read_position_text(reply.json()["toml"], "omens")["hands"] == tables["hands"]
    tables["hands"]["1"] = [24]
    tables["bout"] = {"leader": 1}
    reply = client.post("/api/omens/position", json={"position": tables})
    assert reply.status_code == 400
    assert reply.json()["error"] == ("position: key 'hands.1': 1 card at the start of a bout: "
                                     "the round is already over")


def test_deal_as_at_a_game_start(client: TestClient) -> None:
    """Rules file 000, "Setup": one Absolute each, teams and leader from the Absolutes (rules
    setup.absolutes, setup.teams, setup.first_leader); the same seed deals the same."""
    one = client.post("/api/omens/deal", json={"players": 5, "seed": 7}).json()
    two = client.post("/api/omens/deal", json={"players": 5, "seed": 7}).json()
    assert one == two
    hands = one["position"]["hands"]
    assert all(sum(1 for c in hand if c >= 30) == 1 for hand in hands.values())
    view = client.post("/api/omens/position", json={"position": one["position"]}).json()
    assert view["board"]["players"] == 5
    later = client.post("/api/omens/deal", json={"players": 6, "seed": 1,
                                                 "phase": "round-start"}).json()
    assert all(len(hand) == 4 for hand in later["position"]["hands"].values())
    bad = client.post("/api/omens/deal", json={"players": 7})
    assert bad.status_code == 400


def test_dump_toml_reads_back() -> None:
    data = read_position_text(LAW_AND_WRATH, "omens")
    assert read_position_text(dump_toml(data), "omens") == data


def _events(client: TestClient, job: str) -> list[dict[str, object]]:
    news = []
    with client.stream("GET", f"/api/jobs/{job}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: ") and line != "data: {}":
                news.append(json.loads(line[6:]))
    return news


def test_solver_values_each_legal_action(client: TestClient) -> None:
    """puzzles/omens/law-and-wrath.toml: only 1:15 lower wins the round for seats 1 and 3."""
    started = client.post("/api/omens/solve", json={"toml": LAW_AND_WRATH, "seconds": 10})
    assert started.status_code == 200
    news = _events(client, started.json()["id"])
    assert news[0]["type"] == "start"
    moves = {m["move"]: m for m in news if m["type"] == "move"}
    assert moves["1:15 lower"]["verdict"] == "won"
    assert moves["1:15 higher"]["verdict"] == "lost"
    assert moves["1:27"]["verdict"] == "lost"
    done = news[-1]
    assert done["type"] == "done" and done["best"] == ["1:15 lower"]
    assert done["line"][0] == "1:15 lower"


def test_search_is_cancelled_and_bounded(client: TestClient) -> None:
    """A search is stopped when asked (the page moved on) and never outlives its limit."""
    deal = client.post("/api/omens/deal", json={"players": 4, "seed": 3}).json()
    deep = deal["toml"]  # a whole first round: far more than a fraction of a second
    started = client.post("/api/omens/solve", json={"toml": deep, "seconds": 20}).json()
    time.sleep(0.5)
    cancelled = client.delete(f"/api/jobs/{started['id']}").json()
    assert cancelled["finished"] and cancelled["cancelled"]
    status = client.get(f"/api/jobs/{started['id']}").json()
    assert status["news"][-1] == {"type": "done", "status": "unknown", "reason": "cancelled"}
    short = client.post("/api/omens/solve", json={"toml": deep, "seconds": 0.3}).json()
    news = _events(client, short["id"])
    assert news[-1]["type"] == "done" and news[-1]["status"] == "unknown"
    assert client.get("/api/jobs/nope").status_code == 404


def test_puzzle_attempts(client: TestClient) -> None:
    """puzzles/omens/law-and-wrath.toml: 1:27 loses, only 1:15 lower wins. A wrong move gets
    its refutation and nothing of the solution; a right one gets the solution."""
    wrong = client.post("/api/puzzles/omens/law-and-wrath/try", json={"move": "1:27"}).json()
    assert wrong["right"] is False
    assert wrong["best"] == [] and wrong["solution"] == []
    assert wrong["line"][0]["move"] == "1:27"
    assert wrong["verdict"] == "lost" and len(wrong["line"]) >= 4  # the other side's answer
    right = client.post("/api/puzzles/omens/law-and-wrath/try",
                        json={"move": "1:15 lower"}).json()
    assert right["right"] is True and right["best"] == ["1:15 lower"]
    assert right["solution"][0]["move"] == "1:15 lower"
    assert any("Law and Wrath" in line for line in right["comments"])
    listed = client.get("/api/puzzles?game=omens").json()
    assert any(p["name"] == "omens/law-and-wrath" for p in listed)
    shown = client.get("/api/puzzles/omens/law-and-wrath").json()
    assert "answer" not in shown["puzzle"] and "best_actions" not in shown["toml"]
    assert shown["kind"] == "move" and shown["plays"] == {"legal": 3, "named": 1,
                                                          "complete": True}
    assert client.get("/api/puzzles/omens/..%2F..%2Fetc").status_code in (400, 404)
    assert client.post("/api/puzzles/omens/law-and-wrath/try",
                       json={"move": "1:99"}).status_code == 400


def test_puzzle_hint_solution_and_values(client: TestClient) -> None:
    """The hint points at a card of an optimal move (Law, puzzles/omens/law-and-wrath.toml);
    the solution on request; a value question (puzzles/omens/lie-against-fear.toml: seats 1
    and 3 cannot win, value 0) takes a value, not a move."""
    hint = client.get("/api/puzzles/omens/law-and-wrath/hint").json()
    assert hint == {"hint": "Look at Law (15) in seat 1's hand.", "clicks": ["hand:1:15"]}
    solution = client.post("/api/puzzles/omens/law-and-wrath/solution", json={}).json()
    assert solution["best"] == ["1:15 lower"] and solution["root"]["verdict"] == "won"
    assert "right" not in solution
    assert not any(line.startswith("points:") for line in solution["comments"])
    value = client.get("/api/puzzles/omens/lie-against-fear").json()
    assert value["kind"] == "value" and "0" in value["choices"]
    assert client.post("/api/puzzles/omens/lie-against-fear/try",
                       json={"value": "1"}).json() == {"value": "1", "right": False}
    assert client.post("/api/puzzles/omens/lie-against-fear/try",
                       json={"value": "0"}).json() == {"value": "0", "right": True}
    assert client.post("/api/puzzles/omens/lie-against-fear/try",
                       json={"value": "half"}).status_code == 400


def test_omen_puzzles_in_puzzle_mode(client: TestClient) -> None:
    """puzzles/omen/war-order.toml: seat 1 wins only by fighting city 1 first (004 War Step:
    the active player decides the order); every Omen puzzle is listed with its question and a
    title of its own."""
    listed = client.get("/api/puzzles?game=omen").json()
    assert len(listed) == 18
    assert all(p["question"].endswith("?") and p["title"] for p in listed)
    assert len({p["title"] for p in listed}) == 18
    wrong = client.post("/api/puzzles/omen/war-order/try", json={"move": "war 2"}).json()
    assert wrong["right"] is False and wrong["line"][0]["move"] == "war 2"
    right = client.post("/api/puzzles/omen/war-order/try", json={"move": "war 1"}).json()
    assert right["right"] is True and right["best"] == ["war 1"]
    assert client.get("/api/puzzles/omen/war-order/hint").json()["hint"] == "Look at “war …”."


def test_titles_are_distinct(client: TestClient) -> None:
    """Several deep puzzles share a size and a depth: their titles name their deal."""
    titles = [p["title"] for p in client.get("/api/puzzles").json()]
    assert len(titles) == len(set(titles))
    assert "Four players, deal 32: a win in 5 bouts" in titles


def test_the_line_of_each_action(client: TestClient) -> None:
    """The line after each asked action (puzzles/omens/law-and-wrath.toml): 1:15 higher
    forces Wrath, which sends Law back (rules file 000, "Special Card Effects")."""
    started = client.post("/api/omens/lines", json={
        "toml": LAW_AND_WRATH, "candidates": ["1:15 higher", "1:27"], "seconds": 5}).json()
    for _ in range(100):
        status = client.get(f"/api/jobs/{started['id']}").json()
        if status["finished"]:
            break
        time.sleep(0.1)
    lines = {m["move"]: m for m in status["news"] if m["type"] == "line"}
    assert lines["1:15 higher"]["line"][:2] == ["1:15 higher", "2:28 return 15"]
    assert lines["1:27"]["verdict"] == "lost" and lines["1:27"]["line"][0] == "1:27"
    assert status["news"][-1]["type"] == "done"


def test_omen_board_and_endgame(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "puzzles/omen/war-order.toml").read_text(encoding="utf-8")
    view = client.post("/api/omen/board", json={"toml": text}).json()
    assert len(view["cities"]) == 3 and "war 1" in view["legal"]
    played = client.post("/api/omen/board", json={"toml": text, "moves": ["war 1"]}).json()
    assert any(s["rule"] == "war.torn" for s in played["history"][-1]["steps"])
    answer = client.post("/api/omen/endgame", json={"toml": text, "seconds": 10}).json()
    assert answer["status"] == "solved"
    cli = _cli(capsys, "omen", "endgame", "puzzles/omen/war-order.toml", "--json")
    assert json.loads(cli.stdout)["value"] == answer["value"]


def test_a_dropped_event_stream_cancels_its_search(board_url: str) -> None:
    """The page closed (or moved on): its event stream drops, and the search stops. (A real
    server: the test client does not tell the app that a client went away.)"""

    def call(method: str, path: str, body: object = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(board_url.rstrip("/") + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.loads(reply.read())

    deal = call("POST", "/api/omens/deal", {"players": 4, "seed": 4})
    started = call("POST", "/api/omens/solve", {"toml": deal["toml"], "seconds": 20})
    with urllib.request.urlopen(f"{board_url.rstrip('/')}{started['events']}",
                                timeout=10) as stream:
        assert stream.readline().startswith(b"data: ")
    for _ in range(50):
        status = call("GET", f"/api/jobs/{started['id']}")
        if status["finished"]:
            break
        time.sleep(0.1)
    assert status["cancelled"] and status["news"][-1]["reason"] == "cancelled"


@pytest.mark.slow
def test_generated_puzzle_is_played(client: TestClient) -> None:
    """puzzles generate --kind deep from the page: a new puzzle, and its one winning play is
    judged right (docs/puzzles.md, "Deep puzzles")."""
    reply = client.post("/api/puzzles/generate", json={"players": 4, "seed": 1, "seconds": 20})
    generated = reply.json()
    assert generated["found"], generated
    assert "answer" not in generated["puzzle"]
    best = read_position_text(generated["toml"], "omens")["puzzle"]["answer"]["best_actions"]
    judged = client.post("/api/puzzles/try", json={"toml": generated["toml"], "move": best[0]})
    assert judged.json()["right"] is True


def test_news_ends_at_the_last_message() -> None:
    """A search's lines still in its pipe after a cancel are not news: the last message stays
    the one that says it was cancelled (the race seen when a solve was cancelled while it
    printed its moves)."""
    import subprocess
    import sys

    from omen_solver.web.jobs import Job, Jobs

    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                               stdout=subprocess.PIPE, text=True)
    jobs = Jobs(Limits())
    job = Job(id="1", kind="solve", seconds=5.0, process=process)
    try:
        jobs._add(job, {"type": "move", "move": "1:15"}, False)
        jobs._kill(job, "cancelled")
        jobs._add(job, {"type": "move", "move": "1:27"}, False)
        jobs._add(job, {"type": "done", "status": "won"}, True)
    finally:
        process.kill()
        process.wait()
        assert process.stdout is not None
        process.stdout.close()
    assert job.finished
    assert job.events == [{"type": "move", "move": "1:15"},
                          {"type": "done", "status": "unknown", "reason": "cancelled"}]
    assert job.result() == {"type": "done", "status": "unknown", "reason": "cancelled"}
