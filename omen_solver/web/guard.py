"""What the server checks before a request reaches a handler (``docs/web.md``, "Safety";
``docs/robustness.md``, "The web server").

* **Same origin only.** The API answers the board's own page, and programs that are not
  browsers (``curl``, scripts). A browser names the page a request comes from: its
  ``Sec-Fetch-Site`` header (anything but ``same-origin``, or ``none`` for an address typed
  by the user, is another site) and, on a POST, its ``Origin`` (which must be this server, as
  the request's ``Host`` names it). A request from another site is refused with 403 before
  anything is read, so that no page elsewhere can start, read or cancel a search.
* **JSON bodies.** A request body must say it is JSON (``Content-Type: application/json``):
  the types a page on another site may send without asking first (text, forms) are refused
  with 415, with a body or without (an older browser's form sends neither header above, and
  an empty form would still start a search with its defaults); a request that names no type
  and sends no body (the page's beacon) is answered.
* **Bodies parsed off the event loop, within limits.** :func:`parse_body` runs in a worker
  thread; JSON nested deeper than :data:`MAX_JSON_DEPTH`, numbers of more than
  :data:`MAX_DIGITS` digits, ``NaN`` and the infinities are refused with one line (400), so
  that no request makes the server spend seconds, or fail, on its shape.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final
from urllib.parse import urlsplit

from omen_solver.core.files import json_depth
from omen_solver.errors import RequestError, shown

__all__ = ["MAX_DIGITS", "MAX_JSON_DEPTH", "SameOrigin", "check_tables", "parse_body",
           "whole_number"]

MAX_JSON_DEPTH: Final = 64
"""Arrays and objects nested at most this deep in a request (the page's: under 6)."""

MAX_DIGITS: Final = 1000
"""Digits a number in a request may have (as on the command line)."""

_BODY_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class SameOrigin:
    """ASGI middleware: requests under ``/api`` from another site are refused (403)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api"):
            refused = cross_site(scope)
            if refused is not None:
                await _answer(send, 403, refused)
                return
            typed = _headers(scope).get("content-type")
            if scope["method"] in _BODY_METHODS and typed is not None and not is_json(typed):
                # A form or text, even empty: what a page elsewhere may send without asking
                # first, and an older browser may send with neither header above.
                await _answer(send, 415, _not_json(typed))
                return
        await self.app(scope, receive, send)


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in scope.get("headers", [])}


def cross_site(scope: Scope) -> str | None:
    """Why a request comes from another site (its browser says so), or ``None``."""
    headers = _headers(scope)
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return (f"a request from another site (Sec-Fetch-Site: {fetch_site}) is refused: the "
                "board's API answers its own page only")
    origin = headers.get("origin")
    if origin is not None and (scope["method"] in _BODY_METHODS or fetch_site is not None):
        host = headers.get("host", "").lower()
        parts = urlsplit(origin.strip())
        if origin.strip() == "null" or parts.scheme not in ("http", "https") or (
                parts.netloc.lower() != host):
            return (f"a request from another page (Origin: {origin[:100]}) is refused: the "
                    "board's API answers its own page only")
    return None


async def _answer(send: Send, status: int, error: str) -> None:
    body = json.dumps({"error": error}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode("ascii"))]})
    await send({"type": "http.response.body", "body": body})


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` says JSON (``application/json``, any parameters)."""
    if content_type is None:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/")
                                          and kind.endswith("+json"))


def _not_json(content_type: str | None) -> str:
    return (f"the request body must be JSON (Content-Type: application/json), not "
            f"{shown((content_type or 'untyped')[:100])}")


def _no_constant(name: str) -> Any:
    raise RequestError(f"the request body holds {name}, which no value of a position or of a "
                       "request is")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RequestError(f"the request body holds a number of {len(text):,} digits (at most "
                           f"{MAX_DIGITS:,})")
    return int(text)


def _decimal(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise RequestError(f"the request body holds a number of {len(text):,} characters (at "
                           f"most {MAX_DIGITS:,})")
    value = float(text)
    if not math.isfinite(value):
        raise RequestError(f"the request body holds {shown(text[:40])}, too large a number")
    return value


def parse_body(raw: bytes, content_type: str | None) -> dict[str, Any]:
    """A request body as a JSON object (empty: ``{}``), or :class:`RequestError`: not JSON by
    its type or its text, nested too deeply, numbers too long, ``NaN``. Meant for a worker
    thread: at the size cap (256 KiB) it takes a few milliseconds."""
    if not raw.strip():
        return {}
    if not is_json(content_type):
        raise UnsupportedType(_not_json(content_type))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise RequestError(f"the request body is not UTF-8: byte {problem.start + 1}") from None
    try:
        data = json.loads(text, parse_int=_integer, parse_float=_decimal,
                          parse_constant=_no_constant)
    except json.JSONDecodeError as problem:
        raise RequestError(f"the request body is not JSON: {problem}") from None
    except RecursionError:
        data = None
        too_deep = True
    else:
        too_deep = json_depth(data, MAX_JSON_DEPTH) > MAX_JSON_DEPTH
    if too_deep:
        raise RequestError(f"the request body nests arrays and objects more than "
                           f"{MAX_JSON_DEPTH} deep")
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    return data


class UnsupportedType(RequestError):
    """A body that does not say it is JSON (answered 415)."""


def check_tables(value: Any, where: str) -> None:
    """Refuse in a position's tables what no TOML file can hold (``null``), naming the key."""
    todo: list[tuple[Any, str]] = [(value, where)]
    while todo:
        item, path = todo.pop()
        if item is None:
            raise RequestError(f"{path}: null is not a value a position file can hold")
        if isinstance(item, dict):
            todo.extend((child, f"{path}.{key}") for key, child in item.items())
        elif isinstance(item, list):
            todo.extend((child, f"{path}[{index + 1}]") for index, child in enumerate(item))


def whole_number(text: str, name: str) -> int:
    """A whole number from a query string (at most 18 digits)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise RequestError(f"{name!r}: a whole number from 0, not {shown(text[:40])}")
    return int(text)
