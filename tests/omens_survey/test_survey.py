"""Surveys: deals as at a game start, the results file (resume, nothing lost or counted twice),
and the same results in this process, on a local Dask cluster, and with a worker killed."""

from __future__ import annotations

import json
import os
import re
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.errors import SurveyFileError
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.deals import draw_deal
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Scope
from omen_solver.survey.analysis import SurveyConfig, analyse_deal
from omen_solver.survey.exact import settle, solve_exactly, values_of
from omen_solver.survey.report import summarise
from omen_solver.survey.runner import RESULTS_FILE, run_survey
from omen_solver.survey.stats import rate, wilson
from omen_solver.survey.store import ResultStore

SMALL = SurveyConfig(players=(4, 5), deals=4, cards=2, max_seconds=None, max_nodes=10**6,
                     options=False)
"""A node budget, not seconds: the same answers on a loaded machine."""
DASK_TIMEOUT = 180.0
"""Seconds a Dask run (cluster start-up included) may take before the test fails instead of
hanging; the whole test takes about 15 s."""


def _comparable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without the wall-clock seconds (everything else is deterministic)."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high) and 0.23 < low < 0.24
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_unknown_values_are_counted_apart() -> None:
    found = rate([None, None])
    assert found.count == 0 and found.unknown == 2 and found.mean is None


@pytest.mark.parametrize("players", [4, 5, 6])
def test_deal_as_at_a_game_start(players: int) -> None:
    """Rules file 000, "Setup": one Absolute each, teams from the Absolutes (4-5 players: the
    highest and lowest together), the highest Absolute leads; the rest stay in the box."""
    absolutes = set(default_catalogue().absolutes)
    for index in range(20):
        deal = draw_deal(7, players, index)
        dealt = [[c for c in hand if c in absolutes] for hand in deal.hands]
        assert all(len(cards) == 1 for cards in dealt)
        values = [cards[0] for cards in dealt]
        assert deal.leader == values.index(max(values))
        if players < 6:
            low, high = values.index(min(values)), values.index(max(values))
            assert tuple(sorted((low, high))) in deal.teams
        assert set(deal.box) == absolutes - set(values)
        assert deal == draw_deal(7, players, index)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_values_only_are_the_solvers_values(players: int) -> None:
    """The value-only searches of advice (one kernel search shared by a deal's positions) and
    the survey's values from the per-move answers (stopped once the moves decide the value)
    give the values of the public solver: minimax with two teams, paranoid once per team with
    three (docs/survey.md)."""
    rules = make_rules()
    for index in range(3):
        state = draw_deal(1, players, index, 2).state(rules, Scope.ROUND)
        children = [state.child(action) for action in state.legal_actions()]
        fast = values_of([state, *children], SMALL.budget)
        slow = [solve_exactly(s, SMALL.budget) for s in (state, *children)]
        settled = [settle(s, SMALL.budget) for s in (state, *children)]
        assert [o.values for o in fast] == [o.values for o in slow]
        assert [o.values for o in settled] == [o.values for o in slow]
        assert all(o.known for o in fast)


def test_a_line_of_play_that_loops_is_unknown_with_its_reason() -> None:
    """wrath_replay = "allowed" (docs/omens-options.md): two Wraths can send each other back for
    ever; the search stops and says so, and the survey counts the deal as unknown."""
    rules = make_rules(overrides={"wrath_replay": "allowed"})
    state = draw_deal(0, 4, 3, 3).state(rules, Scope.ROUND)
    found = values_of([state], SMALL.budget)[0]
    assert not found.known and found.reason is not None and "for ever" in found.reason


def test_store_keeps_one_record_per_deal_and_drops_a_cut_line(tmp_path: Path) -> None:
    path = tmp_path / RESULTS_FILE
    record = analyse_deal(SMALL, 4, 0)
    with ResultStore(path, SMALL) as store:
        assert store.add([record]) == 1
        assert store.add([record]) == 0
    with path.open("a") as handle:
        handle.write('{"id": "4p-1", "cut sh')
    with ResultStore(path, SMALL) as again:
        assert [r["id"] for r in again.records()] == ["4p-0"]
        assert again.done("4p-0") and not again.done("4p-1") and len(again) == 1
    assert path.read_text().endswith("\n")
    with path.open("a") as handle:
        handle.write(json.dumps(record) + "\n")
    with ResultStore(path, SMALL) as twice:
        assert [r["id"] for r in twice.records()] == ["4p-0"]
    with pytest.raises(SurveyFileError, match="other settings"):
        ResultStore(path, SurveyConfig(players=(4,), deals=4, cards=2))


