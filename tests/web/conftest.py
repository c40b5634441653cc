"""Fixtures of the browser tests: the board served on a free local port, and Debian's
Chromium driven headless by Playwright (never a downloaded browser). Where Chromium or
Playwright is missing the browser tests are skipped with the reason; ``.ci/run`` installs
Chromium so CI always runs them."""

from __future__ import annotations

import base64
import json
import shutil
import socket
import tempfile
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served_in_thread(app: Any, log_level: str = "warning") -> Iterator[int]:
    """``app`` served by uvicorn on a free local port in a thread of this process (the port
    is yielded once the server has started); the server stops when the block ends."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level=log_level, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def board_url() -> Iterator[str]:
    """The board served by uvicorn in a thread of this process."""
    pytest.importorskip("uvicorn")
    from omen_solver.web.app import create_app
    from omen_solver.web.jobs import Limits

    app = create_app(Limits(max_seconds=20.0, default_seconds=10.0),
                     allowed_hosts=["127.0.0.1", "localhost"])
    with served_in_thread(app) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium with a fresh profile folder."""
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium "
                    "(apt-get install chromium; .ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="browser tests need Playwright (pip install playwright)")
    profile = tempfile.mkdtemp(prefix="omen-solver-chromium-")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800},
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


EXPECTED_CONSOLE = "the server responded with a status of 400"
"""The one console error a page may show: bad input answered 400 (its message is on the page)."""


@pytest.fixture
def page(browser: Any, board_url: str) -> Iterator[Any]:
    """A fresh page; at its end, no script error and no console error (but a 400 answer to
    bad input, which the page itself reports)."""
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(f"console: {message.text}") if (
        message.type == "error" and EXPECTED_CONSOLE not in message.text) else None)
    page.set_default_timeout(15_000)
    yield page
    page.close()
    assert errors == [], f"errors on the page: {errors}"


def link(toml: str, moves: list[str] | None = None, tree: list[Any] | None = None) -> str:
    """The board's short link (``#omens=z...``): the position and moves (and the move tree,
    each node ``[move, children...]``), deflated."""
    data: dict[str, Any] = {"t": toml, "m": moves or []}
    if tree is not None:
        data["v"] = tree
    payload = json.dumps(data).encode()
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = compressor.compress(payload) + compressor.flush()
    return "#omens=z" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def read_link(address: str) -> dict[str, Any]:
    """What a board link holds: ``t`` (the position), ``m`` (the moves to the node shown)
    and, with side lines, ``v`` (the move tree)."""
    code = address.split("#omens=", 1)[1]
    assert code[0] == "z", address
    packed = base64.urlsafe_b64decode(code[1:] + "=" * (-len(code[1:]) % 4))
    data: dict[str, Any] = json.loads(zlib.decompress(packed, -15))
    return data


ROOT = Path(__file__).resolve().parents[2]
HEAD = 'game = "omens"\nplayers = 4\nteams = [[1, 3], [2, 4]]\n'


def open_board(page: Any, url: str, toml: str | None = None,
               moves: list[str] | None = None, tree: list[Any] | None = None) -> None:
    page.goto(url + (link(toml, moves, tree) if toml else ""))
    page.wait_for_selector('body[data-ready="1"]')


def moves_shown(page: Any) -> list[str]:
    """The moves from the start to the node shown: the file's own, then the tree's path."""
    own = page.eval_on_selector_all("#move-list .mv.file",
                                    "nodes => nodes.map(n => n.dataset.move)")
    path = page.eval_on_selector(
        "#move-list .mv.current", "node => JSON.parse(node.dataset.path)")
    return [*own, *path]
