"""Counterexamples as position files a person can replay with ``omen-solver omens play``.

A :class:`Counterexample` is a bout as a position file: the hands at its start, the option
settings, and the moves that play it out (z3's counterexamples are whole bouts of the model
turned into engine moves, :mod:`~omen_solver.omens.proofs.theorems.bout_theorem`; an
enumeration's come from the engine itself). :meth:`Counterexample.legal_prefix` replays the
moves through the engine, so a file keeps only the moves the real rules accept and says in its
description where a broken rule departs from them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from omen_solver.errors import OmenSolverError
from omen_solver.omens.position import parse_position, position_toml

__all__ = ["DEFAULT_TEAMS", "Counterexample", "top_up"]

DEFAULT_TEAMS: Final[dict[int, list[list[int]]]] = {
    4: [[1, 3], [2, 4]],
    5: [[1, 3], [2, 4, 5]],
    6: [[1, 4], [2, 5], [3, 6]],
}
"""Teams used for counterexamples (seats from 1): any split of the right sizes will do."""

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
        data: dict[str, Any] = {"game": "omens", "title": title, "description": description,
                                "players": self.players, "teams": teams}
        if self.rounds_won is not None:
            data.update(scope="game", rounds_won=self.rounds_won, box=sorted(self.box))
        if self.rules:
            data["rules"] = dict(sorted(self.rules.items()))
        data["hands"] = {str(seat + 1): sorted(hand) for seat, hand in enumerate(self.hands)}
        data["bout"] = {"leader": self.leader + 1, **({"moves": self.moves} if self.moves
                                                      else {})}
        return position_toml(data, [title, "Replay: omen-solver omens play THIS_FILE"],
                             spread=["bout.moves"])

    def legal_prefix(self) -> tuple[int, str | None]:
        """How many of the moves the engine accepts in a row, and why it refuses the next."""
        moves, self.moves = self.moves, []
        try:
            text = self.to_toml("replayed", "replayed")
            position = parse_position(tomllib.loads(text), "<example>")
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
