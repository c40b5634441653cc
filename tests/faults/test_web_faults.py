"""The web server under hostile requests, clients that leave and odd options (the defects of a
fault and security run, each named by its id; docs/robustness.md, "The web server").

* S1: a page on another site can neither start, read nor cancel a search: requests a browser
  marks as cross-site (``Sec-Fetch-Site``) or from another origin (``Origin``) are refused
  with 403, bodies must be JSON (415 otherwise, an empty form too); the board's own page is
  unaffected (its browser tests, ``tests/web/test_browser.py``, and
  ``tests/web/test_cross_site.py``).
* H1: bodies are parsed in a worker thread, within a depth and number limit.
* H3: a client that leaves stops its search, and its slot is free again.
* C1: deep JSON, ``null``, ``NaN``, huge integers: 400 with one line, never 500.
* W1: ``/api/omens/deal`` answers a position ``/api/omens/position`` accepts, or 400.
* K2: a bad ``seconds`` is 400, not 404.
* K3, K4: ``serve`` answers the names of the address it listens on; it refuses options that
  leave no search able to run.
* K5: a client that drops mid-body leaves no traceback in the log.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from omen_solver.cli import main
from omen_solver.web import guard
from omen_solver.web.app import create_app
from omen_solver.web.jobs import Limits
from tests.web.conftest import _free_port, served_in_thread

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "docs/examples/omens/worked-example.toml").read_text(encoding="utf-8")
POSITION = {"players": 4, "hands": {"1": [3, 17], "2": [4, 18], "3": [5, 19], "4": [6, 20]}}
"""An Omens position's tables, as the editor sends them."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(max_seconds=20.0, default_seconds=5.0))) as test_client:
        yield test_client


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- S1: same origin only ----------------------------------------------------------------------


def test_s1_requests_from_another_site_are_refused(client: TestClient) -> None:
    body = {"toml": WORKED}
    for headers in ({"Origin": "http://evil.example"},
                    {"Origin": "http://127.0.0.1:9999"},
                    {"Origin": "null"},
                    {"Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"}):  # another port of the same machine
        reply = client.post("/api/omens/board", json=body, headers=headers)
        assert reply.status_code == 403, headers
        assert "another" in reply.json()["error"]
    # Read or cancel a search, or drop its event stream, from another site: refused too.
    for method, path in (("GET", "/api/jobs/1"), ("DELETE", "/api/jobs/1"),
                         ("POST", "/api/jobs/1/cancel"), ("GET", "/api/jobs/1/events")):
        reply = client.request(method, path, headers={"Sec-Fetch-Site": "cross-site"})
        assert reply.status_code == 403, (method, path)


