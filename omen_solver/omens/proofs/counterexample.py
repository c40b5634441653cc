"""Counterexamples as position files a person can replay with ``omen-solver omens play``.

A z3 counterexample is a concrete bout: players, leader, the cards in play and where they lie,
the option settings, and (for round-level theorems) the hands. :func:`from_model` turns it into
a :class:`Counterexample`: the hands at the start of the bout and the moves that play it out.
Only bouts of an ordinary shape play out this way (everyone plays one card in front of
themselves, clockwise from seat 1, with no card that moves other cards); the theorem runner
first looks for a counterexample of that shape (:func:`replay_facts`). The moves are replayed
through the engine before the file is written: a counterexample that does not replay is
written without moves, with the cards in play listed in its description.

Enumerated counterexamples come from the engine itself, so they always replay.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import z3

from omen_solver.core.smt import model_bool, model_int
from omen_solver.errors import OmenSolverError
from omen_solver.omens.position import parse_position
from omen_solver.omens.rules import OmensRules
from omen_solver.omens.state import Phase

__all__ = [
    "DEFAULT_TEAMS",
    "Counterexample",
    "from_model",
    "replay_facts",
]

DEFAULT_TEAMS: Final[dict[int, list[list[int]]]] = {
    4: [[1, 3], [2, 4]],
    5: [[1, 3], [2, 4, 5]],
    6: [[1, 4], [2, 5], [3, 6]],
}
"""Teams used for counterexamples (seats from 1): any split of the right sizes will do."""

MAX_REPLAY_HAND: Final = 3
"""At most this many cards stay in a hand in a replayable counterexample (deal sizes allow it
for every number of players)."""

_MOVING: Final = ("law", "wrath", "betrayal", "jealousy")
"""Immediate cards left out of replayable counterexamples: they constrain or move cards."""


@dataclass
class Counterexample:
    """A concrete bout as a position file: start-of-bout hands and the moves played."""

    players: int
    leader: int
    """0-based."""
    hands: list[list[int]]
    """The hands at the start of the bout, per 0-based seat."""
    rules: dict[str, str]
    moves: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    replayable: bool = True
    teams: list[list[int]] | None = None
    """Seats from 1; the default split for the number of players if ``None``."""
    rounds_won: list[int] | None = None
    """Rounds each team has won, in the order of :attr:`teams`: the position is then played as
    a whole game (``scope = "game"``), so a replay shows whether a won round ends it."""
    box: list[int] = field(default_factory=list)
    """The Absolutes kept in the box (a game of fewer than 6 players lists them)."""

    def to_toml(self, title: str, lead: str) -> str:
        """The position file's text: ``omen-solver omens play FILE`` replays it."""
        teams = self.teams or DEFAULT_TEAMS[self.players]
        description = "\n".join([lead, *self.notes])
        if not self.replayable:
            description += (
                "\nThis bout's shape does not play out from the start of a bout with plain "
                "moves; the file gives the hands and the notes give the cards in play."
            )
        lines = [
            f"# {title}",
            "# Replay: omen-solver omens play THIS_FILE",
            'game = "omens"',
            f"title = {_string(title)}",
            f"description = {_string(description)}",
            f"players = {self.players}",
            f"teams = {json.dumps(teams)}",
        ]
        if self.rounds_won is not None:
            lines += [
                'scope = "game"',
                f"rounds_won = {json.dumps(self.rounds_won)}",
                f"box = {json.dumps(sorted(self.box))}",
            ]
        lines.append("")
        if self.rules:
            lines.append("[rules]")
            lines += [f"{name} = {_string(value)}" for name, value in sorted(self.rules.items())]
            lines.append("")
        lines.append("[hands]")
        lines += [
            f"{seat + 1} = {json.dumps(sorted(hand))}" for seat, hand in enumerate(self.hands)
        ]
        lines += ["", "[bout]", f"leader = {self.leader + 1}"]
        if self.moves:
            lines.append("moves = [")
            lines += [f"    {_string(move)}," for move in self.moves]
            lines.append("]")
        return "\n".join(lines) + "\n"

    def check_replay(self) -> str | None:
        """Replay the file through the engine; the problem if it does not replay."""
        _, problem = self.legal_prefix()
        if problem is not None:
            return problem
        try:
            position = parse_position(tomllib.loads(self.to_toml("check", "check")), "<example>")
        except OmenSolverError as error:
            return str(error)
        if self.moves and position.state.bouts_played != position.start.bouts_played + 1:
            return "the moves do not finish the bout"
        return None

    def legal_prefix(self) -> tuple[int, str | None]:
        """How many of the moves the engine accepts in a row, and why it refuses the next."""
        moves, self.moves = self.moves, []
        try:
            position = parse_position(tomllib.loads(self.to_toml("check", "check")), "<example>")
        except OmenSolverError as error:
            return 0, str(error)
        finally:
            self.moves = moves
        state = position.state
        for number, text in enumerate(moves):
            try:
                move = state.parse_move(text)
            except OmenSolverError as error:
                return number, str(error)
            state = state.apply_move(move)
        return len(moves), None

    def finish_bout(self) -> None:
        """Append the engine's first legal move while the bout still waits for a decision
        nobody asked about (Luck's discard in a bout-level counterexample)."""
        try:
            position = parse_position(tomllib.loads(self.to_toml("check", "check")), "<example>")
        except OmenSolverError:
            return
        state = position.state
        while not state.is_terminal() and state.phase == Phase.END and state.pending:
            move = state.moves()[0]
            self.moves.append(state.move_to_string(move))
            state = state.apply_move(move)


