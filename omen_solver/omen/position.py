"""Omen position files (``game = "omen"``): a TOML description of a table, read into a state.

The format is documented in ``docs/omen.md``. Everything is read and checked first; the state
is built only from valid input, and every error names the file and the key. Cards nobody has
seen (the shuffled deck, face-down Rewards) default to "the rest" of the profile's card sets,
so a position lists only what is visible.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from omen_solver.core import game as game_protocol
from omen_solver.core.game import TraceStep
from omen_solver.core.positions import TEXT_NAME
from omen_solver.core.suggest import did_you_mean
from omen_solver.core.values import read_value, toml_text, write_value
from omen_solver.errors import (
    NO_VALUE,
    CatalogueError,
    OmenSolverError,
    OptionError,
    PositionError,
)
from omen_solver.omen import cards as cards_module
from omen_solver.omen import (
    draws,
    effects,
    feats,
    frames,
    offering,
    portent,
    surge,
    turn,
    wealth,
)
from omen_solver.omen import notation as notation_module
from omen_solver.omen import rules as rules_module
from omen_solver.omen import search_settings as search_settings_module
from omen_solver.omen import war as war_module
from omen_solver.omen import zones as zones_module
from omen_solver.omen.cards import DATA_DIR, Catalogue, default_catalogue, load_catalogue
from omen_solver.omen.engine import settle
from omen_solver.omen.rules import (
    DEFAULT_PROFILE,
    PROFILES,
    Challenges,
    OmenRules,
    OptionalUnits,
    PortentAndFeats,
    Relics,
    VpTokenSupply,
    make_rules,
)
from omen_solver.omen.search_settings import Draws, EndgameSettings, reductions_of
from omen_solver.omen.setup import OPTIONAL_TYPES, VP_TOKENS
from omen_solver.omen.state import OmenState
from omen_solver.omen.text import text_key
from omen_solver.omen.turn import GAME_OVER, BeginTurn, steps_of
from omen_solver.omen.zones import CAPACITY, HIDDEN, City, Player, TurnInfo, Unit

__all__ = ["load_state", "position_data", "position_toml", "state_from_data"]

_TOP_KEYS = {"game", "profile", "cards", "replace_cards", "sets", "rules", "turn", "seat",
             "city", "deck", "pool", "moves", "search", "puzzle", "over", "stack", "title",
             "description"}
"""The keys of a position file; ``puzzle`` belongs to the game-agnostic puzzle format and is
left to it (docs/puzzles.md). ``over`` and ``stack`` describe a position as it stands in the
middle of a turn (the game over; the pieces of the turn still to play, as a value text:
:func:`omen_solver.core.values.write_value`)."""
_TURN_KEYS = ("active", "step", "number", "first", "reward_used", "supply", "vp_tokens",
              "forced", "challenge_done", "cost_change")
_PLAYER_KEYS = {"coins", "hand", "rewards", "rewards_unused", "rewards_used", "feats",
                "feats_rotated", "challenges", "vp_tokens", "rituals"}
_PLAYER_KINDS = {"hand": "unit", "rewards": "reward", "rewards_unused": "reward",
                 "rewards_used": "reward", "feats": "feat", "feats_rotated": "feat",
                 "challenges": "challenge", "rituals": "unit"}


DEFAULT_TURN_NUMBER = 2
"""A position without ``turn.number`` is a turn of a game in progress, not the first player's
first turn (which has 2 Wealth actions: write ``number = 1`` for it)."""

def _folded(name: str) -> str:
    """A card id or name as they are compared: case, spaces and hyphens ignored."""
    return "".join(name.replace("-", " ").split()).casefold()


class _Reader:
    """Typed access to the parsed TOML, naming ``file: key`` in every error."""

    def __init__(self, path: Path, catalogue: Catalogue, sets: Sequence[str] = (),
                 rules: OmenRules | None = None, profile: str = DEFAULT_PROFILE) -> None:
        self.path = path
        self.catalogue = catalogue
        self.sets = tuple(sets)
        self.rules = rules
        self.profile = profile

    def fail(self, key: str, problem: str, value: Any = NO_VALUE) -> PositionError:
        return PositionError(file=str(self.path), key=key, value=value, problem=problem)

    def table(self, value: Any, key: str) -> Mapping[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be a table, got {value!r}")
        return value

    def known(self, table: Mapping[str, Any], key: str, allowed: set[str]) -> None:
        for name in table:
            if name not in allowed:
                where = f"{key}.{name}" if key else name
                raise self.fail(where, f"unknown key; expected one of {', '.join(sorted(allowed))}")

    def integer(self, value: Any, key: str, default: int, minimum: int = 0) -> int:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(key, f"must be a whole number >= {minimum}, got {value!r}")
        return value

    def boolean(self, value: Any, key: str, default: bool) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def strings(self, value: Any, key: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, f"must be a list of strings, got {value!r}")
        return list(value)

    def cards(self, value: Any, key: str, kind: str) -> tuple[str, ...]:
        cards = [self.check_card(card, f"{key}[{index}]", kind)
                 for index, card in enumerate(self.strings(value, key))]
        return tuple(sorted(cards))

    def card_id(self, card: str) -> str:
        """The id a card is written by: its id, or its id or name in any case (``Hoplite``,
        ``Moon Priestess`` for ``moon-priestess``)."""
        if card in self.catalogue.cards:
            return card
        folded = _folded(card)
        found = [cid for cid, entry in self.catalogue.cards.items()
                 if folded in (_folded(cid), _folded(entry.name))]
        return found[0] if len(found) == 1 else card

    def check_card(self, card: str, key: str, kind: str) -> str:
        """The id of the card ``card`` names, checked to be of ``kind`` and of the position's
        sets."""
        card = self.card_id(card)
        found = self.catalogue.cards.get(card)
        if found is None:
            known = [c for c, entry in self.catalogue.cards.items() if entry.kind == kind]
            hint = did_you_mean(card, known)
            raise self.fail(key, f"{card!r} is not in the card catalogue"
                            + (f"; {hint}" if hint else ""))
        if found.kind != kind:
            raise self.fail(key, f"{card!r} is a {found.kind}, not a {kind}")
        if self.sets and found.set not in self.sets:
            raise self.fail(key, f"{card!r} is a card of the set {found.set!r}, not of this "
                            f"position's sets ({', '.join(self.sets)}: the profile "
                            f"{self.profile!r}); add {found.set!r} to the top-level key 'sets' "
                            "to combine them")
        if (found.unit_type in OPTIONAL_TYPES and self.rules is not None
                and self.rules.optional_units == OptionalUnits.OFF):
            raise self.fail(key, f"{card!r} is a {found.unit_type}: Spirits and Heroes are "
                            "removed from the game unless the players opt in (001 Setup, "
                            "Optional Units); set optional_units = \"on\" under [rules]")
        return card

    def seat(self, value: Any, key: str) -> int:
        if value not in (1, 2) or isinstance(value, bool):
            raise self.fail(key, f"must be seat 1 or 2, got {value!r}")
        return int(value) - 1


def _catalogue(path: Path, data: Mapping[str, Any], rules: OmenRules) -> Catalogue:
    files = data.get("cards", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise PositionError(f"{path}: key 'cards': must be a list of card file paths")
    replace_only = data.get("replace_cards", False)
    if not isinstance(replace_only, bool):
        raise PositionError(f"{path}: key 'replace_cards': must be true or false")
    base = None if replace_only else default_catalogue()
    try:
        catalogue = load_catalogue([path.parent / f for f in files], base=base)
    except CatalogueError as error:
        # The card file's own message names it, the card and the field; name the key too.
        raise error.located(PositionError, file=str(path), key="cards") from None
    return catalogue.resolve(rules.stat_colours)


def _player(r: _Reader, data: Any, seat: int) -> Player:
    key = f"seat.{seat + 1}"
    table = r.table(data, key)
    r.known(table, key, _PLAYER_KEYS)
    lists = {name: r.cards(table.get(name), f"{key}.{name}", kind)
             for name, kind in _PLAYER_KINDS.items()}
    for index, card in enumerate(lists["rituals"]):
        if not r.catalogue[card].ritual:
            raise r.fail(f"{key}.rituals[{index}]", f"{card!r} has no RITUAL: only a Priestess "
                         "leaves a city by her RITUAL (004 Priestesses)")
    return Player(
        coins=r.integer(table.get("coins"), f"{key}.coins", 0),
        vp_tokens=r.integer(table.get("vp_tokens"), f"{key}.vp_tokens", 0),
        **lists,
    )


def _side(r: _Reader, value: Any, key: str) -> tuple[Unit, ...]:
    units = []
    for index, text in enumerate(r.strings(value, key)):
        card = text.rstrip("!*")
        marks = text[len(card):]
        card = r.check_card(card, f"{key}[{index}]", "unit")
        if r.catalogue[card].unit_type == "Hero":
            raise r.fail(f"{key}[{index}]", f"{card!r} is a Hero: Heroes are never in a city")
        units.append(Unit(card, enraged="!" in marks, spent="*" in marks))
    size = sum(2 if u.enraged or r.catalogue[u.card].colossal else 1 for u in units)
    if size > CAPACITY:
        raise r.fail(key, f"{size} units (COLOSSAL and Enraged counting 2) exceed the city "
                     f"capacity of {CAPACITY}")
    return tuple(sorted(units))


def _cities(r: _Reader, value: Any) -> tuple[City, City, City]:
    if not isinstance(value, list) or len(value) != 3:
        raise r.fail("city", "give exactly 3 [[city]] tables, cities 1 to 3 in order")
    cities = []
    for index, data in enumerate(value):
        key = f"city[{index}]"
        table = r.table(data, key)
        r.known(table, key, {"rewards", "seat1", "seat2", "relic", "relic_seat"})
        if "rewards" not in table:
            raise r.fail(f"{key}.rewards", "missing: list the city's Reward stack, top first "
                         "('?' for a face-down Reward not known yet), or write rewards = [] "
                         "for a city with no Reward left")
        rewards = [card if card == HIDDEN else r.check_card(card, f"{key}.rewards[{i}]", "reward")
                   for i, card in enumerate(r.strings(table.get("rewards"), f"{key}.rewards"))]
        relic = table.get("relic")
        if relic is not None:
            if not isinstance(relic, str):
                raise r.fail(f"{key}.relic", "must be a Relic id")
            relic = r.check_card(relic, f"{key}.relic", "relic")
        owner = r.seat(table.get("relic_seat", 1), f"{key}.relic_seat")
        sides = (_side(r, table.get("seat1"), f"{key}.seat1"),
                 _side(r, table.get("seat2"), f"{key}.seat2"))
        cities.append(City(sides=sides, rewards=tuple(rewards), relic=relic, relic_owner=owner))
    return cities[0], cities[1], cities[2]


def _rest(r: _Reader, key: str, kind: str, sets: Sequence[str], seen: Counter[str]
          ) -> tuple[str, ...]:
    """The copies of the profile's cards of ``kind`` that are nowhere else."""
    rest: list[str] = []
    removed = (OPTIONAL_TYPES if r.rules is not None and r.rules.optional_units == OptionalUnits.OFF
               else ())
    for card in r.catalogue.of_kind(kind, sets):
        if card.unit_type in removed:
            continue
        left = card.copies - seen[card.id]
        if left < 0:
            raise r.fail(key, f"{card.id!r} appears {seen[card.id]} times but the catalogue has "
                         f"{card.copies} (list the cards explicitly instead of 'rest')")
        rest.extend([card.id] * left)
    return tuple(sorted(rest))


