"""The game protocol: what every game implements and every algorithm relies on.

The protocol follows OpenSpiel's state API (``current_player``, ``legal_actions``,
``chance_outcomes``, ``is_terminal``, ``returns``) so that an adapter to OpenSpiel stays thin,
with two differences that make exact search simpler:

* States are immutable values. :meth:`GameState.child` returns the successor and leaves the
  state untouched, so a state can be kept as a dictionary key, shared between branches of a
  search and compared for equality through :meth:`GameState.key`.
* Results are exact: probabilities and returns are :class:`fractions.Fraction`, so the same
  input always gives the same numbers.

Players are numbered from 0. A game groups players into teams; results are per player and equal
within a team.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Self, TypeVar

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionT",
    "GameState",
    "NodeKind",
    "TraceStep",
]

CHANCE = -1
"""``current_player()`` at a chance node (a deal, a draw, a random choice)."""
SIMULTANEOUS = -2
"""``current_player()`` when several players decide at once without seeing each other's choice."""
TERMINAL = -4
"""``current_player()`` once the game (or the solved scope of it) is over."""

ActionT = TypeVar("ActionT", bound=Hashable)


class NodeKind(enum.Enum):
    """Who acts at a state."""

    DECISION = "decision"
    """One player chooses among :meth:`GameState.legal_actions`."""
    CHANCE = "chance"
    """Nature picks an outcome with the probabilities of :meth:`GameState.chance_outcomes`."""
    SIMULTANEOUS = "simultaneous"
    """The players of :meth:`GameState.acting_players` each choose, none seeing the others."""
    TERMINAL = "terminal"
    """Nothing is left to decide; :meth:`GameState.returns` gives the result."""


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of an explained resolution: the rule applied and what it did.

    ``rule`` is a rule id from the game's rule table (``docs/``), e.g. ``bout.winner.mirror``.
    """

    rule: str
    text: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"


class GameState(ABC, Generic[ActionT]):
    """An immutable game position seen by search, enumeration and proof code.

    Subclasses implement the abstract methods; everything else has a default built on them.
    Legal actions come in a stable, documented order so that enumeration, node counts and
    principal variations are deterministic.
    """

    __slots__ = ()

    # -- who acts -------------------------------------------------------------------------

    @property
    @abstractmethod
    def num_players(self) -> int:
        """The number of players (numbered ``0 .. num_players - 1``)."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to decide, or :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""

    def node_kind(self) -> NodeKind:
        """The kind of node, derived from :meth:`current_player`."""
        player = self.current_player()
        if player >= 0:
            return NodeKind.DECISION
        return {
            CHANCE: NodeKind.CHANCE,
            SIMULTANEOUS: NodeKind.SIMULTANEOUS,
            TERMINAL: NodeKind.TERMINAL,
        }[player]

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def acting_players(self) -> tuple[int, ...]:
        """The players who decide at this node (several at a simultaneous node)."""
        player = self.current_player()
        return (player,) if player >= 0 else ()

    # -- moves ----------------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> tuple[ActionT, ...]:
        """The legal actions, in a stable order.

        At a decision node ``player`` may be omitted. At a simultaneous node it names one of
        :meth:`acting_players`. At a chance node the outcomes of :meth:`chance_outcomes` are
        returned. At a terminal node the result is empty.
        """

    @abstractmethod
    def child(self, action: ActionT) -> Self:
        """The state after ``action`` at a decision or chance node.

        Raises :class:`ValueError` (a subclass naming the action and the position) if the
        action is not legal here.
        """

    def joint_child(self, actions: Sequence[ActionT]) -> Self:
        """The state after a simultaneous node: one action per acting player, in order."""
        raise TypeError(f"{type(self).__name__} has no simultaneous nodes")

    def chance_outcomes(self) -> tuple[tuple[ActionT, Fraction], ...]:
        """The outcomes of a chance node with their exact probabilities (summing to 1)."""
        return ()

    # -- results --------------------------------------------------------------------------

    @abstractmethod
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The teams, each a sorted tuple of players; every player is in exactly one team."""

    def team_of(self, player: int) -> int:
        """The index in :meth:`teams` of the team that ``player`` belongs to."""
        for index, team in enumerate(self.teams()):
            if player in team:
                return index
        raise ValueError(f"player {player} is in no team")

    @abstractmethod
    def returns(self) -> tuple[Fraction, ...]:
        """The result for each player at a terminal state (equal within a team)."""

    def team_returns(self) -> tuple[Fraction, ...]:
        """The result for each team at a terminal state."""
        results = self.returns()
        return tuple(results[team[0]] for team in self.teams())

    # -- identity and text ----------------------------------------------------------------

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable value equal for two states exactly when play continues identically.

        Used for transposition tables, distinct-state counts and equality.
        """

    @abstractmethod
    def action_to_string(self, action: ActionT) -> str:
        """The canonical text of an action; :meth:`string_to_action` reads it back."""

    @abstractmethod
    def string_to_action(self, text: str) -> ActionT:
        """Parse an action in canonical notation that is legal here.

        Raises a :class:`ValueError` subclass naming the text and what is wrong with it.
        """

    def joint_to_string(self, actions: Sequence[ActionT]) -> str:
        """The canonical text of a joint action at a simultaneous node."""
        return " & ".join(self.action_to_string(action) for action in actions)

    def string_to_joint(self, text: str) -> tuple[ActionT, ...]:
        """Parse a joint action written as the acting players' actions joined by ``&``."""
        parts = [part.strip() for part in text.split("&")]
        players = self.acting_players()
        if len(parts) != len(players):
            raise ValueError(
                f"{text!r}: a joint action here needs {len(players)} parts joined by '&'"
            )
        by_player: dict[int, ActionT] = {}
        for part in parts:
            for player in players:
                try:
                    action = self._parse_for(player, part)
                except ValueError:
                    continue
                by_player[player] = action
                break
            else:
                raise ValueError(f"{text!r}: {part!r} is no legal choice of an acting player")
        if len(by_player) != len(players):
            raise ValueError(f"{text!r}: each acting player must choose exactly once")
        return tuple(by_player[player] for player in players)

    def _parse_for(self, player: int, text: str) -> ActionT:
        for action in self.legal_actions(player):
            if self.action_to_string(action) == text:
                return action
        raise ValueError(f"{text!r} is not a legal action of player {player}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState) or type(other) is not type(self):
            return NotImplemented
        return bool(self.key() == other.key())

    def __hash__(self) -> int:
        return hash(self.key())