def _string(text: str) -> str:
    """A TOML basic string (JSON escapes are valid TOML escapes)."""
    return json.dumps(text, ensure_ascii=False)


def replay_facts(m: Any) -> list[z3.BoolRef]:
    """The shape of a bout that plays out with plain moves.

    Seat 1 leads; the card in slot ``i`` was placed by seat ``i + 1`` (everyone places one
    card); it lies in front of its player, or, for Dream and the card its target places in
    return, the two lie crossed (Dream in front of a later player, that player's card in front
    of the Dream player); no card that constrains or moves cards. With hands every player
    keeps 1 to 3 cards in hand, and The Absolute (whose exchange would change them) is left out.
    """
    bout = m.bout
    facts: list[z3.BoolRef] = [
        bout.leader == 0,
        bout.count() == bout.players,
        m.option("dream_target_turn", "placement_is_turn"),
    ]
    banned = list(_MOVING) + (["absolute"] if m.hands is not None else [])

    def crossed(dream: int, target: int) -> z3.BoolRef:
        return z3.And(
            m.has(dream, "dream"),
            bout.present[target],
            bout.before[dream] == target,
            bout.before[target] == dream,
            m.deck.timing(bout.value[target], "end"),
        )

    for i in bout.slots:
        shapes = [bout.before[i] == i]
        shapes += [crossed(i, j) for j in bout.slots if j > i]
        shapes += [crossed(j, i) for j in bout.slots if j < i]
        facts.append(
            z3.Implies(
                bout.present[i],
                z3.And(
                    bout.by[i] == i,
                    z3.Or(*shapes),
                    *[z3.Not(m.deck.effect(bout.value[i], keyword)) for keyword in banned],
                ),
            )
        )
    if m.hands is not None:
        facts.append(m.option("absolute_timing", "now"))
        for seat in m.seats:
            size = m.mid_size(seat)
            facts.append(
                z3.If(m.seated(seat), z3.And(size >= 1, size <= MAX_REPLAY_HAND), size == 0)
            )
    return facts


def _placements(m: Any, model: Any) -> list[tuple[int, int, int]]:
    bout = m.bout
    return [
        (
            model_int(model, bout.value[i]),
            model_int(model, bout.before[i]),
            model_int(model, bout.by[i]),
        )
        for i in bout.slots
        if model_bool(model, bout.present[i])
    ]


def _rules(m: Any, model: Any) -> tuple[OmensRules, dict[str, str]]:
    rules = m.rules.read(model)
    return rules, rules.differences()


def _mid_hands(m: Any, model: Any, players: int, in_play: set[int]) -> list[list[int]]:
    if m.hands is not None:
        hands = m.hands
        return [
            [
                model_int(model, hands.value[seat][h])
                for h in range(len(hands.present[seat]))
                if model_bool(model, hands.present[seat][h])
            ]
            for seat in range(players)
        ]
    # A bout-level counterexample says nothing about the hands: give each player one card
    # that is not in play, from the plainest cards first (no effect that acts from a hand).
    spare = [card for card in m.deck.values if card not in in_play]
    return [[spare[seat]] for seat in range(players)]


def _card_moves(
    m: Any, seat: int, card: int, hands: list[list[int]], players: int
) -> list[str] | None:
    """The moves that place ``card`` from ``seat`` in front of themselves (``hands`` is updated
    as cards change hands). ``None`` when the card cannot be placed with plain moves."""
    effect = m.deck.card(card).effect
    timing = m.deck.card(card).timing
    hands[seat].remove(card)
    if timing != "now" or effect == "dream":
        return [f"{seat + 1}:{card}"]
    target = next(
        (t % players for t in range(seat + 1, seat + players) if hands[t % players]), None
    )
    if effect == "secret":
        if target is None:
            return [f"{seat + 1}:{card} show {((seat + 1) % players) + 1} {hands[seat][0]}"]
        return [f"{seat + 1}:{card} ask {target + 1}", f"{target + 1}:shows {hands[target][0]}"]
    if effect == "absolute":
        if target is None or not hands[seat]:
            return [f"{seat + 1}:{card}"]
        mine, theirs = hands[seat][0], hands[target][0]
        hands[seat].remove(mine)
        hands[target].remove(theirs)
        hands[seat].append(theirs)
        hands[target].append(mine)
        return [
            f"{seat + 1}:{card} with {target + 1}",
            f"{seat + 1}:gives {mine} & {target + 1}:gives {theirs}",
        ]
    return None