def _pool(r: _Reader, value: Any, key: str, kind: str, sets: Sequence[str],
          seen: Counter[str]) -> tuple[str, ...]:
    if value is None or value == "rest":
        return _rest(r, key, kind, sets, seen)
    return r.cards(value, key, kind)


def _seen(players: Sequence[Player], cities: Sequence[City], *more: Sequence[str]
          ) -> Counter[str]:
    seen: Counter[str] = Counter()
    for p in players:
        for name in _PLAYER_KINDS:
            seen.update(getattr(p, name))
    for city in cities:
        for side in city.sides:
            seen.update(unit.card for unit in side)
        seen.update(card for card in city.rewards if card != HIDDEN)
        if city.relic:
            seen[city.relic] += 1
    for cards in more:
        seen.update(cards)
    return seen


def _sets(path: Path, data: Mapping[str, Any], profile: str, catalogue: Catalogue
          ) -> tuple[str, ...]:
    """The card sets of the position: the profile's, plus any named under ``sets`` ("all":
    every set of the catalogue)."""
    extra = data.get("sets", [])
    if extra == "all":
        return tuple(dict.fromkeys((*PROFILES[profile].sets, *catalogue.sets())))
    if not isinstance(extra, list) or not all(isinstance(name, str) for name in extra):
        raise PositionError(f"{path}: key 'sets': must be a list of card set names, or \"all\"")
    known = catalogue.sets()
    for index, name in enumerate(extra):
        if name not in known:
            raise PositionError(f"{path}: key 'sets[{index}]': no card of the set {name!r}; "
                                f"the catalogue's sets: {', '.join(known)}")
    return tuple(dict.fromkeys((*PROFILES[profile].sets, *extra)))


