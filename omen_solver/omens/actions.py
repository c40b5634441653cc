"""Omens actions and their canonical notation (``docs/omens-notation.md``).

An action is a small value object; its text form is canonical and parses back to the same
action. Seats are numbered from 1 in text and from 0 inside the library.

====================  ==========================================================================
text                  meaning
====================  ==========================================================================
``2:18``              seat 2 plays card 18 in front of themselves, no further choice
``1:15 lower``        seat 1 plays Law and chooses "lower" (``higher`` likewise)
``1:21>3``            seat 1 plays Dream in front of seat 3
``3:9>1``             seat 3 places card 9 in front of seat 1 (Dream's placement)
``1:28 return 14``    seat 1 plays Wrath and sends card 14 back to its player's hand
``1:29 take 14 give 7``  Betrayal: take card 14 into hand, give card 7 in its place
``1:23 swap 14``      Jealousy swaps places with card 14
``1:24 ask 3``        Secret: seat 3 must show seat 1 a card
``1:24 show 3 9``     Secret: seat 1 shows card 9 to seat 3
``1:31 with 3``       The Absolute: exchange a card with seat 3
``3:resolve 15 lower``   seat 3 resolves the effect of card 15 placed in front of them by
                      someone else (the choice words are those of the card's effect)
``3:shows 9``         seat 3 shows card 9 (answering Secret's ``ask``)
``3:gives 22``        seat 3's card in The Absolute's exchange
``2:discards 7``      seat 2 discards card 7 because of Luck
``deal 14 to 2``      chance: card 14 is dealt to seat 2
====================  ==========================================================================

At a simultaneous node (The Absolute's secret exchange) the joint action is the two players'
actions joined by ``&``: ``1:gives 9 & 3:gives 22``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from omen_solver.errors import CardNameError, InvalidActionError, UnknownChoiceError, shown
from omen_solver.omens.vocabulary import CHOICE_ARGS, Arg, ChoiceWord, NotationWord

__all__ = ["CardReader", "Choice", "OmensAction", "Verb", "format_action", "parse_action"]


class Verb(enum.IntEnum):
    """What an action does."""

    PLAY = 0
    """Place a card from hand (a normal turn, Dream's placement or Wrath's replay)."""
    RESOLVE = 1
    """Make the choices of an immediate card placed by someone else."""
    SHOWS = 2
    """Show a card from hand (answering Secret)."""
    GIVES = 3
    """Give a card in The Absolute's exchange."""
    DISCARDS = 4
    """Discard a card from hand because of Luck."""
    DEAL = 5
    """Chance: a card is dealt to a seat."""


Choice = tuple[str, ...] | tuple[str, int] | tuple[str, int, int]
"""The choice of an immediate effect: a keyword and its numbers (card values, 0-based seats)."""

_VERB_WORDS: dict[Verb, NotationWord] = {
    Verb.RESOLVE: NotationWord.RESOLVE,
    Verb.SHOWS: NotationWord.SHOWS,
    Verb.GIVES: NotationWord.GIVES,
    Verb.DISCARDS: NotationWord.DISCARDS,
}
"""The word after ``SEAT:`` of the verbs that have one."""
_WORD_VERBS: dict[str, Verb] = {word: verb for verb, word in _VERB_WORDS.items()}

CardReader = Callable[[str], int]
"""Reads a card written by its name (``Luck``) to its value, raising
:class:`~omen_solver.errors.CardNameError` on a name the deck does not have; a state passes
its catalogue's (:meth:`~omen_solver.omens.cards.Catalogue.value_of`)."""


@dataclass(frozen=True, slots=True, order=True)
class OmensAction:
    """One Omens action. ``to`` is the seat the card is placed in front of, -1 for oneself.

    Seats are indexed from 0 here, as everywhere inside the library; ``str(action)`` is the
    canonical text, with seats from 1 (``"2:18"``), and ``repr`` is code that makes the action
    again from that text. An action is a value, not a sequence: ``json.dumps`` refuses it
    (give ``default=str``, or :meth:`to_json`, for its text)."""

    verb: Verb
    seat: int
    card: int
    to: int = -1
    choice: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        return format_action(self)

    def __repr__(self) -> str:
        return f"OmensAction.from_text({format_action(self)!r})"

    @staticmethod
    def from_text(text: str) -> OmensAction:
        """The action written ``text`` in canonical notation (syntax only, as
        :func:`parse_action`)."""
        return parse_action(text)

    def to_json(self) -> str:
        """The canonical text, which :meth:`from_text` reads back."""
        return format_action(self)

    def sort_key(self) -> tuple[int, int, int, int, tuple[Any, ...]]:
        """The order of legal actions: verb, seat, card, target, then the choice (by keyword,
        then numerically)."""
        return (self.verb, self.seat, self.card, self.to, self.choice)


def _format_choice(choice: tuple[str | int, ...]) -> str:
    if not choice:
        return ""
    keyword = ChoiceWord(str(choice[0]))
    values = iter(choice[1:])
    words: list[str] = [keyword]
    for kind in CHOICE_ARGS[keyword]:
        if kind is Arg.CARD:
            words.append(str(next(values)))
        elif kind is Arg.SEAT:
            words.append(str(int(next(values)) + 1))
        else:
            words.append(kind)
    return " " + " ".join(words)


