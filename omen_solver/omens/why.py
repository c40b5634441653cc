"""Why an action is not legal here, in words and with the rule id that forbids it (rules file
000 and ``docs/omens-rules.md``), for the messages of :class:`~omen_solver.omens.state.OmensState`
when a person writes a move that the position does not allow.

The reasons are read off the position, most specific first: a decision the rules are waiting
for (a Luck discard, Wrath's replacement, a Dream placement, an answer to Secret...), whose turn
it is, a card not in hand, Law's constraint, then a card played with a target or a choice it
does not take here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from omen_solver.core.suggest import did_you_mean
from omen_solver.errors import InvalidActionError, UnknownChoiceError, shown
from omen_solver.omens.actions import OmensAction, Verb, format_action
from omen_solver.omens.vocabulary import EFFECT_CHOICES, Effect, PendingKind, law_word

if TYPE_CHECKING:
    from omen_solver.omens.state import OmensState

__all__ = ["CHOICE_RULES", "PENDING_RULES", "choice_error", "pending_text", "why_illegal"]

CHOICE_RULES: Final[dict[str, str]] = {
    Effect.LAW: "card.law.choose",
    Effect.WRATH: "card.wrath.return",
    Effect.JEALOUSY: "card.jealousy.swap",
    Effect.BETRAYAL: "card.betrayal.take",
    Effect.SECRET: "card.secret.choose",
    Effect.ABSOLUTE: "card.absolute.target",
}
"""The rule id of each effect's choice."""

_CARD = re.compile(r"^\s*[0-9]+\s*:\s*(?:\S+\s+)??([^\s>]+)(?:\s*>\s*[0-9]+)?\s+\S+")


def choice_error(state: OmensState, text: str, error: InvalidActionError) -> InvalidActionError:
    """A notation error about an unknown choice word, said with the words that card takes
    (``'1:15 up': unknown choice 'up'; Law (15) takes lower or higher``), or ``error``."""
    found = _CARD.match(text)
    if not isinstance(error, UnknownChoiceError) or found is None:
        return error
    table = state.table
    try:
        card = table.catalogue.value_of(found.group(1))
    except ValueError:
        return error
    words = EFFECT_CHOICES.get(Effect(table.effect[card]), ())
    head = f"{shown(text)}: unknown choice {error.value!r}"
    if not words:
        return UnknownChoiceError(f"{head}; {table.name(card)} takes no choice",
                                  value=error.value)
    hint = did_you_mean(str(error.value), words)
    return UnknownChoiceError(f"{head}; {table.name(card)} takes {' or '.join(words)}"
                              + (f": {hint}" if hint else ""), value=error.value)


PENDING_RULES: Final[dict[str, str]] = {
    PendingKind.DREAM: "card.dream.placement",
    PendingKind.REPLAY: "card.wrath.replay",
    PendingKind.RESOLVE: "bout.now",
    PendingKind.SHOW: "card.secret.show",
    PendingKind.EXCHANGE: "card.absolute.exchange",
    PendingKind.GIVE: "card.absolute.exchange",
    PendingKind.GIVE_BACK: "card.absolute.exchange",
    PendingKind.LUCK: "card.luck.discard",
    PendingKind.END_ABSOLUTE: "card.absolute.exchange",
}
"""The rule that asks for each kind of decision the state waits for (a test checks that
every kind is here)."""


def pending_text(state: OmensState, pending: tuple[str, int, int, int]) -> tuple[str, str]:
    """A decision the rules wait for, in words, and the rule id that asks for it."""
    kind, seat, a, b = pending
    name = state.table.name
    who = f"seat {seat + 1}"
    texts: dict[str, str] = {
        PendingKind.DREAM: f"{who} places a card from hand in front of seat {a + 1}, whose "
                           f"Dream chose {who}",
        PendingKind.REPLAY: f"{who} plays another card at once: Wrath sent {name(a)} back to "
                            f"{who}'s hand" if a in state.table.effect
                            else f"{who} plays another card at once (Wrath)",
        PendingKind.RESOLVE: f"{who} chooses how {name(a)} acts" if a in state.table.effect
                             else f"{who} chooses how a card acts",
        PendingKind.SHOW: f"{who} shows a card from hand to seat {a + 1}, who asked with Secret",
        PendingKind.EXCHANGE: f"{who} and seat {a + 1} each give a card, in secret and at "
                              "once: The Absolute's exchange",
        PendingKind.GIVE: f"{who} gives seat {a + 1} a card: The Absolute's exchange, in the "
                          "open",
        PendingKind.GIVE_BACK: f"{who} gives seat {a + 1} a card back for {name(b)}: The "
                               "Absolute's exchange, in the open" if b in state.table.effect
                               else f"{who} gives seat {a + 1} a card back: The Absolute's "
                               "exchange",
        PendingKind.LUCK: f"{who} discards a card from hand (never Fear): Luck was discarded "
                          f"in front of {who}",
        PendingKind.END_ABSOLUTE: f"{who} makes the exchange of {name(a)} now that the bout "
                                  "is over" if a in state.table.effect
                                  else f"{who} makes The Absolute's exchange",
    }
    return texts.get(kind, f"{who}: {kind}"), PENDING_RULES.get(kind, str(kind))