def state_from_data(path: Path, data: Mapping[str, Any]) -> OmenState:
    """Build the state a parsed position file (or a position's text,
    :mod:`omen_solver.omen.text`) describes (see ``docs/omen.md``)."""
    for name in data:
        if name not in _TOP_KEYS:
            raise PositionError(f"{path}: key {name!r}: unknown key; expected one of "
                                f"{', '.join(sorted(_TOP_KEYS))}")
    profile = data.get("profile", DEFAULT_PROFILE)
    if not isinstance(profile, str) or profile not in PROFILES:
        raise PositionError(f"{path}: key 'profile': unknown profile {profile!r}; choose one of "
                            f"{', '.join(PROFILES)}")
    overrides = data.get("rules", {})
    if not isinstance(overrides, Mapping):
        raise PositionError(f"{path}: key 'rules': must be a table of rule options")
    try:
        rules = make_rules(profile, overrides)
    except OptionError as error:
        raise error.located(PositionError, file=str(path)) from None
    catalogue = _catalogue(path, data, rules)
    sets = _sets(path, data, profile, catalogue)
    r = _Reader(path, catalogue, sets, rules, profile)

    turn_table = r.table(data.get("turn"), "turn")
    r.known(turn_table, "turn", set(_TURN_KEYS))
    active = r.seat(turn_table.get("active", 1), "turn.active")
    step = turn_table.get("step", "wealth")
    steps = steps_of(rules) + ((GAME_OVER,) if data.get("over") is True else ())
    if step not in steps:
        raise r.fail("turn.step", f"{step!r} is not a step of this profile; choose one of "
                     f"{', '.join(steps)}")
    number = r.integer(turn_table.get("number"), "turn.number", DEFAULT_TURN_NUMBER, minimum=1)
    first = r.boolean(turn_table.get("first"), "turn.first", number == 1)
    reward_used = r.boolean(turn_table.get("reward_used"), "turn.reward_used", False)
    forced = _pair_of_counts(r, turn_table.get("forced"), "turn.forced")
    cost_change = _pair_of_counts(r, turn_table.get("cost_change"), "turn.cost_change",
                                  minimum=-99)
    challenge_done = r.boolean(turn_table.get("challenge_done"), "turn.challenge_done", False)
    over = r.boolean(data.get("over"), "over", False)

    seats = r.table(data.get("seat"), "seat")
    r.known(seats, "seat", {"1", "2"})
    players = (_player(r, seats.get("1"), 0), _player(r, seats.get("2"), 1))
    cities = _cities(r, data.get("city"))

    deck = r.table(data.get("deck"), "deck")
    r.known(deck, "deck", {"top", "shuffled", "discard"})
    top = [r.check_card(card, f"deck.top[{index}]", "unit")
           for index, card in enumerate(r.strings(deck.get("top"), "deck.top"))]
    discard = r.cards(deck.get("discard"), "deck.discard", "unit")

    pools = r.table(data.get("pool"), "pool")
    r.known(pools, "pool", {"rewards", "relics", "challenges", "feats", "box"})
    box = [r.card_id(card) for card in r.strings(pools.get("box"), "pool.box")]
    for index, card in enumerate(box):
        if card not in catalogue:
            hint = did_you_mean(card, catalogue.cards)
            raise r.fail(f"pool.box[{index}]", f"{card!r} is not in the card catalogue"
                         + (f"; {hint}" if hint else ""))
    relics = () if rules.relics == Relics.OFF and pools.get("relics") is None else _pool(
        r, pools.get("relics"), "pool.relics", "relic", sets, _seen(players, cities, box))
    no_challenges = rules.challenges == Challenges.OFF and pools.get("challenges") is None
    challenges = () if no_challenges else _pool(
        r, pools.get("challenges"), "pool.challenges", "challenge", sets,
        _seen(players, cities, box))
    feats_default = tuple(c.id for c in catalogue.of_kind("feat", sets))
    feats = (r.cards(pools["feats"], "pool.feats", "feat") if "feats" in pools else
             feats_default if rules.portent_and_feats == PortentAndFeats.ON else ())
    seen = _seen(players, cities, box, top, discard)
    shuffled = _pool(r, deck.get("shuffled"), "deck.shuffled", "unit", sets, seen)
    reward_pool = _pool(r, pools.get("rewards"), "pool.rewards", "reward", sets, seen)
    hidden = sum(city.rewards.count(HIDDEN) for city in cities)
    if hidden > len(reward_pool):
        raise r.fail("pool.rewards", f"{hidden} face-down Rewards ('?') but only "
                     f"{len(reward_pool)} unseen Rewards to draw them from")
    _check_copies(r, _zones(players, cities, top, shuffled, discard, reward_pool, relics,
                            challenges, box))
    _check_feats(r, players)

    total = int(rules.coin_supply)
    coins = players[0].coins + players[1].coins
    supply = r.integer(turn_table.get("supply"), "turn.supply", total - coins)
    if supply < 0 or coins + supply != total:
        raise r.fail("turn.supply", f"the players' {coins} coins and the supply's {supply} must "
                     f"add up to the coin supply of {total} (rule option coin_supply, R4)")
    tokens_used = players[0].vp_tokens + players[1].vp_tokens
    tokens = r.integer(turn_table.get("vp_tokens"), "turn.vp_tokens", VP_TOKENS - tokens_used)
    if rules.vp_token_supply != VpTokenSupply.UNLIMITED and tokens + tokens_used != VP_TOKENS:
        raise r.fail("turn.vp_tokens", f"the players' {tokens_used} VP tokens and the {tokens} "
                     f"left must add up to the {VP_TOKENS} of the box")

    state = OmenState(
        rules=rules,
        catalogue=catalogue,
        players=players,
        cities=cities,
        deck_top=tuple(top),
        deck_rest=shuffled,
        discard=discard,
        supply=supply,
        tokens=tokens,
        reward_pool=reward_pool,
        relic_pool=relics,
        challenge_pool=challenges,
        feat_cards=feats,
        box=tuple(sorted(box)),
        active=active,
        turn=TurnInfo(number=number, first=first, step=step, reward_used=reward_used,
                      forced=forced, challenge_done=challenge_done, cost_change=cost_change),
        stack=(BeginTurn(step),),
        over=over,
        search=_search_settings(r, data.get("search")),
    )
    if "stack" in data:
        return _apply_moves(r, _as_it_stands(r, state, data["stack"]), data.get("moves"))
    return _apply_moves(r, _announce_load_rules(settle(state)), data.get("moves"))


