"""Between the explaining engine and the kernel: states and actions, both ways.

The kernel starts from an engine state (any point of a bout: a position file's state after its
moves) and hands its answers back as engine actions, so that the engine replays and explains
them. The differential tests use :func:`to_engine` to compare the two state by state.
"""

from __future__ import annotations

from omen_solver.errors import KernelUnsupported
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine, decode, encode
from omen_solver.omens.kernel.spec import Spec
from omen_solver.omens.resolve import BoutOutcome
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Placement
from omen_solver.omens.vocabulary import (
    CHOICE_ARGS,
    PENDING_FIELDS,
    Arg,
    ChoiceWord,
    PendingKind,
    Slot,
    Stage,
)

__all__ = ["from_action", "from_engine", "to_action", "to_engine"]

_PENDING: dict[str, int] = {kind: code for code, kind in enumerate(PendingKind)}
"""Each kind of obligation and its kernel code (the declaration's order)."""
_PENDING_NAME = dict(enumerate(PendingKind))
_CARD_SLOTS = {
    _PENDING[kind]: tuple(slot for slot, what in enumerate(fields, start=2) if what is Slot.CARD)
    for kind, fields in PENDING_FIELDS.items()
}
"""Which fields of an obligation hold a card (the others hold seats or 0)."""
_STAGES: dict[str, int] = {stage: code for code, stage in enumerate(Stage)}
_STAGE_NAME = dict(enumerate(Stage))
_CHOICE_WORD = dict(enumerate(ChoiceWord, start=1))
"""Each choice word by its kernel code (0 is no choice)."""
_CHOICE_CODE: dict[str, int] = {word: code for code, word in _CHOICE_WORD.items()}
_CHOICE_NUMBERS = {
    code: [kind for kind in CHOICE_ARGS[word] if isinstance(kind, Arg)]
    for code, word in _CHOICE_WORD.items()
}
_CHOICE_CARDS = {
    code: tuple(slot for slot, kind in enumerate(kinds, start=1) if kind is Arg.CARD)
    for code, kinds in _CHOICE_NUMBERS.items()
}
"""Which numbers of a choice are cards (the others are seats)."""


def from_engine(spec: Spec, state: OmensState) -> KState:
    """The kernel state of an engine state (the bout and end-of-bout phases, and the end)."""
    if state.phase == Phase.DEAL:
        raise KernelUnsupported(
            "the search kernel starts from a dealt position, not from a chance deal"
        )
    rank = spec.rank
    k = KState.__new__(KState)
    k.phase = state.phase
    k.hands = [spec.mask_of(hand) for hand in state.hands]
    k.front = [rank[p.card] | p.before << 6 | p.by << 9 for p in state.in_play]
    k.played = state._played
    k.leader = state.leader
    law = state.law
    k.law = -1 if law is None else rank[law[0]] << 1 | (1 if law[1] > 0 else 0)
    k.pending = [_pending_in(spec, p) for p in state.pending]
    k.stages = [_STAGES[s] for s in state._stages]
    outcome = state._outcome
    k.outcome = None if outcome is None else _outcome_in(spec, outcome)
    victim = state._luck_victim
    k.victim = -1 if victim is None else victim[0] << 6 | rank[victim[1]]
    k.end_abs = tuple((rank[card], seat) for card, seat in state._end_abs)
    k.won = list(state.rounds_won)
    winner = state.winner
    k.winner = -1 if winner is None else winner
    return k


def to_engine(machine: Machine, k: KState, like: OmensState) -> OmensState:
    """The engine state of a kernel state, taking what the kernel does not track (the discard
    pile, the box, the bout count) from ``like``: equal keys mean equal states."""
    spec = machine.spec
    values = spec.values
    outcome = k.outcome
    return OmensState(
        like.table,
        teams=like.teams(),
        phase=k.phase,
        hands=tuple(spec.values_of(hand) for hand in k.hands),
        front=tuple(
            Placement(values[p & 63], p >> 6 & 7, p >> 9 & 7) for p in k.front
        ),
        played=k.played,
        leader=k.leader,
        law=None if k.law < 0 else (values[k.law >> 1], 1 if k.law & 1 else -1),
        pending=tuple(_pending_out(spec, p) for p in k.pending),
        rounds_won=tuple(k.won),
        stages=tuple(_STAGE_NAME[s] for s in k.stages),
        outcome=None if outcome is None else _outcome_out(spec, outcome),
        luck_victim=None if k.victim < 0 else (k.victim >> 6, values[k.victim & 63]),
        end_abs=tuple((values[card], seat) for card, seat in k.end_abs),
        out=like.discard_pile,
        box=like.box,
        winner=None if k.winner < 0 else k.winner,
    )


def _pending_in(spec: Spec, pending: tuple[str, int, int, int]) -> tuple[int, int, int, int]:
    kind = _PENDING[pending[0]]
    fields = list(pending[1:])
    for slot in _CARD_SLOTS.get(kind, ()):
        fields[slot - 1] = spec.rank[fields[slot - 1]]
    return (kind, fields[0], fields[1], fields[2])


def _pending_out(spec: Spec, pending: tuple[int, int, int, int]) -> tuple[str, int, int, int]:
    kind = pending[0]
    fields = list(pending[1:])
    for slot in _CARD_SLOTS.get(kind, ()):
        fields[slot - 1] = spec.values[fields[slot - 1]]
    return (_PENDING_NAME[kind], fields[0], fields[1], fields[2])


def _outcome_in(spec: Spec, outcome: BoutOutcome) -> m.Outcome:
    card = outcome.winning_card
    return (
        -1 if card is None else spec.rank[card],
        -1 if outcome.winner is None else outcome.winner,
        spec.mask_of(outcome.discarded),
        -1 if outcome.luck_seat is None else outcome.luck_seat,
        outcome.next_leader,
        1 if outcome.pride else 0,
    )


def _outcome_out(spec: Spec, outcome: m.Outcome) -> BoutOutcome:
    card, winner, discarded, luck_seat, next_leader, pride = outcome
    return BoutOutcome(
        None if card < 0 else spec.values[card],
        None if winner < 0 else winner,
        frozenset(spec.values_of(discarded)),
        None if luck_seat < 0 else luck_seat,
        next_leader,
        bool(pride),
    )


def to_action(spec: Spec, move: int) -> OmensAction:
    """The engine action of a kernel action."""
    verb, seat, card, to, ck, c1, c2 = decode(move)
    choice: tuple[str | int, ...] = ()
    if ck != m.CK_NONE:
        numbers = [c1, c2]
        for slot in _CHOICE_CARDS.get(ck, ()):
            numbers[slot - 1] = spec.values[numbers[slot - 1]]
        choice = (_CHOICE_WORD[ck], *numbers[:len(_CHOICE_NUMBERS[ck])])
    return OmensAction(Verb(verb), seat, spec.values[card], to, choice)


def from_action(spec: Spec, action: OmensAction) -> int:
    """The kernel action of an engine action (cards must be in the catalogue)."""
    verb, seat, card, to, choice = action.verb, action.seat, action.card, action.to, action.choice
    ck = c1 = c2 = 0
    if choice:
        ck = _CHOICE_CODE[str(choice[0])]
        numbers = [int(x) for x in choice[1:]] + [0, 0]
        for slot in _CHOICE_CARDS.get(ck, ()):
            numbers[slot - 1] = spec.rank[numbers[slot - 1]]
        c1, c2 = numbers[0], numbers[1]
    return encode(int(verb), seat, spec.rank[card], to, ck, c1, c2)