def why_illegal(state: OmensState, action: OmensAction) -> tuple[str, str | None] | None:
    """The rule that forbids ``action`` here: the reason in words (ending with its rule id in
    brackets) and the rule id, or ``None`` when no more specific reason than "not among the
    legal actions" is found."""
    found = _why(state, action)
    if found is None:
        return None
    words, rule = found
    return (f"{words} [{rule}]" if rule else words), rule


Why = tuple[str, str | None]
"""A reason in words and the rule id behind it (``None``: no rule, a fact of the table)."""


def _why(state: OmensState, action: OmensAction) -> Why | None:
    player = state.current_player()
    legal = [a for a in state.legal_actions() if isinstance(a, OmensAction)]
    if state.pending:
        text, rule = pending_text(state, state.pending[-1])
        verbs = {a.verb for a in legal}
        if action.seat != player or action.verb not in verbs:
            return f"the rules wait for this first: {text}", rule
    elif player >= 0 and action.seat != player:
        return f"seat {player + 1} is to act, not seat {action.seat + 1}", "bout.turn"
    if action.verb is not Verb.PLAY or action.seat != player:
        return None
    return _why_not_replayed(state, action, legal) or _why_not_played(state, action, legal)


def _why_not_replayed(state: OmensState, action: OmensAction,
                      legal: Sequence[OmensAction]) -> Why | None:
    """Wrath's replacement may not be the card Wrath sent back (option ``wrath_replay``)."""
    from omen_solver.omens.rules import WrathReplay

    pending = state.pending[-1] if state.pending else None
    if pending is None or pending[0] != PendingKind.REPLAY or action.card != pending[2]:
        return None
    if any(a.verb is Verb.PLAY and a.card == action.card for a in legal):
        return None
    setting = state.table.rules.wrath_replay
    name = state.table.name(action.card)
    return (f"Wrath sent {name} back, and seat {action.seat + 1} must play another card: "
            f"rule option wrath_replay = {setting} (--rule wrath_replay={WrathReplay.ALLOWED} "
            "lets it be played again)"), PENDING_RULES[PendingKind.REPLAY]


def _why_not_played(state: OmensState, action: OmensAction,
                    legal: Sequence[OmensAction]) -> Why | None:
    table = state.table
    seat = action.seat + 1
    hand = state.hands[action.seat]
    if action.card not in table.effect:
        return f"card {action.card} is not in the card list ({table.catalogue.source})", None
    name = table.name(action.card)
    if action.card not in hand:
        held = ", ".join(table.name(c) for c in hand) or "no card"
        return f"seat {seat} does not hold {name}; it holds {held}", "bout.turn"
    same = [a for a in legal if a.verb is Verb.PLAY and a.card == action.card]
    if not same:
        if state.law is not None:
            value, direction = state.law
            word = law_word(direction)
            following = [c for c in hand if (c > value if direction > 0 else c < value)]
            shown = ", ".join(table.name(c) for c in following)
            return (f"Law ({value}) asks for a card {word} than {value}, and seat {seat} holds "
                    f"{'one' if len(following) == 1 else 'some'} ({shown}): it must play "
                    f"{'it' if len(following) == 1 else 'one of them'}", "card.law.constraint")
        return None
    ways = ", ".join(format_action(a) for a in same)
    if action.to >= 0 and all(a.to < 0 for a in same):
        return (f"{name} is placed in front of its own player (only Dream goes in front of "
                f"another); here it is played as {ways}", "bout.turn")
    if action.to >= 0:
        return (f"Dream goes in front of a player who has not played yet this bout and holds a "
                f"card; here it is played as {ways}", "card.dream.target")
    rule = CHOICE_RULES.get(Effect(table.effect[action.card]), "bout.now")
    if not action.choice and any(a.choice for a in same):
        return f"{name} acts at once and its player chooses how: {ways}", rule
    if action.choice and not any(a.choice for a in same):
        return f"{name} takes no choice here: {ways}", "bout.no_effect"
    return f"{name} can be played here only as {ways}", rule