def _pair_of_counts(r: _Reader, value: Any, key: str, minimum: int = 0) -> tuple[int, int]:
    """One count per player, ``[seat 1's, seat 2's]``."""
    if value is None:
        return (0, 0)
    if not isinstance(value, list) or len(value) != 2:
        raise r.fail(key, f"must be a list of two numbers, one per seat, got {value!r}")
    return (r.integer(value[0], f"{key}[0]", 0, minimum), r.integer(value[1], f"{key}[1]", 0,
                                                                     minimum))


def _as_it_stands(r: _Reader, state: OmenState, value: Any) -> OmenState:
    """A position in the middle of a turn: ``stack`` gives the pieces of the turn still to
    play (the frames, as :func:`~omen_solver.core.values.write_value` writes them, the top
    last), read with only the engine's own classes; nothing runs before the next decision."""
    if not isinstance(value, str):
        raise r.fail("stack", f"must be the text of the turn's frames, got {value!r}")
    stack = read_value(value, _value_classes(), f"{r.path}: key 'stack'")
    if not isinstance(stack, tuple) or not all(isinstance(f, frames.Frame) for f in stack):
        raise r.fail("stack", "must be a list of the turn's frames, e.g. [EndTurn(),StepStart("
                     "step=war)]")
    try:
        return settle(state.but(stack=stack))
    except (AttributeError, IndexError, KeyError, TypeError, ValueError, RuntimeError) as error:
        raise r.fail("stack", f"not a turn the engine can go on from ({type(error).__name__}: "
                     f"{error})") from None


