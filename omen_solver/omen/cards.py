"""Omen cards as data: the card model, the effect language and the validating catalogue loader.

No public list of the individual Omen cards exists, so the engine knows only *keywords* and
*effect primitives*; a card is a data entry that combines them (see ``docs/omen-cards.md`` for
the file format). The shipped catalogue (``omen_solver/omen/data/*.toml``) holds the cards the
rulebooks name (marked ``origin = "printed"``) and a demonstration set written by the project
(marked ``origin = "invented"``). A user can load their own files on top.

Every error names the file, the card and the field.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from omen_solver.core.files import read_toml
from omen_solver.errors import CatalogueError

__all__ = [
    "CONDITION_TESTS",
    "DATA_DIR",
    "EFFECT_OPS",
    "UNIT_TYPES",
    "Card",
    "Catalogue",
    "Condition",
    "Effect",
    "Step",
    "default_catalogue",
    "load_catalogue",
]

DATA_DIR = Path(__file__).with_name("data")
"""Where the shipped card files live."""

UNIT_TYPES: tuple[str, ...] = (
    "Soldier",
    "Beast",
    "Oracle",
    "Spirit",
    "Hero",
    "Merchant",
    "Priestess",
    "Sphinx",
    "Warrior",
)
"""The unit types of A Reign of War (001, 003) and Fires in the East (004)."""

KINDS = ("unit", "reward", "feat", "challenge", "relic")
"""The kinds of card a catalogue file may hold (one TOML array of tables each)."""

ORIGINS = ("printed", "invented")

KEYWORDS = ("COLOSSAL", "TREASURED", "BARTER")
"""Flag keywords; the ability keywords (DEPLOY, DIRGE, INVOKE, RITUAL, SCORNED) are implied by
the effect fields a card has."""

SIDES = ("own", "opponent", "any")
PLACES = ("here", "other", "any")
"""``here``: the city of the card whose ability resolves; ``other``: any other city."""

# -- the effect language ------------------------------------------------------------------

CONDITION_TESTS: Mapping[str, str] = {
    "every_city": "a unit of `type` on your side of every city",
    "type_here": "at least `amount` units of `type` on your side of this city",
    "units_here": "at least `amount` units (COLOSSAL counting 2) on your side of this city",
    "opponent_units_here": "at least `amount` opposing units in this city",
    "units_in_a_city": "at least `amount` units on your side of some city",
    "cities_with_units": "units of yours in at least `amount` cities",
    "types_here": "at least `amount` different unit types on your side of this city",
    "strength_here": "total Strength of at least `amount` on your side of this city",
    "coins": "at least `amount` coins",
    "hand": "at least `amount` cards in hand",
    "rewards": "at least `amount` Rewards (in hand or play area, used or not)",
    "opponent_discarded": "your abilities made the opponent discard at least `amount` cards "
    "this turn",
    "discard_pile": "at least `amount` cards in the discard pile",
}
"""Condition tests: each is true or false for a player (and a city for the ``*_here`` ones)."""

_HERE_TESTS = frozenset({"type_here", "units_here", "opponent_units_here", "types_here",
                         "strength_here"})
_TYPED_TESTS = frozenset({"every_city", "type_here"})

EFFECT_OPS: Mapping[str, str] = {
    "gain_coins": "gain `amount` coins from the supply (as many as it holds)",
    "draw": "draw `amount` cards",
    "opponent_loses_coins": "the opponent returns `amount` coins to the supply",
    "steal_coins": "take `amount` coins from the opponent",
    "opponent_discards": "the opponent discards `amount` Unit cards of their choice",
    "take_from_hand": "take `amount` Unit cards (of `type`) of your choice from the opponent's "
    "hand",
    "look_at_hand": "look at the opponent's hand",
    "destroy": "destroy `amount` units (`side`, `where`, `type`, `max_strength`) of your choice",
    "destroy_all": "destroy every unit in one city (`where`: here or choose)",
    "remove_top_reward": "remove the top Reward of a city from the game (`where`: here, "
    "chosen: the city chosen earlier in this ability)",
    "move": "move a unit (`side`, `where`, `type`) to another city of your choice",
    "enrage": "Enrage `amount` units (`side`, `where`)",
    "return_from_discard": "take `amount` cards (of `type`) from the discard pile into your "
    "hand (`to = 'hand'`) or onto your side of a city (`to`: here or any)",
    "require": "stop the ability here unless the condition `if` holds",
}
"""The effect primitives. Every card ability is a list of these steps."""

_OP_PARAMS: Mapping[str, frozenset[str]] = {
    "gain_coins": frozenset({"amount"}),
    "draw": frozenset({"amount"}),
    "opponent_loses_coins": frozenset({"amount"}),
    "steal_coins": frozenset({"amount"}),
    "opponent_discards": frozenset({"amount"}),
    "take_from_hand": frozenset({"amount", "type"}),
    "look_at_hand": frozenset(),
    "destroy": frozenset({"amount", "side", "where", "type", "max_strength"}),
    "destroy_all": frozenset({"where"}),
    "remove_top_reward": frozenset({"where"}),
    "move": frozenset({"side", "where", "type"}),
    "enrage": frozenset({"amount", "side", "where"}),
    "return_from_discard": frozenset({"amount", "type", "to"}),
    "require": frozenset(),
}
_COMMON_PARAMS = frozenset({"op", "may", "if"})


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition test (see :data:`CONDITION_TESTS`)."""

    test: str
    amount: int = 1
    unit_type: str | None = None

    def __str__(self) -> str:
        typ = f" {self.unit_type}" if self.unit_type else ""
        return f"{self.test}{typ} >= {self.amount}"


