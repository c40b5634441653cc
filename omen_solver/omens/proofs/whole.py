"""Running the whole-bout model (:mod:`~omen_solver.omens.proofs.play`) concretely and building
it symbolically.

* :func:`run_concrete` plays one bout with given choices (the engine's, in the differential
  tests) and returns the record with Python values.
* :func:`build_symbolic` builds the bout over symbolic tables, leaders, hands, option settings,
  broken rules and choices in a fresh z3 context; :class:`SymbolicBout` holds the terms and the
  facts every query assumes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import z3

from omen_solver.core.smt import make_context
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.deck import Deck
from omen_solver.omens.proofs.ops import Concrete, Symbolic
from omen_solver.omens.proofs.play import SEAT, BoutTrace, Choices, Inputs, Options, play_bout
from omen_solver.omens.rules import OmensRules, make_rules, option_specs

__all__ = [
    "DEFAULT_STEPS",
    "UNMODELLED_OPTIONS",
    "GivenChoices",
    "RuleSettings",
    "SymbolicBout",
    "build_symbolic",
    "run_concrete",
]

DEFAULT_STEPS: Final = 9
"""Placements the symbolic model holds: six turns and three more (a Dream placement under
``plays_again``, Wrath's replacement, Betrayal's gift, or a chain of them)."""

_OPTIONS: Final = {spec.name: tuple(spec.settings) for spec in option_specs()}

UNMODELLED_OPTIONS: Final[dict[str, str]] = {
    "absolute_exchange": "who sees the cards The Absolute's exchange moves, not which cards move",
    "luck_chooser": "who chooses the card Luck discards, not which cards may be discarded",
    "reshuffle_absolutes": "the deal of a new round, which comes after the bout",
}
"""The rule options the whole-bout model does not read, and why: every other one is read
(a test checks it). What these decide is compared with the engine by the option witnesses
and the regression vectors instead."""


class GivenChoices(Choices):
    """Choices read from a mapping ``(step, name) -> value`` (0 / False when absent)."""

    def __init__(self, given: Mapping[tuple[int, str], Any]) -> None:
        self.given = given

    def card(self, step: int, name: str) -> Any:
        return int(self.given.get((step, name), 0))

    def seat(self, step: int, name: str) -> Any:
        return int(self.given.get((step, name), 0))

    def flag(self, step: int, name: str) -> Any:
        return bool(self.given.get((step, name), False))


class RuleSettings(Options):
    """Concrete option settings and broken rules."""

    def __init__(self, rules: OmensRules, broken: Iterable[Broken] = ()) -> None:
        self.rules = rules.as_dict()
        self.broken_rules = frozenset(Broken(rule) for rule in broken)

    def is_(self, name: str, setting: str) -> bool:
        _check_setting(name, setting)
        return bool(self.rules[name] == setting)

    def broken(self, rule: Broken) -> bool:
        return rule in self.broken_rules


def _check_setting(name: str, setting: str) -> None:
    if name not in _OPTIONS:
        raise KeyError(f"the model refers to an unknown rule option {name!r}")
    if setting not in _OPTIONS[name]:
        raise KeyError(
            f"the model refers to setting {setting!r} of rule option {name!r}, which has the "
            f"settings {', '.join(_OPTIONS[name])}"
        )


def run_concrete(
    deck: Deck,
    rules: OmensRules,
    players: int,
    leader: int,
    hands: Iterable[int],
    choices: Mapping[tuple[int, str], Any],
    *,
    steps: int = 64,
    broken: Iterable[Broken] = (),
    teams: Sequence[Sequence[int]] = (),
    rounds_won: Sequence[int] = (),
) -> BoutTrace:
    """Play one bout in the model: hands as card masks per seat, leader 0-based; ``teams``
    as 0-based seats (each player alone if none are given) and the rounds each has won."""
    masks = list(hands)
    groups = [list(team) for team in teams] or [[seat] for seat in range(players)]
    mates = [0] * 6
    laurels = 0
    for team, won in zip(groups, [*rounds_won, *[0] * len(groups)], strict=False):
        mask = sum(1 << seat for seat in team)
        for seat in team:
            mates[seat] = mask
        laurels |= mask if won else 0
    inputs = Inputs(
        (1 << players) - 1,
        1 << leader,
        tuple(masks + [0] * (6 - len(masks))),
        tuple(mates),
        laurels,
    )
    return play_bout(
        Concrete(), deck, RuleSettings(rules, broken), inputs, GivenChoices(choices), steps
    )


class SymbolicChoices(Choices):
    """A fresh z3 variable for every decision."""

    def __init__(self, o: Symbolic) -> None:
        self.o = o
        self.made: dict[tuple[int, str], Any] = {}

    def _var(self, step: int, name: str, make: Any) -> Any:
        key = (step, name)
        if key not in self.made:
            self.made[key] = make(f"{name}[{step}]")
        return self.made[key]

    def card(self, step: int, name: str) -> Any:
        return self._var(step, name, self.o.card_var)

    def seat(self, step: int, name: str) -> Any:
        return self._var(step, name, self.o.seat_var)

    def flag(self, step: int, name: str) -> Any:
        return self._var(step, name, self.o.flag_var)


class SymbolicOptions(Options):
    """Each option is a ladder of z3 booleans, one fewer than its settings: setting ``k`` is the
    first ``k`` true and the next one false (a two-setting option is one boolean, true for its
    second setting). Every assignment of the booleans names one setting, so no domain fact is
    needed. Each broken rule is a z3 boolean (true: broken)."""

    def __init__(self, o: Symbolic) -> None:
        self.ladders = {
            name: tuple(
                o.flag_var(f"rule.{name}" if len(settings) == 2 else f"rule.{name}.{k}")
                for k in range(1, len(settings))
            )
            for name, settings in _OPTIONS.items()
        }
        self.broken_vars = {rule: o.flag_var(f"broken.{rule.value}") for rule in Broken}
        self.used: set[str] = set()

    def is_(self, name: str, setting: str) -> Any:
        _check_setting(name, setting)
        self.used.add(name)
        ladder = self.ladders[name]
        index = _OPTIONS[name].index(setting)
        parts = list(ladder[:index])
        if index < len(ladder):
            parts.append(z3.Not(ladder[index]))
        return parts[0] if len(parts) == 1 else z3.And(*parts)

    def assignment(self, name: str, setting: str) -> list[tuple[Any, bool]]:
        """The booleans' values that name ``setting`` of option ``name``."""
        _check_setting(name, setting)
        index = _OPTIONS[name].index(setting)
        return [(var, k < index) for k, var in enumerate(self.ladders[name])]

    def broken(self, rule: Broken) -> Any:
        return self.broken_vars[rule]

    def pin_broken(self, broken: Iterable[Broken] = ()) -> list[Any]:
        """Facts fixing every broken rule: those given broken, the others not."""
        chosen = set(broken)
        return [var if rule in chosen else z3.Not(var) for rule, var in self.broken_vars.items()]

    def pin(self, rules: Mapping[str, str]) -> list[Any]:
        """Facts fixing some options."""
        return [self.is_(name, setting) for name, setting in rules.items()]

    def read(self, model: Any) -> OmensRules:
        """The settings of a z3 model (options left free read as their defaults)."""
        chosen = {}
        for name, ladder in self.ladders.items():
            setting = _read_ladder(model, ladder)
            if setting is not None:
                chosen[name] = _OPTIONS[name][setting]
        return make_rules(None, chosen)


