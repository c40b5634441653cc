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
from omen_solver.core.suggest import did_you_mean
from omen_solver.core.values import decode
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
from omen_solver.omen import endgame as endgame_module
from omen_solver.omen import notation as notation_module
from omen_solver.omen import rules as rules_module
from omen_solver.omen import war as war_module
from omen_solver.omen import zones as zones_module
from omen_solver.omen.cards import Catalogue, default_catalogue, load_catalogue
from omen_solver.omen.endgame import Draws, EndgameSettings, reductions_of
from omen_solver.omen.engine import settle
from omen_solver.omen.rules import DEFAULT_PROFILE, PROFILES, OmenRules, make_rules
from omen_solver.omen.setup import OPTIONAL_TYPES, VP_TOKENS
from omen_solver.omen.state import OmenState
from omen_solver.omen.turn import BeginTurn, steps_of
from omen_solver.omen.zones import CAPACITY, HIDDEN, City, Player, TurnInfo, Unit

__all__ = ["load_state", "state_from_data", "state_from_text"]

_TOP_KEYS = {"game", "title", "profile", "cards", "replace_cards", "sets", "rules", "turn",
             "seat", "city", "deck", "pool", "moves", "search", "puzzle"}
"""The keys of a position file; ``puzzle`` belongs to the game-agnostic puzzle format and is
left to it (docs/puzzles.md)."""
_PLAYER_KEYS = {"coins", "hand", "rewards", "rewards_unused", "rewards_used", "feats",
                "feats_rotated", "challenges", "vp_tokens", "rituals"}
_PLAYER_KINDS = {"hand": "unit", "rewards": "reward", "rewards_unused": "reward",
                 "rewards_used": "reward", "feats": "feat", "feats_rotated": "feat",
                 "challenges": "challenge", "rituals": "unit"}


DEFAULT_TURN_NUMBER = 2
"""A position without ``turn.number`` is a turn of a game in progress, not the first player's
first turn (which has 2 Wealth actions: write ``number = 1`` for it)."""

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
        cards = self.strings(value, key)
        for index, card in enumerate(cards):
            self.check_card(card, f"{key}[{index}]", kind)
        return tuple(sorted(cards))

    def check_card(self, card: str, key: str, kind: str) -> None:
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
                and self.rules.optional_units == "off"):
            raise self.fail(key, f"{card!r} is a {found.unit_type}: Spirits and Heroes are "
                            "removed from the game unless the players opt in (001 Setup, "
                            "Optional Units); set optional_units = \"on\" under [rules]")

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
    for index, card in enumerate(table.get("rituals") or []):
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
        card = text.removesuffix("!")
        r.check_card(card, f"{key}[{index}]", "unit")
        if r.catalogue[card].unit_type == "Hero":
            raise r.fail(f"{key}[{index}]", f"{card!r} is a Hero: Heroes are never in a city")
        units.append(Unit(card, enraged=text.endswith("!")))
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
        rewards = r.strings(table.get("rewards"), f"{key}.rewards")
        for i, card in enumerate(rewards):
            if card != HIDDEN:
                r.check_card(card, f"{key}.rewards[{i}]", "reward")
        relic = table.get("relic")
        if relic is not None:
            if not isinstance(relic, str):
                raise r.fail(f"{key}.relic", "must be a Relic id")
            r.check_card(relic, f"{key}.relic", "relic")
        owner = r.seat(table.get("relic_seat", 1), f"{key}.relic_seat")
        sides = (_side(r, table.get("seat1"), f"{key}.seat1"),
                 _side(r, table.get("seat2"), f"{key}.seat2"))
        cities.append(City(sides=sides, rewards=tuple(rewards), relic=relic, relic_owner=owner))
    return cities[0], cities[1], cities[2]