@dataclass(frozen=True, slots=True)
class Step:
    """One effect primitive with its parameters (see :data:`EFFECT_OPS`)."""

    op: str
    amount: int = 1
    side: str = "opponent"
    where: str = "any"
    unit_type: str | None = None
    max_strength: int | None = None
    to: str = "hand"
    may: bool = False
    condition: tuple[Condition, ...] = ()


Effect = tuple[Step, ...]
"""An ability: its steps in order."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the catalogue: a unit, a Reward, a Feat, a Challenge or a Relic.

    Unit stats are *resolved* (``offering`` and ``strength`` set) once the rule option
    ``stat_colours`` (R14) is known: a card file may give them by colour (``red``/``blue``) as
    printed on the user's copy.
    """

    id: str
    name: str
    kind: str
    set: str
    origin: str
    source: str
    """The file the card came from."""
    text: str = ""
    unit_type: str | None = None
    copies: int = 1
    cost: int = 0
    offering: int | None = None
    strength: int | None = None
    red: int | None = None
    blue: int | None = None
    colossal: bool = False
    treasured: bool = False
    barter: bool = False
    deploy: Effect = ()
    deploy_alt: Effect = ()
    invoke_cost: int | None = None
    dirge: Effect = ()
    portent: Effect = ()
    end_of_surge: Effect = ()
    ritual: tuple[Condition, ...] = ()
    scorned: Effect = ()
    hero: Effect = ()
    effect: Effect = ()
    """The ability of a Reward (when used) or a Relic (when placed)."""
    condition: tuple[Condition, ...] = ()
    """The condition of a Feat or a Challenge (all tests must hold)."""

    @property
    def is_unit(self) -> bool:
        return self.kind == "unit"

    def keywords(self) -> tuple[str, ...]:
        """The keywords the card has, flag keywords and ability keywords, sorted."""
        words = {
            "COLOSSAL": self.colossal,
            "TREASURED": self.treasured,
            "BARTER": self.barter,
            "DEPLOY": bool(self.deploy),
            "DIRGE": bool(self.dirge),
            "INVOKE": self.invoke_cost is not None,
            "RITUAL": bool(self.ritual),
            "SCORNED": bool(self.scorned),
        }
        return tuple(sorted(word for word, present in words.items() if present))