def test_s1_the_boards_own_requests_and_scripts_are_answered(client: TestClient) -> None:
    host = "testserver"
    ok = client.post("/api/omens/board", json={"toml": WORKED},
                     headers={"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 200
    # A program that is not a browser sends neither header (curl, scripts).
    assert client.post("/api/omens/board", json={"toml": WORKED}).status_code == 200
    # An address typed by the user: Sec-Fetch-Site "none".
    assert client.get("/api", headers={"Sec-Fetch-Site": "none"}).status_code == 200
    # The page itself and its files are served to anyone who asks.
    assert client.get("/", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


def test_s1_a_body_must_be_json(client: TestClient) -> None:
    """The types a page elsewhere may send without asking first (a "simple" request) are
    refused: text, forms."""
    text = json.dumps({"toml": WORKED})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        reply = client.post("/api/omens/board", content=text, headers={"Content-Type": kind})
        assert reply.status_code == 415, kind
        assert "application/json" in reply.json()["error"]
    typed = client.post("/api/omens/board", content=text,
                        headers={"Content-Type": "application/json; charset=utf-8"})
    assert typed.status_code == 200
    # The page's beacon that cancels a search on leaving has no body: answered.
    assert client.post("/api/jobs/none/cancel").status_code == 404


def test_s1_an_empty_form_from_a_browser_that_names_no_origin_starts_nothing(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An older browser's form sends neither Origin nor Sec-Fetch-Site; empty, it asked a
    puzzle's solution and generated a puzzle with the defaults (200, a search run each)."""
    started: list[str] = []
    monkeypatch.setattr(client.app.state.api.jobs, "start",  # type: ignore[attr-defined]
                        lambda kind, *_: started.append(kind))
    for path in ("/api/puzzles/generate", "/api/puzzles/omens/harmony/solution",
                 "/api/omens/deal", "/api/jobs/none/cancel"):
        for kind in ("text/plain", "application/x-www-form-urlencoded",
                     "multipart/form-data; boundary=x"):
            reply = client.post(path, content=b"", headers={"Content-Type": kind})
            assert reply.status_code == 415, (path, kind, reply.text)
            assert "application/json" in reply.json()["error"]
    assert started == []
    # The page's beacon names no type and sends no body: answered.
    assert client.post("/api/jobs/none/cancel").status_code == 404


def test_s1_job_ids_cannot_be_guessed(client: TestClient) -> None:
    started = client.post("/api/omens/solve", json={"toml": WORKED, "seconds": 1})
    assert started.status_code == 200
    job = started.json()["id"]
    assert not job.isdigit() and len(job) >= 16
    client.delete(f"/api/jobs/{job}")


# -- H1 and C1: what a body may be --------------------------------------------------------------


def test_h1_bodies_are_parsed_off_the_event_loop(client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = guard.parse_body

    def recording(raw: bytes, content_type: str | None) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return real(raw, content_type)

    monkeypatch.setattr("omen_solver.web.app.parse_body", recording)
    assert client.post("/api/omens/board", json={"toml": WORKED}).status_code == 200
    assert threads and all("AnyIO worker thread" in name for name in threads), threads


def test_h1_a_deeply_nested_position_is_refused_at_once(client: TestClient) -> None:
    """5.7 KB of nesting took 0.7-1.5 s of the event loop before; refused now in the worker
    thread, before any position code runs."""
    deep = '{"position": ' + '{"a": ' * 2_000 + "1" + "}" * 2_000 + "}"
    reply = client.post("/api/omens/position", content=deep,
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 400
    assert "more than 64 deep" in reply.json()["error"]


def test_c1_hostile_json_is_400_never_500(client: TestClient) -> None:
    cases = {
        "nested 1,000 deep": _nested(1_000),
        "nested 65 deep": '{"toml": ' + _nested(64) + "}",
        "NaN": '{"toml": "x", "seconds": NaN}',
        "Infinity": '{"seconds": Infinity}',
        "an integer of 5,000 digits": '{"seed": ' + "9" * 5_000 + "}",
        "a float of 5,000 digits": '{"seed": 1.' + "5" * 5_000 + "}",
        "not UTF-8": b'{"toml": "\xff"}',
    }
    for name, body in cases.items():
        for path in ("/api/omens/board", "/api/omens/position", "/api/omens/deal"):
            reply = client.post(path, content=body, headers={"Content-Type": "application/json"})
            assert reply.status_code == 400, (name, path, reply.text)
            assert "\n" not in reply.json()["error"]


def test_c1_null_in_a_position_names_the_key(client: TestClient) -> None:
    position = {**POSITION, "hands": {"1": [3, None], "2": [4, 18], "3": [5, 19],
                                      "4": [6, 20]}}
    reply = client.post("/api/omens/position", json={"position": position})
    assert reply.status_code == 400
    assert reply.json()["error"] == ("'position'.hands.1[2]: null is not a value a position "
                                     "file can hold")
    for path in ("/api/omens/board", "/api/omens/solve"):
        assert client.post(path, json={"position": {"players": None}}).status_code == 400


def test_c1_a_huge_since_is_400(client: TestClient) -> None:
    started = client.post("/api/omens/solve", json={"toml": WORKED, "seconds": 1}).json()
    try:
        reply = client.get(f"/api/jobs/{started['id']}", params={"since": "9" * 5_000})
        assert reply.status_code == 400
        assert "'since'" in reply.json()["error"]
        assert client.get(f"/api/jobs/{started['id']}", params={"since": "0"}).status_code == 200
    finally:
        client.delete(f"/api/jobs/{started['id']}")


# -- W1 and K2 ------------------------------------------------------------------------------


def test_w1_a_deal_is_a_position_the_board_accepts(client: TestClient) -> None:
    bad = client.post("/api/omens/deal", json={"seed": 3, "scope": "bogus"})
    assert bad.status_code == 400
    assert "scope" in bad.json()["error"]
    dealt = client.post("/api/omens/deal", json={"seed": 3, "scope": "game"})
    assert dealt.status_code == 200
    position = dealt.json()["position"]
    assert position["scope"] == "game"
    assert client.post("/api/omens/position", json={"position": position}).status_code == 200


def test_c1_a_deal_s_fields_of_any_json_type_are_400(client: TestClient) -> None:
    """A list or a table where the deal's phase is named answered 500 (a dictionary was asked
    for a key that cannot be one)."""
    for field in ("phase", "players", "seed", "preset", "rules", "scope"):
        for value in ([], {}, [1, "a"], {"a": 1}, None, True, 1.5):
            if (field, value) in (("rules", {}), ("scope", None)):
                continue  # no options overridden; no scope given
            reply = client.post("/api/omens/deal", json={field: value})
            assert reply.status_code == 400, (field, value, reply.text)
            assert f"'{field}'" in reply.json()["error"] or field in reply.json()["error"]


def test_c1_a_hint_for_a_position_with_no_stated_answer_is_400(client: TestClient) -> None:
    """A position that is not a puzzle (no stated best action) answered 500."""
    reply = client.post("/api/puzzles/hint", json={"toml": WORKED})
    assert reply.status_code == 400, reply.text
    assert "states no answer" in reply.json()["error"]


def test_k2_a_bad_number_of_seconds_is_400(client: TestClient) -> None:
    for seconds in (-1, 0, "5", True, None):
        body: dict[str, Any] = {"toml": WORKED}
        if seconds is not None:
            body["seconds"] = seconds
        reply = client.post("/api/omens/solve", json=body)
        if seconds is None:
            assert reply.status_code == 200
            client.delete(f"/api/jobs/{reply.json()['id']}")
            continue
        assert reply.status_code == 400, seconds
        assert "'seconds'" in reply.json()["error"]
    assert client.get("/api/jobs/no-such-job").status_code == 404


# -- a real server: clients that leave (H3, K5), the names it answers (K3) ---------------------


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Any]]:
    """The server in a thread of this process: its address and its API object."""
    pytest.importorskip("uvicorn")
    app = create_app(Limits(max_seconds=30.0, default_seconds=10.0, max_jobs=1),
                     allowed_hosts=["127.0.0.1", "localhost"])
    with served_in_thread(app) as port:
        yield f"127.0.0.1:{port}", app.state.api


def _send(address: str, path: str, body: bytes, declared: int | None = None) -> socket.socket:
    host, port = address.split(":")
    connection = socket.create_connection((host, int(port)), timeout=10)
    head = (f"POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body) if declared is None else declared}\r\n\r\n")
    connection.sendall(head.encode("ascii") + body)
    return connection


def _wait(condition: Any, seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


FULL_ROUND = """game = "omens"
players = 6
teams = [[1, 2], [3, 4], [5, 6]]
scope = "round"

[hands]
1 = [3, 11, 18, 32]
2 = [9, 23, 28, 33]
3 = [6, 8, 17, 35]
4 = [2, 10, 22, 30]
5 = [5, 12, 19, 34]
6 = [14, 20, 27, 31]

[bout]
leader = 3
"""
"""A whole round of six players: no search answers it in 30 s."""
LONG_ENDGAME = re.sub(
    r"\[search\][^\[]*", "[search]\nturns = 6\n\n",
    (ROOT / "puzzles/omen/endgame-wealth-for-a-veteran.toml").read_text(encoding="utf-8"))
"""An Omen endgame searched over six turns: no search answers it in 30 s."""


@pytest.mark.parametrize(("path", "body"), [
    pytest.param("/api/puzzles/generate", {"players": 6, "seed": 11, "seconds": 30},
                 id="generate"),
    pytest.param("/api/puzzles/try", {"toml": FULL_ROUND, "move": "3:6", "seconds": 30},
                 id="puzzle-try"),
    pytest.param("/api/puzzles/solution", {"toml": FULL_ROUND, "seconds": 30},
                 id="solution"),
    pytest.param("/api/omen/endgame", {"toml": LONG_ENDGAME, "seconds": 30},
                 id="omen-endgame"),
])
def test_h3_a_client_that_leaves_stops_its_search(served: tuple[str, Any], path: str,
                                                  body: dict[str, Any]) -> None:
    """A search of 30 s (a puzzle generated, a move tried, a solution asked, an Omen endgame),
    and the client leaves after a moment: its search is cancelled, and the server's one search
    slot takes the next search at once (each ran its whole budget before)."""
    address, api = served
    connection = _send(address, path, json.dumps(body).encode())
    assert _wait(lambda: len(api.jobs.running()) == 1, 10)
    job = api.jobs.running()[0]
    connection.close()
    assert _wait(lambda: job.finished, 10), "the search went on after its client left"
    assert job.cancelled
    request = urllib.request.Request(
        f"http://{address}/api/omens/solve", data=json.dumps({"toml": WORKED}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        started = json.loads(reply.read())
    api.jobs.cancel(started["id"])


def test_k5_a_client_that_drops_mid_body_leaves_no_traceback(
        served: tuple[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    address, _ = served
    caplog.set_level(logging.ERROR)
    for _ in range(5):
        _send(address, "/api/omens/board", b'{"toml": "', declared=10_000).close()
    time.sleep(1.0)  # time for the server to see the connections drop (nothing to wait on)
    with urllib.request.urlopen(f"http://{address}/api", timeout=10) as reply:
        assert reply.status == 200
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture
def serve_on() -> Iterator[Any]:
    """``omen-solver serve`` with options, as a process; yields a function that starts it."""
    pytest.importorskip("uvicorn")
    processes: list[subprocess.Popen[str]] = []

    def start(*options: str) -> tuple[int, subprocess.Popen[str]]:
        port = _free_port()
        process = subprocess.Popen([sys.executable, "-m", "omen_solver", "serve", "--port",
                                    str(port), *options], stderr=subprocess.PIPE, text=True,
                                   cwd=ROOT)
        processes.append(process)
        return port, process

    yield start
    for process in processes:
        process.terminate()
        process.wait(10)
        if process.stderr is not None and not process.stderr.closed:
            process.stderr.close()


def _get(url: str, host: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    for _ in range(100):
        try:
            with urllib.request.urlopen(request, timeout=2) as reply:
                return int(reply.status)
        except urllib.error.HTTPError as refused:
            refused.close()
            return int(refused.code)
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{url}: no answer")


def test_k3_the_printed_address_answers(serve_on: Any) -> None:
    """``--host 127.0.0.2``: the URL printed is one the server answers (it refused every
    request there before: the name was not among those it answered)."""
    port, _ = serve_on("--host", "127.0.0.2")
    assert _get(f"http://127.0.0.2:{port}/api") == 200
    assert _get(f"http://127.0.0.2:{port}/api", host="evil.example") == 400


def test_k3_every_address_keeps_the_host_check_and_says_so(serve_on: Any) -> None:
    port, process = serve_on("--host", "0.0.0.0", "--allow-host", "board.example")
    assert _get(f"http://127.0.0.1:{port}/api") == 200
    assert _get(f"http://127.0.0.1:{port}/api", host="board.example") == 200
    assert _get(f"http://127.0.0.1:{port}/api", host="evil.example") == 400
    process.terminate()
    _, err = process.communicate(timeout=10)
    assert "warning: listening on 0.0.0.0" in err and "board.example" in err


def test_k4_options_that_leave_no_search_able_to_run_are_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    for options, said in ((["--max-searches", "0"], "at least 1"),
                          (["--max-memory", "0"], "at least 256 MiB"),
                          (["--max-memory", "10"], "at least 256 MiB")):
        with pytest.raises(SystemExit) as usage:
            main(["serve", *options])
        assert usage.value.code == 2
        assert said in capsys.readouterr().err
    with pytest.raises(Exception, match="max_jobs"):
        Limits(max_jobs=0)
    with pytest.raises(Exception, match="memory_mb"):
        Limits(memory_mb=0)


# -- C1: every field of the solution and Omen routes, of every wrong type ------------------------

OMEN_TOML = (ROOT / "puzzles/omen/endgame-occupation.toml").read_text(encoding="utf-8")
HARMONY = (ROOT / "puzzles/omens/harmony.toml").read_text(encoding="utf-8")
WRONG: tuple[object, ...] = (None, True, 1.5, -1, 0, 10**30, -(10**30), 1e308, "x", "",
                             [], {}, [1, "a"], {"a": 1}, [10**30])
"""A value of each JSON type, and numbers far out of range."""

FIELDS: dict[str, tuple[dict[str, Any], dict[str, tuple[object, ...]]]] = {
    "/api/puzzles/solution": ({"toml": HARMONY}, {"toml": (), "text": (), "position": (),
                                                  "seconds": (None, 1.5, 10**30, 1e308)}),
    "/api/puzzles/omens/harmony/solution": ({}, {"seconds": (None, 1.5, 10**30, 1e308)}),
    "/api/puzzles/omen/endgame-occupation/solution": ({}, {"seconds": (None, 1.5, 10**30, 1e308)}),
    "/api/omen/board": ({"toml": OMEN_TOML}, {"toml": (), "text": (), "position": (),
                                              "moves": (None, [])}),
    "/api/omen/endgame": ({"toml": OMEN_TOML}, {"toml": (), "text": (), "position": (),
                                                "moves": (None, []), "seat": (None,),
                                                "seconds": (None, 1.5, 10**30, 1e308)}),
}
"""Each route, a body it answers, and its fields with the values of :data:`WRONG` that are
right for it (no moves, no seat or seconds: the defaults; a number of seconds, however
large: the server caps it, serve --max-seconds)."""


def _refused(reply: Any, where: object) -> None:
    assert 400 <= reply.status_code < 500, (where, reply.status_code, reply.text)
    error = reply.json()["error"]
    assert error and "\n" not in error and "Traceback" not in error, (where, error)


def test_c1_fields_of_the_solution_and_omen_routes_of_any_type_are_4xx(
    client: TestClient,
) -> None:
    """A field of the wrong type, a number far out of range or a key left out is answered
    4xx with one line naming what is wrong, never 500 (docs/robustness.md, "The web
    server"): the puzzle solution routes, ``/api/omen/board`` and ``/api/omen/endgame``."""
    for path, (base, right) in FIELDS.items():
        for field, allowed in right.items():
            for value in WRONG:
                if value in allowed and type(value) in {type(a) for a in allowed}:
                    continue
                body = {**{k: v for k, v in base.items()
                           if field not in ("toml", "text", "position")}, field: value}
                _refused(client.post(path, json=body), (path, field, value))
        if base:  # the position left out
            _refused(client.post(path, json={}), (path, "no position"))
    for path in ("/api/puzzles/omens/no-such/solution", "/api/puzzles/chess/harmony/solution"):
        _refused(client.post(path, json={}), path)
