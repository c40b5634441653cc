"""The vocabulary of the symbolic model: card facts over a symbolic value, and rule options as
symbolic parameters.

Card facts (colours, effect keywords and their parameters) are *data*: they are read from a
:class:`~omen_solver.omens.cards.Catalogue` and turned into predicates over a z3 integer, so one
query speaks about every card at once ("the card in slot 3 is green" is a formula over its
value). What each effect *does* is not read from anywhere: it is written in
:mod:`omen_solver.omens.proofs.bout` from the rule text.

Each rule option is a z3 integer ranging over the indexes of its settings, so a query can leave
an option open (the claim must hold for every setting) or pin it (:meth:`SymbolicRules.pin`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import z3

from omen_solver.omens.cards import Card, Catalogue
from omen_solver.omens.rules import OmensRules, make_rules, option_specs

__all__ = [
    "CHOICE_OPTIONS",
    "MODEL_OPTIONS",
    "PLAY_OPTIONS",
    "EffectGroup",
    "SymbolicDeck",
    "SymbolicRules",
    "intervals",
]

MODEL_OPTIONS: Final = (
    "absolute_timing",
    "card_owner",
    "extreme_includes_self",
    "fear_pass_on",
    "luck_timing",
    "pride_next_round",
    "return_to",
    "sadness_lone_card",
    "zero_cards",
)
"""The options the symbolic model reads: they act when the bout is resolved."""
CHOICE_OPTIONS: Final = ("luck_chooser",)
"""Options about who makes a choice the model leaves symbolic (any card but Fear for Luck):
one query covers every way the choice goes, so both settings at once."""
PLAY_OPTIONS: Final = (
    "absolute_exchange",
    "law_binds",
    "law_after_jealousy",
    "law_when_last",
    "wrath_replay",
    "jealousy_own_card",
    "dream_target_turn",
    "now_resolver",
    "betrayal_give_back",
    "reshuffle_absolutes",
)
"""Options that act while cards are placed or between rounds: the bounded checks of play
(:mod:`~omen_solver.omens.proofs.enumeration`) and the option witnesses cover them."""


def intervals(values: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted values as maximal runs ``(low, high)``: ``[1..8, 17]`` -> ``[(1, 8), (17, 17)]``."""
    runs: list[tuple[int, int]] = []
    for value in sorted(set(values)):
        if runs and runs[-1][1] == value - 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs


@dataclass(frozen=True)
class EffectGroup:
    """The cards that share an effect keyword and the same parameters (e.g. Life alone is
    ``discard_extreme {colour: green, which: highest}``)."""

    effect: str
    params: Mapping[str, str]
    values: tuple[int, ...]