def _read_ladder(model: Any, ladder: Sequence[Any]) -> int | None:
    """The setting a model gives a ladder of booleans (None: the model leaves it open)."""
    for index, var in enumerate(ladder):
        value = model.eval(var, model_completion=False)
        if z3.is_false(value):
            return index
        if not z3.is_true(value):
            return None
    return len(ladder)


@dataclass
class SymbolicBout:
    """The whole bout over symbolic inputs, options and choices, in one z3 context."""

    ctx: z3.Context
    o: Symbolic
    deck: Deck
    options: SymbolicOptions
    choices: SymbolicChoices
    trace: BoutTrace
    players: Any
    """A z3 integer: the number of players (4 to 6), tied to ``trace.inputs.table``."""
    facts: list[Any] = field(default_factory=list)
    """Well-formed inputs and legal choices: what every query assumes."""

    def broken_facts(self, broken: Iterable[Broken] = ()) -> list[Any]:
        """Pin every broken rule: those named broken, the others not."""
        return self.options.pin_broken(broken)


def build_symbolic(
    steps: int = DEFAULT_STEPS, catalogue: Catalogue | None = None, ctx: z3.Context | None = None
) -> SymbolicBout:
    """The symbolic bout (see the module doc)."""
    ctx = ctx if ctx is not None else make_context()
    o = Symbolic(ctx)
    deck = Deck(catalogue or default_catalogue())
    options = SymbolicOptions(o)
    choices = SymbolicChoices(o)
    table = o.seat_var("table")
    leader = o.seat_var("leader")
    hands = tuple(o.card_var(f"hand[{s + 1}]") for s in range(len(SEAT)))
    mates = tuple(o.seat_var(f"team[{s + 1}]") for s in range(len(SEAT)))
    laurels = o.seat_var("laurels")
    players = z3.Int("players", ctx)
    facts = [
        z3.Or(*[z3.And(players == p, table == (1 << p) - 1) for p in (4, 5, 6)]),
        o.pick(leader, table),
    ]
    for s, hand in enumerate(hands):
        facts.append(hand & ~deck.all == 0)
        facts.append(z3.Implies(table & SEAT[s] == 0, hand == 0))
        facts += [hand & other == 0 for other in hands[s + 1 :]]
    trace = play_bout(
        o, deck, options, Inputs(table, leader, hands, mates, laurels), choices, steps
    )
    facts += list(trace.legal)
    facts += list(trace.teams)
    return SymbolicBout(ctx, o, deck, options, choices, trace, players, facts)
