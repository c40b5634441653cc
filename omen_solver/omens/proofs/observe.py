"""An engine bout, observed step by step in the shape of the model's record.

:func:`observe_bout` plays moves through the engine (:mod:`omen_solver.omens.state`) and writes
down, for every placement, what the engine offered and did: the hands, the cards the player
could place (read from the engine's legal moves), the choices of the card's immediate effect,
Law's constraint, where every card lies; and at the end of the bout the winner, the discards,
Luck's discard, the hands and the round winner. Two uses:

* the differential tests compare this record with the model's
  (:mod:`~omen_solver.omens.proofs.model.play`) played with the same choices;
* the theorems' claims are evaluated on it, so every theorem is also checked on the engine.

Only the engine's public state and legal moves are read, plus the cards in play and the hands
at the moment the bout is resolved, which the engine does not keep: a :class:`Resolutions`
observer, passed to the engine with each move (``OmensState.child(move, observer=...)``),
records them (read only: the move plays as without it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.resolve import BoutOutcome
from omen_solver.omens.rules import DreamTargetTurn
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Placement, Scope
from omen_solver.omens.vocabulary import ChoiceWord, Effect, PendingKind

__all__ = ["Observed", "Resolutions", "observe_bout"]

Move = tuple[OmensAction, ...]


@dataclass(frozen=True)
class Resolution:
    """The engine at the moment a bout is resolved, and what it decided."""

    front: tuple[Placement, ...]
    hands: tuple[int, ...]
    law: tuple[int, bool]
    played: int
    outcome: BoutOutcome


class Resolutions:
    """An engine observer (``omen_solver.omens.state.BoutObserver``): records every bout the
    engine resolves, with the cards in play, the hands, Law and who has played at that
    moment, and the outcome."""

    def __init__(self) -> None:
        self.calls: list[Resolution] = []

    def bout_resolved(self, state: OmensState, outcome: BoutOutcome) -> None:
        self.calls.append(
            Resolution(state.in_play, _hands(state), _law(state), _played(state), outcome)
        )


def _card(value: int | None) -> int:
    return 0 if not value else 1 << value


def _cards(values: Any) -> int:
    mask = 0
    for value in values:
        mask |= 1 << int(value)
    return mask


def _seat(seat: int | None) -> int:
    return 0 if seat is None or seat < 0 else 1 << seat


def _seats(seats: Any) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << int(seat)
    return mask


def _hands(state: OmensState) -> tuple[int, ...]:
    hands = [_cards(hand) for hand in state.hands]
    return tuple(hands + [0] * (6 - len(hands)))


def _front(front: Sequence[Placement]) -> tuple[int, ...]:
    masks = [0] * 6
    for p in front:
        masks[p.before] |= 1 << p.card
    return tuple(masks)


def _law(state: OmensState) -> tuple[int, bool]:
    law = state.law
    return (0, False) if law is None else (1 << law[0], law[1] > 0)


def _played(state: OmensState) -> int:
    return _seats(s for s in range(state.num_players()) if state.played_this_bout(s))


_NO_CHOICES: dict[str, Any] = {
    "dream_targets": 0, "target": 0, "resolver": 0, "law_choice": False, "up": False,
    "options": 0, "x": 0, "victim": 0, "partners": 0, "partner": 0, "give": 0, "get": 0,
}
"""The fields of a step its placement's choices fill in later, before any choice is seen."""


@dataclass
class Observed:
    """An engine bout in the model's terms: the choices made (to play the model with), and
    what the engine offered and did (to compare with the model, and to check claims on)."""

    players: int
    leader: int
    hands: tuple[int, ...]
    choices: dict[tuple[int, str], Any] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)
    complete: bool = False

    @property
    def table(self) -> int:
        return (1 << self.players) - 1


