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
from omen_solver.omens.proofs.deck import Deck
from omen_solver.omens.proofs.ops import Concrete, Symbolic
from omen_solver.omens.proofs.play import SEAT, BoutTrace, Choices, Inputs, Options, play_bout
from omen_solver.omens.rules import OmensRules, make_rules, option_specs

__all__ = [
    "BROKEN_RULES",
    "DEFAULT_STEPS",
    "GivenChoices",
    "RuleSettings",
    "SymbolicBout",
    "build_symbolic",
    "run_concrete",
]

DEFAULT_STEPS: Final = 9
"""Placements the symbolic model holds: six turns and three more (a Dream placement under
``plays_again``, Wrath's replacement, Betrayal's gift, or a chain of them)."""

BROKEN_RULES: Final[dict[str, str]] = {
    "law-binds-turns-only": "Law binds only normal turns, not Dream's placement, Wrath's "
    "replacement or Betrayal's gift (whatever option law_binds says)",
    "gift-resolved-by-giver": "Betrayal's gift is resolved by the Betrayal player, not by the "
    "player who receives it (whatever option now_resolver says)",
    "replacement-no-effect": "Wrath's replacement card is placed without its immediate effect",
    "absolute-give-only": "The Absolute's partner receives a card but gives none back",
    "law-survives-wrath": "Law's constraint survives Wrath sending Law back to a hand",
    "law-survives-betrayal": "Law's constraint survives Betrayal taking Law (until the gift is "
    "placed and after)",
    "jealousy-always-ends-law": "Jealousy moving Law always ends its constraint (whatever "
    "option law_after_jealousy says)",
    "jealousy-reapplies": "a card Jealousy takes acts again for Jealousy's player: Law taken "
    "by Jealousy has its direction chosen again (and reversed)",
    "wrath-loses-the-card": "the card Wrath sends back is lost instead of going back to the hand",
    "mirror-ignored": "Mirror has no effect: the highest card wins",
    "malice-no-colour": "a card printed in every colour (Malice) counts as no colour",
    "sadness-ignored": "Sadness has no effect: the highest card wins",
    "pass-on-ignored": "with fear_pass_on = yes an effect that would pick Fear discards "
    "nothing, as under 'no'",
    "winner-is-placer": "the bout is won by the player who placed the winning card, wherever "
    "it lies",
    "fear-unprotected": "Fear can be discarded by effects like any other card",
    "winner-kept": "the winning card is not discarded",
    "fear-kept-when-winning": "Fear is never discarded, not even as the winning card",
    "luck-by-placer": "Luck's discard falls on the player who placed Luck, wherever it lies",
    "return-to-placer": "cards not discarded go back to the player who placed them",
    "luck-zero-loses": "a player left with 0 cards by Luck does not win the round",
    "pride-over-round": "Pride's choice of leader also holds across the end of a round "
    "(whatever option pride_next_round says)",
    "game-after-one-round": "the first round a team wins also wins it the game",
    "round-for-winner-only": "a round won counts for the player who won it, not for their "
    "whole team (only their Player Aid turns to the laurel side)",
}
"""The deliberately wrong rules the model can be run with, in words."""

_OPTIONS: Final = {spec.name: tuple(spec.settings) for spec in option_specs()}


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

    def __init__(self, rules: OmensRules, broken: Iterable[str] = ()) -> None:
        self.rules = rules.as_dict()
        self.broken_rules = frozenset(broken)
        unknown = self.broken_rules - set(BROKEN_RULES)
        if unknown:
            raise KeyError(f"no broken rule named {sorted(unknown)}")

    def is_(self, name: str, setting: str) -> bool:
        _check_setting(name, setting)
        return bool(self.rules[name] == setting)

    def broken(self, name: str) -> bool:
        if name not in BROKEN_RULES:
            raise KeyError(f"no broken rule named {name!r}")
        return name in self.broken_rules


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
    broken: Iterable[str] = (),
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
        self.broken_vars = {name: o.flag_var(f"broken.{name}") for name in BROKEN_RULES}
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

    def broken(self, name: str) -> Any:
        if name not in BROKEN_RULES:
            raise KeyError(f"no broken rule named {name!r}")
        return self.broken_vars[name]

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

    def broken_facts(self, broken: Iterable[str] = ()) -> list[Any]:
        """Pin every broken rule: those named broken, the others not."""
        chosen = set(broken)
        return [
            var if name in chosen else z3.Not(var) for name, var in self.options.broken_vars.items()
        ]


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
