"""Mining Omens vectors for one suite: the printed examples, the option witnesses, siblings of
those recorded under the suite's settings, then a coverage-driven enumeration of small
positions and seeded random lines, each kept only if it covers something new.

A suite is mined under one set of rule settings (:class:`Suite`: a preset and overrides; the
shipped ones are the presets ``rulebook`` and ``gamepark``). Its sources, in this order (each
vector is recorded by :mod:`omen_solver.vectors.omens_record`, measured by
:mod:`omen_solver.vectors.omens_features` and :mod:`omen_solver.vectors.coverage`, and given
its ``holds_under`` by :mod:`omen_solver.vectors.holds`):

1. **examples**: the rulebook's worked examples, its printed clarifications and the edge cases
   they settle, written by hand in ``data/omens-examples.toml`` with the outcome the rules
   require; each is replayed and its written outcome checked before it is published, under
   the settings it names.
2. **witnesses**: for every pair of settings of every rule option, the position and moves
   where the two settings play differently (``proofs/witnesses/summary.json``, found by
   ``omen-solver witnesses``), one vector per setting.
3. **siblings**: every example or witness whose expectations do not hold under the suite's
   settings is recorded again under them (same position and moves, up to the first move those
   settings make illegal), unless the suite already has a vector of that position and those
   moves that holds under them.
4. **enumeration**: small positions walked depth first in the library's order of legal actions
   (the cards a candidate is about placed first) up to a node budget: bouts built to place
   each ordered pair of effects at each placement, hands built to make a rule matter, whole
   games from the first deal, The Absolute under each setting, fixed deals of 2 and 3 cards at
   4, 5 and 6 players. A complete line of play is kept if it covers a feature no earlier
   vector had.
5. **random**: seeded random lines from mid-round positions (the effect cards dealt first),
   played to the end of the round; kept if they cover something new.

Everything is deterministic: the same version writes the same vectors.
"""

from __future__ import annotations

import itertools
import random
import re
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from omen_solver.core.game import SIMULTANEOUS
from omen_solver.core.options import preset
from omen_solver.errors import OmenSolverError
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import (
    AbsoluteExchange,
    AbsoluteTiming,
    BetrayalGiveBack,
    DreamTargetTurn,
    OmensRules,
    SadnessLoneCard,
    ZeroCards,
    make_rules,
    option_specs,
)
from omen_solver.omens.state import OmensState
from omen_solver.omens.vocabulary import ChoiceWord, Effect
from omen_solver.vectors.coverage import Coverage, Dimension, LineTracer, executable_lines
from omen_solver.vectors.holds import holds_info
from omen_solver.vectors.omens_features import (
    EFFECTS,
    HAND_EFFECTS,
    IMPOSSIBLE_PLACEMENTS,
    LEFT,
    NOW_EFFECTS,
    PLACEMENTS,
    RELATIONS,
    ROUND_ENDS,
    SCENES,
    SITUATIONS,
    BoutTrack,
    effect_name,
    effect_pairs,
    impossible_placements,
    possible_placements,
    step_features,
)
from omen_solver.vectors.omens_record import (
    OmensSetup,
    Recording,
    legal_view,
    normalize_move,
    record,
    setup_from_json,
    state_view,
    turn_view,
    vector_json,
)
from omen_solver.vectors.settings import holds
from omen_solver.vectors.witness import read_summary

__all__ = [
    "DEFAULT_TEAMS",
    "MinedSet",
    "OmensMiner",
    "Suite",
    "effect_pairs",
    "example_setup",
    "load_examples",
    "possible_situations",
    "situation_cards",
]

DEFAULT_TEAMS: Final = {4: ((1, 3), (2, 4)), 5: ((1, 3), (2, 4, 5)), 6: ((1, 4), (2, 5), (3, 6))}

_CATALOGUE = default_catalogue()
_NAME: Final = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_RANDOM_LINES: Final = 120
"""Random lines tried per suite."""
_OPEN: Final = "chain:"
"""The dimension only the random lines are kept for (it has no fixed total)."""


@dataclass(frozen=True)
class Suite:
    """The rule settings a suite is mined under: a preset and overrides, and the suite's name
    (a folder name; vector ids of the mined sets carry it)."""

    name: str = "rulebook"
    preset: str = "rulebook"
    overrides: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise OmenSolverError(f"suite name {self.name!r}: use lowercase letters, digits, "
                                  "'-' and '_'")
        make_rules(self.preset, self.overrides, where="--rule")

    @property
    def settings(self) -> dict[str, str]:
        return make_rules(self.preset, self.overrides).as_dict()

    def options_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "overrides": dict(sorted(self.overrides.items())),
                "settings": self.settings}

    def describe(self) -> str:
        extra = ", ".join(f"{k} = {v}" for k, v in sorted(self.overrides.items()))
        return f"preset {self.preset}" + (f" with {extra}" if extra else "")

    def setup(self, players: int, hands: Mapping[int, Sequence[int]], leader: int = 1, *,
              overrides: Mapping[str, str] | None = None, **more: Any) -> OmensSetup:
        """A 4-6 player position under the suite's settings (and ``overrides`` on top)."""
        return OmensSetup(players, DEFAULT_TEAMS[players], hands, leader, preset=self.preset,
                          overrides={**self.overrides, **(overrides or {})}, **more)