def test_interrupted_survey_resumes_losing_and_repeating_nothing(tmp_path: Path) -> None:
    whole = run_survey(SMALL, tmp_path / "whole", workers=0).ordered()
    calls = []

    def interrupt(added: int) -> None:
        calls.append(added)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_survey(SMALL, tmp_path / "cut", workers=0, batch=1, tick=interrupt)
    with ResultStore(tmp_path / "cut" / RESULTS_FILE, SMALL) as cut:
        assert len(cut) == 2
    resumed = run_survey(SMALL, tmp_path / "cut", workers=0).ordered()
    assert _comparable(resumed) == _comparable(whole)
    lines = (tmp_path / "cut" / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 1 + len(whole)


def test_cli_survey_writes_tables_plots_and_positions(tmp_path: Path) -> None:
    """The default survey (deals played to 3 cards a hand by the heuristic): tables, plots and
    the option-impact positions. Plots carry their settings (cards per hand, deals, preset,
    players, policy and reach), card names with their numbers and n under each bar."""
    out = tmp_path / "s"
    code = main(["survey", "--out", str(out), "--deals", "3", "--players", "4", "--workers",
                 "0", "--no-lines", "--max-nodes", "500000"])
    assert code in (0, 1)
    for name in ("summary.md", "summary.json", "leading-team.png", "leading-team.svg",
                 "card-values.png", "option-impact.svg"):
        assert (out / name).is_file(), name
    text = (out / "summary.md").read_text()
    assert "Option impact" in text and "| 4 |" in text and "heuristic policy" in text
    svg = " ".join((out / "card-values.svg").read_text().split())
    shown = " ".join(re.findall(r"<!-- (.*?) -->", svg))
    for part in ("heuristic", "3 cards", "rulebook", "3 deals per player count", "(4 players)"):
        assert part in shown, part
    assert re.search(r"<!-- [A-Z][a-z]+ \(\d+\) -->", svg)
    assert re.search(r"<!-- n=\d+ -->", svg)


def test_cli_survey_refuses_other_settings_in_the_same_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s"
    args = ["survey", "--out", str(out), "--deals", "1", "--players", "4", "--cards", "2",
            "--as-dealt", "--workers", "0", "--no-lines", "--no-options", "--no-plots"]
    assert main(args) == 0
    assert main([*args[:-1], "--seed", "3"]) == 2
    assert "other settings" in capsys.readouterr().err


def test_summary_does_not_depend_on_record_order() -> None:
    records = [analyse_deal(SMALL, 4, i) for i in range(3)]
    one = summarise(SMALL, records).to_json()
    two = summarise(SMALL, list(reversed(records))).to_json()
    assert one == two


@pytest.mark.filterwarnings("ignore")
def test_local_dask_cluster_equals_one_process_and_redoes_a_killed_workers_tasks(
    tmp_path: Path,
) -> None:
    """A real local cluster with 2 worker processes gives the single-process results; a worker
    killed mid-survey has its tasks redone, nothing lost and nothing counted twice. Every wait
    is bounded and both clusters are closed whatever happens."""
    from distributed import Client, LocalCluster

    config = replace(SMALL, deals=5, lines=False)
    single = _comparable(run_survey(config, tmp_path / "one", workers=0).ordered())
    on_cluster = run_survey(config, tmp_path / "two", workers=2, batch=1,
                            timeout=DASK_TIMEOUT).ordered()
    assert _comparable(on_cluster) == single

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, timeout=DASK_TIMEOUT) as cluster, \
            Client(cluster, timeout=DASK_TIMEOUT) as client:
        pids = client.run(os.getpid)
        killed: list[int] = []

        def kill_one(added: int) -> None:
            if not killed:
                pid = sorted(pids.values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        store = run_survey(config, tmp_path / "killed", scheduler=cluster.scheduler_address,
                           batch=1, tick=kill_one, timeout=DASK_TIMEOUT)
    assert killed
    assert _comparable(store.ordered()) == single
    lines = (tmp_path / "killed" / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 1 + len(single)



def test_the_resume_index_holds_one_bit_per_record(tmp_path: Path) -> None:
    """Flat memory: the store keeps which ids are done (a bit each), not the records; ids are
    read from the line's start as the store writes them, or from the whole line otherwise."""
    from omen_solver.survey.store import DoneIndex

    done = DoneIndex()
    assert done.add("4p-100000") and not done.add("4p-100000") and "4p-99999" not in done
    assert done.add("rulebook/5p-3") and done.add("odd id") and len(done) == 3
    path = tmp_path / RESULTS_FILE
    with ResultStore(path, SMALL) as store:
        store.add([{"id": "4p-0", "x": 1}, {"id": "4p-2", "x": 2}])
    with path.open("a") as handle:
        handle.write(json.dumps({"x": 3, "id": "5p-1"}) + "\n")
    with ResultStore(path, SMALL) as again:
        assert [again.done(i) for i in ("4p-0", "4p-1", "4p-2", "5p-1")] == [True, False, True,
                                                                           True]
    with path.open("a") as handle:
        handle.write('{"x": 4}\n')
    with pytest.raises(SurveyFileError, match="line 5: a record without an 'id'"):
        ResultStore(path, SMALL)


def test_a_full_disk_names_the_results_file(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    path = tmp_path / "s" / RESULTS_FILE
    with ResultStore(path, SMALL) as store:
        def full(descriptor: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "fsync", full)
        with pytest.raises(OSError) as error:
            store.add([{"id": "4p-0"}])
    assert error.value.filename == str(path) and error.value.errno == errno.ENOSPC