class SymbolicDeck:
    """Predicates over a symbolic card value, read from a catalogue."""

    def __init__(self, catalogue: Catalogue, ctx: z3.Context) -> None:
        self.catalogue = catalogue
        self.ctx = ctx
        self.values: tuple[int, ...] = tuple(catalogue)
        groups: dict[tuple[str, tuple[tuple[str, str], ...]], list[int]] = {}
        for card in catalogue.values():
            key = (card.effect, tuple(sorted(card.params.items())))
            groups.setdefault(key, []).append(card.value)
        self.groups: tuple[EffectGroup, ...] = tuple(
            EffectGroup(effect, dict(params), tuple(values))
            for (effect, params), values in sorted(groups.items())
        )

    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def member(self, value: z3.ArithRef, values: Iterable[int]) -> z3.BoolRef:
        """``value`` is one of ``values`` (written as a disjunction of ranges)."""
        parts: list[z3.BoolRef] = []
        for low, high in intervals(values):
            if low == high:
                parts.append(value == low)
            else:
                parts.append(z3.And(value >= low, value <= high))
        if not parts:
            return self.false()
        return parts[0] if len(parts) == 1 else z3.Or(*parts)

    def where(self, value: z3.ArithRef, **facts: str) -> z3.BoolRef:
        """``value`` is a card whose catalogue fields equal ``facts`` (e.g. ``effect="fear"``)."""
        return self.member(value, [c.value for c in self.catalogue.values() if _matches(c, facts)])

    def in_deck(self, value: z3.ArithRef) -> z3.BoolRef:
        """The value is a card of the deck (rules file 000, "Components": values 1-35)."""
        return self.member(value, self.values)

    def colour(self, value: z3.ArithRef, colour: str) -> z3.BoolRef:
        """The card counts as ``colour`` ("any": every card). Multi-coloured cards (Malice)
        count as each of their colours."""
        if colour == "any":
            return self.in_deck(value)
        return self.member(value, [c.value for c in self.catalogue.values() if colour in c.colours])

    def effect(self, value: z3.ArithRef, keyword: str) -> z3.BoolRef:
        """The card's effect keyword is ``keyword``."""
        return self.member(value, self.catalogue.with_effect(keyword))

    def timing(self, value: z3.ArithRef, timing: str) -> z3.BoolRef:
        return self.member(value, [c.value for c in self.catalogue.values() if c.timing == timing])

    def in_group(self, value: z3.ArithRef, group: EffectGroup) -> z3.BoolRef:
        return self.member(value, group.values)

    def groups_of(self, effect: str) -> tuple[EffectGroup, ...]:
        return tuple(group for group in self.groups if group.effect == effect)

    def card(self, value: int) -> Card:
        return self.catalogue[value]


def _matches(card: Card, facts: Mapping[str, str]) -> bool:
    return all(str(getattr(card, key)) == wanted for key, wanted in facts.items())


class SymbolicRules:
    """Every named rule option as a z3 integer over the indexes of its settings."""

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self.specs = {spec.name: spec for spec in option_specs()}
        self.settings: dict[str, tuple[str, ...]] = {
            name: tuple(spec.settings) for name, spec in self.specs.items()
        }
        self.vars: dict[str, z3.ArithRef] = {
            name: z3.Int(f"rule.{name}", ctx) for name in self.specs
        }
        self.used: set[str] = set()
        """The options the model has read so far (a test checks every option is accounted
        for: read by the model, or left to the bounded checks of play)."""

    def index(self, name: str, setting: str) -> int:
        """The index of a setting; an unknown option or setting is a definition error."""
        if name not in self.settings:
            raise KeyError(f"the symbolic model refers to an unknown rule option {name!r}")
        settings = self.settings[name]
        if setting not in settings:
            raise KeyError(
                f"the symbolic model refers to setting {setting!r} of rule option {name!r}, "
                f"which has the settings {', '.join(settings)}"
            )
        return settings.index(setting)

    def is_(self, name: str, setting: str) -> z3.BoolRef:
        """The option ``name`` is set to ``setting``."""
        index = self.index(name, setting)
        self.used.add(name)
        return self.vars[name] == index

    def domain(self) -> list[z3.BoolRef]:
        """Every option takes one of its settings."""
        return [z3.And(var >= 0, var < len(self.settings[name])) for name, var in self.vars.items()]

    def pin(self, rules: OmensRules, names: Sequence[str] | None = None) -> list[z3.BoolRef]:
        """Fix the options (all of them, or ``names``) to the settings of ``rules``."""
        chosen = rules.as_dict()
        return [self.is_(name, chosen[name]) for name in (names or self.vars)]

    def read(self, model: z3.ModelRef) -> OmensRules:
        """The concrete options of a model (options the query left free read as the default)."""
        overrides: dict[str, str] = {}
        for name, var in self.vars.items():
            raw = model.eval(var, model_completion=False)
            if not z3.is_int_value(raw):
                continue
            index = raw.as_long()
            if 0 <= index < len(self.settings[name]):
                overrides[name] = self.settings[name][index]
        return make_rules(None, overrides)