def _dimensions(suite: Suite) -> tuple[Dimension, ...]:
    settings = frozenset(
        f"option:{spec.name}={setting}" for spec in option_specs() for setting in spec.settings
    )
    round_ends = frozenset(
        f"round_end:{kind}:{players}p" for kind in ROUND_ENDS.values() for players in (4, 5, 6)
    )
    teams = frozenset(
        f"team_win:{players}p:{len(team)}"
        for players, teams in DEFAULT_TEAMS.items()
        for team in teams
    )
    absolute = frozenset(
        f"absolute:{timing}:{exchange}:{relation}"
        for timing in AbsoluteTiming
        for exchange in AbsoluteExchange
        for relation in RELATIONS
    )
    impossible = impossible_placements()
    scenes, no_scenes = _possible_scenes(suite)
    situations, no_situations = possible_situations(suite.settings)
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
            "placement",
            "ordered pairs of effect cards in one bout with each immediate card of the pair at "
            "each placement (first, middle, second-to-last, last), in vectors that hold under "
            "the suite's settings",
            possible_placements(),
            impossible=tuple((what, len(impossible.get(what, ())), why)
                             for what, why in IMPOSSIBLE_PLACEMENTS.items()),
            holding=True,
        ),
        Dimension(
            "scene",
            "hands that make a rule matter (Law, Betrayal, Wrath, Jealousy, Luck, Pride, the "
            "round-end ties), in vectors that hold under the suite's settings",
            scenes,
            impossible=no_scenes,
            holding=True,
        ),
        Dimension(
            "situation",
            "situations in which engines go wrong, each with the effects that touch it: hands "
            "of only Fear, one card or none; Law taken, given, given back, sent back, moved, "
            "replayed or placed through Dream with players left to play or not, and each "
            "placement it binds where the hand holds cards on both sides of it; every effect "
            "in the bout that ends a round and the game; Pride, Luck and the round end; the "
            "one-card tie and Luck's zero; each immediate card first, last, with one player "
            "left, and when the turn passes the last seat; in vectors that hold under the "
            "suite's settings",
            situations,
            impossible=no_situations,
            holding=True,
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
            "chain",
            "chains of three immediate cards or more placed in one bout, in order (no fixed "
            "total: the count of those in the vectors kept)",
            None,
        ),
        Dimension(
            "line",
            "lines of the Omens resolver (omens/resolve.py, omens/state.py) run by the vectors",
            executable_lines(),
            "Measured with sys.settrace; lines that only error paths, text for people or "
            "other games' hooks reach stay uncovered.",
        ),
    )


_EMPTY_LUCK: Final = "scene:luck-nothing-to-discard:empty-hand"
_NO_EMPTY_HAND: Final = (
    "a hand empty when an effect takes from it, gives to it or shows from it",
    "a hand is empty during a bout only if Dream's target plays again (dream_target_turn = "
    "plays_again): a bout starts with 2 cards or more in every hand (a hand of 1 ends the "
    "round), each player places one card from it (Wrath's replay and Betrayal's gift follow "
    "a card that came back into the hand first), and The Absolute's exchange is one card for "
    "one",
)
_GIVES_FROM_HAND: Final = (
    "an empty hand for The Absolute's exchange, Dream's target or Secret",
    "each of these takes a card from the hand (given, placed or shown), so a hand with none is "
    "never asked",
)
_DREAM_TARGET: Final = (
    "Dream's target holding one card or only Fear",
    "Dream's target has not played yet this bout, and until a player places a card their hand "
    "holds at least as many cards as at the bout's start (2 or more; before a player plays, a "
    "card reaches their hand only through The Absolute's exchange, one for one)",
)
_NO_GIVE_BACK: Final = (
    "Law given back by Betrayal",
    "betrayal_give_back = forbidden: Betrayal's player cannot give back the card taken",
)


def possible_situations(settings: Mapping[str, str]
                        ) -> tuple[frozenset[str], tuple[tuple[str, int, str], ...]]:
    """The situations a line of play can have under ``settings`` (every rule option's), and
    those it cannot (why, for each kind)."""
    ruled_out: list[tuple[tuple[str, str], frozenset[str]]] = [
        (_DREAM_TARGET, frozenset(f"situation:hand-{kind}:dream"
                                  for kind in ("one-card", "only-fear"))),
    ]
    empty = frozenset(f"situation:hand-empty:{effect}" for effect in HAND_EFFECTS)
    if settings["dream_target_turn"] == DreamTargetTurn.PLAYS_AGAIN:
        asked = frozenset(f"situation:hand-empty:{e}"
                          for e in ("the-absolute", Effect.DREAM, Effect.SECRET))
        ruled_out.append((_GIVES_FROM_HAND, asked))
    else:
        ruled_out.append((_NO_EMPTY_HAND, empty))
    if settings["betrayal_give_back"] == BetrayalGiveBack.FORBIDDEN:
        ruled_out.append((_NO_GIVE_BACK, frozenset(f"situation:law-given-back:{left}"
                                                   for left in LEFT)))
    impossible = frozenset().union(*(features for _, features in ruled_out))
    return SITUATIONS - impossible, tuple((what, len(features), why)
                                          for (what, why), features in ruled_out)


