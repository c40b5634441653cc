"""The advice file format (``docs/advice.md``): what one seat knows of an Omens position.

An advice file is an Omens position file as one seat knows it::

    game = "omens"
    players = 4
    teams = [[1, 3], [2, 4]]
    seat = 1                      # whose knowledge (or --seat)
    discarded = [12]              # face-up discards this round
    box = [33, 34]                # Absolutes out of the game
    [hands]                       # at the start of this bout
    1 = [7, 18, 31]               # a list: the cards; a number: only the size is known
    2 = 3
    [[known]]                     # cards known to be in a hand, and who knows it
    holder = 2
    cards = [17]
    by = "returned"               # returned, secret, absolute, betrayal, jealousy, dealt
    known_to = [1, 2, 3, 4]       # default: every seat
    [[weight]]                    # optional: seat 2 holds card 25 three times as likely
    seat = 2
    card = 25
    weight = 3
    [bout]
    leader = 2
    moves = ["2:15 lower", "3:?"] # '?': a card the seat did not see

Only the facts whose ``known_to`` includes the advised seat are used; the others record what
other seats know. Reading checks everything first (a bad file changes nothing) and every error
names the file and the key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from omen_solver.core.positions import read_toml
from omen_solver.errors import OptionError, PositionError
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Scope, Table
from omen_solver.omens.vocabulary import Effect
from omen_solver.survey.advice import View

__all__ = ["KNOWN_BY", "load_view"]

KNOWN_BY: Final = ("returned", Effect.SECRET, Effect.ABSOLUTE, Effect.BETRAYAL, Effect.JEALOUSY,
                   "dealt")
"""How a card in another hand came to be known."""

_KEYS: Final = {"game", "title", "description", "players", "teams", "preset", "rules", "scope",
                "seat", "discarded", "box", "rounds_won", "hands", "known", "weight", "bout"}


class _Reader:
    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data

    def fail(self, key: str, problem: str) -> PositionError:
        return PositionError(f"{self.source}: key '{key}': {problem}")

    def number(self, key: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(key, f"expected a whole number from {low} to {high}, not {value!r}")
        return value

    def cards(self, key: str, value: object) -> list[int]:
        catalogue = default_catalogue()
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list of card values, not {value!r}")
        for card in value:
            if isinstance(card, bool) or not isinstance(card, int) or card not in catalogue:
                raise self.fail(key, f"card {card!r} is not in the card list")
        if len(set(value)) != len(value):
            raise self.fail(key, "a card is listed twice")
        return list(value)

    def seats(self, key: str, value: object, players: int) -> list[int]:
        if not isinstance(value, list) or not value:
            raise self.fail(key, f"expected a list of seats, not {value!r}")
        return [self.number(key, seat, 1, players) - 1 for seat in value]


def load_view(path: Path, seat: int | None) -> View:
    """The view of ``seat`` (from 1; default: the file's ``seat``) from an advice file."""
    data = read_toml(path)
    reader = _Reader(str(path), data)
    for key in data:
        if key not in _KEYS:
            raise reader.fail(key, f"unknown key; known keys: {', '.join(sorted(_KEYS))}")
    if data.get("game", "omens") != "omens":
        raise reader.fail("game", "advice is for Omens positions")
    players = reader.number("players", data.get("players"), MIN_PLAYERS, MAX_PLAYERS)
    try:
        rules = make_rules(data.get("preset", "rulebook"), data.get("rules", {}), where="rules")
    except OptionError as error:
        raise PositionError(f"{path}: {error}") from None
    scope = data.get("scope", Scope.ROUND.value)
    if scope != Scope.ROUND.value:
        raise reader.fail("scope", "advice is over the current round ('round')")
    if seat is None:
        if "seat" not in data:
            raise reader.fail("seat", "missing: say whose knowledge this is, or give --seat")
        seat = reader.number("seat", data["seat"], 1, players)
    elif not 1 <= seat <= players:
        raise PositionError(f"--seat {seat}: seats are 1 to {players}")
    viewer = seat - 1
    teams_raw = data.get("teams")
    if not isinstance(teams_raw, list):
        raise reader.fail("teams", "missing: give the teams as lists of seats")
    teams = tuple(sorted(tuple(sorted(reader.seats("teams", t, players))) for t in teams_raw))
    if sorted(s for t in teams for s in t) != list(range(players)):
        raise reader.fail("teams", f"every seat 1..{players} must be in exactly one team")
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, dict):
        raise reader.fail("hands", "missing: a list of cards or a hand size for each seat")
    lists: dict[int, list[int]] = {}
    sizes: list[int] = []
    for number in range(1, players + 1):
        key, value = f"hands.{number}", hands_raw.get(str(number))
        if value is None:
            raise reader.fail(key, "missing: a list of cards, or the number of cards held")
        if isinstance(value, list):
            lists[number - 1] = reader.cards(key, value)
            sizes.append(len(value))
        else:
            sizes.append(reader.number(key, value, 0, 5))
    if viewer not in lists:
        raise reader.fail(f"hands.{seat}", f"seat {seat}'s own hand must be listed, card by card")
    discarded = reader.cards("discarded", data.get("discarded", []))
    box = reader.cards("box", data.get("box", []))
    known = _known(reader, data.get("known", []), players, viewer, lists)
    weights = _weights(reader, data.get("weight", []), players)
    bout = data.get("bout", {})
    if not isinstance(bout, dict) or "leader" not in bout:
        raise reader.fail("bout.leader", "missing: which seat leads this bout?")
    leader = reader.number("bout.leader", bout["leader"], 1, players) - 1
    moves = bout.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise reader.fail("bout.moves", "expected a list of moves as text")
    rounds = data.get("rounds_won", [0] * len(teams))
    if not isinstance(rounds, list) or len(rounds) != len(teams):
        raise reader.fail("rounds_won", f"expected one number per team ({len(teams)} teams)")
    seen: dict[int, str] = {}
    located: list[tuple[str, list[int]]] = [
        (f"hands.{seat}", lists[viewer]), ("discarded", discarded), ("box", box),
        *((f"known (seat {s + 1})", sorted(c)) for s, c in known.items()),
    ]
    for where, cards in located:
        for card in cards:
            if card in seen:
                raise reader.fail(where, f"card {card} is also in {seen[card]}")
            seen[card] = where
    for other, facts in known.items():
        if len(facts) > sizes[other]:
            raise reader.fail("known", f"seat {other + 1} holds {sizes[other]} cards, "
                                       f"{len(facts)} are said to be known")
    table = Table(players, rules, default_catalogue(), Scope.ROUND)
    return View(table, teams, viewer, leader, tuple(sorted(lists[viewer])), tuple(sizes),
                known, frozenset(discarded), frozenset(box),
                tuple(reader.number("rounds_won", n, 0, 1) for n in rounds), tuple(moves),
                weights)


