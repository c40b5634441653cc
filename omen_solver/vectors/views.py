"""Each game's part in the conformance vectors (docs/vectors.md): how the vectors set up,
replay and read its states, and the pieces of the published files' JSON Schemas that are its
own. The vectors register it on the game (:class:`omen_solver.core.game.Feature`); a game's
descriptor never imports the vectors, which sit in a layer above it (docs/architecture.md,
"Layers"). The generic modules of ``vectors/`` (the protocol, the adapter, the runners, the
replays of ``holds``, the schemas) find every game here and name none themselves."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from omen_solver.core.game import Feature, GameState
from omen_solver.core.options import RuleOptions
from omen_solver.omen.game import OMEN
from omen_solver.omens.game import OMENS
from omen_solver.vectors.omen_record import (
    omen_recorded_steps,
    omen_start,
    omen_state_view,
    omen_turn_view,
)
from omen_solver.vectors.omen_schema import omen_defs
from omen_solver.vectors.omens_record import (
    recorded_steps,
    replay_rules,
    replay_step,
    start_state,
    state_view,
    turn_view,
)
from omen_solver.vectors.omens_schema import CARDS, omens_defs, suite_schema
from omen_solver.vectors.schema_parts import STRINGS

__all__ = ["VECTORS", "Resume", "VectorView"]

StateT = TypeVar("StateT", bound=GameState[Any])


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume(Generic[StateT]):
    """How replays of a game's vectors resume from a recorded state instead of playing the
    line again from its start (``holds``): the game's ``holds_under`` is then narrowed by
    replaying each setting of the options a line reads, not only its presets."""

    step: Callable[[StateT, str], tuple[StateT, dict[str, Any]]]
    """The state after the move written as the text and the step as a vector records it (an
    illegal move raises :class:`ValueError`)."""
    rules: Callable[[StateT], RuleOptions]
    """The rule options object a state plays under, shared by the states of its line."""


@dataclass(frozen=True, slots=True, kw_only=True)
class VectorView(Generic[StateT]):
    """How the conformance vectors set up and read a game's states."""

    start: Callable[[Mapping[str, Any], Mapping[str, Any], str], StateT]
    """The state of a vector's ``options`` and ``position`` (errors name the third argument)."""
    turn: Callable[[StateT], dict[str, Any]]
    """Who acts and the legal actions, as the vectors state them after every step."""
    state: Callable[[StateT], dict[str, Any]]
    """The table, as the vectors state it."""
    record: Callable[[StateT, Sequence[str]], list[dict[str, Any]]]
    """The steps of a line played from a state, as a vector records them (an illegal move
    raises :class:`ValueError`)."""
    start_states: bool = False
    """Whether a vector's ``start`` states the table too (beside who acts and the legal
    actions)."""
    unordered: tuple[str, ...] = ()
    """The fields of a stated table whose card lists are sets or multisets: compared in any
    order (docs/vectors.md, "The protocol")."""
    resume: Resume[StateT] | None = None
    """How its replays resume, if they can (``holds``)."""
    schema_defs: Callable[[], dict[str, Any]]
    """The ``$defs`` of its vectors and perft cases in the published JSON Schemas, each named
    after the game: ``NAMEOptions``, ``NAMEPosition``, ``NAMEState``, ``NAMEHoldsUnder`` and
    what they use."""
    schema_cards: Mapping[str, Any]
    """The schema of a vector's ``cards`` (the cards its line plays)."""
    schema_suite: Callable[[], dict[str, Any]] | None = None
    """The schema of the suite its vector files belong to, for a game whose vectors are mined
    per suite (a set of rule settings)."""

    def start_view(self, state: StateT) -> dict[str, Any]:
        """A vector's ``start`` for ``state``."""
        if self.start_states:
            return {**self.turn(state), "state": self.state(state)}
        return self.turn(state)


VECTORS: Final[Feature[VectorView[Any]]] = Feature("vectors")
"""The games the vectors play, each with its view."""

VECTORS.register(OMENS, VectorView(
    start=start_state, turn=turn_view, state=state_view, record=recorded_steps,
    unordered=("discarded", "hands", "round_winner_team", "winner_team"),
    resume=Resume(step=replay_step, rules=replay_rules),
    schema_defs=omens_defs, schema_cards=CARDS, schema_suite=suite_schema))
VECTORS.register(OMEN, VectorView(
    start=omen_start, turn=omen_turn_view, state=omen_state_view, record=omen_recorded_steps,
    start_states=True,
    # a city's Reward stack (its "rewards" beside "seat1") is the exception: top first
    unordered=("hands", "feats", "rewards", "cities"),
    schema_defs=omen_defs, schema_cards=STRINGS))