def _possible_scenes(suite: Suite) -> tuple[frozenset[str], tuple[tuple[str, int, str], ...]]:
    """The scenes a line of play can have under the suite's settings, and those it cannot."""
    if suite.settings["dream_target_turn"] == DreamTargetTurn.PLAYS_AGAIN:
        return SCENES, ()
    why = ("a bout starts with 2 cards or more in every hand (a hand of 1 ends the round, a "
           "hand of 0 needs dream_target_turn = plays_again), and every player places one card "
           "of them at most, so whoever Luck's card belongs to still holds a card when Luck is "
           "discarded")
    return SCENES - {_EMPTY_LUCK}, (("Luck discarded while its player holds no card", 1, why),)


# ---------------------------------------------------------------------------------------------
# Features of a line of play
# ---------------------------------------------------------------------------------------------


def _line_features(start: OmensState, recording: Recording) -> set[str]:
    features: set[str] = set()
    bout = BoutTrack()
    before = start
    for state, trace, text in zip(recording.states, recording.traces, recording.moves,
                                  strict=True):
        bout, step = step_features(before, before.parse_move(text), state, trace, bout)
        features |= step
        before = state
    return features


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
    """A start position of the enumeration: the cards to place first (in this order of
    preference), the features it is meant to cover (the walk stops once they are), its node
    budget and why it was built."""

    setup: OmensSetup
    first: tuple[int, ...] = ()
    targets: tuple[str, ...] = ()
    budget: int = 60
    max_lines: int | None = None
    purpose: str = ""