def _known(reader: _Reader, raw: object, players: int, viewer: int,
           lists: dict[int, list[int]]) -> dict[int, frozenset[int]]:
    if not isinstance(raw, list):
        raise reader.fail("known", "expected [[known]] tables")
    found: dict[int, set[int]] = {}
    for number, fact in enumerate(raw, start=1):
        key = f"known[{number}]"
        if not isinstance(fact, dict):
            raise reader.fail(key, "expected a table with holder, cards, by, known_to")
        extra = set(fact) - {"holder", "cards", "by", "known_to"}
        if extra:
            raise reader.fail(f"{key}.{sorted(extra)[0]}", "unknown key")
        holder = reader.number(f"{key}.holder", fact.get("holder"), 1, players) - 1
        cards = reader.cards(f"{key}.cards", fact.get("cards"))
        by = fact.get("by")
        if by not in KNOWN_BY:
            raise reader.fail(f"{key}.by", f"{by!r} is not one of {', '.join(KNOWN_BY)}")
        known_to = reader.seats(f"{key}.known_to", fact.get("known_to", list(
            range(1, players + 1))), players)
        if holder in lists and not set(cards) <= set(lists[holder]):
            raise reader.fail(f"{key}.cards", f"not all in seat {holder + 1}'s listed hand")
        if viewer in known_to and holder != viewer:
            found.setdefault(holder, set()).update(cards)
    return {seat: frozenset(cards) for seat, cards in found.items()}


def _weights(reader: _Reader, raw: object, players: int) -> dict[tuple[int, int], float]:
    if not isinstance(raw, list):
        raise reader.fail("weight", "expected [[weight]] tables")
    weights: dict[tuple[int, int], float] = {}
    for number, item in enumerate(raw, start=1):
        key = f"weight[{number}]"
        if not isinstance(item, dict):
            raise reader.fail(key, "expected a table with seat, card, weight")
        seat = reader.number(f"{key}.seat", item.get("seat"), 1, players) - 1
        card = reader.cards(f"{key}.card", [item.get("card")])[0]
        weight = item.get("weight")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not weight > 0:
            raise reader.fail(f"{key}.weight", f"expected a positive number, not {weight!r}")
        weights[(seat, card)] = float(weight)
    return weights
