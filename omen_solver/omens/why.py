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
from omen_solver.omens.actions import OmensAction, Verb, format_action

if TYPE_CHECKING:
    from omen_solver.omens.state import OmensState

__all__ = ["CHOICE_RULES", "CHOICE_WORDS", "PENDING_RULES", "choice_error", "pending_text",
           "why_illegal"]

CHOICE_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "law": ("lower", "higher"),
    "wrath": ("return",),
    "jealousy": ("swap",),
    "betrayal": ("take",),
    "secret": ("ask", "show"),
    "absolute": ("with",),
}
"""The choice words of each effect that takes a choice when it resolves (``1:15 lower``,
``2:28 return 15``...; docs/omens-notation.md)."""

CHOICE_RULES: Final[dict[str, str]] = {
    "law": "card.law.choose",
    "wrath": "card.wrath.return",
    "jealousy": "card.jealousy.swap",
    "betrayal": "card.betrayal.take",
    "secret": "card.secret.choose",
    "absolute": "card.absolute.target",
}
"""The rule id of each effect's choice."""

_CARD = re.compile(r"^\s*[0-9]+\s*:\s*(?:resolve\s+)?([0-9]+)(?:\s*>\s*[0-9]+)?\s+(\S+)")


def choice_error(state: OmensState, text: str, message: str) -> str:
    """A notation error about an unknown choice word, said with the words that card takes
    (``'1:15 up': unknown choice 'up'; Law (15) takes lower or higher``), or ``message``."""
    found = _CARD.match(text)
    if "unknown choice" not in message or found is None:
        return message
    card, word = int(found.group(1)), found.group(2)
    table = state.table
    if card not in table.effect:
        return message
    words = CHOICE_WORDS.get(table.effect[card], ())
    head = message.split("; expected one of")[0]
    if not words:
        return f"{head}; {table.name(card)} takes no choice"
    hint = did_you_mean(word, words)
    return f"{head}; {table.name(card)} takes {' or '.join(words)}" + (f": {hint}" if hint
                                                                      else "")


PENDING_RULES: Final[dict[str, str]] = {
    "dream": "card.dream.placement",
    "replay": "card.wrath.replay",
    "resolve": "bout.now",
    "show": "card.secret.show",
    "exchange": "card.absolute.exchange",
    "give": "card.absolute.exchange",
    "give_back": "card.absolute.exchange",
    "luck": "card.luck.discard",
    "end_absolute": "card.absolute.exchange",
}
"""The rule that asks for each kind of decision the state waits for (the kinds are the state
module's ``DREAM``, ``REPLAY``...: this module is read by the state module, so it names them by
their values; a test checks that every kind is here)."""


def pending_text(state: OmensState, pending: tuple[str, int, int, int]) -> tuple[str, str]:
    """A decision the rules wait for, in words, and the rule id that asks for it."""
    kind, seat, a, b = pending
    name = state.table.name
    who = f"seat {seat + 1}"
    texts = {
        "dream": f"{who} places a card from hand in front of seat {a + 1}, whose Dream chose "
                 f"{who}",
        "replay": f"{who} plays another card at once: Wrath sent {name(a)} back to {who}'s hand"
                  if a in state.table.effect else f"{who} plays another card at once (Wrath)",
        "resolve": f"{who} chooses how {name(a)} acts" if a in state.table.effect
                   else f"{who} chooses how a card acts",
        "show": f"{who} shows a card from hand to seat {a + 1}, who asked with Secret",
        "exchange": f"{who} and seat {a + 1} each give a card, in secret and at once: The "
                    "Absolute's exchange",
        "give": f"{who} gives seat {a + 1} a card: The Absolute's exchange, in the open",
        "give_back": f"{who} gives seat {a + 1} a card back for {name(b)}: The Absolute's "
                     "exchange, in the open" if b in state.table.effect
                     else f"{who} gives seat {a + 1} a card back: The Absolute's exchange",
        "luck": f"{who} discards a card from hand (never Fear): Luck was discarded in front of "
                f"{who}",
        "end_absolute": f"{who} makes the exchange of {name(a)} now that the bout is over"
                        if a in state.table.effect else f"{who} makes The Absolute's exchange",
    }
    return texts.get(kind, f"{who}: {kind}"), PENDING_RULES.get(kind, kind)