class OmensMiner:
    """Builds the Omens vector sets of one suite and their coverage."""

    def __init__(self, witnesses: Path, suite: Suite | None = None) -> None:
        self.witnesses = witnesses
        self.suite = suite or Suite()
        self.settings = self.suite.settings
        self.coverage = Coverage(_dimensions(self.suite))
        self.tracer = LineTracer()
        self._holding_only = self.coverage.holding_only()
        self._published: list[dict[str, Any]] = []
        self.no_sibling: list[dict[str, str]] = []
        """The vectors that do not hold under the suite's settings and have no sibling under
        them, and why (their position is not one under those settings)."""

    # -- keeping a recorded line -----------------------------------------------------------

    def _measure(self, setup: OmensSetup, moves: Sequence[str]) -> tuple[Recording, set[str]]:
        start = setup.start()
        with self.tracer.tracing() as lines:
            legal_view(start)
            recording = record(start, moves)
            for state in recording.states:
                legal_view(state)
        return recording, set(lines) | _line_features(start, recording)

    def _counted(self, vector: Mapping[str, Any], features: set[str]) -> set[str]:
        """The features a vector adds to the suite's coverage: those of the dimensions counted
        only for what an engine with the suite's settings plays need the vector to hold
        under them."""
        if holds(vector, "omens", self.settings) is None:
            return features
        return {f for f in features if not f.startswith(tuple(self._holding_only))}

    def _keep(
        self,
        mined: MinedSet,
        vector_id: str,
        why: str,
        source: str,
        setup: OmensSetup,
        recording: Recording,
        features: set[str],
    ) -> dict[str, Any]:
        draft = vector_json(vector_id, why, source, setup, recording)
        holds_under, sensitive = holds_info("omens", draft)
        features = features | {f"option:{name}={draft['options']['settings'][name]}"
                               for name in sensitive}
        draft["holds_under"] = holds_under
        counted = self._counted(draft, features)
        new = self.coverage.new(counted)
        covers = [f for f in new if not f.startswith("line:")]
        lines = len(new) - len(covers)
        if lines:
            covers.append(f"{lines} resolver line(s)")
        self.coverage.add(counted, vector_id)
        vector = vector_json(vector_id, why, source, setup, recording, covers,
                             holds_under=holds_under)
        mined.vectors.append(vector)
        self._published.append(vector)
        return vector

    def _worth_keeping(self, features: set[str]) -> bool:
        """Whether a line recorded under the suite's own settings covers something new."""
        return bool(self.coverage.new(features))

    # -- 1. the printed examples -------------------------------------------------------------

    def examples(self) -> MinedSet:
        mined = MinedSet(
            "examples",
            "The rulebook's worked examples, its printed clarifications and the edge cases they "
            "settle, written by hand with the outcome the rules require "
            "(omen_solver/vectors/data/omens-examples.toml); each under the settings it names, "
            "and, where the suite's settings play it differently, again under those.",
        )
        for item in load_examples():
            setup = example_setup(item)
            recording, features = self._measure(setup, item["moves"])
            _check_example(item, recording)
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
            "docs/omens-option-witnesses.md); where the suite's settings play one differently "
            "from both, again under those.",
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

    # -- 3. siblings under the suite's settings ----------------------------------------------

    def siblings(self, mined: MinedSet) -> MinedSet:
        """``mined`` with, after each vector that does not hold under the suite's settings,
        its sibling recorded under them (see the module's docstring)."""
        originals, mined.vectors = mined.vectors, []
        for vector in originals:
            mined.vectors.append(vector)
            if holds(vector, "omens", self.settings) is None or self._has_holding_twin(vector):
                continue
            self._sibling(mined, vector)  # appended right after its original
        return mined

    def _has_holding_twin(self, vector: Mapping[str, Any]) -> bool:
        moves = [step["action"] for step in vector["steps"]]
        return any(
            other["position"] == vector["position"]
            and [step["action"] for step in other["steps"]] == moves
            and holds(other, "omens", self.settings) is None
            for other in self._published
        )

    def _sibling(self, mined: MinedSet, vector: Mapping[str, Any]) -> dict[str, Any] | None:
        original = setup_from_json(vector["options"], vector["position"])
        setup = OmensSetup(
            original.players, original.teams, original.hands, original.leader,
            original.scope, self.suite.preset, dict(self.suite.overrides),
            original.rounds_won, original.box, original.new_game,
        )
        moves = [step["action"] for step in vector["steps"]]
        try:
            start = setup.start()
        except OmenSolverError as error:
            self.no_sibling.append({"vector": vector["id"],
                                    "why": error.relative()})
            return None
        legal, cut = _legal_prefix(start, moves)
        recording, features = self._measure(setup, legal)
        difference = _first_difference(vector, recording, cut, moves)
        first = " ".join(vector["why"].split()).split(". ", 1)[0].rstrip(".")
        if len(first) > 160:
            first = first[:157].rsplit(" ", 1)[0] + " ..."
        why = (
            f"The position and moves of {vector['id']} ({first}), recorded again under the "
            f"settings of this suite ({self.suite.describe()}), which play them differently: "
            f"{difference}."
        )
        return self._keep(
            mined, f"{vector['id']}.{self.suite.name}", why,
            f"{vector['source']}, under the suite's settings", setup, recording, features,
        )

    # -- 4. the enumeration ------------------------------------------------------------------

    def enumeration(self, limit: int | None = None) -> MinedSet:
        """``limit``: stop after that many candidate positions (for a quick partial run)."""
        mined = MinedSet(
            "enumerated",
            "Small positions (4, 5 and 6 players, 2 or 3 cards in hand) built to place every "
            "ordered pair of effects at every placement and to make each rule matter, walked "
            "in a fixed order; a line of play is kept only if it covers something no earlier "
            "vector covers (docs/vectors.md, 'How the vectors are mined').",
        )
        for number, candidate in enumerate(self._candidates()):
            if limit is not None and number >= limit:
                return mined
            self._walk(mined, candidate)
        self._situations(mined)
        return mined

    def _situations(self, mined: MinedSet) -> None:
        """For each situation not covered yet (in order), seeded random lines from positions
        dealt for it (:func:`_situation_line`) until one has it, kept like any other line."""
        universe = self.coverage.dimensions[[d.name for d in self.coverage.dimensions]
                                           .index("situation")].total
        assert universe is not None
        for feature in sorted(universe):
            for attempt in range(_SITUATION_TRIES):
                if feature in self.coverage.first:
                    break
                setup, moves, features = _situation_line(self.suite, feature, attempt)
                if feature not in features:
                    continue
                recording = record(setup.start(), moves)
                vector_id = f"omens.{self.suite.name}.enum.{len(mined.vectors) + 1:04d}"
                candidate = _Candidate(setup, purpose=f"dealt for {feature} (random line "
                                                      f"{attempt})")
                _, measured = self._measure(setup, moves)
                self._keep(mined, vector_id, _enumerated_why(candidate, recording, self.suite),
                           "systematic enumeration (omen-solver vectors export)", setup,
                           recording, measured)

    def _candidates(self) -> Iterator[_Candidate]:
        suite = self.suite
        yield from _placement_packs(suite, self.coverage)
        yield from _scene_candidates(suite)
        yield from _new_games(suite)
        yield from _pair_packs(suite, self.coverage)
        yield from _absolute_candidates(suite)
        for players in (4, 5, 6):
            for size in (2, 3):
                yield from _spread_candidates(suite, players, size, 8)
        yield from _option_candidates(suite)

    def _walk(self, mined: MinedSet, candidate: _Candidate) -> None:
        """Walk the candidate's lines depth first, placing its ``first`` cards first; keep
        every complete line that covers something new, until its targets are covered."""
        if candidate.targets and not self.coverage.new(candidate.targets):
            return
        walker = _Walker(self, candidate)
        for kept, (moves, features) in enumerate(walker.lines(), start=1):
            recording = record(candidate.setup.start(), moves)
            vector_id = f"omens.{self.suite.name}.enum.{len(mined.vectors) + 1:04d}"
            why = _enumerated_why(candidate, recording, self.suite)
            self._keep(
                mined, vector_id, why, "systematic enumeration (omen-solver vectors export)",
                candidate.setup, recording, features,
            )
            if candidate.targets and not self.coverage.new(candidate.targets):
                return
            if candidate.max_lines is not None and kept >= candidate.max_lines:
                return

    # -- 5. random lines -------------------------------------------------------------------

    def random_lines(self, tries: int = _RANDOM_LINES) -> MinedSet:
        """Seeded random lines from mid-round positions, kept if they cover something new."""
        mined = MinedSet(
            "random",
            "Seeded random lines from mid-round positions (4 to 6 players, 2 or 3 cards in "
            "hand, the effect cards dealt first), played to the end of the round; a line is "
            "kept only if it covers something no earlier vector covers.",
        )
        for index in range(tries):
            setup, moves = _random_line(self.suite, index)
            recording, features = self._measure(setup, moves)
            if not self._worth_keeping(features):
                continue
            vector_id = f"omens.{self.suite.name}.random.{len(mined.vectors) + 1:04d}"
            candidate = _Candidate(setup, purpose=f"random line {index} (seed "
                                                   f"'omens-{self.suite.name}-{index}')")
            self._keep(mined, vector_id, _enumerated_why(candidate, recording, self.suite),
                       "seeded random line (omen-solver vectors export)", setup, recording,
                       features)
        return mined


