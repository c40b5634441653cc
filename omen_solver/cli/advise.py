"""``omen-solver advise FILE --seat S`` and the advice file format (``docs/advice.md``).

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

import argparse
import json
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from omen_solver.core.budget import Budget
from omen_solver.core.positions import read_toml
from omen_solver.errors import OptionError, PositionError
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Scope, Table
from omen_solver.survey.advice import (
    DEFAULT_EXACT_LIMIT,
    DEFAULT_SAMPLES,
    Advice,
    View,
    advise,
)

__all__ = ["KNOWN_BY", "load_view", "register_advise"]

KNOWN_BY: Final = ("returned", "secret", "absolute", "betrayal", "jealousy", "dealt")
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


def register_advise(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "advise", help="what to play when only your own hand is known (Monte Carlo over deals)",
        description="Perfect-information Monte Carlo: solve every deal consistent with what the "
                    "seat knows (or a uniform sample of them) exactly, and give each legal "
                    "action's win probability with a 95 %% interval. With few consistent deals "
                    "every one is solved and the answer is exact over deals. Exit 0: answered; "
                    "1: some search unknown; 2: bad input.",
    )
    parser.add_argument("file", type=Path, help="advice file (TOML; docs/advice.md)")
    parser.add_argument("--seat", type=int, help="the seat to advise (default: the file's seat)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                        help=f"deals to sample when there are many (default {DEFAULT_SAMPLES})")
    parser.add_argument("--exact-limit", type=int, default=DEFAULT_EXACT_LIMIT, metavar="N",
                        help="enumerate every deal when the hidden cards can be placed in at "
                             f"most N ways (default {DEFAULT_EXACT_LIMIT})")
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    parser.add_argument("--max-seconds", type=float, default=30.0, metavar="S",
                        help="time limit of the searches of one deal, every action (default 30)")
    parser.add_argument("--max-nodes", type=int, metavar="N",
                        help="node limit of the searches of one deal (deterministic)")
    parser.add_argument("--imperfect", action="store_true",
                        help="also solve the game of imperfect information exactly (OpenSpiel's "
                             "sequence form; tiny positions, the partners' hands known) and show "
                             "where PIMC over-values an action (strategy fusion)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=_advise)


def _advise(args: argparse.Namespace) -> int:
    if args.samples < 1 or args.exact_limit < 0:
        raise PositionError("--samples must be at least 1 and --exact-limit 0 or more")
    view = load_view(args.file, args.seat)
    budget = Budget(args.max_nodes, args.max_seconds)
    if args.imperfect:
        return _imperfect(args, view, budget)
    advice = advise(view, samples=args.samples, exact_limit=args.exact_limit, seed=args.seed,
                    budget=budget)
    if args.json:
        print(json.dumps({"file": str(args.file), **advice.to_json()}, indent=2))
    else:
        _show(args.file, advice)
    return 1 if advice.unknown else 0


def _imperfect(args: argparse.Namespace, view: View, budget: Budget) -> int:
    # Imported here: OpenSpiel loads only when asked for.
    from omen_solver.survey.imperfect import TOLERANCE, check_against_imperfect

    check = check_against_imperfect(view, budget)
    if args.json:
        print(json.dumps({"file": str(args.file), **check.advice.to_json(),
                          "imperfect": check.to_json()}, indent=2))
        return 0
    out = _console()
    out.print(f"{escape(str(args.file))}: seat {check.seat + 1} to play; {check.deals} "
              f"consistent deals; the game of imperfect information has "
              f"{check.information_sets[0]} and {check.information_sets[1]} information sets "
              f"and is worth {check.value:.4f} to the seat's team")
    table = _table(out, "action", "PIMC", "imperfect information (exact)", "over-valued by")
    for action in sorted(check.actions, key=lambda a: -a.pimc):
        table.add_row(escape(action.action), f"{action.pimc:.4f}", f"{action.exact:.4f}",
                      f"{action.fusion:.4f}" if action.fusion > TOLERANCE else "-")
    out.print(table)
    verdict = ("PIMC's best action is exactly optimal" if check.agrees else
               "PIMC's best action is not optimal: strategy fusion")
    out.print(f"best action: PIMC {escape(check.pimc_best.action)}, exact "
              f"{escape(check.exact_best.action)} ({verdict})")
    return 0


def _console() -> Console:
    """Rich's layout on a terminal; piped output, read by programs and people alike, keeps
    long lines whole."""
    out = Console(highlight=False)
    return out if out.is_terminal else Console(highlight=False, width=200)


def _table(out: Console, *columns: str) -> RichTable:
    """A table with borders on a terminal, plain columns when piped."""
    return RichTable(*columns) if out.is_terminal else RichTable(*columns, box=None)


def _show(path: Path, advice: Advice) -> None:
    out = _console()
    team = ", ".join(str(s + 1) for s in advice.team)
    method = (f"exact over all {advice.deals} consistent deals" if advice.exact else
              f"{advice.deals} deals sampled uniformly ({advice.rejected} inconsistent ones "
              f"rejected) of {advice.assignments:,} ways to place the hidden cards")
    out.print(f"{escape(str(path))}: seat {advice.seat + 1} to play (team of seats {team}); "
              f"{method}")
    table = _table(out, "action", "win probability", "95 % interval", "deals", "unknown")
    for value in sorted(advice.actions, key=lambda a: -(a.probability or -1)):
        low, high = value.interval(advice.exact)
        p = value.probability
        table.add_row(escape(value.action), "-" if p is None else f"{p:.3f}",
                      "exact" if advice.exact and not value.unknown else f"[{low:.3f}, {high:.3f}]",
                      str(value.known), str(value.unknown))
    out.print(table)
    best = advice.best
    out.print(f"best action: {escape(best.action) if best else '-'}")
    if advice.unknown:
        out.print(f"{advice.unknown} searches ran out of budget: counted as unknown, not as "
                  "wins or losses")