def _moves(
    m: Any,
    model: Any,
    placements: Sequence[tuple[int, int, int]],
    start: list[list[int]],
    players: int,
) -> list[str] | None:
    """The moves of a bout of the replayable shape, clockwise from seat 1."""
    hands = [list(hand) for hand in start]
    by_placer = {by: (value, before) for value, before, by in placements}
    if len(by_placer) != len(placements):
        return None
    moves: list[str] = []
    done: set[int] = set()
    for seat in range(players):
        if seat in done or seat not in by_placer:
            continue
        value, before = by_placer[seat]
        if before == seat:
            placed = _card_moves(m, seat, value, hands, players)
            if placed is None:
                return None
            moves += placed
            done.add(seat)
            continue
        answer, back = by_placer.get(before, (0, -1))
        if m.deck.card(value).effect != "dream" or back != seat or before in done:
            return None
        hands[seat].remove(value)
        hands[before].remove(answer)
        moves += [f"{seat + 1}:{value}>{before + 1}", f"{before + 1}:{answer}>{seat + 1}"]
        done |= {seat, before}
    if m.round is not None and model_bool(model, m.round.luck_discards):
        seat = model_int(model, m.end.luck_seat)
        moves.append(f"{seat + 1}:discards {model_int(model, m.hands.luck_pick)}")
    return moves


def top_up(start: list[list[int]], values: Sequence[int]) -> None:
    """Give a hand of 0 or 1 card at the start of the bout the plainest unused cards up to 2:
    no bout starts with a hand of 1 card or none (rules file 000, "End of a Round": a round is
    over once the players are down to 1 card). A bout-level
    model leaves the hands free, so a short hand is an artefact of the model, not of the
    rules the theorem is about; a position file with it would not load."""
    used = {card for hand in start for card in hand}
    spare = [card for card in values if card not in used]
    for hand in start:
        while len(hand) < 2 and spare:
            hand.append(spare.pop(0))


def from_model(m: Any, model: Any, *, replayable: bool) -> Counterexample:
    """The counterexample of a z3 model of ``m`` (a :class:`SymbolicModel`)."""
    players = model_int(model, m.bout.players)
    leader = model_int(model, m.bout.leader)
    placements = _placements(m, model)
    in_play = {value for value, _, _ in placements}
    _, overrides = _rules(m, model)
    mid = _mid_hands(m, model, players, in_play)
    start = [list(hand) for hand in mid]
    for value, _, by in placements:
        start[by].append(value)
    top_up(start, m.deck.values)
    notes = _notes(m, model, placements)
    example = Counterexample(players, leader, start, overrides, notes=notes)
    moves = _moves(m, model, placements, start, players) if replayable else None
    if moves is not None:
        example.moves = moves
        if m.round is None:
            example.finish_bout()
        problem = example.check_replay()
        if problem is None:
            return example
        legal, refused = example.legal_prefix()
        if legal == len(moves) - 1 and moves[-1].split(":")[1].startswith("discards"):
            # the broken rule's last move (Luck's discard) is one the real rules refuse
            example.moves = moves[:legal]
            example.notes.append(
                f"Under the broken rule the next move is {moves[-1]!r}; the real rules refuse "
                f"it: {refused}"
            )
            return example
        example.notes.append(f"(The moves did not replay: {problem})")
    example.moves = []
    example.replayable = False
    return example


def _notes(m: Any, model: Any, placements: Sequence[tuple[int, int, int]]) -> list[str]:
    deck = m.deck
    end = m.end
    shown = ", ".join(
        f"{deck.card(v).label()} in front of seat {before + 1}"
        + (f" (placed by seat {by + 1})" if by != before else "")
        for v, before, by in placements
    )
    notes = [f"Cards in play at the end of the bout: {shown}."]
    if m.broken:
        discarded = [
            deck.card(model_int(model, m.bout.value[i])).label()
            for i in m.bout.slots
            if model_bool(model, end.discarded[i])
        ]
        winner = model_int(model, end.winner)
        notes.append(
            "Under the broken rule: "
            + (f"seat {winner + 1} wins the bout" if winner >= 0 else "nothing wins the bout")
            + f"; discarded: {', '.join(discarded) or 'nothing'}"
            + (
                f"; seat {model_int(model, end.next_leader) + 1} leads next."
                if m.round is None
                else "."
            )
        )
        if m.round is not None:
            sizes = [
                model_int(model, m.round.sizes[s]) for s in range(model_int(model, m.bout.players))
            ]
            winner = model_int(model, m.round.round_winner)
            notes.append(
                f"Hands after the bout under the broken rule: {sizes} cards; "
                + (f"seat {winner + 1} wins the round." if winner >= 0 else "the round goes on.")
            )
    return notes
