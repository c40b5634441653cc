"""Running the whole-bout model (:mod:`~omen_solver.omens.proofs.model.play`) on Python values,
and the rule options it reads.

:func:`run_concrete` plays one bout with given choices (the engine's, in the differential
tests) and returns the record with Python values; :class:`RuleSettings` gives it the option
settings and the broken rules, :class:`GivenChoices` the decisions. :data:`OPTION_SETTINGS` and
:func:`check_setting` are the options' vocabulary, shared with the symbolic build
(:mod:`~omen_solver.omens.proofs.model.symbolic`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.deck import Deck
from omen_solver.omens.proofs.model.ops import Concrete
from omen_solver.omens.proofs.model.play import play_bout
from omen_solver.omens.proofs.model.records import BoutTrace, Choices, Inputs, Options
from omen_solver.omens.rules import OmensRules, option_specs

__all__ = [
    "OPTION_SETTINGS",
    "UNMODELLED_OPTIONS",
    "GivenChoices",
    "RuleSettings",
    "check_setting",
    "run_concrete",
]

OPTION_SETTINGS: Final = {spec.name: tuple(spec.settings) for spec in option_specs()}
"""Every rule option and its settings (``docs/omens-options.md``)."""

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
        check_setting(name, setting)
        return bool(self.rules[name] == setting)

    def broken(self, rule: Broken) -> bool:
        return rule in self.broken_rules


def check_setting(name: str, setting: str) -> None:
    if name not in OPTION_SETTINGS:
        raise KeyError(f"the model refers to an unknown rule option {name!r}")
    if setting not in OPTION_SETTINGS[name]:
        raise KeyError(
            f"the model refers to setting {setting!r} of rule option {name!r}, which has the "
            f"settings {', '.join(OPTION_SETTINGS[name])}"
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
