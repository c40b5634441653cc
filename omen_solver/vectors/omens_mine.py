"""Mining Omens vectors: the printed examples, the option witnesses, then a systematic
enumeration of small positions that keeps a line of play only if it covers something new.

Three sources, in this order (each vector is recorded by :mod:`omen_solver.vectors.omens_record`
and measured by :mod:`omen_solver.vectors.coverage`):

1. **examples**: the rulebook's worked examples, its printed clarifications and the edge cases
   they settle, written by hand in ``data/omens-examples.toml`` with the outcome the rules
   require; each is replayed and its written outcome checked before it is published.
2. **witnesses**: for every pair of settings of every rule option, the position and moves
   where the two settings play differently (``proofs/witnesses/summary.json``, found by
   ``omen-solver witnesses``), one vector per setting.
3. **enumeration**: small positions (4, 5 and 6 players; 2 or 3 cards in hand: a hand of 1 at
   the start of a bout means the round is already over), each walked depth first in the
   library's order of legal actions up to a node budget. A line of play is kept if it covers
   a feature no earlier vector had: a rule id, a resolver line, an ordered pair of effect cards
   placed in the same bout (by partners or by opponents), a kind of round end at a player
   count, a team size winning a round, an Absolute exchange.

Everything is deterministic: the same version writes the same vectors.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from omen_solver.core.game import SIMULTANEOUS, TraceStep
from omen_solver.errors import OmenSolverError
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import make_rules, option_specs
from omen_solver.omens.state import OmensState
from omen_solver.vectors.coverage import Coverage, Dimension, LineTracer, executable_lines
from omen_solver.vectors.omens_record import (
    OmensSetup,
    Recording,
    legal_view,
    normalize_move,
    record,
    state_view,
    turn_view,
    vector_json,
)
from omen_solver.vectors.witness import read_summary

__all__ = [
    "DEFAULT_TEAMS",
    "MinedSet",
    "OmensMiner",
    "effect_pairs",
    "example_setup",
    "load_examples",
]

DEFAULT_TEAMS: Final = {4: ((1, 3), (2, 4)), 5: ((1, 3), (2, 4, 5)), 6: ((1, 4), (2, 5), (3, 6))}

_CATALOGUE = default_catalogue()
_ABSOLUTE: Final = "the-absolute"
_RELATIONS: Final = ("partners", "opponents")
_ROUND_ENDS: Final = {
    "round.end.one_card": "one_card",
    "round.end.highest_single": "tie",
    "round.end.luck_zero": "luck_zero",
    "round.continue": "continue",
}
"""Kinds of bout end, by the rule id that decides them (``tie``: several players hold one card
and the highest single card wins)."""


def _effect_name(card: int) -> str | None:
    """The effect a card stands for in the pair coverage: each card its own, the six Absolutes
    one; Malice (no effect) none."""
    entry = _CATALOGUE[card]
    if entry.effect == "none":
        return None
    if entry.effect == "absolute":
        return _ABSOLUTE
    return entry.name.lower()


_NOW_EFFECTS: Final = frozenset(
    name for card, entry in _CATALOGUE.items() if entry.is_now and (name := _effect_name(card))
)
_EFFECTS: Final = tuple(dict.fromkeys(n for c in _CATALOGUE if (n := _effect_name(c))))


def effect_pairs() -> frozenset[str]:
    """Every ordered pair of different effects, at least one of them immediate ("now"), placed
    in the same bout by partners or by opponents."""
    return frozenset(
        f"pair:{first}>{second}:{relation}"
        for first, second in itertools.permutations(_EFFECTS, 2)
        if first in _NOW_EFFECTS or second in _NOW_EFFECTS
        for relation in _RELATIONS
    )


def _dimensions() -> tuple[Dimension, ...]:
    settings = frozenset(
        f"option:{spec.name}={setting}" for spec in option_specs() for setting in spec.settings
    )
    round_ends = frozenset(
        f"round_end:{kind}:{players}p" for kind in _ROUND_ENDS.values() for players in (4, 5, 6)
    )
    teams = frozenset(
        f"team_win:{players}p:{len(team)}"
        for players, teams in DEFAULT_TEAMS.items()
        for team in teams
    )
    absolute = frozenset(
        f"absolute:{timing}:{exchange}:{relation}"
        for timing in ("now", "end")
        for exchange in ("secret", "open")
        for relation in _RELATIONS
    )
    return (
        Dimension(
            "rule",
            "rule ids (docs/omens-rules.md)",
            frozenset(f"rule:{r}" for r in RULES),
            "round.end.no_cards cannot be reached from a position the position format accepts "
            "(docs/vectors.md).",
        ),
        Dimension(
            "option",
            "rule option settings, each in a vector where it plays differently from another "
            "setting of the same option",
            settings,
        ),
        Dimension(
            "pair",
            "ordered pairs of effect cards placed in the same bout (every immediate card "
            "against every other effect, both orders, placed by partners or by opponents)",
            effect_pairs(),
        ),
        Dimension(
            "round_end",
            "bout ends at 4, 5 and 6 players: one player left with 1 card, several (the "
            "highest single card wins), 0 cards through Luck, the round going on",
            round_ends,
        ),
        Dimension("team_win", "rounds won by a team of each size, at each player count", teams),
        Dimension(
            "absolute",
            "The Absolute's exchange with a partner and with an opponent, under each setting of "
            "absolute_timing and absolute_exchange",
            absolute,
        ),
        Dimension(
            "line",
            "lines of the Omens resolver (omens/resolve.py, omens/state.py) run by the vectors",
            executable_lines(),
            "Measured with sys.settrace; lines that only error paths, text for people or "
            "other games' hooks reach stay uncovered.",
        ),
    )


# ---------------------------------------------------------------------------------------------
# Features of a line of play
# ---------------------------------------------------------------------------------------------


def _placed(move: Sequence[OmensAction]) -> Iterator[tuple[int, int]]:
    """Cards a move puts into play, with the seat that places them (0-based)."""
    for action in move:
        if action.verb is Verb.PLAY:
            yield action.card, action.seat
        choice = action.choice
        if action.verb in (Verb.PLAY, Verb.RESOLVE) and choice and choice[0] == "take":
            yield int(choice[2]), action.seat


def _exchange_target(move: Sequence[OmensAction]) -> tuple[int, int] | None:
    """(player, target) when the move starts an Absolute's exchange."""
    for action in move:
        choice = action.choice
        if action.verb in (Verb.PLAY, Verb.RESOLVE) and choice and choice[0] == "with":
            return action.seat, int(choice[1])
    return None