LOAD_RULES = {"deck.reshuffle": "the deck is empty, so the discard pile is shuffled into it",
              "ritual": "a RITUAL condition holds, so the Priestess leaves with a VP token"}
"""State-based rules that reading a position may apply at once (the file describes a table on
which they are due); each is announced in the trace (rule ``position.load``)."""


def _announce_load_rules(state: OmenState) -> OmenState:
    """Say in the trace which rules reading the position applied before anyone acted."""
    applied = [step for step in state.trace if step.rule in LOAD_RULES]
    if not applied:
        return state
    lines = "; ".join(f"{LOAD_RULES[step.rule]} ({step.text})" for step in applied)
    note = TraceStep("position.load", "the position as written is not settled; reading it "
                     f"applied: {lines}")
    return state.but(trace=(note, *state.trace))


def _zones(players: Sequence[Player], cities: Sequence[City], top: Sequence[str],
           shuffled: Sequence[str], discard: Sequence[str], reward_pool: Sequence[str],
           relics: Sequence[str], challenges: Sequence[str], box: Sequence[str]
           ) -> list[tuple[str, Sequence[str]]]:
    """Every zone holding cards that exist once per copy, with its key (Feats excepted: each
    player has the whole set)."""
    zones: list[tuple[str, Sequence[str]]] = []
    for seat, p in enumerate(players, start=1):
        for name in _PLAYER_KINDS:
            if name not in ("feats", "feats_rotated"):
                zones.append((f"seat.{seat}.{name}", getattr(p, name)))
    for index, city in enumerate(cities):
        zones.append((f"city[{index}].rewards", [c for c in city.rewards if c != HIDDEN]))
        for seat in (0, 1):
            zones.append((f"city[{index}].seat{seat + 1}", [u.card for u in city.sides[seat]]))
        if city.relic:
            zones.append((f"city[{index}].relic", [city.relic]))
    zones += [("deck.top", top), ("deck.shuffled", shuffled), ("deck.discard", discard),
              ("pool.rewards", reward_pool), ("pool.relics", relics),
              ("pool.challenges", challenges), ("pool.box", box)]
    return zones


