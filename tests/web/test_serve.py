"""``omen-solver serve``: the web stack is imported lazily; without the extra the command says
how to install it (exit 2); the server binds to localhost and answers only local names."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_command_line_does_not_import_the_web_stack() -> None:
    code = ("import sys; from omen_solver.cli import build_parser; build_parser(); "
            "sys.exit(1 if {'starlette', 'uvicorn'} & set(sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_serve_without_the_extra_exits_2(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec

    def missing(name: str, *args: Any) -> Any:
        return None if name in ("starlette", "uvicorn") else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", missing)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    # docs/web.md: the extra named in the words of every command (core/extras.require)
    assert ("serve: needs the 'web' extra (starlette is not installed): pip install "
            "'omen-solver[web]'") in err
    assert err.count("\n") == 1


def test_serve_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as usage:
        main(["serve", "--port", "70000"])
    assert usage.value.code == 2
    assert "a port is a number from 1 to 65535" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert "cannot listen there" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server() -> Iterator[str]:
    pytest.importorskip("uvicorn")
    port = _free_port()
    code = "import sys; from omen_solver.cli import main; sys.exit(main(sys.argv[1:]))"
    process = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(port)],
                               stderr=subprocess.DEVNULL, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/api", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def test_serve_answers_on_localhost(server: str) -> None:
    with urllib.request.urlopen(f"{server}/", timeout=5) as page:
        assert b"omen-solver" in page.read()
    with urllib.request.urlopen(f"{server}/static/app.js", timeout=5) as script:
        assert script.headers["content-type"].startswith(("text/javascript",
                                                          "application/javascript"))
    # A request naming another host (a page of another site that resolves to this machine)
    # is refused.
    request = urllib.request.Request(f"{server}/api", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 400
    refused.value.close()
