"""A page on another site, open in the same browser as the board, can neither start nor cancel
a search (docs/web.md, "Safety"; the S1 defect of a fault run: the server took cross-site
``text/plain`` POSTs on every route).

The other site is a page served on another port of this machine (another origin, the same
"site" as the board for the browser: the closest a test gets to a site elsewhere). It sends
what a page may send without asking first (a ``no-cors`` POST of text), and a JSON POST the
browser must ask about first (a preflight, never granted); the board's server starts no
search for either, while the board's own page goes on working (``test_browser.py``)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "docs/examples/omens/worked-example.toml").read_text(encoding="utf-8")

_ATTACK = """<!doctype html><title>elsewhere</title><script>
const board = %(board)s;
const body = JSON.stringify({toml: %(toml)s, seconds: 20});
const tries = [
  fetch(board + "api/omens/solve", {method: "POST", mode: "no-cors",
        headers: {"Content-Type": "text/plain"}, body}),
  fetch(board + "api/omens/solve", {method: "POST",
        headers: {"Content-Type": "application/json"}, body}),
  fetch(board + "api/jobs/1/cancel", {method: "POST", mode: "no-cors"}),
];
Promise.allSettled(tries).then((done) => {
  document.title = "done " + done.map((d) => d.status).join(",");
});
</script>"""


@pytest.fixture(scope="module")
def served_board() -> Iterator[tuple[str, Any]]:
    """The board in a thread of this process: its address and its API object."""
    pytest.importorskip("uvicorn")
    from omen_solver.web.app import create_app
    from omen_solver.web.jobs import Limits
    from tests.web.conftest import served_in_thread

    app = create_app(Limits(max_seconds=20.0, default_seconds=10.0),
                     allowed_hosts=["127.0.0.1", "localhost"])
    with served_in_thread(app, log_level="critical") as port:
        yield f"http://127.0.0.1:{port}/", app.state.api


@pytest.fixture
def elsewhere(served_board: tuple[str, Any]) -> Iterator[str]:
    """The other site's page, on a port of its own."""
    board, _ = served_board
    page = (_ATTACK % {"board": json.dumps(board), "toml": json.dumps(WORKED)}).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_a_page_elsewhere_starts_and_cancels_nothing(
        browser: Any, served_board: tuple[str, Any], elsewhere: str) -> None:
    _, api = served_board
    page = browser.new_page()
    try:
        page.goto(elsewhere)
        page.wait_for_function("document.title.startsWith('done')", timeout=15_000)
    finally:
        page.close()
    assert api.jobs.running() == [] and api.jobs._jobs == {}


def test_the_boards_own_page_still_starts_a_search(
        browser: Any, served_board: tuple[str, Any]) -> None:
    """The same POST from the board's page (same origin) is answered."""
    board, api = served_board
    page = browser.new_page()
    try:
        page.goto(board)
        started = page.evaluate(
            """async (toml) => {
                 const r = await fetch("/api/omens/solve", {method: "POST",
                     headers: {"Content-Type": "application/json"},
                     body: JSON.stringify({toml, seconds: 2})});
                 return [r.status, await r.json()];
               }""", WORKED)
    finally:
        page.close()
    assert started[0] == 200, started
    api.jobs.cancel(started[1]["id"])