def _check_copies(r: _Reader, zones: Sequence[tuple[str, Sequence[str]]]) -> None:
    """No card appears more often than the catalogue holds copies of it."""
    counts: Counter[str] = Counter()
    for key, cards in zones:
        for card in cards:
            counts[card] += 1
            held = r.catalogue[card].copies
            if counts[card] > held:
                raise r.fail(key, f"{card!r} appears {counts[card]} times in the position "
                             f"(hands, cities, deck, discard pile, pools) but the catalogue "
                             f"holds {held} {'copy' if held == 1 else 'copies'} of it")


def _check_feats(r: _Reader, players: Sequence[Player]) -> None:
    for seat, p in enumerate(players, start=1):
        done = Counter((*p.feats, *p.feats_rotated))
        for feat, count in done.items():
            if count > 1:
                raise r.fail(f"seat.{seat}.feats", f"the Feat {feat!r} is achieved {count} "
                             "times (face down or rotated): each player has one of each")


_SEARCH_KEYS = {"turns", "draws", "margin", "reductions"}


def _search_settings(r: _Reader, value: Any) -> EndgameSettings | None:
    """The ``[search]`` table: how the endgame search treats this position (docs/omen.md)."""
    if value is None:
        return None
    table = r.table(value, "search")
    r.known(table, "search", _SEARCH_KEYS)
    turns = table.get("turns", "end")
    if turns != "end" and (isinstance(turns, bool) or not isinstance(turns, int) or turns < 1):
        raise r.fail("search.turns", f"a number of turns from 1 (the turn in progress counts), "
                     f"or \"end\" for the end of the game; got {turns!r}")
    draws = table.get("draws", Draws.EXPECTED.value)
    if draws not in {d.value for d in Draws}:
        raise r.fail("search.draws", f"{draws!r}: choose one of "
                     f"{', '.join(d.value for d in Draws)}")
    chosen = table.get("reductions", True)
    if not isinstance(chosen, bool) and not (
            isinstance(chosen, list) and all(isinstance(name, str) for name in chosen)):
        raise r.fail("search.reductions", f"true, false or a list of reductions; got {chosen!r}")
    try:
        reductions = reductions_of(chosen)
    except OptionError as error:
        raise error.located(PositionError, file=str(r.path), key="search.reductions") from None
    return EndgameSettings(turns=None if turns == "end" else int(turns), draws=Draws(draws),
                           margin=r.boolean(table.get("margin"), "search.margin", False),
                           reductions=reductions)


def _apply_moves(r: _Reader, state: OmenState, value: Any) -> OmenState:
    for index, text in enumerate(r.strings(value, "moves")):
        try:
            state = state.child(state.string_to_action(text))
        except OmenSolverError as error:
            raise error.located(PositionError, file=str(r.path), key=f"moves[{index}]") from None
    return state


def load_state(path: Path, data: dict[str, Any]) -> OmenState:
    """The loader the position dispatcher (``omen_solver.core.positions``) calls. An error
    about a text names the text's key (``turn``), not the file's (``turn.number``)."""
    try:
        return state_from_data(path, data)
    except PositionError as error:
        if str(path) != TEXT_NAME or error.key is None:
            raise
        raise PositionError(file=error.file, key=text_key(error.key), value=error.value,
                            rule=error.rule, problem=error.problem) from None
    except CatalogueError:
        raise
    except OmenSolverError as error:
        raise PositionError(f"{path}: {error}") from None


