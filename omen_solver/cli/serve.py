"""``omen-solver serve``: the analysis board in the browser (``docs/web.md``).

The web stack (Starlette, uvicorn) is imported only when the command runs, so the command
line starts as fast without it; without the ``web`` extra the command says how to install it
and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from omen_solver.cli.args import MIB, memory_bytes, seconds, whole_number
from omen_solver.core.extras import EXTRAS, require
from omen_solver.errors import OmenSolverError

MIN_MEMORY_MB = 256
"""The least ``--max-memory``: as ``omen_solver.web.jobs.MIN_MEMORY_MB`` (not imported here, so
that the command line starts without the web stack)."""

__all__ = ["register"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        description="Serve the analysis board: an Omens board with every rule explained, a "
        "position editor, the solver's value of each move, the puzzles, and an Omen board. "
        "Needs the web extra: pip install 'omen-solver[web]'. Binds to localhost unless "
        "--host says otherwise.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"the address to listen on (default {DEFAULT_HOST}: this machine "
                        "only; 0.0.0.0 opens the board to the network)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer requests that reach the server by this name "
                        "(repeatable; by default: the names of the address listened on)")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT,
                        help=f"the port (default {DEFAULT_PORT})")
    parser.add_argument("--open", action="store_true", help="open the board in the browser")
    parser.add_argument("--max-seconds", type=_seconds, default=30.0, metavar="S",
                        help="the longest search a request may ask for (default 30)")
    parser.add_argument("--max-memory", type=_memory, default=2048, metavar="SIZE",
                        help=f"the memory cap of each search process, e.g. 2G, 512M; a bare "
                        f"number is MiB (default 2G, at least {MIN_MEMORY_MB}M)")
    parser.add_argument("--max-searches", type=_searches, default=2, metavar="N",
                        help="searches running at once (default 2, at least 1)")
    parser.add_argument("--puzzles", type=Path, metavar="DIR",
                        help="the folder of puzzles to offer (default: the bundled puzzles/)")
    parser.set_defaults(handler=_serve)


def _port(text: str) -> int:
    value = whole_number(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is a number from 1 to 65535")
    return value


def _memory(text: str) -> int:
    value = memory_bytes(text) // MIB  # as every --max-memory: 2G, 512M, a bare number MiB
    if value < MIN_MEMORY_MB:
        raise argparse.ArgumentTypeError(
            f"{text!r}: at least {MIN_MEMORY_MB} MiB (a search process needs that much to "
            "start; with less no search could run)")
    return value


def _searches(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1 (with 0 no search could run)")
    return value


_seconds = seconds
"""Positive, finite and at most 10**9 (a search's watchdog is a timer of that length)."""


def _names(host: str, extra: list[str]) -> list[str]:
    """The names a request may give in its Host header: those of the address listened on (for
    every address, 0.0.0.0 or ::, this machine's names and addresses), and ``extra``."""
    bare = host.strip("[]")
    names = set(LOCAL_NAMES) | {bare.lower()}
    if bare in ("0.0.0.0", "::", ""):
        found: set[str] = set()
        with contextlib.suppress(OSError):
            found |= {socket.gethostname(), socket.getfqdn()}
        for name in list(found):
            with contextlib.suppress(OSError, UnicodeError):
                found |= {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
        # The address this machine reaches other networks from (nothing is sent).
        for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
            with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.add(str(udp.getsockname()[0]))
        names |= {name.lower() for name in found if name}
    names |= {name.strip().lower() for name in extra if name.strip()}
    bare_names = {name.strip("[]") for name in names} - {"0.0.0.0", ""}
    return sorted({f"[{name}]" if ":" in name else name for name in bare_names})


def _is_local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _check_port(host: str, port: int) -> None:
    """A port already taken is bad input, said in one line (before uvicorn logs it)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host.strip("[]"), port))
    except OSError as error:
        raise OmenSolverError(
            f"--host {host} --port {port}: cannot listen there: {error.strerror or error}"
        ) from None


def _serve(args: argparse.Namespace) -> int:
    for module in EXTRAS["web"]:
        require(module, "web", "serve")
    if args.puzzles is not None and not args.puzzles.is_dir():
        raise OmenSolverError(f"--puzzles {args.puzzles}: no such folder")
    _check_port(args.host, args.port)
    import uvicorn

    from omen_solver.web.app import create_app
    from omen_solver.web.jobs import Limits

    limits = Limits(max_seconds=args.max_seconds,
                    default_seconds=min(10.0, args.max_seconds),
                    memory_mb=args.max_memory, max_jobs=args.max_searches)
    local = _is_local(args.host)
    hosts = _names(args.host, args.allow_host)
    app = create_app(limits, puzzles=args.puzzles, allowed_hosts=hosts)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else shown}:{args.port}/"
    print(f"omen-solver: the board is at {url} (Ctrl-C stops the server)", file=sys.stderr)
    if not local:
        print(f"omen-solver: warning: listening on {args.host}: anyone who can reach this "
              "machine can use the board and its searches; requests are answered when they "
              f"name the server as {', '.join(hosts)} (--allow-host NAME adds a name)",
              file=sys.stderr)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server = _server(uvicorn, uvicorn.Config(app, host=args.host, port=args.port,
                                             log_level="warning"))
    server.run()
    # uvicorn shut down on Ctrl-C or SIGTERM (the searches with it); the signal is raised
    # again here, outside its event loop, so that the command line answers it as any command
    # (130 or 143, one line) instead of a traceback of the loop's tasks.
    for signum in server.stopped_by:
        signal.raise_signal(signum)
    return 0


def _server(uvicorn: Any, config: Any) -> Any:
    """A uvicorn server that keeps the signals which stopped it (``stopped_by``) instead of
    raising them again inside its event loop."""

    class Server(uvicorn.Server):  # type: ignore[misc]
        def __init__(self, config: Any) -> None:
            super().__init__(config)
            self.stopped_by: list[int] = []

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # While uvicorn answers the signals, the command line's watcher must not see
            # them too: it turns SIGTERM into a SIGINT, which uvicorn takes for a second
            # Ctrl-C and a forced exit.
            watched = signal.set_wakeup_fd(-1)
            try:
                with super().capture_signals():
                    try:
                        yield
                    finally:
                        captured = getattr(self, "_captured_signals", None)
                        if isinstance(captured, list):
                            self.stopped_by = list(reversed(captured))
                            captured.clear()
            finally:
                signal.set_wakeup_fd(watched)

    return Server(config)
