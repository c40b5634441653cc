"""Surveys of positions real games reach: deals played forward by a seeded policy, the position
files that let `solve` check every figure, unsettled positions counted apart, and balance by
self-play of whole games (docs/survey.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Budget
from omen_solver.omens import load
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.deals import draw_deal
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Scope, deal_sizes
from omen_solver.survey.analysis import SurveyConfig, analyse_deal
from omen_solver.survey.balance import BalanceConfig, play_game, summarise_games
from omen_solver.survey.exact import solve_exactly
from omen_solver.survey.play import bout_start
from omen_solver.survey.plots import axis_limit
from omen_solver.survey.policies import Policy
from omen_solver.survey.stats import Rate

PLAYED = SurveyConfig(players=(4, 5), deals=6, until_cards=3, max_seconds=None,
                      max_nodes=500_000, options=False, lines=False)
"""Real deals played to 3 cards a hand; a node budget, so the answers do not depend on the
machine's load."""


def _replay(record: dict[str, Any], rules: Any = None) -> list[Any]:
    """The states at each bout start along a record's line, from its deal."""
    deal = draw_deal(PLAYED.seed, record["players"], record["index"])
    state = deal.state(rules or make_rules(), Scope.ROUND)
    starts = [state]
    for text in record["line"]["moves"]:
        state = state.apply_move(state.parse_move(text))
        if bout_start(state):
            starts.append(state)
    return starts


def _comparable(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "seconds"}


@pytest.mark.parametrize("players", [4, 5])
def test_the_surveyed_position_is_the_first_bout_start_with_at_most_k_cards(players: int) -> None:
    """Rules file 000, "Game Sequence": a round is bouts until a hand holds 1 card; the line
    replays from the deal to the first bout start where every hand holds at most K cards, and a
    round that ends first ("Goal of the Game") is counted apart with its winner."""
    reached = over = 0
    for index in range(PLAYED.deals):
        record = analyse_deal(PLAYED, players, index)
        starts = _replay(record)
        if record["reached"]:
            reached += 1
            *before, last = starts
            assert all(max(map(len, s.hands)) > 3 for s in before)
            assert max(map(len, last.hands)) <= 3
            assert [list(h) for h in last.hands] == record["position"]["hands"]
            assert last.leader + 1 == record["position"]["leader"]
            assert record["line"]["bouts"] == len(before)
            assert record["values"] is not None
        else:
            over += 1
            assert all(max(map(len, s.hands)) > 3 for s in starts)
            assert record["round_winner_team"] in (1, 2)
        assert _comparable(analyse_deal(PLAYED, players, index)) == _comparable(record)
    assert reached and over


def test_after_bouts_stops_at_the_bout_start_after_b_bouts() -> None:
    config = replace(PLAYED, until_cards=None, after_bouts=1, players=(4,), deals=3,
                     max_nodes=1000)
    for index in range(config.deals):
        record = analyse_deal(config, 4, index)
        assert record["reached"] and record["line"]["bouts"] == 1
        assert len(_replay(record)) == 2


def test_a_later_round_reshuffles_every_card_but_the_box() -> None:
    """Rules file 000, "End of a Round": all the cards of the round, the Absolutes used in the
    round before included, are shuffled and dealt (5 a hand with 4 players, 5 and 4 with 5, 4
    with 6); the teams do not change; the round's winner leads. The Absolutes out of the game
    stay in the box unless reshuffle_absolutes = "all"."""
    absolutes = set(default_catalogue().absolutes)
    leaders, spread = set(), set()
    for players in (4, 5, 6):
        for index in range(30):
            deal = draw_deal(0, players, index, kind="later")
            sizes = deal_sizes(players, deal.teams, first_round=False)
            assert tuple(map(len, deal.hands)) == sizes
            assert len(deal.box) == 6 - players and set(deal.box) <= absolutes
            held = [c for hand in deal.hands for c in hand]
            assert len(set(held)) == len(held) and not set(held) & set(deal.box)
            leaders.add(deal.leader)
            spread.update(sum(c in absolutes for c in hand) for hand in deal.hands)
            everything = draw_deal(0, players, index, kind="later", reshuffle_all=True)
            assert everything.box == ()
    assert leaders == set(range(6)) and {0, 2} <= spread
    assert draw_deal(0, 4, 7) == draw_deal(0, 4, 7, kind="first")


def test_every_written_position_is_answered_the_same_by_solve(tmp_path: Path) -> None:
    """--write-positions: the position file of every surveyed position, solved again from the
    file by the public solver, gives the recorded values (every figure can be checked)."""
    out = tmp_path / "s"
    code = main(["survey", "--out", str(out), "--players", "4,6", "--deals", "4", "--workers",
                 "0", "--until-cards", "3", "--no-options", "--no-lines", "--no-plots",
                 "--max-nodes", "500000", "--write-positions"])
    records = [json.loads(line) for line in (out / "deals.jsonl").read_text().splitlines()[1:]]
    surveyed = [r for r in records if r["reached"]]
    files = sorted((out / "positions").glob("*.toml"))
    assert [f.stem for f in files] == sorted(r["id"] for r in surveyed)
    assert code == (0 if all(r["values"] is not None for r in surveyed) else 1)
    for record in surveyed:
        state = load(out / "positions" / f"{record['id']}.toml")
        if record["values"] is None:
            continue
        again = solve_exactly(state, Budget(max_nodes=5_000_000))
        assert [str(v) for v in again.values or ()] == record["values"], record["id"]