def _rest(r: _Reader, key: str, kind: str, sets: Sequence[str], seen: Counter[str]
          ) -> tuple[str, ...]:
    """The copies of the profile's cards of ``kind`` that are nowhere else."""
    rest: list[str] = []
    removed = OPTIONAL_TYPES if r.rules is not None and r.rules.optional_units == "off" else ()
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
    """Build the state a parsed position file describes (see ``docs/omen.md``); a file with a
    ``[state]`` table is the text form of a state (:meth:`OmenState.to_text`)."""
    if "state" in data:
        return state_from_text(path, data)
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
    r.known(turn_table, "turn", {"active", "step", "number", "first", "reward_used", "supply",
                                 "vp_tokens"})
    active = r.seat(turn_table.get("active", 1), "turn.active")
    step = turn_table.get("step", "wealth")
    steps = steps_of(rules)
    if step not in steps:
        raise r.fail("turn.step", f"{step!r} is not a step of this profile; choose one of "
                     f"{', '.join(steps)}")
    number = r.integer(turn_table.get("number"), "turn.number", DEFAULT_TURN_NUMBER, minimum=1)
    first = r.boolean(turn_table.get("first"), "turn.first", number == 1)
    reward_used = r.boolean(turn_table.get("reward_used"), "turn.reward_used", False)

    seats = r.table(data.get("seat"), "seat")
    r.known(seats, "seat", {"1", "2"})
    players = (_player(r, seats.get("1"), 0), _player(r, seats.get("2"), 1))
    cities = _cities(r, data.get("city"))

    deck = r.table(data.get("deck"), "deck")
    r.known(deck, "deck", {"top", "shuffled", "discard"})
    top = r.strings(deck.get("top"), "deck.top")
    for index, card in enumerate(top):
        r.check_card(card, f"deck.top[{index}]", "unit")
    discard = r.cards(deck.get("discard"), "deck.discard", "unit")

    pools = r.table(data.get("pool"), "pool")
    r.known(pools, "pool", {"rewards", "relics", "challenges", "feats", "box"})
    box = r.strings(pools.get("box"), "pool.box")
    for index, card in enumerate(box):
        if card not in catalogue:
            hint = did_you_mean(card, catalogue.cards)
            raise r.fail(f"pool.box[{index}]", f"{card!r} is not in the card catalogue"
                         + (f"; {hint}" if hint else ""))
    relics = () if rules.relics == "off" and pools.get("relics") is None else _pool(
        r, pools.get("relics"), "pool.relics", "relic", sets, _seen(players, cities, box))
    challenges = () if rules.challenges == "off" and pools.get("challenges") is None else _pool(
        r, pools.get("challenges"), "pool.challenges", "challenge", sets,
        _seen(players, cities, box))
    feats_default = tuple(c.id for c in catalogue.of_kind("feat", sets))
    feats = (r.cards(pools["feats"], "pool.feats", "feat") if "feats" in pools else
             feats_default if rules.portent_and_feats == "on" else ())
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
    if rules.vp_token_supply != "unlimited" and tokens + tokens_used != VP_TOKENS:
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
        turn=TurnInfo(number=number, first=first, step=step, reward_used=reward_used),
        stack=(BeginTurn(step),),
        search=_search_settings(r, data.get("search")),
    )
    return _apply_moves(r, _announce_load_rules(settle(state)), data.get("moves"))


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
    """The loader the position dispatcher (``omen_solver.core.positions``) calls."""
    try:
        return state_from_data(path, data)
    except (PositionError, CatalogueError):
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
    modules = (zones_module, notation_module, cards_module, rules_module, endgame_module,
               game_protocol, draws, effects, feats, frames, offering, portent, surge, turn,
               war_module, wealth)
    return tuple(value for module in modules for value in vars(module).values()
                 if isinstance(value, type) and value.__module__ == module.__name__
                 and (dataclasses.is_dataclass(value) or issubclass(value, enum.Enum)))


def state_from_text(path: Path, data: Mapping[str, Any]) -> OmenState:
    """The state written by :meth:`OmenState.to_text` (errors name the file and the key)."""
    unknown = sorted(set(data) - {"game", "state"})
    if unknown:
        raise PositionError(f"{path}: key {unknown[0]!r}: unknown in the text form of a state; "
                            "known keys: game, state")
    table = data["state"]
    if not isinstance(table, dict):
        raise PositionError(f"{path}: key 'state': expected a table")
    classes = _value_classes()
    try:
        fields = {name: decode(value, classes, f"{path}: state.{name}")
                  for name, value in table.items()}
        if fields.get("catalogue") is None:
            fields["catalogue"] = default_catalogue().resolve(fields["rules"].stat_colours)
        return OmenState(**fields)
    except KeyError as error:
        raise PositionError(f"{path}: key {error}: missing in the text form of a state") from None
    except (TypeError, AttributeError) as error:
        raise PositionError(f"{path}: not the text form of a state: {error}") from None