@dataclass(frozen=True)
class Catalogue:
    """The cards by id, with a digest identifying the content (used in state keys)."""

    cards: Mapping[str, Card]
    stats_resolved: str = ""
    """The ``stat_colours`` setting the unit stats were resolved with ('' = not yet)."""
    digest: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.digest:
            # The content decides the digest, not where the files lie.
            content = sorted((cid, replace(card, source="")) for cid, card in self.cards.items())
            text = repr(content) + self.stats_resolved
            object.__setattr__(self, "digest", hashlib.sha1(text.encode()).hexdigest()[:16])

    def __hash__(self) -> int:
        return hash(self.digest)

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def of_kind(self, kind: str, sets: Iterable[str] | None = None) -> tuple[Card, ...]:
        """The cards of one kind (optionally of some sets), sorted by id."""
        wanted = None if sets is None else set(sets)
        return tuple(
            card
            for card_id, card in sorted(self.cards.items())
            if card.kind == kind and (wanted is None or card.set in wanted)
        )

    def sets(self) -> tuple[str, ...]:
        return tuple(sorted({card.set for card in self.cards.values()}))

    def resolve(self, stat_colours: str) -> Catalogue:
        """Fix every unit's Offering value and Strength for the R14 setting ``stat_colours``.

        Colour-keyed stats (``red``/``blue``) follow 001 (Offering red, Strength blue) or 003
        (Strength red, Offering blue); under ``names-only`` (004 names no colours) a
        colour-keyed card is an error naming its file and card.
        """
        if self.stats_resolved == stat_colours:
            return self
        cards = {cid: _resolve_stats(card, stat_colours) for cid, card in self.cards.items()}
        return Catalogue(cards=cards, stats_resolved=stat_colours)

    def merged(self, other: Catalogue) -> Catalogue:
        """This catalogue with the cards of ``other`` added (ids must not clash)."""
        cards = dict(self.cards)
        for card_id, card in other.cards.items():
            if card_id in cards:
                raise CatalogueError(
                    f"{card.source}: {card.kind} {card_id!r}: field 'id': already defined in "
                    f"{cards[card_id].source}"
                )
            cards[card_id] = card
        return Catalogue(cards=cards)

    def overridden_by(self, other: Catalogue) -> Catalogue:
        """This catalogue with the cards of ``other`` added, and those whose id is already here
        replacing the card of that id: ``other`` wins (docs/omen-cards.md, "Using your own
        file")."""
        return Catalogue(cards={**self.cards, **other.cards})


def _resolve_stats(card: Card, stat_colours: str) -> Card:
    if not card.is_unit or (card.red is None and card.blue is None):
        return card
    where = f"{card.source}: unit {card.id!r}"
    if stat_colours == "names-only":
        raise CatalogueError(
            f"{where}: fields 'red'/'blue': the rules (stat_colours = 'names-only') give no "
            "stat colours; write 'offering' and 'strength' instead"
        )
    if stat_colours == "offering-red":
        offering, strength = card.red, card.blue
    else:
        offering, strength = card.blue, card.red
    return replace(card, offering=offering, strength=strength)


# -- loading --------------------------------------------------------------------------------


