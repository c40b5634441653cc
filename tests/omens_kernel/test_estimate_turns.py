"""Where the exact value is out of reach, the exact searches' part of a solve goes first to the
moves whose proofs look cheapest (docs/estimates.md, "Where it comes from"; kernel/turns.py,
kernel/estimate.py): every move has a small first turn, then turns that double go to the
moves with the smallest proof or disproof number, so the moves' node counts say where the
proofs were looked for; the table shows them as "proof nodes", apart from the estimates'
playouts, and says how to read both.

The deal is ``solve --deal 3 --players 4``'s (rules file 000, "Setup": five cards a hand)."""

from __future__ import annotations

from collections import Counter

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Budget
from omen_solver.core.search.moves import MoveStatus
from omen_solver.core.search.result import Concept
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.estimate import CHEAP_TURN, EvaluationSettings
from omen_solver.omens.kernel.solve import solve_with_kernel
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table

needs_compiled = pytest.mark.skipif(not compiled.AVAILABLE, reason="the C kernel is not built")


def _deal_three() -> OmensState:
    table = Table(4, make_rules("rulebook", {}))
    return deal_position(table, random_deal(table, 3, "first", None))


@needs_compiled
def test_every_move_has_a_cheap_first_turn_and_the_rest_follows_the_proof_numbers() -> None:
    """300,000 exact nodes on a real deal (7 first moves): every move is searched (a move not
    yet started is served before another's second turn, also when the node limit binds), its
    first turn is the small one (both df-pn questions and alpha-beta's share of
    ``CHEAP_TURN``), and the moves' counts differ: not one count for every move, as when each
    move's one large first turn took the whole part, but at least three counts (with
    ``Tuning.ties`` 1 four of the seven moves keep their first turn alone here, three before)."""
    state = _deal_three()
    team = state.team_of(state.current_player())
    result = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=300_000),
                               evaluate=EvaluationSettings(seed=1), threads=1)
    first_step = 2 * CHEAP_TURN + CHEAP_TURN // 16
    counts = [move.nodes for move in result.moves if move.same_as is None]
    assert all(move.status is MoveStatus.UNKNOWN for move in result.moves)
    assert len(counts) == 7
    assert min(counts) >= first_step, counts
    assert sum(counts) == result.nodes == 300_000
    assert len(Counter(counts)) >= 3, counts
    assert max(counts) > 4 * first_step, counts


@needs_compiled
def test_the_table_says_proof_nodes_and_playouts_apart(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's table: the exact searches' nodes under "proof nodes", the estimate's
    playouts in a column of their own, and a note for each below the table."""
    monkeypatch.setenv("COLUMNS", "200")
    try:
        status = main(["solve", "--deal", "3", "--players", "4", "--max-nodes", "60000",
                       "--threads", "1", "--seed", "1"])
    except SystemExit as exited:
        status = int(exited.code or 0)
    out = capsys.readouterr().out
    assert status == 1  # an estimate is never a proof: unknown
    header = next(line for line in out.splitlines() if line.startswith("action"))
    assert "proof nodes" in header and "playouts" in header and "estimate" in header
    assert "n=" not in out
    assert "proof nodes: what the exact searches spent on the move" in " ".join(out.split())
    assert "estimate: the asked team's win rate" in " ".join(out.split())