@dataclass
class _Bout:
    """The placements of the bout in progress along a line of play."""

    placed: tuple[tuple[str, int], ...] = ()

    def after(self, state: OmensState, move: Sequence[OmensAction]) -> tuple[_Bout, set[str]]:
        features: set[str] = set()
        placed = list(self.placed)
        for card, seat in _placed(move):
            name = _effect_name(card)
            if name is None:
                continue
            for earlier, by in placed:
                if earlier != name and (earlier in _NOW_EFFECTS or name in _NOW_EFFECTS):
                    same = state.team_of(by) == state.team_of(seat)
                    features.add(f"pair:{earlier}>{name}:{_RELATIONS[0 if same else 1]}")
            placed.append((name, seat))
        return _Bout(tuple(placed)), features


def _step_features(
    before: OmensState,
    move: Sequence[OmensAction],
    after: OmensState,
    trace: Sequence[TraceStep],
    bout: _Bout,
) -> tuple[_Bout, set[str]]:
    """The features one step brings (resolver lines aside)."""
    bout, features = bout.after(before, move)
    rules = {step.rule for step in trace}
    features |= {f"rule:{rule}" for rule in rules}
    players = before.num_players()
    exchange = _exchange_target(move)
    if exchange is not None:
        table_rules = before.table.rules
        same = before.team_of(exchange[0]) == before.team_of(exchange[1])
        features.add(
            f"absolute:{table_rules.absolute_timing}:{table_rules.absolute_exchange}:"
            f"{_RELATIONS[0 if same else 1]}"
        )
    summary = after.last_bout
    if summary is not None and summary is not before.last_bout:
        bout = _Bout()
        for rule, kind in _ROUND_ENDS.items():
            if rule in rules:
                features.add(f"round_end:{kind}:{players}p")
        if summary.round_winner is not None:
            team = after.teams()[after.team_of(summary.round_winner)]
            features.add(f"team_win:{players}p:{len(team)}")
    return bout, features