def game_is_not_omen(path: Path, data: Mapping[str, Any]) -> None:
    """Refuse a file of another game (an Omens position said as such)."""
    game = data.get("game")
    if game == "omens":
        raise PositionError(f"{path}: key 'game': this is an Omens position, not an Omen one: "
                            "read it with 'omen-solver omens ...' or omen_solver.omens.load")
    if game != "omen":
        raise PositionError(f"{path}: key 'game': must be \"omen\" for an Omen position, got "
                            f"{game!r}")


def _value_classes() -> tuple[type, ...]:
    """The classes the text form of a state is made of: the dataclasses (frames among them)
    and enums of the modules whose values a state holds."""
    modules = (zones_module, notation_module, cards_module, rules_module, search_settings_module,
               game_protocol, draws, effects, feats, frames, offering, portent, surge, turn,
               war_module, wealth)
    return tuple(value for module in modules for value in vars(module).values()
                 if isinstance(value, type) and value.__module__ == module.__name__
                 and (dataclasses.is_dataclass(value) or issubclass(value, enum.Enum)))


# -- writing ------------------------------------------------------------------------------------

_PLAYER_ZONES = ("hand", "rewards", "rewards_unused", "rewards_used", "feats", "feats_rotated",
                 "challenges", "rituals")
_DEFAULTED: tuple[tuple[tuple[str, str], str], ...] = (
    (("deck", "shuffled"), "deck_rest"),
    (("pool", "rewards"), "reward_pool"),
    (("pool", "relics"), "relic_pool"),
    (("pool", "challenges"), "challenge_pool"),
    (("pool", "feats"), "feat_cards"),
    (("turn", "supply"), "supply"),
    (("turn", "vp_tokens"), "tokens"),
)
"""The keys whose default the reader computes (the rest of the cards, the coins and tokens
left), and the field of the state each gives."""


def _profile_of(rules: OmenRules) -> tuple[str, dict[str, str]]:
    """The profile closest to ``rules`` (the fewest options apart; the default profile, then
    the first declared, on a tie) and the options that differ from it."""
    settings = rules.as_dict()
    best: tuple[str, dict[str, str]] | None = None
    for name in sorted(PROFILES, key=lambda name: name != DEFAULT_PROFILE):
        base = make_rules(name).as_dict()
        apart = {key: value for key, value in settings.items() if base[key] != value}
        if best is None or len(apart) < len(best[1]):
            best = (name, apart)
    assert best is not None
    return best


def _card_files(state: OmenState) -> dict[str, Any]:
    """``cards`` (and ``replace_cards``) for a catalogue that is not the shipped one."""
    shipped = default_catalogue()
    if state.catalogue.digest == shipped.resolve(state.rules.stat_colours).digest:
        return {}
    files = sorted({card.source for cid, card in state.catalogue.cards.items()
                    if cid not in shipped.cards or card.source != shipped.cards[cid].source})
    if not files or not all(files) or any(Path(f).parent == DATA_DIR for f in files):
        raise PositionError("the state's card catalogue was not read from card files, so no "
                            "position names it")
    data: dict[str, Any] = {"cards": files}
    if set(shipped.cards) - set(state.catalogue.cards):
        data["replace_cards"] = True
    return data


def _unit_text(unit: Unit) -> str:
    return unit.card + ("!" if unit.enraged else "") + ("*" if unit.spent else "")