def why_illegal(state: OmensState, action: OmensAction) -> str | None:
    """The rule that forbids ``action`` here, in words ending with its rule id, or ``None``
    when no more specific reason than "not among the legal actions" is found."""
    player = state.current_player()
    legal = [a for a in state.legal_actions() if isinstance(a, OmensAction)]
    if state.pending:
        text, rule = pending_text(state, state.pending[-1])
        verbs = {a.verb for a in legal}
        if action.seat != player or action.verb not in verbs:
            return f"the rules wait for this first: {text} [{rule}]"
    elif player >= 0 and action.seat != player:
        return f"seat {player + 1} is to act, not seat {action.seat + 1} [bout.turn]"
    if action.verb is not Verb.PLAY or action.seat != player:
        return None
    return _why_not_replayed(state, action, legal) or _why_not_played(state, action, legal)


def _why_not_replayed(state: OmensState, action: OmensAction,
                      legal: Sequence[OmensAction]) -> str | None:
    """Wrath's replacement may not be the card Wrath sent back (option ``wrath_replay``)."""
    pending = state.pending[-1] if state.pending else None
    if pending is None or pending[0] != "replay" or action.card != pending[2]:
        return None
    if any(a.verb is Verb.PLAY and a.card == action.card for a in legal):
        return None
    setting = state.table.rules.wrath_replay
    name = state.table.name(action.card)
    return (f"Wrath sent {name} back, and seat {action.seat + 1} must play another card: "
            f"rule option wrath_replay = {setting} (--rule wrath_replay=allowed lets it be "
            "played again) [card.wrath.replay]")


def _why_not_played(state: OmensState, action: OmensAction,
                    legal: Sequence[OmensAction]) -> str | None:
    table = state.table
    seat = action.seat + 1
    hand = state.hands[action.seat]
    if action.card not in table.effect:
        return f"card {action.card} is not in the card list ({table.catalogue.source})"
    name = table.name(action.card)
    if action.card not in hand:
        held = ", ".join(table.name(c) for c in hand) or "no card"
        return f"seat {seat} does not hold {name}; it holds {held} [bout.turn]"
    same = [a for a in legal if a.verb is Verb.PLAY and a.card == action.card]
    if not same:
        if state.law is not None:
            value, direction = state.law
            word = "higher" if direction > 0 else "lower"
            following = [c for c in hand if (c > value if direction > 0 else c < value)]
            shown = ", ".join(table.name(c) for c in following)
            return (f"Law ({value}) asks for a card {word} than {value}, and seat {seat} holds "
                    f"{'one' if len(following) == 1 else 'some'} ({shown}): it must play "
                    f"{'it' if len(following) == 1 else 'one of them'} [card.law.constraint]")
        return None
    ways = ", ".join(format_action(a) for a in same)
    if action.to >= 0 and all(a.to < 0 for a in same):
        return (f"{name} is placed in front of its own player (only Dream goes in front of "
                f"another); here it is played as {ways} [bout.turn]")
    if action.to >= 0:
        return (f"Dream goes in front of a player who has not played yet this bout and holds a "
                f"card; here it is played as {ways} [card.dream.target]")
    rule = CHOICE_RULES.get(table.effect[action.card], "bout.now")
    if not action.choice and any(a.choice for a in same):
        return f"{name} acts at once and its player chooses how: {ways} [{rule}]"
    if action.choice and not any(a.choice for a in same):
        return f"{name} takes no choice here: {ways} [bout.no_effect]"
    return f"{name} can be played here only as {ways} [{rule}]"