def _option_features(setup: OmensSetup, recording: Recording) -> set[str]:
    """``option:NAME=SETTING`` for each option whose setting makes this line play differently
    from another setting of the same option (checked by replaying the moves)."""
    features: set[str] = set()
    expected = _observed(recording)
    settings = make_rules(setup.preset, setup.overrides).as_dict()
    for spec in option_specs():
        for other in spec.settings:
            if other == settings[spec.name]:
                continue
            variant = OmensSetup(
                setup.players, setup.teams, setup.hands, setup.leader, setup.scope,
                setup.preset, {**setup.overrides, spec.name: other}, setup.rounds_won, setup.box,
            )
            if _replays_differently(variant, recording.moves, expected):
                features.add(f"option:{spec.name}={settings[spec.name]}")
                break
    return features


def _observed(recording: Recording) -> list[Any]:
    views: list[Any] = [turn_view(recording.start)]
    for state, end in zip(recording.states, recording.bout_ends(), strict=True):
        views.append((turn_view(state), state_view(state) if end else None))
    return views


def _replays_differently(setup: OmensSetup, moves: Sequence[str], expected: list[Any]) -> bool:
    try:
        other = record(setup.start(), moves)
    except OmenSolverError:
        return True
    return _observed(other) != expected


# ---------------------------------------------------------------------------------------------
# The miner
# ---------------------------------------------------------------------------------------------


@dataclass
class MinedSet:
    """One published set: its name, what it is, and its vectors."""

    name: str
    description: str
    vectors: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class _Candidate:
    """A start position of the enumeration: the cards to place first, the features it is
    meant to cover (the walk stops once they are), and its node budget."""

    setup: OmensSetup
    first: tuple[int, ...] = ()
    targets: tuple[str, ...] = ()
    budget: int = 60
    max_lines: int | None = None