def test_unsettled_positions_are_counted_apart_and_every_output_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A budget too small to settle anything: no position counts as a win or a loss; stdout,
    stderr, summary.md and summary.json give the same sentence, and the exit status is 1."""
    out = tmp_path / "s"
    code = main(["survey", "--out", str(out), "--players", "4", "--deals", "3", "--workers",
                 "0", "--after-bouts", "0", "--max-nodes", "1", "--no-lines", "--no-plots"])
    assert code == 1
    captured = capsys.readouterr()
    data = json.loads((out / "summary.json").read_text())
    assert data["settled"] == 0 and data["unsettled"] == 3
    assert data["leading_team"]["4"]["count"] == 0 and data["leading_team"]["4"]["unknown"] == 3
    assert data["unsettled_bounds"] == {"[0, 1]": 3}
    status = data["status"]
    assert "0 settled exactly, 3 unsettled" in status
    flat = " ".join(captured.out.split())
    assert status in flat
    assert status in captured.err
    assert status in (out / "summary.md").read_text()


def test_rates_with_unsettled_values_show_what_their_bounds_allow() -> None:
    rate = Rate(total=Fraction(3), count=4, unknown=2)
    assert rate.span == pytest.approx((0.5, 5 / 6))
    assert "2 unsettled: 0.500 to 0.833 with them" in rate.text()


def test_the_advice_policy_is_seeded_and_counts_its_fallbacks() -> None:
    config = SurveyConfig(players=(4,), deals=1, cards=3, until_cards=2, max_nodes=200_000,
                          max_seconds=None, options=False, lines=False,
                          policy=Policy("advice", samples=2, nodes=20_000))
    first = analyse_deal(config, 4, 1)
    play = first["line"]["play"]
    assert play["decisions"] > 0 and play["advised"] + play["fallbacks"] == play["decisions"]
    assert _comparable(analyse_deal(config, 4, 1)) == _comparable(first)


@pytest.mark.parametrize("flags", [
    ["--as-dealt", "--policy", "advice"],
    ["--policy-nodes", "5"],
    ["--connect-timeout", "3"],
    ["--scope", "game"],
    ["--until-cards", "1"],
    ["--until-cards", "3", "--after-bouts", "2"],
])
def test_flags_that_cannot_apply_are_refused(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["survey", "--out", str(tmp_path / "s"), "--workers", "0", *flags])
    except SystemExit as exit:  # argparse's own refusals
        code = int(exit.code or 0)
    assert code == 2
    assert "error" in capsys.readouterr().err
    assert not (tmp_path / "s" / "deals.jsonl").exists()


def test_value_axes_are_fitted_to_the_data() -> None:
    assert 0.2 <= axis_limit([Rate(Fraction(16), 100)]) < 0.35
    assert axis_limit([Rate(Fraction(0), 100)]) == pytest.approx(0.05)
    assert axis_limit([Rate(Fraction(90), 100)]) == 1.0


def test_a_whole_game_ends_when_a_team_has_won_two_rounds() -> None:
    """Rules file 000, "Goal of the Game" and "End of a Round": the first team to win 2 rounds
    wins; the same seed gives the same game; at five players the first leader's team is the
    pair (the highest and the lowest Absolute, "Setup")."""
    config = BalanceConfig(players=(4, 5), games=4, presets=("rulebook", "gamepark"))
    records = [play_game(config, preset, players, index)
               for preset in config.presets for players in config.players for index in range(4)]
    for record in records:
        wins = [r["winner_team"] for r in record["rounds"]]
        assert record["winner_team"] is not None
        assert wins.count(record["winner_team"]) == 2 and wins[-1] == record["winner_team"]
        assert all(wins.count(t) < 2 for t in set(wins) - {record["winner_team"]})
        assert record["rounds"][0]["leader"] == record["first_leader"]
        if record["players"] == 5:
            pair = next(team for team in record["teams"] if len(team) == 2)
            assert record["first_leader"] in pair
    again = play_game(config, "gamepark", 5, 3)
    assert again == next(r for r in records if r["id"] == "gamepark/5p-3")
    summary = summarise_games(config, records)
    assert summary.unfinished() == 0
    rate = summary.leader_rate("rulebook", 5)
    assert rate.count == 4
    assert summary.size_rate("rulebook", 5, 2).total == rate.total


def test_balance_resumes_losing_and_repeating_nothing(tmp_path: Path) -> None:
    args = ["balance", "--out", str(tmp_path / "b"), "--games", "3", "--players", "4",
            "--workers", "0", "--no-plots", "--json"]
    assert main(args) == 0
    whole = (tmp_path / "b" / "balance.json").read_text()
    lines = (tmp_path / "b" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 6
    (tmp_path / "b" / "games.jsonl").write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    assert main(args) == 0
    assert (tmp_path / "b" / "balance.json").read_text() == whole
    assert len((tmp_path / "b" / "games.jsonl").read_text().splitlines()) == 1 + 6


def test_deals_per_player_count_and_the_time_left(tmp_path: Path) -> None:
    from omen_solver.cli.survey import progress_line

    out = tmp_path / "s"
    assert main(["survey", "--out", str(out), "--deals", "4:2,6:1", "--workers", "0",
                 "--as-dealt", "--cards", "2", "--no-options", "--no-lines", "--no-plots"]) == 0
    data = json.loads((out / "summary.json").read_text())
    assert data["survey"]["players"] == [4, 6] and data["deals"] == 3
    assert data["survey"]["player_deals"] == {"4": 2, "6": 1}
    assert "2 and 1 deals (4, 6 players)" in (out / "summary.md").read_text()
    line = progress_line("survey", "deals", 40, 300, 12.0)
    assert line == "survey: 40 of 300 deals in 12 s (3.33 deals/s), about 1 min 18 s left"