class _Reader:
    """Reads one card table, naming the file, the card and the field in every error."""

    def __init__(self, path: Path, kind: str, index: int, table: Mapping[str, Any]) -> None:
        self.path = path
        self.kind = kind
        self.table = table
        card_id = table.get("id")
        self.label = f"{kind} {card_id!r}" if isinstance(card_id, str) else f"{kind} #{index + 1}"
        self.used: set[str] = set()

    def fail(self, field_name: str, problem: str) -> CatalogueError:
        return CatalogueError(f"{self.path}: {self.label}: field {field_name!r}: {problem}")

    def get(self, name: str) -> Any:
        self.used.add(name)
        return self.table.get(name)

    def string(self, name: str, default: str | None = None) -> str:
        value = self.get(name)
        if value is None:
            if default is None:
                raise self.fail(name, "missing")
            return default
        if not isinstance(value, str) or not value:
            raise self.fail(name, f"must be a non-empty string, got {value!r}")
        return value

    def integer(self, name: str, default: int | None = None, minimum: int = 0) -> int | None:
        value = self.get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(name, f"must be a whole number >= {minimum}, got {value!r}")
        return value

    def boolean(self, name: str) -> bool:
        value = self.get(name)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(name, f"must be true or false, got {value!r}")
        return value

    def check_unknown(self) -> None:
        for key in self.table:
            if key not in self.used:
                raise self.fail(key, f"unknown field for a {self.kind}")

    # -- effects and conditions --

    def conditions(self, name: str, value: Any, *, city: bool) -> tuple[Condition, ...]:
        tables = [value] if isinstance(value, Mapping) else value
        if not isinstance(tables, list) or not tables:
            raise self.fail(name, "must be a condition table or a non-empty list of them")
        return tuple(self._condition(f"{name}[{i}]", table, city) for i, table in
                     enumerate(tables))

    def _condition(self, name: str, table: Any, city: bool) -> Condition:
        if not isinstance(table, Mapping):
            raise self.fail(name, f"a condition must be a table, got {table!r}")
        unknown = set(table) - {"test", "amount", "type"}
        if unknown:
            raise self.fail(f"{name}.{sorted(unknown)[0]}", "unknown condition field")
        test = table.get("test")
        if test not in CONDITION_TESTS:
            raise self.fail(
                f"{name}.test", f"unknown test {test!r}; known: {', '.join(CONDITION_TESTS)}"
            )
        if test in _HERE_TESTS and not city:
            raise self.fail(f"{name}.test", f"{test!r} needs a city, and this ability has none")
        amount = table.get("amount", 1)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise self.fail(f"{name}.amount", f"must be a whole number >= 0, got {amount!r}")
        unit_type = table.get("type")
        if test in _TYPED_TESTS:
            if unit_type not in UNIT_TYPES:
                raise self.fail(f"{name}.type", f"must be one of {', '.join(UNIT_TYPES)}, "
                                f"got {unit_type!r}")
        elif unit_type is not None:
            raise self.fail(f"{name}.type", f"test {test!r} takes no type")
        return Condition(test=str(test), amount=amount, unit_type=unit_type)

    def effect(self, name: str, *, city: bool) -> Effect:
        value = self.get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or not value:
            raise self.fail(name, "an ability must be a non-empty list of step tables")
        return tuple(self._step(f"{name}[{i}]", table, city) for i, table in enumerate(value))

    def _step(self, name: str, table: Any, city: bool) -> Step:
        if not isinstance(table, Mapping):
            raise self.fail(name, f"a step must be a table, got {table!r}")
        op = table.get("op")
        if not isinstance(op, str) or op not in EFFECT_OPS:
            raise self.fail(f"{name}.op", f"unknown effect {op!r}; known: {', '.join(EFFECT_OPS)}")
        allowed = _OP_PARAMS[op] | _COMMON_PARAMS
        for key in table:
            if key not in allowed:
                raise self.fail(f"{name}.{key}", f"not a parameter of {op!r}")
        values: dict[str, Any] = {"op": op}
        amount = table.get("amount", 1)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise self.fail(f"{name}.amount", f"must be a whole number >= 1, got {amount!r}")
        values["amount"] = amount
        values.update(self._step_places(name, op, table, city))
        if "type" in table:
            if table["type"] not in UNIT_TYPES:
                raise self.fail(f"{name}.type", f"must be one of {', '.join(UNIT_TYPES)}")
            values["unit_type"] = table["type"]
        if "max_strength" in table:
            limit = table["max_strength"]
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
                raise self.fail(f"{name}.max_strength", "must be a whole number >= 0")
            values["max_strength"] = limit
        may = table.get("may", False)
        if not isinstance(may, bool):
            raise self.fail(f"{name}.may", f"must be true or false, got {may!r}")
        values["may"] = may
        if "if" in table:
            values["condition"] = self.conditions(f"{name}.if", table["if"], city=city)
        elif op == "require":
            raise self.fail(f"{name}.if", "'require' needs a condition")
        return Step(**values)

    def _step_places(self, name: str, op: str, table: Mapping[str, Any], city: bool
                     ) -> dict[str, str]:
        values: dict[str, str] = {}
        if "side" in table:
            if table["side"] not in SIDES:
                raise self.fail(f"{name}.side", f"must be one of {', '.join(SIDES)}")
            values["side"] = table["side"]
        places = {
            "destroy_all": ("here", "choose"),
            "remove_top_reward": ("here", "chosen", "choose"),
        }.get(op, PLACES)
        where = table.get("where", "choose" if op == "destroy_all" else
                          "chosen" if op == "remove_top_reward" else "any")
        if where not in places:
            raise self.fail(f"{name}.where", f"must be one of {', '.join(places)}, got {where!r}")
        if where in ("here", "other") and not city:
            raise self.fail(f"{name}.where", f"{where!r} needs a city, and this ability has none")
        values["where"] = where
        if op == "return_from_discard":
            to = table.get("to", "hand")
            if to not in ("hand", "here", "any"):
                raise self.fail(f"{name}.to", "must be one of hand, here, any")
            if to == "here" and not city:
                raise self.fail(f"{name}.to", "'here' needs a city, and this ability has none")
            values["to"] = to
        return values


