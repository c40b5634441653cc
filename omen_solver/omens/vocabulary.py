"""The words of Omens, declared once: effect keywords, choice words, the other words of the
notation, the kinds of decision the state waits for and the stages of the end of a bout.

Every module that speaks of one of them imports it from here: the engine, the search kernels
(whose integer codes follow the order of these declarations: ``kernel/machine.py`` and
``kernel/_ckernel_machine.h``, checked by ``tests/package/test_vocabulary.py``), the proofs,
the vectors and the web board. That test also fails on a second spelling of one of these words
anywhere in the package, so a word is changed here or nowhere.

Each word is a :class:`Word`, a :class:`enum.StrEnum`: it is equal to its text (and hashes
like it), is written as its text by ``str``, ``format`` and ``json``, and its ``repr`` is the
text's, so messages read as before.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "CHOICE_ARGS",
    "EFFECT_CHOICES",
    "PENDING_FIELDS",
    "Arg",
    "ChoiceWord",
    "Effect",
    "NotationWord",
    "PendingKind",
    "Slot",
    "Stage",
    "Word",
    "law_word",
]


class Word(enum.StrEnum):
    """A word of the game: equal to its text; ``repr`` is the text's (``'lower'``)."""

    def __repr__(self) -> str:
        return repr(self.value)


class Effect(Word):
    """The effect keywords of the card catalogue (``docs/omens-cards.md``; rules file 000,
    "Special Card Effects"), in the order of the kernels' effect codes."""

    NONE = "none"
    DISCARD_EXTREME = "discard_extreme"
    DISCARD_ALL = "discard_all"
    DISCARD_SELF_IF = "discard_self_if"
    FEAR = "fear"
    LUCK = "luck"
    MIRROR = "mirror"
    SADNESS = "sadness"
    PRIDE = "pride"
    LAW = "law"
    DREAM = "dream"
    JEALOUSY = "jealousy"
    SECRET = "secret"
    WRATH = "wrath"
    BETRAYAL = "betrayal"
    ABSOLUTE = "absolute"


class ChoiceWord(Word):
    """The first word of an immediate effect's choice (``1:15 lower``, ``1:28 return 14``;
    ``docs/omens-notation.md``), in the order legal actions sort by (and of the kernels' choice
    codes, from 1)."""

    ASK = "ask"
    HIGHER = "higher"
    LOWER = "lower"
    RETURN = "return"
    SHOW = "show"
    SWAP = "swap"
    TAKE = "take"
    WITH = "with"


class NotationWord(Word):
    """The other words of the notation: the verbs after ``SEAT:`` and the words of a deal and
    of Betrayal's gift."""

    RESOLVE = "resolve"
    SHOWS = "shows"
    GIVES = "gives"
    DISCARDS = "discards"
    DEAL = "deal"
    TO = "to"
    GIVE = "give"


class Arg(enum.Enum):
    """A number in a choice: a card value or a seat (written from 1)."""

    CARD = "CARD"
    SEAT = "SEAT"


CHOICE_ARGS: Final[Mapping[ChoiceWord, tuple[Arg | NotationWord, ...]]] = MappingProxyType({
    ChoiceWord.LOWER: (),
    ChoiceWord.HIGHER: (),
    ChoiceWord.RETURN: (Arg.CARD,),
    ChoiceWord.TAKE: (Arg.CARD, NotationWord.GIVE, Arg.CARD),
    ChoiceWord.SWAP: (Arg.CARD,),
    ChoiceWord.ASK: (Arg.SEAT,),
    ChoiceWord.SHOW: (Arg.SEAT, Arg.CARD),
    ChoiceWord.WITH: (Arg.SEAT,),
})
"""What follows each choice word: card values, seats, and the literal word ``give``."""

EFFECT_CHOICES: Final[Mapping[Effect, tuple[ChoiceWord, ...]]] = MappingProxyType({
    Effect.LAW: (ChoiceWord.LOWER, ChoiceWord.HIGHER),
    Effect.WRATH: (ChoiceWord.RETURN,),
    Effect.JEALOUSY: (ChoiceWord.SWAP,),
    Effect.BETRAYAL: (ChoiceWord.TAKE,),
    Effect.SECRET: (ChoiceWord.ASK, ChoiceWord.SHOW),
    Effect.ABSOLUTE: (ChoiceWord.WITH,),
})
"""The choice words of each effect that takes a choice when it resolves."""


def law_word(direction: int) -> ChoiceWord:
    """Law's constraint in words: ``higher`` for +1, ``lower`` for -1."""
    return ChoiceWord.HIGHER if direction > 0 else ChoiceWord.LOWER


class PendingKind(Word):
    """A decision the state waits for: an obligation ``(kind, seat, a, b)`` on its stack, the
    seat being the one who decides (:data:`PENDING_FIELDS` says what ``a`` and ``b`` hold). In
    the order of the kernels' codes."""

    DREAM = "dream"
    """Dream's target places a card in front of the dreamer: ``(DREAM, target, dreamer, 0)``."""
    REPLAY = "replay"
    """Wrath's replacement card: ``(REPLAY, seat, returned card, 0)``."""
    RESOLVE = "resolve"
    """The choices of a card placed by another player: ``(RESOLVE, resolver, card, 0)``."""
    SHOW = "show"
    """The answer to Secret's ``ask``: ``(SHOW, shower, viewer, 0)``."""
    EXCHANGE = "exchange"
    """The Absolute's secret, simultaneous exchange: ``(EXCHANGE, player, target, 0)``."""
    GIVE = "give"
    """The open exchange, the Absolute's player first: ``(GIVE, player, target, 0)``."""
    GIVE_BACK = "give_back"
    """The open exchange's answer: ``(GIVE_BACK, target, player, card given)``."""
    LUCK = "luck"
    """A card discarded from hand because of Luck: ``(LUCK, seat, 0, 0)``."""
    END_ABSOLUTE = "end_absolute"
    """The Absolute resolved at the end of the bout: ``(END_ABSOLUTE, seat, card, 0)``."""


class Slot(enum.Enum):
    """What a field of an obligation holds."""

    SEAT = "seat"
    CARD = "card"
    UNUSED = "unused"


PENDING_FIELDS: Final[Mapping[PendingKind, tuple[Slot, Slot]]] = MappingProxyType({
    PendingKind.DREAM: (Slot.SEAT, Slot.UNUSED),
    PendingKind.REPLAY: (Slot.CARD, Slot.UNUSED),
    PendingKind.RESOLVE: (Slot.CARD, Slot.UNUSED),
    PendingKind.SHOW: (Slot.SEAT, Slot.UNUSED),
    PendingKind.EXCHANGE: (Slot.SEAT, Slot.UNUSED),
    PendingKind.GIVE: (Slot.SEAT, Slot.UNUSED),
    PendingKind.GIVE_BACK: (Slot.SEAT, Slot.CARD),
    PendingKind.LUCK: (Slot.UNUSED, Slot.UNUSED),
    PendingKind.END_ABSOLUTE: (Slot.CARD, Slot.UNUSED),
})
"""What ``a`` and ``b`` of each kind of obligation hold (the seat is always the decider)."""


class Stage(Word):
    """The stages of the end of a bout, run in this order once the winner and the discards are
    known (rules file 000, "How a Bout Is Resolved"); in the order of the kernels' codes."""

    LUCK_BEFORE = "luck_before"
    RETURN = "return"
    LUCK_AFTER = "luck_after"
    EXCHANGES = "exchanges"
    CHECK = "check"
