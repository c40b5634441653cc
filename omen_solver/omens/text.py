"""The one-line text of an Omens position (``docs/position-text.md``): a position file's data
on one line, like a chess FEN::

    omens 7,15,30/3,9,28/12,13,22/5,14,26 teams=1,3/2,4 lead=1 play=15@1 played=1 law=15:lower

The first word names the game, the second gives the hands (seats in order, separated by
``/``; cards by ``,``; ``-`` for an empty hand), and each further word is ``key=value``. Every
key stands for a key of the position file (:data:`KEYS`), so the text is read by the file's
one reader (:func:`omen_solver.omens.position.parse_position`) and written from the file's
data (:func:`omen_solver.omens.position.position_data`): one parser, one writer, whatever the
form. Seats are counted from 1; a card is its value or its name (``Law``, any case).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from omen_solver.core.values import quoted, split_line, unquoted, word_pairs
from omen_solver.errors import PositionError, shown
from omen_solver.omens.rules import option_specs

__all__ = ["GAME_WORD", "KEYS", "data_from_text", "text_from_data", "text_key"]

GAME_WORD: Final = "omens"


def _cards(text: str) -> list[int | str]:
    """Cards written ``7,15,Law`` (``-``: none)."""
    if text in ("", "-"):
        return []
    return [_number(word) for word in text.split(",")]


def _cards_text(cards: list[Any]) -> str:
    return ",".join(map(str, cards)) or "-"


def _number(text: str) -> int | str:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else text


def _numbers(text: str) -> list[int | str]:
    return [] if text in ("", "-") else [_number(word) for word in text.split(",")]


def _groups(text: str) -> list[list[int | str]]:
    return [_numbers(part) for part in text.split("/")]


def _groups_text(groups: list[list[Any]]) -> str:
    return "/".join(",".join(map(str, group)) or "-" for group in groups)


def _in_play(text: str) -> list[list[int | str]]:
    """``15@1,9@3<1``: card 15 in front of seat 1; card 9 in front of seat 3, placed by 1."""
    placed = []
    for word in text.split(","):
        card, _, rest = word.partition("@")
        before, _, by = rest.partition("<")
        placed.append([_number(card), _number(before), *([_number(by)] if by else [])])
    return placed


def _in_play_text(front: list[list[Any]]) -> str:
    return ",".join(f"{item[0]}@{item[1]}" + (f"<{item[2]}" if len(item) == 3 else "")
                    for item in front)


def _pairs(text: str) -> list[list[int | str]]:
    return [[_number(part) for part in word.split(":")] for word in text.split(",") if word]


def _pairs_text(pairs: list[list[Any]]) -> str:
    return ",".join(":".join(map(str, pair)) for pair in pairs)


def _outcome(text: str) -> dict[str, Any]:
    """``win:24@1;discard:4,11,24;next:3;luck:2;pride``."""
    outcome: dict[str, Any] = {"discarded": []}
    names = {"discard": "discarded", "next": "next_leader", "luck": "luck_seat"}
    for part in text.split(";"):
        name, _, value = part.partition(":")
        if name == "pride" and not value:
            outcome["pride"] = True
        elif name == "win":
            card, _, seat = value.partition("@")
            outcome["winning_card"] = _number(card)
            if seat:
                outcome["winner"] = _number(seat)
        elif name == "discard":
            outcome["discarded"] = _cards(value)
        elif name in names:
            outcome[names[name]] = _number(value)
        else:
            outcome[name] = value  # refused by the reader, naming the key
    return outcome


def _outcome_text(outcome: Mapping[str, Any]) -> str:
    parts = []
    if "winning_card" in outcome:
        seat = f"@{outcome['winner']}" if "winner" in outcome else ""
        parts.append(f"win:{outcome['winning_card']}{seat}")
    parts.append(f"discard:{_cards_text(outcome['discarded'])}")
    parts.append(f"next:{outcome['next_leader']}")
    if "luck_seat" in outcome:
        parts.append(f"luck:{outcome['luck_seat']}")
    if outcome.get("pride"):
        parts.append("pride")
    return ";".join(parts)


def _queue(text: str) -> list[list[int | str]]:
    pools = {"a": "absolutes", "m": "main"}
    return [[_number(seat), pools.get(pool, pool)]
            for seat, _, pool in (word.partition(":") for word in text.split(","))]


def _queue_text(queue: list[list[Any]]) -> str:
    return ",".join(f"{seat}:{pool[0]}" for seat, pool in queue)


def _deck(text: str) -> dict[str, Any]:
    absolutes, _, main = text.partition("/")
    return {"absolutes": _cards(absolutes), "main": _cards(main)}


def _later(text: str) -> list[list[list[int | str]]]:
    return [[_cards(hand) for hand in round_.split("/")] for round_ in text.split(";")]


def _later_text(rounds: list[list[list[Any]]]) -> str:
    return ";".join("/".join(_cards_text(hand) for hand in hands) for hands in rounds)


def _integer(text: str) -> int | str:
    return _number(text)


def _text(text: str) -> str:
    return text


Reader = Callable[[str], Any]
Writer = Callable[[Any], str]

KEYS: Final[dict[str, tuple[tuple[str, ...], Reader, Writer]]] = {
    "teams": (("teams",), _groups, _groups_text),
    "lead": (("bout", "leader"), _integer, str),
    "play": (("bout", "in_play"), _in_play, _in_play_text),
    "played": (("bout", "played"), _numbers, lambda seats: ",".join(map(str, seats))),
    "law": (("bout", "law"), lambda t: [_number(t.partition(":")[0]), t.partition(":")[2]],
            lambda law: f"{law[0]}:{law[1]}"),
    "pending": (("bout", "pending"), lambda t: [w.replace(":", " ") for w in t.split(",")],
                lambda items: ",".join(item.replace(" ", ":") for item in items)),
    "moves": (("bout", "moves"), lambda t: [m.strip() for m in t.split(",")],
              lambda moves: quoted(",".join(moves))),
    "phase": (("phase",), _text, str),
    "won": (("rounds_won",), _numbers, lambda won: ",".join(map(str, won))),
    "box": (("box",), _cards, _cards_text),
    "stages": (("end", "stages"), lambda t: t.split(","), ",".join),
    "outcome": (("end", "outcome"), _outcome, _outcome_text),
    "luck": (("end", "luck"), lambda t: _pairs(t)[0], lambda pair: ":".join(map(str, pair))),
    "absolutes": (("end", "absolutes"), _pairs, _pairs_text),
    "deck": (("deal",), _deck, lambda deal: f"{_cards_text(deal['absolutes'])}/"
                                            f"{_cards_text(deal['main'])}"),
    "queue": (("deal", "queue"), _queue, _queue_text),
    "winner": (("winner",), _integer, str),
    "bouts": (("bouts",), _integer, str),
    "preset": (("preset",), _text, str),
    "scope": (("scope",), _text, str),
    "later": (("later_rounds",), _later, _later_text),
    "later_from": (("later_from",), _integer, str),
    "catalogue": (("catalogue",), _text, quoted),
    "title": (("title",), _text, quoted),
    "description": (("description",), _text, quoted),
}
"""Each key of the text: the key of the file it stands for (a path of tables), how its value
is read, and how it is written."""

_OPTIONS: Final = tuple(spec.name for spec in option_specs())


def data_from_text(text: str, name: str = "<text>") -> dict[str, Any]:
    """A position file's data from its one-line text (checked by the file's reader)."""
    words = split_line(text, name)
    if not words or words[0] != GAME_WORD:
        raise PositionError(f"{name}: an Omens position's text starts with {GAME_WORD!r}")
    if len(words) < 2 or "=" in words[1]:
        raise PositionError(f"{name}: after {GAME_WORD!r} come the hands, seats separated by "
                            "'/' and cards by ',' (e.g. 7,15,30/3,9,28/12,13,22/5,14,26)")
    hands = [_cards(hand) for hand in words[1].split("/")]
    data: dict[str, Any] = {
        "game": GAME_WORD, "players": len(hands),
        "hands": {str(seat): hand for seat, hand in enumerate(hands, start=1)},
    }
    for key, value in word_pairs(words[2:], name):
        value = unquoted(value, name)
        if key in _OPTIONS:
            data.setdefault("rules", {})[key] = value
            continue
        if key not in KEYS:
            known = ", ".join([*KEYS, "and the rule options"])
            raise PositionError(f"{name}: {key!r} is not a key of a position's text; the keys: "
                                f"{known}")
        path, read, _ = KEYS[key]
        try:
            parsed = read(value)
        except (ValueError, IndexError):
            raise PositionError(f"{name}: {key}={shown(value)}: not a value of {key}") from None
        table = data
        for part in path[:-1]:
            table = table.setdefault(part, {})
        if isinstance(parsed, dict) and path[-1] in table:
            table[path[-1]].update(parsed)
        else:
            table[path[-1]] = parsed
    return data


def text_from_data(data: Mapping[str, Any]) -> str:
    """The one-line text of a position file's data (:func:`data_from_text` reads it back)."""
    hands = data["hands"]
    words = [GAME_WORD, "/".join(_cards_text(list(hands[str(seat)]))
                                 for seat in range(1, int(data["players"]) + 1))]
    for key, (path, _, write) in KEYS.items():
        value: Any = data
        for part in path:
            value = value.get(part) if isinstance(value, Mapping) else None
        if value is None or (key == "deck" and "absolutes" not in value):
            continue
        words.append(f"{key}={write(value)}")
    for option, setting in data.get("rules", {}).items():
        words.append(f"{option}={setting}")
    if "puzzle" in data:
        raise ValueError("a puzzle's question and answer have no place in a position's text")
    return " ".join(words)


def text_key(key: str) -> str:
    """The key of the text a file key stands for, for messages about a text: ``bout.leader``
    is ``lead``, ``hands.2`` is ``hands[2]``, ``rules.fear_pass_on`` is ``fear_pass_on``."""
    if key.startswith("hands."):
        return f"hands[{key.removeprefix('hands.')}]"
    if key.startswith("rules."):
        return key.removeprefix("rules.")
    best = ""
    found = key
    for name, (path, _, _) in KEYS.items():
        prefix = ".".join(path)
        if (key == prefix or key.startswith((f"{prefix}.", f"{prefix}["))) and len(prefix) > len(
                best):
            best, found = prefix, name + key[len(prefix):]
    return found