def format_action(action: OmensAction) -> str:
    """The canonical text of an action."""
    verb, seat, card, to, choice = action.verb, action.seat, action.card, action.to, action.choice
    if verb is Verb.DEAL:
        return f"{NotationWord.DEAL} {card} {NotationWord.TO} {seat + 1}"
    head = f"{seat + 1}:"
    if verb is Verb.PLAY:
        target = f">{to + 1}" if to >= 0 else ""
        return f"{head}{card}{target}{_format_choice(choice)}"
    if verb is Verb.RESOLVE:
        return f"{head}{NotationWord.RESOLVE} {card}{_format_choice(choice)}"
    return f"{head}{_VERB_WORDS[verb]} {card}"


# ASCII digits only: ``\d`` would also accept "²" or full-width "５" (which int() reads as 5).
_HEAD = re.compile(r"^\s*([0-9]+)\s*:\s*(.*?)\s*$")
_DEAL = re.compile(rf"^\s*{NotationWord.DEAL}\s+(\S+)\s+{NotationWord.TO}\s+([0-9]+)\s*$")
_PLAY = re.compile(r"^([^>]+?)(?:>([0-9]+))?$")
MAX_DIGITS = 9
"""The longest number the notation reads (no seat or card value comes near it)."""


def _number(text: str, word: str, what: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise InvalidActionError(f"{shown(text)}: expected {what}, found {shown(word)}")
    if len(word) > MAX_DIGITS:
        raise InvalidActionError(f"{shown(text)}: {what} of {len(word)} digits is too large")
    return int(word)


def _card(text: str, word: str, cards: CardReader | None) -> int:
    """A card: its value, or (with a catalogue to read it by) its name, in any case."""
    if cards is None or (word.isascii() and word.isdigit()):
        return _number(text, word, "a card value")
    try:
        return cards(word)
    except CardNameError as error:
        raise InvalidActionError(f"{shown(text)}: {error}", value=word,
                                 problem=str(error)) from None


def _parse_choice(text: str, words: list[str], cards: CardReader | None
                  ) -> tuple[str | int, ...]:
    if not words:
        return ()
    try:
        keyword = ChoiceWord(words[0])
    except ValueError:
        raise UnknownChoiceError(
            f"{shown(text)}: unknown choice {words[0]!r}; expected one of "
            f"{', '.join(CHOICE_ARGS)}", value=words[0],
        ) from None
    pattern = CHOICE_ARGS[keyword]
    rest = words[1:]
    if len(rest) != len(pattern):
        expected = " ".join([keyword, *(p.value if isinstance(p, Arg) else p for p in pattern)])
        raise InvalidActionError(f"{shown(text)}: the choice is written {expected!r}")
    values: list[str | int] = [keyword]
    for kind, word in zip(pattern, rest, strict=True):
        if kind is Arg.CARD:
            values.append(_card(text, word, cards))
        elif kind is Arg.SEAT:
            values.append(_number(text, word, "a seat number") - 1)
        elif word != kind:
            raise InvalidActionError(f"{shown(text)}: expected {kind!r}, found {shown(word)}")
    return tuple(values)


def parse_action(text: str, cards: CardReader | None = None) -> OmensAction:
    """Read an action in canonical notation (syntax only: legality is the state's business).
    With ``cards`` (a state passes its catalogue's), a card may also be written by its name,
    in any case (``1:Luck``, ``1:Wrath return Luck``).

    Raises :class:`InvalidActionError` naming the text and what is wrong.
    """
    deal = _DEAL.match(text)
    if deal:
        seat = _number(text, deal.group(2), "a seat number") - 1
        if seat < 0:
            raise InvalidActionError(f"{shown(text)}: seats are numbered from 1")
        return OmensAction(Verb.DEAL, seat, _card(text, deal.group(1), cards))
    head = _HEAD.match(text)
    if not head:
        raise InvalidActionError(
            f"{shown(text)}: an action starts with a seat and a colon, e.g. '2:18' or '1:15 lower'"
        )
    seat = _number(text, head.group(1), "a seat number") - 1
    if seat < 0:
        raise InvalidActionError(f"{shown(text)}: seats are numbered from 1")
    words = head.group(2).split()
    if not words:
        raise InvalidActionError(f"{shown(text)}: nothing after the colon")
    first = words[0]
    verb = _WORD_VERBS.get(first)
    if verb is not None and verb is not Verb.RESOLVE:
        if len(words) != 2:
            raise InvalidActionError(f"{shown(text)}: write '{seat + 1}:{first} CARD'")
        return OmensAction(verb, seat, _card(text, words[1], cards))
    if verb is Verb.RESOLVE:
        if len(words) < 2:
            raise InvalidActionError(f"{shown(text)}: write '{seat + 1}:{first} CARD CHOICE...'")
        card = _card(text, words[1], cards)
        return OmensAction(Verb.RESOLVE, seat, card, -1, _parse_choice(text, words[2:], cards))
    play = _PLAY.match(first)
    if not play or (cards is None and not play.group(1).isdigit()):
        raise InvalidActionError(
            f"{shown(text)}: expected a card value (optionally '>SEAT'), found {shown(first)}"
        )
    to = _number(text, play.group(2), "a seat number") - 1 if play.group(2) else -1
    if play.group(2) and to < 0:
        raise InvalidActionError(f"{shown(text)}: seats are numbered from 1")
    card = _card(text, play.group(1), cards)
    return OmensAction(Verb.PLAY, seat, card, to, _parse_choice(text, words[1:], cards))