class OmensMiner:
    """Builds the Omens vector sets and their coverage."""

    def __init__(self, witnesses: Path) -> None:
        self.witnesses = witnesses
        self.coverage = Coverage(_dimensions())
        self.tracer = LineTracer()

    # -- keeping a recorded line -----------------------------------------------------------

    def _measure(self, setup: OmensSetup, moves: Sequence[str]) -> tuple[Recording, set[str]]:
        start = setup.start()
        with self.tracer.tracing() as lines:
            legal_view(start)
            recording = record(start, moves)
            for state in recording.states:
                legal_view(state)
        features = set(lines)
        bout = _Bout()
        before = start
        for state, trace, text in zip(
            recording.states, recording.traces, recording.moves, strict=True
        ):
            bout, step = _step_features(before, before.parse_move(text), state, trace, bout)
            features |= step
            before = state
        return recording, features

    def _keep(
        self,
        mined: MinedSet,
        vector_id: str,
        why: str,
        source: str,
        setup: OmensSetup,
        recording: Recording,
        features: set[str],
    ) -> None:
        covers = [f for f in self.coverage.new(features) if not f.startswith("line:")]
        lines = len([f for f in self.coverage.new(features) if f.startswith("line:")])
        if lines:
            covers.append(f"{lines} resolver line(s)")
        self.coverage.add(features, vector_id)
        mined.vectors.append(vector_json(vector_id, why, source, setup, recording, covers))

    # -- 1. the printed examples -------------------------------------------------------------

    def examples(self) -> MinedSet:
        mined = MinedSet(
            "examples",
            "The rulebook's worked examples, its printed clarifications and the edge cases they "
            "settle, written by hand with the outcome the rules require "
            "(omen_solver/vectors/data/omens-examples.toml).",
        )
        for item in load_examples():
            setup = example_setup(item)
            recording, features = self._measure(setup, item["moves"])
            _check_example(item, recording)
            features |= _option_features(setup, recording)
            self._keep(
                mined, f"omens.example.{item['id']}", item["why"],
                "the rulebook (rules 000) and its printed clarifications", setup, recording,
                features,
            )
        return mined

    # -- 2. the option witnesses ---------------------------------------------------------------

    def witness_vectors(self) -> MinedSet:
        mined = MinedSet(
            "witnesses",
            "For every pair of settings of every rule option, a position and moves where the "
            "two settings play differently, one vector per setting (proofs/witnesses/, "
            "docs/omens-option-witnesses.md).",
        )
        summary = self.witnesses / "summary.json"
        if not summary.is_file():
            raise OmenSolverError(
                f"{summary}: no witness summary here; run the export from the project folder "
                "or give --witnesses DIR (made by 'omen-solver witnesses')"
            )
        specs = {spec.name: spec for spec in option_specs()}
        for witness in read_summary(summary):
            if not witness.found or witness.deal is None:
                continue
            spec = specs[witness.option]
            for setting in witness.settings:
                other = next(s for s in witness.settings if s != setting)
                setup = OmensSetup(
                    players=witness.deal.players,
                    teams=DEFAULT_TEAMS[witness.deal.players],
                    hands={s + 1: tuple(h) for s, h in enumerate(witness.deal.hands)},
                    leader=1,
                    scope=witness.scope.value,
                    overrides={**witness.companions, witness.option: setting},
                    box=witness.box,
                )
                recording, features = self._measure(setup, witness.moves)
                features |= _option_features(setup, recording)
                companions = "".join(
                    f" (with {name} = {value})" for name, value in witness.companions.items()
                )
                why = (
                    f"Rule option {witness.option} = {setting}{companions} ({spec.question}: "
                    f"{spec.summary.rstrip('.')}): {spec.settings[setting]}. Under {other} "
                    f"({spec.settings[other]}) the same moves play differently: "
                    f"{witness.difference}. Rule text: {spec.source}."
                )
                vector_id = f"omens.witness.{witness.file(setting).removesuffix('.toml')}"
                self._keep(
                    mined, vector_id.replace("--", "."), why,
                    "option witness (omen-solver witnesses)", setup, recording, features,
                )
        return mined

    # -- 3. the enumeration ------------------------------------------------------------------

    def enumeration(self, limit: int | None = None) -> MinedSet:
        """``limit``: stop after that many candidate positions (for a quick partial run)."""
        mined = MinedSet(
            "enumerated",
            "Small positions (4, 5 and 6 players, 2 or 3 cards in hand) walked in a fixed "
            "order; a line of play is kept only if it covers something no earlier vector "
            "covers (docs/vectors.md, 'How the vectors are mined').",
        )
        for number, candidate in enumerate(self._candidates()):
            if limit is not None and number >= limit:
                break
            self._walk(mined, candidate)
        return mined

    def _candidates(self) -> Iterator[_Candidate]:
        yield from _new_games()
        yield from _pair_packs(self.coverage)
        yield from _absolute_candidates()
        for players in (4, 5, 6):
            for size in (2, 3):
                yield from _spread_candidates(players, size, 8)
        yield from _option_candidates()

    def _walk(self, mined: MinedSet, candidate: _Candidate) -> None:
        """Walk the candidate's lines depth first, placing its ``first`` cards first; keep
        every complete line that covers something new, until its targets are covered."""
        if candidate.targets and not self.coverage.new(candidate.targets):
            return
        walker = _Walker(self, candidate)
        for kept, (moves, features) in enumerate(walker.lines(), start=1):
            recording = record(candidate.setup.start(), moves)
            vector_id = f"omens.enum.{len(mined.vectors) + 1:04d}"
            why = _enumerated_why(candidate, recording)
            self._keep(
                mined, vector_id, why, "systematic enumeration (omen-solver vectors export)",
                candidate.setup, recording, features,
            )
            if candidate.targets and not self.coverage.new(candidate.targets):
                return
            if candidate.max_lines is not None and kept >= candidate.max_lines:
                return


