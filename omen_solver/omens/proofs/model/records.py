"""What the whole-bout model computes, as records of terms: a bout's inputs, its state between
two placements, what one placement did, how the bout ended; and the two things the model is
run with, the decisions (:class:`Choices`) and the rule options (:class:`Options`).

Every field is a term of :class:`~omen_solver.omens.proofs.model.ops.Ops`: a Python value in
a concrete run, a z3 expression in a symbolic build. The rules that compute them are in
:mod:`~omen_solver.omens.proofs.model.play`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from omen_solver.core.options import Setting, option_of
from omen_solver.omens.proofs.model.broken import Broken

__all__ = [
    "SEAT",
    "SEATS",
    "BoutEnd",
    "BoutTrace",
    "Choices",
    "Inputs",
    "Options",
    "State",
    "Step",
    "Term",
]

SEATS = range(6)
SEAT = tuple(1 << s for s in SEATS)
"""The mask of each seat (0-based index)."""

Term = Any


@dataclass(frozen=True)
class Inputs:
    """A bout's start: the seats at the table, the leader, every hand."""

    table: Term
    """The seats at the table (4 to 6 players: 0b1111, 0b11111 or 0b111111)."""
    leader: Term
    hands: tuple[Term, ...]
    """Six card masks; seats beyond the table hold nothing."""
    mates: tuple[Term, ...]
    """Six seat masks: the team of each seat, the seat included (0 beyond the table)."""
    laurels: Term
    """The seats whose Player Aid shows the laurel: their team has won a round (rules file
    000, "Setup" and "End of a Round / End of the Game")."""


class Choices:
    """Where the model gets each decision: a symbolic variable, or a value given."""

    def card(self, step: int, name: str) -> Term:
        raise NotImplementedError

    def seat(self, step: int, name: str) -> Term:
        raise NotImplementedError

    def flag(self, step: int, name: str) -> Term:
        raise NotImplementedError


class Options:
    """Where the model reads rule options and broken rules."""

    def is_(self, name: str, setting: str) -> Term:
        raise NotImplementedError

    def setting(self, member: Setting) -> Term:
        """Whether the option ``member`` is a setting of is set to it."""
        return self.is_(option_of(member).name, member)

    def broken(self, rule: Broken) -> Term:
        raise NotImplementedError


@dataclass(frozen=True)
class Step:
    """What one placement did (every field a term)."""

    active: Term
    """A card was placed at this step (False once the bout is over)."""
    turn: Term
    dream: Term
    """Dream's target placing its card in front of the Dream player."""
    replay: Term
    """Wrath's replacement."""
    gift: Term
    """Betrayal's gift."""
    placer: Term
    lies: Term
    """The seat the card lies in front of once placed."""
    hands: tuple[Term, ...]
    """Every hand before the step."""
    candidates: Term
    """The cards the placer could place before Law's constraint."""
    allowed: Term
    """The cards the placer may place."""
    card: Term
    dream_targets: Term
    """Players Dream may be played in front of (when this card is Dream on a turn or a
    replacement)."""
    target: Term
    """Dream's target (0: in front of its own player)."""
    resolver: Term
    """Who resolves the card's immediate effect (0: it has none, or none applies)."""
    law_choice: Term
    """The card is Law and its player chooses higher or lower."""
    up: Term
    options: Term
    """Wrath: cards it may send back; Betrayal: cards it may take; Jealousy: cards it may swap."""
    x: Term
    """The card Wrath sends back, Betrayal takes or Jealousy swaps with (0: none)."""
    victim: Term
    """Wrath: whose card went back; Betrayal: in front of whom the gift goes."""
    partners: Term
    partner: Term
    give: Term
    """The Absolute: the card its player gives."""
    get: Term
    """The Absolute: the card the partner gives."""
    law_before: Term
    """Law's card while its constraint applies, before the step (0: none)."""
    up_before: Term
    law_after: Term
    up_after: Term
    hands_after: tuple[Term, ...]
    in_play_after: Term
    front_after: tuple[Term, ...]
    """The cards lying in front of each seat after the step."""
    played_after: Term


@dataclass(frozen=True)
class BoutEnd:
    """How the bout ended (terms)."""

    complete: Term
    """Every placement was made within the steps of the model."""
    in_play: Term
    front: tuple[Term, ...]
    placed: tuple[Term, ...]
    """The cards in play each seat placed."""
    owners: tuple[Term, ...]
    """Whose card each card in play is (option ``card_owner``): per seat, a card mask."""
    win: Term
    winner: Term
    discarded: Term
    """Discarded from play (the winning card and the effects)."""
    hits: Term
    """Cards some effect asks to discard, before Fear's protection."""
    picks: tuple[Term, ...]
    """What each end-of-bout discard effect asks to discard, one per card of
    :attr:`Deck.end_effects` (0 when that card is not in play)."""
    luck_seat: Term
    pride: Term
    next_leader: Term
    mid_hands: tuple[Term, ...]
    luck_options: Term
    luck_pick: Term
    returned_hands: tuple[Term, ...]
    """The hands once the cards not discarded are back and Luck has acted."""
    exchanges: tuple[tuple[Term, Term, Term, Term, Term], ...]
    """End-of-bout Absolutes, in play order: (active, owner, partner, give, get)."""
    final_hands: tuple[Term, ...]
    round_winner: Term
    luck_zero: Term
    next_round_leader: Term
    round_team: Term
    """The seats of the round winner's team (0: nobody won the round)."""
    laurels_after: Term
    """The seats whose Player Aid shows the laurel once the round is counted."""
    game_over: Term
    """A team has won 2 rounds: the game ends with this bout."""


@dataclass(frozen=True)
class BoutTrace:
    inputs: Inputs
    steps: tuple[Step, ...]
    end: BoutEnd
    legal: tuple[Term, ...]
    """Every choice made is one the rules allow."""
    teams: tuple[Term, ...]
    """The teams and laurels of the inputs are well formed."""


@dataclass(frozen=True)
class State:
    """Where a bout stands between two placements (terms): every card is a bit of one mask.

    ``front[s]`` are the cards lying in front of seat ``s``; ``placed[s]`` the cards in play
    that seat ``s`` placed; ``stamps`` give each card in play the number of the placement that
    put it there (only The Absolute's order matters: its end-of-bout exchanges go in play
    order)."""

    hands: tuple[Term, ...]
    front: tuple[Term, ...]
    placed: tuple[Term, ...]
    stamps: tuple[Term, ...]
    """One per card of :attr:`Deck.absolute_values`: when it was placed."""
    clock: Term
    """Placements made so far (the next stamp)."""
    played: Term
    law: Term
    up: Term
    dreaming: Term
    replaying: Term
    giving: Term
    next_seat: Term
    next_to: Term
    next_card: Term
    done: Term
