"""The seed fitted offline (``Tuning.seed_model``, ``kernel/seed_model.py``) and its fitting
script (``benchmarks/fit_seed.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.fit_seed import build, main, report
from omen_solver.core.budget import Budget
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.params import SearchParams, Tuning
from omen_solver.omens.kernel.seed_model import FEATURES, coefficients, features, model_wins
from tests.omens_kernel.test_tuning import _seeded_deals

KERNEL = Path(__file__).parents[2] / "omen_solver" / "omens" / "kernel" / "_ckernel.c"


def test_the_compiled_kernel_holds_the_shipped_coefficients() -> None:
    """``_ckernel.c``'s SEED_MODEL is ``omens/data/seed_model.toml``'s list, number for number."""
    text = KERNEL.read_text("utf-8")
    found = re.search(r"SEED_MODEL\[SEED_FEATURES\] = \{([^}]*)\}", text)
    assert found is not None
    numbers = tuple(float(c) for c in found.group(1).replace("\n", " ").split(",") if c.strip())
    assert numbers == coefficients()
    assert f"#define SEED_FEATURES {len(FEATURES)}" in text


def test_features_of_a_bout_start() -> None:
    """Seat 0 of the side holds two cards (the highest, 34, among them), the others three
    each; the side leads; no Absolute beside 34, Mirror (14) or Sadness (26)."""
    hands = [1 << 34 | 1 << 3, 1 << 5 | 1 << 6 | 1 << 7, 1 << 8 | 1 << 9 | 1 << 10,
             1 << 11 | 1 << 12 | 1 << 13]
    absolutes = ((1 << 6) - 1) << 29
    x = dict(zip(FEATURES, features(hands, [True, False, True, False], 0, absolutes, 1 << 14,
                                    1 << 26), strict=True))
    assert x["near_a1"] == 1 and x["near_d2"] == 1 and x["near_d1"] == 0
    assert x["cards_a"] == 5 / 4 and x["cards_d"] == 6 / 4
    assert x["top_a"] == x["top_near_a"] == x["near_a1_top"] == 1 and x["top_near_d"] == 0
    assert x["near_top_gap"] == (34 - 13) / 8 and x["lead_a"] == 1 and x["abs_a"] == 1 / 2
    assert x["low_a"] == 1 and x["mirror_a"] == x["mirror_d"] == x["sadness_d"] == 0


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_the_seed_changes_the_search_and_not_its_answer() -> None:
    """On a seeded 3-card deal the playouts' seed from the fitted model takes other node
    counts than the playouts played and none, with the same answers (the compiled kernel;
    ``test_tuning.py`` compares the two kernels); its wins are a whole number of 8."""
    for machine, maximising, root in _seeded_deals(1, 3):
        seen = []
        for tuning in (Tuning(playouts=0), Tuning(playouts=8, playouts_turn=0, seed_model=False),
                       Tuning(seed_model=True, playouts_turn=0)):
            search = compiled.CompiledDfpn(
                machine, maximising, 1,
                SearchParams(budget=Budget(max_nodes=2_000_000), tuning=tuning))
            seen.append((search.prove(root), search.nodes))
        assert len({answer for answer, _ in seen}) == 1
        assert len({nodes for _, nodes in seen}) == 3
        assert 0 <= model_wins(machine.spec, root, maximising, 8) <= 8


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_fit_seed_builds_a_data_set_and_fits_it(capsys: pytest.CaptureFixture[str]) -> None:
    """The script solves bout starts of two small deals (two rows each, one a question, at
    most one of them proved) and fits a model of one coefficient a feature."""
    rows = build(2, [3], walks=2, nodes=50_000, first=0)
    assert rows and len(rows) % 2 == 0
    for one, other in zip(rows[::2], rows[1::2], strict=True):
        assert (one["question"], other["question"]) == (1, 0)
        assert one["proved"] + other["proved"] <= 1
    assert len(report(rows, test_share=0.5)) == len(FEATURES)
    assert "playouts (w+1)/10" in capsys.readouterr().out


def test_fit_seed_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A data set that cannot be read, a line that is not JSON or a row without what the fit
    reads is refused with the file, the line and what is wrong (exit 2); so are bad numbers."""
    assert main(["--data", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: cannot read" in capsys.readouterr().err
    data = tmp_path / "rows.jsonl"
    data.write_text('{"deal": 0}\n', "utf-8")
    assert main(["--data", str(data)]) == 2
    assert "rows.jsonl: line 1: a row without hands, leader, playouts, proved, side" in (
        capsys.readouterr().err)
    data.write_text('{"deal": 0, "hands": [], "side": [], "leader": 0, "proved": 1, '
                    '"playouts": 8}\nnot json\n', "utf-8")
    assert main(["--data", str(data)]) == 2
    assert "rows.jsonl: line 2: not JSON" in capsys.readouterr().err
    for bad in (["--cards", "3,x"], ["--cards", "9"], ["--deals", "0"]):
        with pytest.raises(SystemExit) as stopped:
            main(bad)
        assert stopped.value.code == 2