_CITY_SLOTS = {"deploy": True, "portent": True, "end_of_surge": True, "dirge": False,
               "scorned": False, "hero": False}


def _read_unit(r: _Reader, common: dict[str, Any]) -> Card:
    unit_type = r.string("type")
    if unit_type not in UNIT_TYPES:
        raise r.fail("type", f"must be one of {', '.join(UNIT_TYPES)}, got {unit_type!r}")
    words = r.get("keywords") or []
    if not isinstance(words, list) or any(word not in KEYWORDS for word in words):
        raise r.fail("keywords", f"must be a list of {', '.join(KEYWORDS)}, got {words!r}")
    cost, yellow = r.integer("cost"), r.integer("yellow")
    if cost is None and yellow is None:
        raise r.fail("cost", "missing (write 'cost' or its printed colour 'yellow')")
    if cost is not None and yellow is not None:
        raise r.fail("yellow", "give the cost once, as 'cost' or as 'yellow'")
    offering, strength = r.integer("offering"), r.integer("strength")
    red, blue = r.integer("red"), r.integer("blue")
    named, coloured = (offering, strength), (red, blue)
    if None in named and None in coloured:
        raise r.fail("offering", "give 'offering' and 'strength', or the colours 'red' and "
                     "'blue' as printed")
    if None not in named and any(value is not None for value in coloured):
        raise r.fail("red", "give the stats by name or by colour, not both")
    invoke_cost = r.integer("invoke_cost")
    spirit = invoke_cost is not None
    effects = {
        slot: r.effect(slot, city=city and not (spirit and slot == "deploy"))
        for slot, city in _CITY_SLOTS.items()
    }
    deploy_alt = r.effect("deploy_alt", city=False)
    if deploy_alt and not effects["deploy"]:
        raise r.fail("deploy_alt", "a second DEPLOY choice needs a 'deploy' ability")
    if spirit and not deploy_alt:
        raise r.fail("invoke_cost", "INVOKE resolves both DEPLOY abilities: give 'deploy_alt'")
    ritual_value = r.get("ritual")
    ritual = () if ritual_value is None else r.conditions("ritual", ritual_value, city=True)
    if unit_type == "Hero" and not effects["hero"]:
        raise r.fail("hero", "a Hero needs the ability used when it is discarded")
    if effects["hero"] and unit_type != "Hero":
        raise r.fail("hero", "only a Hero has a discard ability")
    return Card(
        **common,
        unit_type=unit_type,
        copies=r.integer("copies", 1, minimum=1) or 1,
        cost=cost if cost is not None else yellow or 0,
        offering=offering,
        strength=strength,
        red=red,
        blue=blue,
        colossal="COLOSSAL" in words or unit_type == "Beast",
        treasured="TREASURED" in words,
        barter="BARTER" in words,
        deploy=effects["deploy"],
        deploy_alt=deploy_alt,
        invoke_cost=invoke_cost,
        dirge=effects["dirge"],
        portent=effects["portent"],
        end_of_surge=effects["end_of_surge"],
        ritual=ritual,
        scorned=effects["scorned"],
        hero=effects["hero"],
    )