def _legal_prefix(start: OmensState, moves: Sequence[str]) -> tuple[list[str], int | None]:
    """The moves up to the first one that is illegal from ``start`` on (its 1-based number,
    or None if all are legal)."""
    state = start
    for number, text in enumerate(moves, start=1):
        try:
            state = state.child(text)
        except OmenSolverError:
            return list(moves[: number - 1]), number
    return list(moves), None


def _first_difference(vector: Mapping[str, Any], recording: Recording, cut: int | None,
                      moves: Sequence[str]) -> str:
    """Where a sibling first differs from its original, in words."""
    steps = [vector["start"], *vector["steps"]]
    mine = [turn_view(recording.start), *recording.steps_json()]
    for number, (theirs, ours) in enumerate(zip(steps, mine, strict=False)):
        where = "after the setup" if number == 0 else f"after {moves[number - 1]!r}"
        if theirs["to_act"] != ours["to_act"]:
            return f"{where}, seat(s) {ours['to_act']} act, not {theirs['to_act']}"
        if theirs["legal"] != ours["legal"]:
            gone = sorted(set(theirs["legal"]) - set(ours["legal"]))
            added = sorted(set(ours["legal"]) - set(theirs["legal"]))
            parts = ([f"{', '.join(added[:4])} become legal"] if added else []) + (
                [f"{', '.join(gone[:4])} no longer"] if gone else [])
            return f"{where}, {' and '.join(parts)}"
        if theirs.get("state") != ours.get("state"):
            keys = [key for key in (ours.get("state") or theirs.get("state") or {})
                    if (theirs.get("state") or {}).get(key) != (ours.get("state") or {}).get(key)]
            return f"{where}, the bout ends otherwise ({', '.join(keys)})"
    if cut is None:
        return "none that its holds_under shows (the same expectations)"
    return f"{moves[cut - 1]!r} is not legal there, so the line stops before it"


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
                   if (name := effect_name(card))}
"""One card per effect (the lowest value: The Absolute 30)."""
_SEAT_OF: Final = {where: seat for seat, where in enumerate(PLACEMENTS, start=1)}
"""Where each seat's card lands in a 4-player bout led by seat 1, played in seat order."""


def _fill(hands: Mapping[int, Sequence[int]], size: int) -> dict[int, tuple[int, ...]]:
    used = {card for hand in hands.values() for card in hand}
    free = [card for card in _FILLERS if card not in used]
    filled = {}
    for seat in sorted(hands):
        hand = list(hands[seat])
        while len(hand) < size:
            hand.append(free.pop(0))
        filled[seat] = tuple(sorted(hand))
    return filled


_SITUATION_TRIES: Final = 3_000
"""Random lines tried at most for one situation."""
_SITUATION_CARDS: Final = {
    "law": (15,), "taken": (29,), "given": (29,), "given-back": (29,), "returned": (28,),
    "moved": (23,), "replayed": (28,), "dream-placed": (21,), "dream-placement": (21,),
    "wrath-replay": (28,), "betrayal-gift": (29,), "turn": (), "pride": (22, 13, 12, 27),
    "fear": (12,), "only-fear": (12,), "luck-zero": (13, 27), "tie-one-card": (12,),
}
"""The cards a situation is about, beyond the effect it names (dealt first)."""


def situation_cards(feature: str) -> list[int]:
    """The cards to deal first for a situation: the cards of the effects and words it names."""
    cards: list[int] = []
    parts = feature.removeprefix("situation:").split(":")
    for word in [*parts, *(w for part in parts for w in part.split("-"))]:
        for card in ((_CARD_OF[word],) if word in _CARD_OF else ()) + _SITUATION_CARDS.get(
                word, ()):
            if card not in cards:
                cards.append(card)
    return cards