def load_examples() -> list[dict[str, Any]]:
    """The hand-written examples of ``data/omens-examples.toml``."""
    source = resources.files("omen_solver.vectors").joinpath("data/omens-examples.toml")
    examples: list[dict[str, Any]] = tomllib.loads(source.read_text(encoding="utf-8"))["vector"]
    return examples


def example_setup(item: Mapping[str, Any]) -> OmensSetup:
    players = int(item["players"])
    teams = tuple(tuple(team) for team in item.get("teams", DEFAULT_TEAMS[players]))
    return OmensSetup(
        players=players,
        teams=teams,
        hands={int(seat): tuple(cards) for seat, cards in item["hands"].items()},
        leader=int(item["leader"]),
        scope=item.get("scope", "round"),
        preset=item.get("preset", "rulebook"),
        overrides=dict(item.get("rules", {})),
        box=tuple(item.get("box", ())),
    )


def _check_example(item: Mapping[str, Any], recording: Recording) -> None:
    """The outcome written by hand must be the engine's, or nothing is published."""
    expect = item["expect"]
    final = recording.final
    ended = recording.bout_ends()[-1] if recording.states else False
    actual: dict[str, Any] = {"legal": legal_view(final)}
    if ended:
        view = state_view(final)
        actual.update(
            {
                "bout_winner": view["bout_winner"] or 0,
                "discarded": view["discarded"],
                "hands": view["hands"],
                "next_leader": view["next_leader"],
                "round_winner_team": view["round_winner_team"] or [],
            }
        )
    else:
        actual.update(
            {
                "bout_winner": 0,
                "discarded": [],
                "hands": {str(s + 1): list(h) for s, h in enumerate(final.hands)},
                "next_leader": 0,
                "round_winner_team": [],
            }
        )
    for key, value in expect.items():
        wanted = value
        if key == "hands":
            wanted = {seat: list(cards) for seat, cards in value.items()}
        if actual[key] != wanted:
            raise OmenSolverError(
                f"omens-examples.toml: vector {item['id']!r}: {key}: the file says {wanted!r}, "
                f"the engine gives {actual[key]!r}"
            )


# ---------------------------------------------------------------------------------------------
# Candidate positions
# ---------------------------------------------------------------------------------------------

_FILLERS: Final = (4, 5, 6, 7, 3, 10, 11, 19, 2, 17, 1, 8, 9, 16, 18, 25)
"""Cards hands are filled with, in this order: first those that act only at the end of the
bout and only on themselves (Calm, Feast, Hope, Spring, Friendship, Enigma, Summer, Autumn,
Love), then Malice, then the colour extremes (Life, Death, Lie, Truth, Day, Night)."""
_CARD_OF: Final = {name: card for card in sorted(_CATALOGUE, reverse=True)
                   if (name := _effect_name(card))}
"""One card per effect (the lowest value: The Absolute 30)."""


def _fill(hands: dict[int, list[int]], size: int) -> dict[int, tuple[int, ...]]:
    used = {card for hand in hands.values() for card in hand}
    free = [card for card in _FILLERS if card not in used]
    filled = {}
    for seat in sorted(hands):
        hand = list(hands[seat])
        while len(hand) < size:
            hand.append(free.pop(0))
        filled[seat] = tuple(sorted(hand))
    return filled