def _explicit(state: OmenState) -> dict[str, Any]:
    """A position file's data with every key given: what the state holds, seats from 1."""
    profile, rules = _profile_of(state.rules)
    data: dict[str, Any] = {"game": "omen", "profile": profile, **_card_files(state)}
    cards = [*state.deck_top, *state.deck_rest, *state.discard, *state.reward_pool,
             *state.relic_pool, *state.challenge_pool, *state.feat_cards, *state.box]
    for player in state.players:
        cards += [card for zone in _PLAYER_ZONES for card in getattr(player, zone)]
    for city in state.cities:
        cards += [u.card for side in city.sides for u in side]
        cards += [c for c in city.rewards if c != HIDDEN] + ([city.relic] if city.relic else [])
    sets = sorted({state.catalogue[card].set for card in cards if card in state.catalogue}
                  - set(PROFILES[profile].sets))
    if sets:
        data["sets"] = sets
    if rules:
        data["rules"] = rules
    turn = state.turn
    data["turn"] = {
        "active": state.active + 1, "step": turn.step, "number": turn.number,
        "first": turn.first, "reward_used": turn.reward_used, "supply": state.supply,
        "vp_tokens": state.tokens, "forced": list(turn.forced),
        "challenge_done": turn.challenge_done, "cost_change": list(turn.cost_change),
    }
    data["seat"] = {
        str(seat + 1): {"coins": player.coins, "vp_tokens": player.vp_tokens,
                        **{zone: list(getattr(player, zone)) for zone in _PLAYER_ZONES}}
        for seat, player in enumerate(state.players)
    }
    data["city"] = [
        {"rewards": list(city.rewards),
         "seat1": [_unit_text(u) for u in city.sides[0]],
         "seat2": [_unit_text(u) for u in city.sides[1]],
         **({"relic": city.relic, "relic_seat": city.relic_owner + 1} if city.relic else {})}
        for city in state.cities
    ]
    data["deck"] = {"top": list(state.deck_top), "shuffled": list(state.deck_rest),
                    "discard": list(state.discard)}
    data["pool"] = {"rewards": list(state.reward_pool), "relics": list(state.relic_pool),
                    "challenges": list(state.challenge_pool),
                    "feats": list(state.feat_cards), "box": list(state.box)}
    if state.over:
        data["over"] = True
    data["stack"] = write_value(state.stack)
    if state.search is not None:
        search = state.search
        data["search"] = {"turns": "end" if search.turns is None else search.turns,
                          "draws": search.draws.value, "margin": search.margin,
                          "reductions": sorted(r.value for r in search.reductions)}
    return data


def _same(a: OmenState, b: OmenState) -> bool:
    return a == b and a.search == b.search


def _without(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """``data`` without the key at ``path`` (a copy; emptied tables go too)."""
    head, *rest = path
    if head not in data:
        return data
    copy = dict(data)
    if rest:
        inner = _without(dict(copy[head]), tuple(rest))
        if inner:
            copy[head] = inner
        else:
            del copy[head]
    else:
        del copy[head]
    return copy


def position_data(state: OmenState) -> dict[str, Any]:
    """The data of a position file that :func:`state_from_data` reads back to ``state`` (an
    equal state, with the same ``[search]`` table): what :func:`position_toml` writes as a
    file and :mod:`omen_solver.omen.text` on one line. Keys at the reader's default are left
    out: the rest of the cards, the coins and tokens left, the frames of a turn that starts
    at its step (``stack``), zeros, empty zones and false flags."""
    data = _explicit(state)
    trial = data
    for path, _ in _DEFAULTED:
        trial = _without(trial, path)
    trial = _without(trial, ("stack",))
    try:
        defaults = state_from_data(Path(TEXT_NAME), trial)
    except (PositionError, CatalogueError):
        defaults = None
    for path, name in _DEFAULTED:
        if defaults is not None and getattr(defaults, name) == getattr(state, name):
            data = _without(data, path)
    try:
        if _same(state_from_data(Path(TEXT_NAME), _without(data, ("stack",))), state):
            data = _without(data, ("stack",))
    except (PositionError, CatalogueError):
        pass
    return _pruned(data)


def _pruned(data: dict[str, Any]) -> dict[str, Any]:
    """Leave out the keys at their reader's default (zeros, empty lists, false flags), and
    ``turn.first`` where the turn number says it."""
    turn = dict(data["turn"])
    for key, empty in (("reward_used", False), ("forced", [0, 0]), ("challenge_done", False),
                       ("cost_change", [0, 0])):
        if turn.get(key) == empty:
            del turn[key]
    if turn["first"] == (turn["number"] == 1):
        del turn["first"]
    if turn["active"] == 1:
        del turn["active"]
    data = {**data, "turn": turn}
    seats = {}
    for seat, table in data["seat"].items():
        kept = {key: value for key, value in table.items() if value not in (0, [])}
        if kept:
            seats[seat] = kept
    data["seat"] = seats
    data["city"] = [{key: value for key, value in city.items()
                     if key == "rewards" or value != []} for city in data["city"]]
    for name in ("deck", "pool"):
        kept = {key: value for key, value in data.get(name, {}).items() if value != []
                or (name, key) in {path for path, _ in _DEFAULTED}}
        data = {**data, name: kept} if kept else _without(data, (name,))
    return {key: value for key, value in data.items() if value != {}}


def position_toml(data: Mapping[str, Any], comments: Sequence[str] = ()) -> str:
    """An Omen position file's text (``docs/omen.md``), every Omen file the library writes."""
    return toml_text(data, comments)