def _situation_line(suite: Suite, feature: str, attempt: int
                    ) -> tuple[OmensSetup, list[str], set[str]]:
    """The attempt-th random line for a situation: a position of 4 to 6 players with 2 or 3
    cards each, the situation's cards dealt first (to random seats), a random leader, the
    scope the situation needs (a game with every team one round from winning for the end of a
    game); every action drawn at random, three times in four among those that place one of
    the situation's cards when there are any. Returns the line and its features."""
    rng = random.Random(f"omens-{suite.name}-{feature}-{attempt}")
    players = rng.choice((4, 4, 5, 6))
    size = rng.choice((2, 2, 3))
    wanted = situation_cards(feature)
    game = feature.startswith("situation:ends-game:")
    absolutes = [card for card in range(30, 36) if card not in wanted]
    box = tuple(sorted(rng.sample(absolutes, 6 - players))) if game and players < 6 else ()
    rest = [card for card in range(1, 36) if card not in wanted and card not in box]
    rng.shuffle(rest)
    extra = [card for card in rest if effect_name(card) in NOW_EFFECTS][: rng.randint(0, 3)]
    deck = list(wanted) + extra + [card for card in rest if card not in extra]
    deck = deck[: players * size]
    rng.shuffle(deck)
    hands = {seat: tuple(sorted(deck[seat - 1:: players])) for seat in range(1, players + 1)}
    teams = DEFAULT_TEAMS[players]
    setup = suite.setup(players, hands, rng.randint(1, players),
                        scope="game" if game else "round",
                        rounds_won=tuple(1 for _ in teams) if game else (), box=box)
    state = setup.start()
    moves: list[str] = []
    features: set[str] = set()
    bout = BoutTrack()
    while not state.is_terminal() and len(moves) < 200:
        options = state.moves()
        preferred = [move for move in options
                     if any(action.card in wanted for action in move)]
        move = rng.choice(preferred if preferred and rng.random() < 0.75 else options)
        child, trace = state.explain(move)
        bout, step = step_features(state, move, child, trace, bout)
        features |= step
        moves.append(normalize_move(state.move_to_string(move)))
        state = child
    return setup, moves, features


def _new_games(suite: Suite) -> Iterator[_Candidate]:
    """A whole game from the first deal, at each player count: the Absolutes and the hands
    dealt by chance (the first outcome of each draw), then the first legal action every time,
    until a team has won 2 rounds."""
    for players in (4, 5, 6):
        setup = OmensSetup(players, (), {}, leader=1, scope="game", preset=suite.preset,
                           overrides=dict(suite.overrides), new_game=True)
        yield _Candidate(setup, budget=1_000, max_lines=1,
                         purpose=f"a whole game of {players} players from the first deal")


def _parse_placement(feature: str) -> tuple[str, str, str, str]:
    pair, rest = feature.removeprefix("placement:").split(":")
    first, second = pair.split(">")
    now, where = rest.split("@")
    return first, second, now, where


def _predicted(assigned: Mapping[int, str]) -> set[str]:
    """The placement features a 4-player bout led by seat 1 has if every seat plays its
    assigned effect in seat order."""
    found = set()
    for early, late in itertools.combinations(sorted(assigned), 2):
        first, second = assigned[early], assigned[late]
        if first == second:
            continue
        for now, seat in ((first, early), (second, late)):
            if now in NOW_EFFECTS:
                found.add(f"placement:{first}>{second}:{now}@{PLACEMENTS[seat - 1]}")
    return found


def _placement_packs(suite: Suite, coverage: Coverage) -> Iterator[_Candidate]:
    """Bouts of 4 players, led by seat 1 and played in seat order, each built for the first
    placement feature not covered yet: the pair's immediate card at the seat of its placement
    (seat 1 first, 2 middle, 3 second-to-last, 4 last) and the other card before or after it
    (after a Wrath or a Betrayal placed last: in the hand of the player Wrath sends a card back
    to, or of Betrayal's player, for the gift); the other seats hold the effects that add the
    most features not covered yet (or plain cards). A feature is proposed at most twice."""
    proposed: Counter[str] = Counter()
    universe = sorted(possible_placements())
    while True:
        open_features = [f for f in universe if f not in coverage.first and proposed[f] < 2]
        if not open_features:
            return
        wanted = set(open_features)
        target = open_features[0]
        first, second, now, where = _parse_placement(target)
        seat = _SEAT_OF[where]
        assigned: dict[int, str] = {}
        extra: dict[int, str] = {}
        if now == first:
            assigned[seat] = first
            if seat < 4:
                assigned[seat + 1] = second
            else:
                extra[1 if first == Effect.WRATH else 4] = second
        else:
            assigned[seat] = second
            assigned[seat - 1] = first
        used = set(assigned.values()) | set(extra.values())
        for free in (s for s in (1, 2, 3, 4) if s not in assigned):
            gains = {
                effect: len((_predicted({**assigned, free: effect}) - _predicted(assigned))
                            & wanted)
                for effect in EFFECTS if effect not in used
            }
            best = max(gains, key=lambda effect: gains[effect], default=None)
            if best is not None and gains[best] > 0:
                assigned[free] = best
                used.add(best)
        targets = sorted({target} | (_predicted(assigned) & wanted))
        proposed.update(targets)
        hands: dict[int, list[int]] = {s: [] for s in (1, 2, 3, 4)}
        order = []
        for s in sorted(assigned):
            hands[s].append(_CARD_OF[assigned[s]])
            order.append(_CARD_OF[assigned[s]])
        for s, effect in extra.items():
            hands[s].append(_CARD_OF[effect])
            order.append(_CARD_OF[effect])
        yield _Candidate(suite.setup(4, _fill(hands, 2)), tuple(order), tuple(targets),
                         budget=200, purpose=f"built to place {first} before {second} with "
                         f"{now} {where}")


