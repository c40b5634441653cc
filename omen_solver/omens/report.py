"""The report of a replayed Omens position: the file's moves and more applied on the explaining
engine, with the trace of every rule step and the board after them (what ``omen-solver omens
play --json`` prints)."""

from __future__ import annotations

from typing import Any

from omen_solver.core.game import SIMULTANEOUS, TraceStep
from omen_solver.errors import OmenSolverError, PositionError
from omen_solver.omens.position import OmensPosition
from omen_solver.omens.state import BoutSummary, OmensState, describe_state
from omen_solver.omens.vocabulary import law_word
from omen_solver.omens.why import pending_text

__all__ = ["board_lines", "legal_moves", "pending_text", "play_report", "to_act"]


def to_act(state: OmensState) -> str | int | None:
    """Who acts: a seat from 1, "simultaneous", "chance", or None when the scope is over."""
    player = state.current_player()
    if state.is_terminal():
        return None
    if player == SIMULTANEOUS:
        return "simultaneous"
    if player < 0:
        return "chance"
    return player + 1


def legal_moves(state: OmensState) -> list[str]:
    """The legal actions in canonical notation."""
    return [state.action_to_string(move) for move in state.moves()]


def board_lines(state: OmensState) -> list[str]:
    """The whole board: hands, cards in play, Law's constraint, what is pending and why, who
    acts and what is legal."""
    lines = describe_state(state).splitlines()
    for pending in reversed(state.pending):
        text, rule = pending_text(state, pending)
        lines.append(f"pending: {text} [{rule}]")
    who = to_act(state)
    if who is None:
        lines.append(f"the {state.table.scope.value} is over")
    else:
        legal = legal_moves(state)
        shown = ", ".join(legal[:10]) + (" ..." if len(legal) > 10 else "")
        lines.append(f"to act: {'seat ' + str(who) if isinstance(who, int) else who}; "
                     f"legal: {shown}")
    return lines


def _apply_cli_moves(
    state: OmensState, texts: list[str]
) -> tuple[OmensState, list[tuple[str, list[TraceStep]]]]:
    steps = []
    for number, text in enumerate(texts, start=1):
        try:
            move = state.parse_move(text)
        except OmenSolverError as error:
            # The message names the move's text already; say which of the moves it was.
            raise PositionError(f"--moves[{number}] (of {len(texts)}): {error}") from None
        canonical = state.action_to_string(move)
        state, log = state.explain(move)
        steps.append((canonical, log))
    return state, steps


def _seat_list(seats: tuple[int, ...] | None) -> list[int] | None:
    return None if seats is None else [seat + 1 for seat in seats]


def play_report(position: OmensPosition, texts: list[str]) -> tuple[OmensState, dict[str, Any]]:
    """Replay the file's moves and then ``texts``; the report that ``omens play --json`` prints."""
    state, steps = position.replay()
    state, more = _apply_cli_moves(state, texts)
    steps += more
    summary = _finished_bout(position.start, state, bool(steps))
    round_team = None
    if summary is not None and summary.round_winner is not None:
        round_team = state.teams()[state.team_of(summary.round_winner)]
    trace = [
        {"move": move, "rule": step.rule, "text": step.text} for move, log in steps for step in log
    ]
    report: dict[str, Any] = {
        "bout_winner": None if summary is None or summary.winner is None else summary.winner + 1,
        "discarded": [] if summary is None else list(summary.discarded),
        "hands": {str(seat + 1): list(hand) for seat, hand in enumerate(state.hands)},
        "next_leader": None
        if summary is None or summary.next_leader is None
        else summary.next_leader + 1,
        "round_winner_team": _seat_list(round_team),
        "trace": trace,
        "in_play": [
            {"card": p.card, "before": p.before + 1, "by": p.by + 1} for p in state.in_play
        ],
        "law": None if state.law is None else {
            "card": state.law[0], "direction": law_word(state.law[1])},
        "pending": [
            dict(zip(("text", "rule"), pending_text(state, pending), strict=True))
            for pending in reversed(state.pending)
        ],
        "to_act": to_act(state),
        "legal": legal_moves(state),
        "teams": [[seat + 1 for seat in team] for team in state.teams()],
        "rounds_won": list(state.rounds_won),
        "terminal": state.is_terminal(),
    }
    return state, report


def _finished_bout(start: OmensState, state: OmensState, moved: bool) -> BoutSummary | None:
    """The bout these moves finished, or None if the bout in progress is not over."""
    summary = state.last_bout
    if not moved or summary is None or summary is start.last_bout:
        return None
    if state.in_play or state.pending or state.bouts_played != summary.number:
        return None
    return summary