class _Observer:
    def __init__(self, start: OmensState) -> None:
        self.table = start.table
        self.effect = start.table.effect
        self.now = start.table.now
        self.record = Observed(start.num_players(), 1 << start.leader, _hands(start))
        self.current: dict[str, Any] | None = None

    # -- steps -----------------------------------------------------------------------------

    def open(self, state: OmensState, kind: str, placer: int, legal: Sequence[OmensAction]) -> None:
        law, up = _law(state)
        step: dict[str, Any] = {
            "active": True,
            "turn": kind == "turn",
            "dream": kind == "dream",
            "replay": kind == "replay",
            "gift": kind == "gift",
            "placer": _seat(placer),
            "hands": _hands(state),
            "allowed": _cards({a.card for a in legal if a.verb is Verb.PLAY}),
            **_NO_CHOICES,
            "law_before": law,
            "up_before": up,
        }
        self.record.steps.append(step)
        self.current = step

    def close(self, state: OmensState) -> None:
        law, up = _law(state)
        self.close_with(state.in_play, _hands(state), (law, up), _played(state))

    def close_with(
        self,
        front: Sequence[Placement],
        hands: tuple[int, ...],
        law: tuple[int, bool],
        played: int,
    ) -> None:
        step = self.current
        if step is None:
            return
        step.update(
            law_after=law[0],
            up_after=law[1],
            hands_after=hands,
            in_play_after=_cards(p.card for p in front),
            front_after=_front(front),
            played_after=played,
        )
        self.current = None

    def choose(self, name: str, value: Any) -> None:
        k = len(self.record.steps) - 1
        self.record.choices[(k, name)] = value
        assert self.current is not None
        self.current[name] = value

    # -- the placed card's effect ----------------------------------------------------------

    def effect_options(self, card: int, resolver: int, actions: Sequence[OmensAction]) -> None:
        """What the engine offered for the card's immediate effect (its legal choices)."""
        assert self.current is not None
        effect = self.effect[card]
        choices = [a.choice for a in actions if a.card == card and a.choice]
        if not choices:
            return
        self.current["resolver"] = _seat(resolver)
        if effect == Effect.LAW:
            self.current["law_choice"] = True
        elif effect in (Effect.WRATH, Effect.BETRAYAL, Effect.JEALOUSY):
            self.current["options"] = _cards({c[1] for c in choices})
        elif effect == Effect.ABSOLUTE:
            self.current["partners"] = _seats({c[1] for c in choices})
        elif effect == Effect.SECRET:
            self.current["resolver"] = 0

    def effect_choice(self, state: OmensState, action: OmensAction, card: int) -> None:
        choice = action.choice
        if not choice:
            return
        keyword = choice[0]
        if keyword in (ChoiceWord.HIGHER, ChoiceWord.LOWER):
            self.choose("up", keyword == ChoiceWord.HIGHER)
        elif keyword in (ChoiceWord.RETURN, ChoiceWord.TAKE, ChoiceWord.SWAP):
            taken = int(choice[1])
            self.choose("x", _card(taken))
            if keyword != ChoiceWord.SWAP:
                where = next(p.before for p in state.in_play if p.card == taken)
                self.current["victim"] = _seat(where)  # type: ignore[index]
        elif keyword == ChoiceWord.WITH:
            self.choose("partner", _seat(int(choice[1])))
        del card

    # -- the walk --------------------------------------------------------------------------

    def before(self, state: OmensState, move: Move) -> None:
        """Look at a decision and the move chosen, before the engine applies it."""
        action = move[0]
        if state.phase == Phase.END:
            self.end_decision(state, move)
            return
        top = state.pending[-1] if state.pending else None
        kind = None if top is None else top[0]
        if kind in (None, PendingKind.DREAM, PendingKind.REPLAY):
            self.close(state)
            legal = state.actions()
            label = _STEP_KIND[kind]
            self.open(state, label, action.seat, legal)
            card = action.card
            self.choose("card", _card(card))
            if self.effect[card] == Effect.DREAM and kind != PendingKind.DREAM:
                self.current["dream_targets"] = _seats(  # type: ignore[index]
                    {a.to for a in legal if a.card == card and a.to >= 0}
                )
                self.choose("target", _seat(action.to))
            before = action.to if action.to >= 0 else action.seat
            self.current["lies"] = _seat(before)  # type: ignore[index]
            if card in self.now and self.effect[card] != Effect.DREAM:
                self.effect_options(card, action.seat, legal)
                self.effect_choice(state, action, card)
                if action.choice[:1] == (ChoiceWord.TAKE,):
                    self.gift(state, action, legal)
        elif kind == PendingKind.RESOLVE:
            assert top is not None
            legal = state.actions()
            card = top[2]
            self.effect_options(card, top[1], legal)
            self.effect_choice(state, action, card)
            if action.choice[:1] == (ChoiceWord.TAKE,):
                self.gift(state, action, legal)
        elif kind == PendingKind.EXCHANGE:
            assert top is not None
            player, target = top[1], top[2]
            gifts = {a.seat: a.card for a in move}
            self.choose("give", _card(gifts[player]))
            self.choose("get", _card(gifts[target]))
        elif kind == PendingKind.GIVE:
            self.choose("give", _card(action.card))
        elif kind == PendingKind.GIVE_BACK:
            self.choose("get", _card(action.card))

    def gift(self, state: OmensState, action: OmensAction, legal: Sequence[OmensAction]) -> None:
        """Betrayal's "take X give Y" is one engine action and two model steps: the take
        (this step), then the gift placed in front of X's player (the next step)."""
        resolver = action.seat
        taken, given = int(action.choice[1]), int(action.choice[2])
        hands = [set(hand) for hand in state.hands]
        placed_now = not (state.pending and state.pending[-1][0] == PendingKind.RESOLVE)
        if placed_now:
            hands[action.seat].discard(action.card)
        hands[resolver].add(taken)
        front = [p for p in state.in_play if p.card != taken]
        if placed_now:
            before = action.to if action.to >= 0 else action.seat
            front.append(Placement(action.card, before, action.seat))
        victim = next(p.before for p in state.in_play if p.card == taken)
        step = self.current
        assert step is not None
        law, up = _law(state)
        if law == 1 << taken:
            law, up = 0, False
        counts = step["turn"] or (
            step["dream"]
            and self.table.rules.dream_target_turn == DreamTargetTurn.PLACEMENT_IS_TURN
        )
        played = _played(state) | (_seat(action.seat) if placed_now and counts else 0)
        step.update(
            law_after=law,
            up_after=up,
            hands_after=tuple([_cards(h) for h in hands] + [0] * (6 - len(hands))),
            in_play_after=_cards(p.card for p in front),
            front_after=_front(front),
            played_after=played,
        )
        gifts = {int(a.choice[2]) for a in legal if a.choice[:2] == (ChoiceWord.TAKE, taken)}
        self.record.steps.append(
            {
                "active": True,
                "turn": False,
                "dream": False,
                "replay": False,
                "gift": True,
                "placer": _seat(resolver),
                "lies": _seat(victim),
                "hands": step["hands_after"],
                "allowed": _cards(gifts),
                **_NO_CHOICES,
                "law_before": law,
                "up_before": up,
            }
        )
        self.current = self.record.steps[-1]
        self.choose("card", _card(given))

    def end_decision(self, state: OmensState, move: Move) -> None:
        action = move[0]
        top = state.pending[-1] if state.pending else None
        end = self.record.end
        if top is None:
            return
        if top[0] == PendingKind.LUCK:
            end["luck_options"] = _cards(a.card for (a,) in state.moves())
            end["luck_pick"] = _card(action.card)
            self.record.choices[(-1, "luck")] = _card(action.card)
        elif top[0] == PendingKind.END_ABSOLUTE:
            end.setdefault("exchange_owners", []).append(_seat(top[1]))
            self.exchange_slot = self.absolute_order.index(top[2])
            self.record.choices[(-2 - self.exchange_slot, "partner")] = _seat(int(action.choice[1]))
        elif top[0] == PendingKind.EXCHANGE:
            gifts = {a.seat: a.card for a in move}
            self.record.choices[(-2 - self.exchange_slot, "give")] = _card(gifts[top[1]])
            self.record.choices[(-2 - self.exchange_slot, "get")] = _card(gifts[top[2]])
        elif top[0] == PendingKind.GIVE:
            self.record.choices[(-2 - self.exchange_slot, "give")] = _card(action.card)
        elif top[0] == PendingKind.GIVE_BACK:
            self.record.choices[(-2 - self.exchange_slot, "get")] = _card(action.card)

    exchange_slot = 0
    """The position, in play order, of the Absolute whose end-of-bout exchange is going on."""
    absolute_order: tuple[int, ...] = ()
    """The Absolutes in play when the bout was resolved, in play order."""


