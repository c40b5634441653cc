"""The one-line text of an Omen position (``docs/position-text.md``): a position file's data
on one line::

    omen reign-of-war turn=27 step=war 1.coins=3 1.hand=seer 2.coins=2 2.hand=augur
        c1=ambrosia,?/cyclops,hoplite/hoplite,spearman,augur c1.relic=aegis@1 deck.top=seer

(one line). The first word names the game, the second the profile (``docs/omen-profiles.md``),
and each further word is ``key=value`` (a flag alone: ``over``). Every key stands for a key of
the position file (``docs/omen.md``): ``turn``, ``active``, ``step`` for ``[turn]``;
``SEAT.KEY`` for ``[seat.SEAT]``; ``cN=REWARDS/SEAT1/SEAT2`` for the N-th ``[[city]]`` (a
unit ``card!`` is Enraged, ``card*`` has used its ability this step); ``deck.KEY``,
``pool.KEY`` and ``search.KEY`` for those tables; ``stack`` for the pieces of a turn in
progress; the rule options by name. So the text is read by the file's one reader
(:func:`omen_solver.omen.position.state_from_data`) and written from the file's data
(:func:`omen_solver.omen.position.position_data`). Lists are written with ``,`` (``-``: none).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from omen_solver.core.values import quoted, split_line, unquoted, word_pairs
from omen_solver.errors import PositionError, shown
from omen_solver.omen.rules import DEFAULT_PROFILE, option_specs

__all__ = ["GAME_WORD", "data_from_text", "text_from_data", "text_key"]

GAME_WORD: Final = "omen"

_OPTIONS: Final = frozenset(option_specs())


def _list(text: str) -> list[str]:
    return [] if text in ("", "-") else text.split(",")


def _list_text(items: list[Any]) -> str:
    return ",".join(map(str, items)) or "-"


def _integer(text: str) -> int | str:
    stripped = text.lstrip("-")
    if stripped.isascii() and stripped.isdigit() and len(stripped) < 10:
        return int(text)
    return text


def _flag(text: str) -> bool | str:
    return {"": True, "true": True, "false": False}.get(text, text)


def _flag_text(value: Any) -> str | None:
    return None if value is True else ("false" if value is False else str(value))


def _pair(text: str) -> list[int | str]:
    return [_integer(part) for part in text.split(",")]


Reader = Callable[[str], Any]
Writer = Callable[[Any], "str | None"]

_TURN: Final[dict[str, tuple[str, Reader, Writer]]] = {
    "turn": ("number", _integer, str),
    "active": ("active", _integer, str),
    "step": ("step", str, str),
    "first": ("first", _flag, _flag_text),
    "reward_used": ("reward_used", _flag, _flag_text),
    "supply": ("supply", _integer, str),
    "tokens": ("vp_tokens", _integer, str),
    "forced": ("forced", _pair, _list_text),
    "challenge_done": ("challenge_done", _flag, _flag_text),
    "cost": ("cost_change", _pair, _list_text),
}
"""The text's keys for ``[turn]``: the file key, how to read, how to write (``None``: the
key alone, a flag)."""

_SEAT: Final[dict[str, tuple[str, Reader, Writer]]] = {
    "coins": ("coins", _integer, str),
    "tokens": ("vp_tokens", _integer, str),
    **{zone: (zone, _list, _list_text) for zone in (
        "hand", "rewards", "rewards_unused", "rewards_used", "feats", "feats_rotated",
        "challenges", "rituals")},
}
_TABLES: Final[dict[str, tuple[tuple[str, str], Reader, Writer]]] = {
    **{f"deck.{key}": (("deck", key), _list, _list_text)
       for key in ("top", "shuffled", "discard")},
    **{f"pool.{key}": (("pool", key), _list, _list_text)
       for key in ("rewards", "relics", "challenges", "feats", "box")},
    "search.turns": (("search", "turns"), _integer, str),
    "search.draws": (("search", "draws"), str, str),
    "search.margin": (("search", "margin"), _flag, _flag_text),
    "search.reductions": (("search", "reductions"), _list, _list_text),
}
_TOP: Final[dict[str, tuple[str, Reader, Writer]]] = {
    "sets": ("sets", _list, _list_text),
    "cards": ("cards", _list, lambda files: quoted(",".join(files))),
    "replace_cards": ("replace_cards", _flag, _flag_text),
    "over": ("over", _flag, _flag_text),
    "stack": ("stack", str, str),
    "moves": ("moves", lambda text: [m.strip() for m in text.split(",")],
              lambda moves: quoted(",".join(moves))),
    "title": ("title", str, quoted),
    "description": ("description", str, quoted),
}


def _city(data: dict[str, Any], number: int) -> dict[str, Any]:
    cities = data.setdefault("city", [{"rewards": []} for _ in range(3)])
    return dict(cities[number - 1])


def data_from_text(text: str, name: str = "<text>") -> dict[str, Any]:
    """A position file's data from its one-line text (checked by the file's reader)."""
    words = split_line(text, name)
    if not words or words[0] != GAME_WORD:
        raise PositionError(f"{name}: an Omen position's text starts with {GAME_WORD!r}")
    profile = words[1] if len(words) > 1 and "=" not in words[1] else DEFAULT_PROFILE
    rest = words[2:] if len(words) > 1 and "=" not in words[1] else words[1:]
    data: dict[str, Any] = {"game": GAME_WORD, "profile": profile,
                            "city": [{"rewards": []} for _ in range(3)]}
    for key, raw in word_pairs(rest, name):
        value = unquoted(raw, name)
        try:
            _read_key(data, key, value, name)
        except (ValueError, IndexError):
            raise PositionError(f"{name}: {key}={shown(value)}: not a value of {key}") from None
    return data


def _read_key(data: dict[str, Any], key: str, value: str, name: str) -> None:
    head, _, tail = key.partition(".")
    if key in _OPTIONS:
        data.setdefault("rules", {})[key] = value
    elif key in _TURN:
        field, read, _ = _TURN[key]
        data.setdefault("turn", {})[field] = read(value)
    elif head.isdigit() and tail in _SEAT:
        field, read, _ = _SEAT[tail]
        data.setdefault("seat", {}).setdefault(head, {})[field] = read(value)
    elif head[:1] == "c" and head[1:] in ("1", "2", "3") and tail in ("", "relic"):
        city = _city(data, int(head[1:]))
        if tail:
            relic, _, seat = value.partition("@")
            city["relic"] = relic
            if seat:
                city["relic_seat"] = _integer(seat)
        else:
            rewards, seat1, seat2 = value.split("/")
            city.update(rewards=_list(rewards), seat1=_list(seat1), seat2=_list(seat2))
        data["city"][int(head[1:]) - 1] = city
    elif key in _TABLES:
        (table, field), read, _ = _TABLES[key]
        data.setdefault(table, {})[field] = read(value)
    elif key in _TOP:
        field, read, _ = _TOP[key]
        data[field] = read(value)
    else:
        keys = [*_TURN, *(f"SEAT.{k}" for k in _SEAT), "cN", "cN.relic", *_TABLES, *_TOP]
        raise PositionError(f"{name}: {key!r} is not a key of an Omen position's text; the "
                            f"keys: {', '.join(keys)}, and the rule options")


def _word(key: str, text: str | None) -> str:
    return key if text is None else f"{key}={text}"


def text_from_data(data: Mapping[str, Any]) -> str:
    """The one-line text of a position file's data (:func:`data_from_text` reads it back)."""
    words = [GAME_WORD, str(data.get("profile", DEFAULT_PROFILE))]
    for key, (field, _, write) in _TOP.items():
        if key in ("over", "stack", "moves", "title", "description"):
            continue
        if field in data:
            words.append(_word(key, write(data[field])))
    turn = data.get("turn", {})
    words += [_word(key, write(turn[field])) for key, (field, _, write) in _TURN.items()
              if field in turn]
    for seat, table in data.get("seat", {}).items():
        words += [_word(f"{seat}.{key}", write(table[field]))
                  for key, (field, _, write) in _SEAT.items() if field in table]
    for number, city in enumerate(data.get("city", []), start=1):
        sides = [city.get("rewards", []), city.get("seat1", []), city.get("seat2", [])]
        if any(sides):
            words.append(f"c{number}=" + "/".join(map(_list_text, sides)))
        if city.get("relic"):
            words.append(f"c{number}.relic={city['relic']}@{city.get('relic_seat', 1)}")
    for key, ((table, field), _, write) in _TABLES.items():
        if field in data.get(table, {}):
            words.append(_word(key, write(data[table][field])))
    for key in ("over", "stack", "moves", "title", "description"):
        field, _, write = _TOP[key]
        if field in data:
            words.append(_word(key, write(data[field])))
    words += [f"{option}={setting}" for option, setting in data.get("rules", {}).items()]
    if "puzzle" in data:
        raise ValueError("a puzzle's question and answer have no place in a position's text")
    return " ".join(words)


def text_key(key: str) -> str:
    """The key of the text a file key stands for, for messages about a text: ``turn.number``
    is ``turn``, ``seat.1.coins`` is ``1.coins``, ``city[0].seat1[2]`` is ``c1``."""
    head, _, tail = key.partition(".")
    if head == "rules":
        return tail
    if head == "turn":
        field = tail.split("[")[0]
        return next((name for name, (f, _, _) in _TURN.items() if f == field), key)
    if head == "seat" and tail[:1].isdigit():
        seat, _, rest = tail.partition(".")
        field = rest.split("[")[0]
        name = next((n for n, (f, _, _) in _SEAT.items() if f == field), rest)
        return f"{seat}.{name}"
    if head.startswith("city[") and head[5:6].isdigit():
        city = f"c{int(head[5:6]) + 1}"
        return f"{city}.relic" if tail.startswith("relic") else city
    return key