def _new_games() -> Iterator[_Candidate]:
    """A whole game from the first deal, at each player count: the Absolutes and the hands
    dealt by chance (the first outcome of each draw), then the first legal action every time,
    until a team has won 2 rounds."""
    for players in (4, 5, 6):
        setup = OmensSetup(players, (), {}, leader=1, scope="game", new_game=True)
        yield _Candidate(setup, budget=1_000, max_lines=1)


def _pair_packs(coverage: Coverage) -> Iterator[_Candidate]:
    """Bouts of 4 players that place four effect cards in seat order: the first pair not
    covered yet (seat 1 leads with its first card, seat 3, a partner, or seat 2, an opponent,
    holds the second), the other seats chosen greedily to cover as many other open pairs as
    they can. A pair is proposed at most twice."""
    proposed: dict[str, int] = {}
    universe = sorted(effect_pairs())
    while True:
        open_pairs = [p for p in universe if p not in coverage.first and proposed.get(p, 0) < 2]
        if not open_pairs:
            return
        wanted = set(open_pairs)
        first, rest = open_pairs[0].removeprefix("pair:").split(">")
        second, relation = rest.split(":")
        fixed = {1: first, 3 if relation == "partners" else 2: second}
        chosen: list[str] = []
        targets: list[str] = [open_pairs[0]]
        for seat in (1, 2, 3, 4):
            options = [fixed[seat]] if seat in fixed else [
                e for e in _EFFECTS if e not in chosen and e not in fixed.values()
            ]
            best = max(options, key=lambda e: len(_new_pairs(chosen, e, seat, wanted)))
            targets += [p for p in _new_pairs(chosen, best, seat, wanted) if p not in targets]
            chosen.append(best)
        for pair in targets:
            proposed[pair] = proposed.get(pair, 0) + 1
        hands = {seat: [_CARD_OF[effect]] for seat, effect in enumerate(chosen, start=1)}
        setup = OmensSetup(4, DEFAULT_TEAMS[4], _fill(hands, 2), leader=1)
        yield _Candidate(setup, tuple(_CARD_OF[e] for e in chosen), tuple(sorted(targets)))


def _new_pairs(chosen: Sequence[str], effect: str, seat: int, wanted: set[str]) -> list[str]:
    """The open pairs ``effect`` at ``seat`` makes with the effects placed before it (seats
    1, 2, ... in order)."""
    return [
        pair
        for index, earlier in enumerate(chosen, start=1)
        if (pair := f"pair:{earlier}>{effect}:{_relation(index, seat)}") in wanted
    ]


def _relation(seat_a: int, seat_b: int) -> str:
    """Seats of a 4-player table: 1 and 3 are partners, 2 and 4 too."""
    return _RELATIONS[0 if (seat_a - seat_b) % 2 == 0 else 1]


def _absolute_candidates() -> Iterator[_Candidate]:
    """The Absolute played by seat 1 under each timing and exchange setting."""
    for timing, exchange in itertools.product(("now", "end"), ("secret", "open")):
        overrides = {}
        if timing != "now":
            overrides["absolute_timing"] = timing
        if exchange != "secret":
            overrides["absolute_exchange"] = exchange
        for players in (4, 5, 6):
            hands: dict[int, list[int]] = {seat: [] for seat in range(1, players + 1)}
            hands[1].append(31)
            setup = OmensSetup(
                players, DEFAULT_TEAMS[players], _fill(hands, 2), leader=1, overrides=overrides
            )
            relations = [f"absolute:{timing}:{exchange}:{r}" for r in _RELATIONS]
            yield _Candidate(setup, (31,), tuple(relations))