def observe_bout(start: OmensState, moves: Sequence[Move]) -> tuple[Observed, OmensState]:
    """Play ``moves`` from ``start`` (a state at the start of a bout) to the end of the bout
    and observe it; the state reached is returned too. Moves past the end of the bout are
    not played."""
    observer = _Observer(start)
    state = start
    bouts = start.bouts_played
    resolution: Resolution | None = None
    resolutions = Resolutions()
    for move in moves:
        if state.is_terminal() or (state.bouts_played > bouts and state.phase != Phase.END):
            break
        observer.before(state, move)
        state = state.child(move, observer=resolutions)
        if resolutions.calls and resolution is None:
            resolution = resolutions.calls[0]
            observer.absolute_order = tuple(
                p.card for p in resolution.front if observer.effect[p.card] == Effect.ABSOLUTE
            )
            observer.close_with(
                resolution.front, resolution.hands, resolution.law, resolution.played
            )
    record = observer.record
    if resolution is None:
        observer.close(state)
        return record, state
    record.complete = True
    record.end["mid_hands"] = resolution.hands
    _finish(record, state, resolution.front, resolution.outcome)
    return record, state


def _finish(
    record: Observed, state: OmensState, front: tuple[Placement, ...], outcome: BoutOutcome
) -> None:
    end = record.end
    end.setdefault("luck_options", 0)
    end.setdefault("luck_pick", 0)
    summary = state.last_bout
    over = state.phase != Phase.END and summary is not None and summary.number > 0
    end.update(
        in_play=_cards(p.card for p in front),
        front=_front(front),
        win=_card(outcome.winning_card),
        winner=_seat(outcome.winner),
        discarded=_cards(outcome.discarded),
        luck_seat=_seat(outcome.luck_seat),
        pride=outcome.pride,
        next_leader=_seat(outcome.next_leader),
    )
    if over:
        assert summary is not None
        end.update(
            round_winner=_seat(summary.round_winner),
            next_round_leader=_seat(summary.next_leader),
        )
        if state.phase != Phase.DEAL:  # a new round has cleared the hands
            end["final_hands"] = _hands(state)
        if state.table.scope is not Scope.BOUT:  # a single bout counts no round
            end["laurels_after"] = _seats(
                seat
                for team, won in zip(state.teams(), state.rounds_won, strict=True)
                if won
                for seat in team
            )
        if state.table.scope is Scope.GAME:  # only a whole game can end with a round
            end["game_over"] = state.is_terminal() and summary.round_winner is not None


