"""The Omens card catalogue: cards are data, effects are a few primitives with parameters.

The shipped catalogue (``data/cards.toml``) holds the 35 Arcane cards of the rulebook (rules file
000, "Components" and "Special Card Effects") and the card list (omens-cards.md). A user can load
their own catalogue (house rules, a variant deck) with :func:`load_catalogue`; it is validated
and every error names the file, the line of the card, the card and the field.

The family of colour effects is four primitives with parameters, not twenty special cases:

* ``discard_extreme {colour, which}``: discard the highest/lowest card of a colour ("any" for
  every colour): Life, Death, Lie, Truth, Day, Night, Harmony.
* ``discard_all {colour}``: discard every card of a colour: Winter.
* ``discard_self_if {condition, ...}``: discard this card if a condition holds: Love, Friendship,
  Calm, Feast (``other_of_colour``), Spring, Summer, Autumn (``no_other_of_colour``), Hope
  (``lowest_in_play``), Enigma (``effect_in_play``).
* ``none``: no effect (Malice, which counts as every colour).

The other keywords name the rulebook's special effects: ``fear``, ``luck``, ``mirror``,
``sadness``, ``pride`` (end of bout) and ``law``, ``dream``, ``jealousy``, ``secret``, ``wrath``,
``betrayal``, ``absolute`` (immediate).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import parse_toml, read_text
from omen_solver.core.suggest import closest
from omen_solver.errors import CardNameError, CatalogueError, shown
from omen_solver.omens.vocabulary import Effect

__all__ = [
    "COLOURS",
    "EFFECTS",
    "Card",
    "Catalogue",
    "default_catalogue",
    "load_catalogue",
    "parse_catalogue",
]

COLOURS: Final = ("green", "yellow", "red", "blue")
"""The four colours, in the order of the card values."""

NOW: Final = "now"
END: Final = "end"

# Effect keyword -> (allowed timings, parameter name -> allowed values or None for any string).
_ANY_COLOUR = (*COLOURS, "any")
_CONDITIONS = ("other_of_colour", "no_other_of_colour", "lowest_in_play", "effect_in_play")
EFFECTS: Final[Mapping[str, tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]]] = {
    Effect.NONE: ((END,), {}),
    Effect.DISCARD_EXTREME: ((END,), {"colour": _ANY_COLOUR, "which": ("highest", "lowest")}),
    Effect.DISCARD_ALL: ((END,), {"colour": _ANY_COLOUR}),
    Effect.DISCARD_SELF_IF: ((END,), {"condition": _CONDITIONS}),
    Effect.FEAR: ((END,), {}),
    Effect.LUCK: ((END,), {}),
    Effect.MIRROR: ((END,), {}),
    Effect.SADNESS: ((END,), {}),
    Effect.PRIDE: ((END,), {}),
    Effect.LAW: ((NOW,), {}),
    Effect.DREAM: ((NOW,), {}),
    Effect.JEALOUSY: ((NOW,), {}),
    Effect.SECRET: ((NOW,), {}),
    Effect.WRATH: ((NOW,), {}),
    Effect.BETRAYAL: ((NOW,), {}),
    Effect.ABSOLUTE: ((NOW, END), {}),
}
"""Every effect keyword, the timings it allows, and its required parameters."""

# Extra parameters of discard_self_if, by condition.
_CONDITION_PARAMS: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "other_of_colour": {"colour": COLOURS},
    "no_other_of_colour": {"colour": COLOURS},
    "lowest_in_play": {},
    "effect_in_play": {"effect": tuple(EFFECTS)},
}

_REQUIRED = ("value", "name", "colours", "timing", "effect")
_OPTIONAL = ("french", "english_printed", "params", "text")


@dataclass(frozen=True, slots=True)
class Card:
    """One Arcane card: its value identifies it (values are distinct)."""

    value: int
    name: str
    colours: frozenset[str]
    timing: str
    effect: str
    params: Mapping[str, str] = field(default_factory=dict)
    french: str = ""
    english_printed: bool = True
    text: str = ""

    @property
    def is_now(self) -> bool:
        return self.timing == NOW

    def has_colour(self, colour: str) -> bool:
        return colour == "any" or colour in self.colours

    def label(self) -> str:
        """``Law (15)``: the name a trace uses."""
        return f"{self.name} ({self.value})"


class Catalogue(Mapping[int, Card]):
    """The cards of a deck by value, with where they were read from."""

    def __init__(self, cards: Iterable[Card], source: str = "<memory>") -> None:
        self._cards = {card.value: card for card in sorted(cards, key=lambda c: c.value)}
        self.source = source

    def __getitem__(self, value: int) -> Card:
        return self._cards[value]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def with_effect(self, effect: str) -> tuple[int, ...]:
        """The values of the cards with an effect keyword, ascending."""
        return tuple(value for value, card in self._cards.items() if card.effect == effect)

    @cached_property
    def absolutes(self) -> tuple[int, ...]:
        """The cards that form teams at the start of a game (rules file 000, "Setup")."""
        return self.with_effect(Effect.ABSOLUTE)

    @cached_property
    def _by_name(self) -> dict[str, tuple[int, ...]]:
        names: dict[str, list[int]] = {}
        for value, card in self._cards.items():
            for name in {_folded(card.name), _folded(card.label())}:
                names.setdefault(name, []).append(value)
        return {name: tuple(values) for name, values in names.items()}

    def value_of(self, word: str) -> int:
        """The value of the card ``word`` names: its value written out, or its name in any
        case (``luck``, ``Luck``; spaces do not count: ``TheAbsolute``), or its label
        (``Law (15)``, ``TheAbsolute(31)``). Raises :class:`~omen_solver.errors.CardNameError`
        for a name no card has (with the closest names) or several have (The Absolute: write
        its value)."""
        text = word.strip()
        if text.isascii() and text.isdigit():
            if len(text) < 10 and int(text) in self._cards:  # int() of 5,000 digits: an error
                return int(text)
            raise CardNameError(f"no card has the value {shown(text)} (the values: "
                                f"{min(self._cards)}-{max(self._cards)})", value=word)
        values = self._by_name.get(_folded(text), ())
        if len(values) == 1:
            return values[0]
        if values:
            raise CardNameError(
                f"{shown(word)} names {len(values)} cards ({', '.join(map(str, values))}): "
                "write the value of the one you mean", value=word)
        names = sorted({card.name for card in self._cards.values()})
        near = closest(text, names)
        hint = (f"did you mean {' or '.join(map(repr, near))}?" if near
                else f"write a card's value ({min(self._cards)}-{max(self._cards)}) or its "
                "name, such as 'Law' ('omen-solver omens cards' lists them)")
        raise CardNameError(f"no card is named {shown(word)}; {hint}", value=word)

    def __repr__(self) -> str:
        return f"Catalogue({len(self)} cards from {self.source})"


def _folded(name: str) -> str:
    """A card name as names are compared: case and spaces ignored."""
    return "".join(name.split()).casefold()


def _card_lines(text: str) -> list[int]:
    """The line number of each ``[[card]]`` header, so errors can point at the card."""
    return [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip().replace(" ", "") == "[[card]]"
    ]


def _where(source: str, lines: list[int], index: int, raw: Mapping[str, Any]) -> str:
    line = f":{lines[index]}" if index < len(lines) else ""
    value = raw.get("value")
    name = f"card #{index + 1}" + (f" (value {shown(value)})" if value is not None else "")
    return f"{source}{line}: {name}"


def _choice(where: str, key: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise CatalogueError(
            f"{where}: field {shown(key)}: {shown(value)} is not one of "
            f"{', '.join(map(repr, allowed))}"
        )
    return value


def _check_params(where: str, effect: str, params: object) -> dict[str, str]:
    if not isinstance(params, dict):
        raise CatalogueError(f"{where}: field 'params' must be a table, not {shown(params)}")
    expected = dict(EFFECTS[effect][1])
    if effect == Effect.DISCARD_SELF_IF:
        condition = _choice(where, "params.condition", params.get("condition"), _CONDITIONS)
        expected.update(_CONDITION_PARAMS[condition])
    for key in params:
        if key not in expected:
            raise CatalogueError(
                f"{where}: field 'params.{key}': effect {shown(effect)} takes no such parameter"
                + (f" (it takes {', '.join(expected)})" if expected else " (it takes none)")
            )
    checked: dict[str, str] = {}
    for key, allowed in expected.items():
        if key not in params:
            raise CatalogueError(
                f"{where}: field 'params.{key}' is missing for effect {shown(effect)}"
            )
        checked[key] = _choice(where, f"params.{key}", params[key], allowed)
    return checked


def _parse_card(where: str, raw: Mapping[str, Any]) -> Card:
    for key in _REQUIRED:
        if key not in raw:
            raise CatalogueError(f"{where}: field {shown(key)} is missing")
    for key in raw:
        if key not in _REQUIRED and key not in _OPTIONAL:
            raise CatalogueError(f"{where}: unknown field {shown(key)}")
    value = raw["value"]
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise CatalogueError(
            f"{where}: field 'value' must be a positive integer, not {shown(value)}"
        )
    colours = raw["colours"]
    if not isinstance(colours, list) or not colours:
        raise CatalogueError(f"{where}: field 'colours' must be a non-empty list of colours")
    checked_colours = [_choice(where, "colours", colour, COLOURS) for colour in colours]
    if len(set(checked_colours)) != len(checked_colours):
        raise CatalogueError(f"{where}: field 'colours' names a colour twice")
    effect = raw["effect"]
    if not isinstance(effect, str) or effect not in EFFECTS:
        raise CatalogueError(
            f"{where}: field 'effect': unknown effect {shown(effect)}; "
            f"known effects: {', '.join(EFFECTS)}"
        )
    timing = _choice(where, "timing", raw["timing"], (NOW, END))
    if timing not in EFFECTS[effect][0]:
        raise CatalogueError(
            f"{where}: field 'timing': effect {shown(effect)} cannot be {shown(timing)} "
            f"(allowed: {', '.join(EFFECTS[effect][0])})"
        )
    for key in ("name", "french", "text"):
        if key in raw and not isinstance(raw[key], str):
            raise CatalogueError(f"{where}: field {shown(key)} must be a string")
    printed = raw.get("english_printed", True)
    if not isinstance(printed, bool):
        raise CatalogueError(f"{where}: field 'english_printed' must be true or false")
    return Card(
        value=value,
        name=raw["name"],
        colours=frozenset(checked_colours),
        timing=timing,
        effect=effect,
        params=_check_params(where, effect, raw.get("params", {})),
        french=raw.get("french", ""),
        english_printed=printed,
        text=raw.get("text", ""),
    )


def parse_catalogue(text: str, source: str = "<string>") -> Catalogue:
    """Read a catalogue from TOML text; errors name ``source``, the line, the card and the field."""
    data = parse_toml(text, source, CatalogueError)
    raws = data.get("card")
    if not isinstance(raws, list) or not raws:
        raise CatalogueError(f"{source}: no [[card]] tables found")
    unknown = [key for key in data if key != "card"]
    if unknown:
        raise CatalogueError(f"{source}: unknown top-level key {shown(unknown[0])} (only [[card]])")
    lines = _card_lines(text)
    cards: dict[int, Card] = {}
    for index, raw in enumerate(raws):
        if not isinstance(raw, dict):
            raise CatalogueError(
                f"{source}: card #{index + 1}: expected a [[card]] table, not {shown(raw)}"
            )
        where = _where(source, lines, index, raw)
        card = _parse_card(where, raw)
        if card.value in cards:
            raise CatalogueError(
                f"{where}: field 'value': {card.value} is already the value of "
                f"{cards[card.value].name}; card values must be distinct"
            )
        cards[card.value] = card
    return Catalogue(cards.values(), source)


def load_catalogue(path: Path | str) -> Catalogue:
    """Read and validate a catalogue file."""
    path = Path(path)
    return parse_catalogue(read_text(path, CatalogueError), str(path))


_DEFAULT: Catalogue | None = None


def default_catalogue() -> Catalogue:
    """The 35 printed cards shipped with the library."""
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files("omen_solver.omens").joinpath("data/cards.toml").read_text("utf-8")
        _DEFAULT = parse_catalogue(text, "omen_solver/omens/data/cards.toml")
    return _DEFAULT