def _permutation(index: int) -> list[int]:
    """The index-th fixed shuffle of the 35 cards (multiplication modulo 37, a prime)."""
    factor = 2 + index % 35
    return sorted(range(1, 36), key=lambda card: ((card * factor) % 37, card))


def _spread_candidates(players: int, size: int, count: int) -> Iterator[_Candidate]:
    """``count`` deals of ``size`` cards each, from fixed shuffles of the whole deck."""
    for index in range(count):
        order = _permutation(index)
        hands = {seat: tuple(sorted(order[(seat - 1) * size: seat * size]))
                 for seat in range(1, players + 1)}
        leader = 1 + index % players
        yield _Candidate(OmensSetup(players, DEFAULT_TEAMS[players], hands, leader), budget=80)


def _option_candidates() -> Iterator[_Candidate]:
    """Deals under the options that let players run out of cards (Dream's target plays again,
    0 cards win), where the rules about empty hands and lone cards apply."""
    overrides = ({"dream_target_turn": "plays_again"},
                 {"dream_target_turn": "plays_again", "zero_cards": "any"},
                 {"dream_target_turn": "plays_again", "sadness_lone_card": "discarded_no_winner"})
    for rules in overrides:
        for players in (4, 5):
            hands: dict[int, list[int]] = {seat: [] for seat in range(1, players + 1)}
            hands[1].append(21)
            hands[2].append(26)
            setup = OmensSetup(players, DEFAULT_TEAMS[players], _fill(hands, 2), 1,
                               overrides=rules)
            yield _Candidate(setup, (21,))


# ---------------------------------------------------------------------------------------------
# Walking a candidate
# ---------------------------------------------------------------------------------------------


class _Walker:
    """Depth-first walk of one candidate's lines, with the features of each step. Complete
    lines with a feature not covered yet are yielded one at a time, so that each is kept (and
    its features counted) before the walk decides about the next."""

    def __init__(self, miner: OmensMiner, candidate: _Candidate) -> None:
        self.miner = miner
        self.candidate = candidate
        self.nodes = 0

    def lines(self) -> Iterator[tuple[list[str], set[str]]]:
        yield from self._visit(self.candidate.setup.start(), [], [], _Bout())

    def _order(self, state: OmensState) -> list[tuple[OmensAction, ...]]:
        moves = state.moves()
        first = self.candidate.first
        if not first or state.current_player() == SIMULTANEOUS:
            return moves
        return sorted(moves, key=lambda move: 0 if move[0].card in first else 1)

    def _visit(
        self, state: OmensState, moves: list[str], steps: list[set[str]], bout: _Bout
    ) -> Iterator[tuple[list[str], set[str]]]:
        if state.is_terminal():
            features = set().union(*steps)
            if self.miner.coverage.new(features):
                yield list(moves), features
            return
        for move in self._order(state):
            if self.nodes >= self.candidate.budget:
                return
            self.nodes += 1
            with self.miner.tracer.tracing() as lines:
                child, trace = state.explain(move)
                legal_view(child)
            next_bout, features = _step_features(state, move, child, trace, bout)
            features |= lines
            text = normalize_move(state.move_to_string(move))
            yield from self._visit(child, [*moves, text], [*steps, features], next_bout)


def _enumerated_why(candidate: _Candidate, recording: Recording) -> str:
    """The rules behind every step, in words (each step cites its rule id)."""
    parts = []
    for move, trace in zip(recording.moves, recording.traces, strict=True):
        said = "; ".join(f"{step.text} [{step.rule}]" for step in trace)
        parts.append(f"{move}: {said}" if said else move)
    options = candidate.setup.overrides
    settings = (
        " Options: " + ", ".join(f"{k} = {v}" for k, v in sorted(options.items())) + "."
        if options
        else ""
    )
    return (
        "Found by the systematic enumeration; each step with what the rules make happen and "
        f"the rule id (docs/omens-rules.md).{settings} " + " | ".join(parts)
    )