def _scene_candidates(suite: Suite) -> Iterator[_Candidate]:
    """4-player bouts whose hands make one rule matter (``scene:`` features)."""
    scenes = _possible_scenes(suite)[0]

    def bout(hands: Mapping[int, Sequence[int]], first: Sequence[int], targets: Sequence[str],
             purpose: str, budget: int = 200) -> Iterator[_Candidate]:
        wanted = tuple(t for t in targets if t in scenes)
        if wanted:
            yield _Candidate(suite.setup(4, _fill({s: list(hands.get(s, ())) for s in
                                                   (1, 2, 3, 4)}, 2)),
                             tuple(first), wanted, budget=budget, purpose=purpose)

    law = [f"scene:law:{d}:{h}" for d in (ChoiceWord.HIGHER, ChoiceWord.LOWER)
           for h in ("both-sides", "cannot-follow")]
    yield from bout({1: (15, 3), 2: (10, 20), 3: (4, 5), 4: (18, 19)}, (15,), law,
                    "Law led, then hands on both sides of it, below it and above it")
    for effect in sorted(NOW_EFFECTS - {Effect.BETRAYAL}):
        card = _CARD_OF[effect]
        yield from bout({1: (card,), 2: (29,)}, (card, 29), [f"scene:betrayal-takes:{effect}"],
                        f"Betrayal after {effect}")
        yield from bout({1: (1, 2), 2: (29, card)}, (1, 29), [f"scene:betrayal-gives:{effect}"],
                        f"Betrayal with {effect} in hand")
    for effect in sorted(NOW_EFFECTS - {Effect.WRATH}):
        card = _CARD_OF[effect]
        yield from bout({1: (card,), 2: (28,)}, (card, 28), [f"scene:wrath-returns:{effect}"],
                        f"Wrath after {effect}")
    for card in (15, 12, 13):
        name = effect_name(card)
        yield from bout({1: (card,), 2: (23,)}, (card, 23), [f"scene:jealousy-moves:{name}"],
                        f"Jealousy after {name}")
    yield from bout({1: (12, 13), 2: (27,)}, (13, 27),
                    ["scene:luck-nothing-to-discard:only-fear"],
                    "Luck played by a player left with Fear, then Winter")
    yield from bout({1: (22,), 2: (13,), 3: (27,)}, (22, 13, 27),
                    [f"scene:round-end:{c}" for c in (Effect.PRIDE, Effect.LUCK,
                                                      "pride-and-luck")],
                    "Pride, Luck and Winter in the bout that ends the round")
    yield from bout({1: (13, 5), 2: (27, 4), 3: (6, 7), 4: (3, 10)}, (13, 27),
                    ["scene:round-end:luck-zero-over-one", "scene:round-end:tie-one-card"],
                    "Luck's zero against players left with one card")
    if _EMPTY_LUCK in scenes:
        hands = {1: (21, 2), 2: (13, 27)}
        yield from bout(hands, (21, 13, 27), [_EMPTY_LUCK],
                        "Dream's target plays Luck and then its last card", budget=400)


def _pair_packs(suite: Suite, coverage: Coverage) -> Iterator[_Candidate]:
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
                e for e in EFFECTS if e not in chosen and e not in fixed.values()
            ]
            best = max(options, key=lambda e: len(_new_pairs(chosen, e, seat, wanted)))
            targets += [p for p in _new_pairs(chosen, best, seat, wanted) if p not in targets]
            chosen.append(best)
        for pair in targets:
            proposed[pair] = proposed.get(pair, 0) + 1
        hands = {seat: [_CARD_OF[effect]] for seat, effect in enumerate(chosen, start=1)}
        yield _Candidate(suite.setup(4, _fill(hands, 2)),
                         tuple(_CARD_OF[e] for e in chosen), tuple(sorted(targets)),
                         purpose=f"built to place {first} and {second} by {relation}")


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
    return RELATIONS[0 if (seat_a - seat_b) % 2 == 0 else 1]


def _absolute_candidates(suite: Suite) -> Iterator[_Candidate]:
    """The Absolute played by seat 1 under each timing and exchange setting."""
    for timing, exchange in itertools.product(AbsoluteTiming, AbsoluteExchange):
        overrides = {"absolute_timing": timing, "absolute_exchange": exchange}
        for players in (4, 5, 6):
            hands: dict[int, list[int]] = {seat: [] for seat in range(1, players + 1)}
            hands[1].append(31)
            setup = suite.setup(players, _fill(hands, 2), overrides=overrides)
            relations = [f"absolute:{timing}:{exchange}:{r}" for r in RELATIONS]
            yield _Candidate(setup, (31,), tuple(relations),
                             purpose=f"The Absolute with absolute_timing = {timing} and "
                             f"absolute_exchange = {exchange}")


def _permutation(index: int) -> list[int]:
    """The index-th fixed shuffle of the 35 cards (multiplication modulo 37, a prime)."""
    factor = 2 + index % 35
    return sorted(range(1, 36), key=lambda card: ((card * factor) % 37, card))