_STEP_KIND: dict[str | None, str] = {
    None: "turn", PendingKind.DREAM: "dream", PendingKind.REPLAY: "replay",
}
"""The model's kind of placement (a field of each step) for each decision the engine waits
for: a normal turn, Dream's placement, Wrath's replacement."""


STEP_FIELDS: tuple[str, ...] = (
    "active", "turn", "dream", "replay", "gift", "placer", "lies", "hands", "allowed", "card",
    "dream_targets", "target", "resolver", "law_choice", "up", "options", "x", "victim",
    "partners", "partner", "give", "get", "law_before", "up_before", "law_after", "up_after",
    "hands_after", "in_play_after", "front_after", "played_after",
)  # fmt: skip
"""The fields of a placement compared between the engine and the model."""
END_FIELDS: tuple[str, ...] = (
    "in_play", "front", "win", "winner", "discarded", "luck_seat", "pride", "next_leader",
    "mid_hands", "luck_options", "luck_pick", "final_hands", "round_winner",
    "next_round_leader", "laurels_after", "game_over",
)  # fmt: skip
"""The fields of the end of the bout compared."""


def disagreements(observed: Observed, trace: Any) -> list[str]:
    """Where the model's record of a bout (``trace``, a concrete
    :class:`~omen_solver.omens.proofs.model.records.BoutTrace` played with
    ``observed.choices``) differs from the engine's: one line per field, naming the step."""
    found = []
    if not all(trace.legal):
        found.append("the model finds a choice the engine made illegal")
    for k, step in enumerate(observed.steps):
        if k >= len(trace.steps):
            found.append(f"placement {k + 1}: the model's bout was already over")
            break
        mine = trace.steps[k]
        for name in STEP_FIELDS:
            if name in step and getattr(mine, name) != step[name]:
                found.append(
                    f"placement {k + 1}: {name}: model {getattr(mine, name)!r}, "
                    f"engine {step[name]!r}"
                )
    extra = len(observed.steps)
    if observed.complete and extra < len(trace.steps) and trace.steps[extra].active:
        found.append(f"placement {extra + 1}: the model goes on after the engine's bout ended")
    if observed.complete:
        for name in END_FIELDS:
            if name in observed.end and getattr(trace.end, name) != observed.end[name]:
                found.append(
                    f"end of bout: {name}: model {getattr(trace.end, name)!r}, "
                    f"engine {observed.end[name]!r}"
                )
    return found
