"""PIMC checked against an exact imperfect-information method (OpenSpiel's sequence form through
``omen_solver.integrations.openspiel_hidden``), and CFR+ as a second method: docs/advice.md,
"Where PIMC errs". Skipped without the optional extra ``openspiel``."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Budget
from omen_solver.errors import AdviceError
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from omen_solver.survey.advice import Tracker, View, enumerate_deals
from omen_solver.survey.advice_file import load_view
from omen_solver.survey.imperfect import TOLERANCE, check_against_imperfect, hidden_game

pyspiel = pytest.importorskip("pyspiel")

FUSION = Path(__file__).parents[2] / "docs" / "examples" / "omens" / "strategy-fusion.toml"
TEAMS = ((0, 2), (1, 3))
BUDGET = Budget(max_nodes=10**6)


def _view_after(hands: list[list[int]], leader: int, moves: list[str]) -> View:
    """Seat 1's view after ``moves``, its partner's hand known, every other card discarded."""
    table = Table(4, make_rules())
    out = sorted(set(table.catalogue) - {c for hand in hands for c in hand})
    state = OmensState.start_of_bout(table, hands, TEAMS, leader, out=out)
    tracker = Tracker(state)
    for text in moves:
        move = state.parse_move(text)
        after = state.apply_move(move)
        tracker.observe(state, move, after)
        state = after
    view = tracker.view(0)
    return replace(view, known={**view.known, 2: frozenset(hands[2])}, discarded=frozenset(out))


def test_the_sequence_form_solves_kuhn_poker() -> None:
    """The linear program on a game with a known value: Kuhn poker, -1/18 for the first
    player (Kuhn, 1950)."""
    from omen_solver.integrations.openspiel_hidden import sequence_form_value

    solved = sequence_form_value(pyspiel.load_game("kuhn_poker"))
    assert solved.values[0] == pytest.approx(-1 / 18, abs=1e-9)
    assert solved.information_sets == (6, 6)


def test_with_nothing_hidden_the_exact_value_is_pimcs() -> None:
    """Every hand known: one deal, a game of perfect information; both methods agree."""
    view = _view_after([[7, 18], [3, 25], [12, 20], [5, 27]], 0, [])
    view = replace(view, known={s: frozenset(h) for s, h in
                                enumerate([[7, 18], [3, 25], [12, 20], [5, 27]]) if s != 0})
    check = check_against_imperfect(view, BUDGET)
    assert check.deals == 1
    for action in check.actions:
        assert action.exact == pytest.approx(action.pimc, abs=TOLERANCE)


def test_strategy_fusion_example() -> None:
    """docs/advice.md: after Night (25) seat 3's winning reply depends on seat 4's hidden hand
    (Love, or Betrayal taking Night or seat 2's card), so seat 3 cannot always find it; after
    Spring (7) one reply (Betrayal taking a card and giving it back) wins wherever a reply wins.
    PIMC lets seat 3 see every hand and prefers Night, 20/30 to 18/30; exactly, Spring is worth
    18/30 and Night 14/30. No exact value is above PIMC's (PIMC knows more), and the position
    is worth its best action's value (the action is seen by all)."""
    check = check_against_imperfect(load_view(FUSION, None), BUDGET)
    found = {a.action: a for a in check.actions}
    assert check.deals == 30
    assert found["1:25"].pimc == pytest.approx(20 / 30) and found["1:7"].pimc == pytest.approx(
        18 / 30)
    assert found["1:7"].exact == pytest.approx(18 / 30, abs=TOLERANCE)
    assert found["1:25"].exact == pytest.approx(14 / 30, abs=TOLERANCE)
    assert check.pimc_best.action == "1:25" and check.exact_best.action == "1:7"
    assert not check.agrees
    for action in check.actions:
        assert action.exact <= action.pimc + TOLERANCE
    assert check.value == pytest.approx(max(a.exact for a in check.actions), abs=TOLERANCE)


def test_cfr_plus_converges_to_the_sequence_form_value() -> None:
    """A second method: CFR+'s average strategy, whose value is within its NashConv of the
    game's value (a profile that no side can improve by more than e is worth the value
    within e)."""
    from omen_solver.integrations.openspiel_hidden import cfr_value, sequence_form_value

    view = _view_after([[11, 18], [1, 21], [14, 28], [8, 13]], 3, ["4:8"])
    deals = [(deal.state, Fraction(1)) for deal in enumerate_deals(view)]
    game = hidden_game(deals, view)
    exact = sequence_form_value(game).values[0]
    found = cfr_value(game, 50)
    assert found.nash_conv < 0.01
    assert abs(found.values[0] - exact) <= found.nash_conv + 1e-9
    assert exact == pytest.approx(2 / 3, abs=TOLERANCE)


def test_a_team_that_does_not_know_its_partners_hand_is_refused() -> None:
    view = _view_after([[7, 18], [3, 25], [12, 20], [5, 27]], 0, [])
    with pytest.raises(AdviceError, match=r"must know seat\(s\) \[3\]"):
        check_against_imperfect(replace(view, known={}), BUDGET)


def test_advise_imperfect_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", str(FUSION), "--imperfect", "--max-nodes", "1000000",
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["best_action"] == "1:25"
    assert found["imperfect"]["pimc_best"] == "1:25"
    assert found["imperfect"]["exact_best"] == "1:7" and found["imperfect"]["agrees"] is False
    assert main(["advise", str(FUSION), "--imperfect", "--max-nodes", "1000000"]) == 0
    assert "over-valued by" in capsys.readouterr().out


def test_an_information_function_that_merges_what_a_team_sees_is_refused() -> None:
    """Information states that hide a team's own hand would merge states with different legal
    actions into one information set: refused, not solved wrongly."""
    from omen_solver.errors import ConceptError
    from omen_solver.integrations.openspiel_hidden import (
        HiddenDeal,
        make_hidden_game,
        sequence_form_value,
    )

    view = _view_after([[7, 18], [3, 25], [12, 20], [5, 27]], 0, [])
    deals = [HiddenDeal(deal.state, Fraction(1)) for deal in enumerate_deals(view)]
    game = make_hidden_game(deals, lambda team, deal, state, history: f"{len(history)}")
    with pytest.raises(ConceptError, match="different legal actions"):
        sequence_form_value(game)
