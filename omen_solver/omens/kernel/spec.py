"""A table compiled for the search kernel: cards as bit positions, rule options as constants.

The kernel plays exactly the rules of :mod:`omen_solver.omens.state` (the explaining engine),
on integers. Cards are numbered by rank (0 for the lowest value of the catalogue, 1 for the
next, ...), so a hand is an ``int`` bit set and "higher than" is "a higher bit"; every rule that
compares cards compares values, and ranks keep their order. Rule options become small integer
constants, checked once here: a setting the kernel does not know is refused with
:class:`KernelUnsupported` (the caller then uses the explaining engine), never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from omen_solver.core.options import Setting
from omen_solver.errors import KernelUnsupported
from omen_solver.omens.cards import COLOURS
from omen_solver.omens.rules import (
    AbsoluteExchange,
    AbsoluteTiming,
    BetrayalGiveBack,
    CardOwner,
    DreamTargetTurn,
    ExtremeIncludesSelf,
    FearPassOn,
    JealousyOwnCard,
    LawAfterJealousy,
    LawBinds,
    LawWhenLast,
    LuckChooser,
    LuckTiming,
    NowResolver,
    OmensRules,
    PrideNextRound,
    ReturnTo,
    SadnessLoneCard,
    WrathReplay,
    ZeroCards,
    option_specs,
)
from omen_solver.omens.table import Scope, Table
from omen_solver.omens.vocabulary import Effect

__all__ = ["EFFECT_CODES", "MAX_CARDS", "KernelUnsupported", "Spec", "compile_table"]

MAX_CARDS: Final = 64
"""Hands are 64-bit sets in the compiled kernel."""

# Effect codes: the declaration's order (omens/vocabulary.py Effect).
E_NONE, E_EXTREME, E_ALL, E_SELF_IF, E_FEAR, E_LUCK, E_MIRROR, E_SADNESS, E_PRIDE = range(9)
E_LAW, E_DREAM, E_JEALOUSY, E_SECRET, E_WRATH, E_BETRAYAL, E_ABSOLUTE = range(9, 16)

EFFECT_CODES: Final[Mapping[str, int]] = {effect: code for code, effect in enumerate(Effect)}
"""Each effect keyword's code (tests/package/test_vocabulary.py: the same as the C kernel's)."""

# discard_self_if conditions.
C_OTHER_OF_COLOUR, C_NO_OTHER_OF_COLOUR, C_LOWEST, C_EFFECT_IN_PLAY = range(4)
_CONDITIONS: Final = {
    "other_of_colour": C_OTHER_OF_COLOUR,
    "no_other_of_colour": C_NO_OTHER_OF_COLOUR,
    "lowest_in_play": C_LOWEST,
    "effect_in_play": C_EFFECT_IN_PLAY,
}

SCOPE_BOUT, SCOPE_ROUND, SCOPE_GAME = range(3)
_SCOPES: Final = {Scope.BOUT: SCOPE_BOUT, Scope.ROUND: SCOPE_ROUND, Scope.GAME: SCOPE_GAME}

OPTION_SETTINGS: Final[Mapping[str, tuple[str, ...]]] = {
    spec.name: tuple(spec.settings) for spec in option_specs()
}
"""The settings of every Omens rule option, by option (the declaration's, omens/rules.py): the
kernel plays every setting of every option."""

PRIDE_CODES: Final[Mapping[PrideNextRound, int]] = {
    PrideNextRound.NO: 0,
    PrideNextRound.YES: 1,
    PrideNextRound.UNLESS_LUCK: 2,
    PrideNextRound.UNLESS_LUCK_DISCARDED: 3,
}
"""``pride_next_round`` as the kernels read it (``machine.next_round_leader``)."""

OPTION_FLAGS: Final[Mapping[str, Setting]] = {
    "absolute_end": AbsoluteTiming.END,
    "exchange_open": AbsoluteExchange.OPEN,
    "law_turns_only": LawBinds.TURNS_ONLY,
    "law_ends_on_jealousy": LawAfterJealousy.ENDS,
    "law_skip_when_last": LawWhenLast.SKIP,
    "wrath_replay_allowed": WrathReplay.ALLOWED,
    "jealousy_own_forbidden": JealousyOwnCard.FORBIDDEN,
    "dream_plays_again": DreamTargetTurn.PLAYS_AGAIN,
    "resolver_placer": NowResolver.PLACER,
    "give_back_forbidden": BetrayalGiveBack.FORBIDDEN,
    "owner_placer": CardOwner.PLACER,
    "return_placer": ReturnTo.PLACER,
    "sadness_no_winner": SadnessLoneCard.DISCARDED_NO_WINNER,
    "fear_pass_on": FearPassOn.YES,
    "luck_random": LuckChooser.RANDOM,
    "luck_after_return": LuckTiming.AFTER_RETURN,
    "zero_any": ZeroCards.ANY,
    "pride_next_round": PrideNextRound.YES,
    "extreme_excludes_self": ExtremeIncludesSelf.NO,
}
"""The options as the kernels read them, in the order the compiled kernel takes them
(``_ckernel.c``: ``spec_from_py``, ``opt[0]`` to ``opt[18]``): each a flag set by one
setting, but ``pride_next_round``, a code (:data:`PRIDE_CODES`). Every option of the
declaration but ``reshuffle_absolutes`` (played by the engine's deals, which the kernel does not
make) is here (tests/package/test_vocabulary.py)."""


@dataclass(frozen=True, eq=False)
class Spec:
    """Everything the kernel needs about a game, as integers."""

    table: Table
    players: int
    n: int
    """Number of cards in the catalogue."""
    values: tuple[int, ...]
    """Card value of each rank."""
    rank: Mapping[int, int]
    """Rank of each card value."""
    effect: tuple[int, ...]
    """Effect code of each rank."""
    colour_of: tuple[int, ...]
    """Colour bits of each rank (bit k: colour ``COLOURS[k]``)."""
    colour_mask: tuple[int, ...]
    """Per colour index (0-3, and 4 for "any"): the bit set of the ranks of that colour."""
    param_colour: tuple[int, ...]
    """Per rank: the colour index its effect names (4 for "any"), or -1."""
    param_highest: tuple[bool, ...]
    """Per rank: ``discard_extreme`` picks the highest (else the lowest)."""
    param_condition: tuple[int, ...]
    param_effect: tuple[int, ...]
    """Per rank: the effect code ``effect_in_play`` looks for, or -1."""
    now_mask: int
    """Ranks of the cards resolved when played (The Absolute only with ``absolute_timing=now``)."""
    fear_mask: int
    effect_mask: tuple[int, ...]
    """Per effect code: the bit set of its ranks."""
    full: int
    teams: tuple[tuple[int, ...], ...]
    team_of: tuple[int, ...]
    scope: int
    options: Mapping[str, int]
    # The options, one attribute each (read on every move).
    absolute_end: bool
    exchange_open: bool
    law_turns_only: bool
    law_ends_on_jealousy: bool
    law_skip_when_last: bool
    wrath_replay_allowed: bool
    jealousy_own_forbidden: bool
    dream_plays_again: bool
    resolver_placer: bool
    give_back_forbidden: bool
    owner_placer: bool
    return_placer: bool
    sadness_no_winner: bool
    fear_pass_on: bool
    luck_random: bool
    luck_after_return: bool
    zero_any: bool
    pride_next_round: int
    extreme_excludes_self: bool

    def as_tuple(self) -> tuple[object, ...]:
        """The spec as the compiled kernel reads it (``_ckernel.c``: ``spec_from_py``)."""
        options = tuple(getattr(self, name) for name in OPTION_FLAGS)
        return (
            self.players, self.n, self.scope, self.effect,
            tuple(max(c, 0) for c in self.param_colour), tuple(map(int, self.param_highest)),
            tuple(max(c, 0) for c in self.param_condition),
            tuple(max(c, 0) for c in self.param_effect), self.colour_mask, self.effect_mask,
            self.now_mask, self.fear_mask, self.full, self.team_of,
            tuple(int(option) for option in options),
        )

    def above(self, rank: int) -> int:
        """The ranks higher than ``rank``."""
        return self.full & ~((2 << rank) - 1)

    def below(self, rank: int) -> int:
        """The ranks lower than ``rank``."""
        return (1 << rank) - 1

    def mask_of(self, values: object) -> int:
        """The bit set of some card values."""
        mask = 0
        for value in values:  # type: ignore[attr-defined]
            mask |= 1 << self.rank[value]
        return mask

    def values_of(self, mask: int) -> tuple[int, ...]:
        """The card values of a bit set, ascending."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.values[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


def _option_codes(table: Table) -> dict[str, int]:
    """Each option's setting as its index among the declared settings; an option set from
    another declaration is refused, never guessed."""
    codes: dict[str, int] = {}
    for name, settings in OPTION_SETTINGS.items():
        setting = getattr(table.rules, name, None)
        if setting not in settings:
            raise KernelUnsupported(
                f"the search kernel does not play rule option {name} = {setting!r} "
                f"(it plays {', '.join(settings)})"
            )
        codes[name] = settings.index(setting)
    for field in type(table.rules).__dataclass_fields__:
        if field not in OPTION_SETTINGS:
            raise KernelUnsupported(f"the search kernel does not know rule option {field!r}")
    return codes


def _flags(rules: OmensRules) -> dict[str, bool | int]:
    """The options as the kernels read them (:data:`OPTION_FLAGS`)."""
    flags: dict[str, bool | int] = {name: rules.setting(setting)
                                    for name, setting in OPTION_FLAGS.items()}
    flags["pride_next_round"] = PRIDE_CODES[rules.pride_next_round]
    return flags


def compile_table(table: Table, teams: tuple[tuple[int, ...], ...]) -> Spec:
    """Compile a table (and the teams of a position) for the kernel."""
    catalogue = table.catalogue
    values = tuple(sorted(catalogue))
    if len(values) > MAX_CARDS:
        raise KernelUnsupported(
            f"the search kernel plays catalogues of at most {MAX_CARDS} cards, "
            f"not {len(values)}"
        )
    rank = {value: index for index, value in enumerate(values)}
    colour_index = {colour: index for index, colour in enumerate(COLOURS)}
    effect, colour_of, param_colour, param_highest, param_condition, param_effect = (
        [], [], [], [], [], []
    )
    for value in values:
        card = catalogue[value]
        effect.append(EFFECT_CODES[card.effect])
        bits = 0
        for colour in card.colours:
            bits |= 1 << colour_index[colour]
        colour_of.append(bits)
        params = card.params
        param_colour.append(colour_index.get(params["colour"], 4) if "colour" in params else -1)
        param_highest.append(params.get("which") == "highest")
        condition = params.get("condition")
        param_condition.append(_CONDITIONS[condition] if condition is not None else -1)
        wanted = params.get("effect")
        param_effect.append(EFFECT_CODES[wanted] if wanted is not None else -1)
    full = (1 << len(values)) - 1
    colour_mask = [
        sum(1 << r for r in range(len(values)) if colour_of[r] >> k & 1) for k in range(4)
    ]
    colour_mask.append(full)
    effect_mask = tuple(
        sum(1 << r for r in range(len(values)) if effect[r] == code)
        for code in range(len(EFFECT_CODES))
    )
    codes = _option_codes(table)
    now_mask = sum(1 << rank[value] for value in table.now)
    team_of = [0] * table.players
    for index, team in enumerate(teams):
        for seat in team:
            team_of[seat] = index
    return Spec(
        table=table,
        players=table.players,
        n=len(values),
        values=values,
        rank=rank,
        effect=tuple(effect),
        colour_of=tuple(colour_of),
        colour_mask=tuple(colour_mask),
        param_colour=tuple(param_colour),
        param_highest=tuple(param_highest),
        param_condition=tuple(param_condition),
        param_effect=tuple(param_effect),
        now_mask=now_mask,
        fear_mask=effect_mask[E_FEAR],
        effect_mask=effect_mask,
        full=full,
        teams=teams,
        team_of=tuple(team_of),
        scope=_SCOPES[table.scope],
        options=codes,
        **_flags(table.rules),  # type: ignore[arg-type]
    )