def _spread_candidates(suite: Suite, players: int, size: int, count: int
                       ) -> Iterator[_Candidate]:
    """``count`` deals of ``size`` cards each, from fixed shuffles of the whole deck."""
    for index in range(count):
        order = _permutation(index)
        hands = {seat: tuple(sorted(order[(seat - 1) * size: seat * size]))
                 for seat in range(1, players + 1)}
        leader = 1 + index % players
        yield _Candidate(suite.setup(players, hands, leader), budget=80,
                         purpose=f"fixed deal {index} of {size} cards to {players} players")


def _option_candidates(suite: Suite) -> Iterator[_Candidate]:
    """Deals under the options that let players run out of cards (Dream's target plays again,
    0 cards win), where the rules about empty hands and lone cards apply."""
    again = DreamTargetTurn.PLAYS_AGAIN
    overrides = (preset(OmensRules, again), preset(OmensRules, again, ZeroCards.ANY),
                 preset(OmensRules, again, SadnessLoneCard.DISCARDED_NO_WINNER))
    for rules in overrides:
        for players in (4, 5):
            hands: dict[int, list[int]] = {seat: [] for seat in range(1, players + 1)}
            hands[1].append(21)
            hands[2].append(26)
            setup = suite.setup(players, _fill(hands, 2), overrides=rules)
            yield _Candidate(setup, (21,), purpose="Dream with " + ", ".join(
                f"{k} = {v}" for k, v in rules.items()))


_NOW_CARDS: Final = tuple(card for card in sorted(_CATALOGUE)
                          if effect_name(card) in NOW_EFFECTS)


def _random_line(suite: Suite, index: int) -> tuple[OmensSetup, list[str]]:
    """The index-th random line of a suite: a mid-round position (4-6 players, 2 or 3 cards
    each; the immediate cards dealt first, then the others), the leader and every action
    drawn from a generator seeded with the suite's name and the index, to the end of the
    round."""
    rng = random.Random(f"omens-{suite.name}-{index}")
    players = rng.choice((4, 5, 6))
    size = rng.choice((2, 3))
    now = list(_NOW_CARDS)
    rng.shuffle(now)
    rest = [card for card in range(1, 36) if card not in _NOW_CARDS]
    rng.shuffle(rest)
    deck = now[: rng.randint(players, min(len(now), players * size))] + rest
    hands = {seat: tuple(sorted(deck[seat - 1:: players][:size]))
             for seat in range(1, players + 1)}
    setup = suite.setup(players, hands, rng.randint(1, players))
    state = setup.start()
    moves: list[str] = []
    while not state.is_terminal() and len(moves) < 200:
        move = rng.choice(state.moves())
        moves.append(normalize_move(state.move_to_string(move)))
        state = state.child(move)
    return setup, moves


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
        self.rank = {card: index for index, card in enumerate(candidate.first)}

    def lines(self) -> Iterator[tuple[list[str], set[str]]]:
        yield from self._visit(self.candidate.setup.start(), [], [], BoutTrack())

    def _order(self, state: OmensState) -> list[tuple[OmensAction, ...]]:
        moves = state.moves()
        if not self.rank or state.current_player() == SIMULTANEOUS:
            return moves
        last = len(self.rank)
        return sorted(moves, key=lambda move: self.rank.get(move[0].card, last))

    def _visit(
        self, state: OmensState, moves: list[str], steps: list[set[str]], bout: BoutTrack
    ) -> Iterator[tuple[list[str], set[str]]]:
        if state.is_terminal():
            features = {f for f in set().union(*steps) if not f.startswith(_OPEN)}
            if self.miner._worth_keeping(features):
                yield list(moves), features
            return
        for move in self._order(state):
            if self.nodes >= self.candidate.budget:
                return
            self.nodes += 1
            with self.miner.tracer.tracing() as lines:
                child, trace = state.explain(move)
                legal_view(child)
            next_bout, features = step_features(state, move, child, trace, bout)
            features |= lines
            text = normalize_move(state.move_to_string(move))
            yield from self._visit(child, [*moves, text], [*steps, features], next_bout)


def _enumerated_why(candidate: _Candidate, recording: Recording, suite: Suite) -> str:
    """How the line was found, and the rules behind every step, in words (each step cites
    its rule id)."""
    parts = []
    for move, trace in zip(recording.moves, recording.traces, strict=True):
        said = "; ".join(f"{step.text} [{step.rule}]" for step in trace)
        parts.append(f"{move}: {said}" if said else move)
    own = {k: v for k, v in candidate.setup.overrides.items()
           if suite.overrides.get(k) != v and make_rules(suite.preset, suite.overrides)
           .as_dict()[k] != v}
    settings = (" Options beyond the suite's: "
                + ", ".join(f"{k} = {v}" for k, v in sorted(own.items())) + "."
                if own else "")
    purpose = f" Position: {candidate.purpose}." if candidate.purpose else ""
    return (
        f"Found by the coverage-driven mining of the suite ({suite.describe()});{purpose} "
        f"each step with what the rules make happen and the rule id (docs/omens-rules.md)."
        f"{settings} " + " | ".join(parts)
    )
