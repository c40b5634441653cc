"""Walking the protocol's tree: the children of a node, with or without their labels.

How each kind of node branches (the convention used by perft, graph export and every solver):

* a **decision** node branches once per action of :meth:`GameState.legal_actions`;
* a **chance** node branches once per outcome of :meth:`GameState.chance_outcomes`, whatever
  its probability;
* a **simultaneous** node branches once per *joint* action: every combination of one legal
  action for each player of :meth:`GameState.acting_players`, in the order of
  :func:`itertools.product` over those players' legal actions (so two players with 3 and 4
  choices give 12 branches);
* a **terminal** node has no children.

Every branch is one ply: depth counts decisions, chance outcomes and joint actions alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState

__all__ = ["Branch", "branches", "child_states", "joint_actions"]


@dataclass(frozen=True, slots=True)
class Branch:
    """One labelled edge of the tree."""

    text: str
    """The canonical text: the action, the chance outcome, or the joint action."""
    child: GameState[Any]
    probability: Fraction | None = None
    """The outcome's probability at a chance node; ``None`` elsewhere."""


def joint_actions(state: GameState[Any]) -> list[tuple[Any, ...]]:
    """Every joint action at a simultaneous node, one action per acting player, in order."""
    per_player = [state.legal_actions(player) for player in state.acting_players()]
    return list(itertools.product(*per_player))


def child_states(state: GameState[Any], player: int) -> Sequence[GameState[Any]]:
    """The children of a node whose ``current_player()`` is ``player``, in branch order."""
    if player >= 0:
        return [state.child(action) for action in state.legal_actions()]
    if player == CHANCE:
        return [state.child(outcome) for outcome, _ in state.chance_outcomes()]
    if player == SIMULTANEOUS:
        return [state.joint_child(joint) for joint in joint_actions(state)]
    if player == TERMINAL:
        return []
    raise ValueError(f"{type(state).__name__}.current_player() returned {player}: not a player")


def branches(state: GameState[Any]) -> Iterator[Branch]:
    """The labelled children of any node, in branch order."""
    player = state.current_player()
    if player >= 0:
        for action in state.legal_actions():
            yield Branch(state.action_to_string(action), state.child(action))
    elif player == CHANCE:
        for outcome, probability in state.chance_outcomes():
            yield Branch(state.action_to_string(outcome), state.child(outcome), probability)
    elif player == SIMULTANEOUS:
        for joint in joint_actions(state):
            yield Branch(state.joint_to_string(joint), state.joint_child(joint))
    elif player != TERMINAL:
        raise ValueError(f"{type(state).__name__}.current_player() returned {player}: not a player")