def _read_card(path: Path, kind: str, index: int, table: Any, defaults: Mapping[str, str]
               ) -> Card:
    if not isinstance(table, Mapping):
        raise CatalogueError(f"{path}: {kind} #{index + 1}: must be a table")
    r = _Reader(path, kind, index, table)
    card_id = r.string("id")
    if not _valid_id(card_id):
        raise r.fail("id", f"{card_id!r}: use lowercase letters, digits and hyphens")
    origin = r.string("origin", defaults.get("origin"))
    if origin not in ORIGINS:
        raise r.fail("origin", f"must be 'printed' or 'invented', got {origin!r}")
    common: dict[str, Any] = {
        "id": card_id,
        "name": r.string("name"),
        "kind": kind,
        "set": r.string("set", defaults.get("set")),
        "origin": origin,
        "source": str(path),
        "text": r.string("text", ""),
    }
    if kind == "unit":
        card = _read_unit(r, common)
    elif kind in ("reward", "relic"):
        card = Card(**common, copies=r.integer("copies", 1, minimum=1) or 1,
                    effect=r.effect("effect", city=kind == "relic"))
    else:
        value = r.get("condition")
        if value is None:
            raise r.fail("condition", "missing")
        card = Card(**common, condition=r.conditions("condition", value, city=False))
    r.check_unknown()
    return card


def _valid_id(text: str) -> bool:
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789-")
    return bool(text) and set(text) <= allowed and text[0] != "-"


def _read_file(path: Path) -> dict[str, Card]:
    data = read_toml(path, CatalogueError)
    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        raise CatalogueError(f"{path}: [meta] must be a table")
    defaults = {key: meta[key] for key in ("set", "origin") if isinstance(meta.get(key), str)}
    for key in data:
        if key != "meta" and key not in KINDS:
            raise CatalogueError(
                f"{path}: unknown table {key!r}; card tables are [[{']], [['.join(KINDS)}]]"
            )
    cards: dict[str, Card] = {}
    for kind in KINDS:
        tables = data.get(kind, [])
        if not isinstance(tables, list):
            raise CatalogueError(f"{path}: {kind!r} must be an array of tables ([[{kind}]])")
        for index, table in enumerate(tables):
            card = _read_card(path, kind, index, table, defaults)
            if card.id in cards:
                raise CatalogueError(f"{path}: {kind} {card.id!r}: field 'id': defined twice")
            cards[card.id] = card
    return cards


def load_catalogue(paths: Sequence[Path | str], base: Catalogue | None = None) -> Catalogue:
    """Read card files, on top of ``base`` (usually :func:`default_catalogue`).

    Which card wins: a card of the files whose id is also in ``base`` replaces that card of
    ``base`` (your copy of a card wins over the shipped one); an id defined twice among the
    files themselves is an error naming both files.
    """
    catalogue = Catalogue(cards={})
    for path in paths:
        catalogue = catalogue.merged(Catalogue(cards=_read_file(Path(path))))
    return catalogue if base is None else base.overridden_by(catalogue)


@functools.cache
def default_catalogue() -> Catalogue:
    """The shipped cards: the printed ones and the project's demonstration set."""
    return load_catalogue(sorted(DATA_DIR.glob("*.toml")))
