"""The command line a new user meets, one test per edge that was rough: a position written after
``--moves``, a puzzle's what-if, ``puzzles check FILE``, one way to write a memory size, output
that wraps when piped, an option's refusal citing the option and the rule, ``omen ask`` saying
"no" with exit status 1, ``omen endgame --moves``, ``new_game(seed=)`` dealing ``--deal``'s
deal, and a line of play with its bouts shown.

The rules behind the answers: rules file 000 ("Wrath": "They must play another card"; "Setup"
for the deals); the Omen answers are the shipped puzzles' own (puzzles/omen/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from omen_solver.cli import main, position_after_moves

ROOT = Path(__file__).resolve().parents[2]
HARMONY = str(ROOT / "puzzles" / "omens" / "harmony.toml")
LAW_AND_WRATH = str(ROOT / "docs" / "examples" / "omens" / "law-and-wrath.toml")
KEEP = str(ROOT / "puzzles" / "omen" / "endgame-keep-to-hold.toml")
FOURTH = str(ROOT / "puzzles" / "omen" / "endgame-fourth-unit.toml")
OCCUPATION = str(ROOT / "puzzles" / "omen" / "endgame-occupation.toml")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exited:
        status = int(exited.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- a position written after --moves ----------------------------------------------------------


def test_a_file_after_the_moves_is_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    status, after, _ = _run(capsys, "solve", "--moves", "1:26", HARMONY, "--json")
    assert status == 0, after
    status, before, _ = _run(capsys, "solve", HARMONY, "--moves", "1:26", "--json")
    first, second = json.loads(after), json.loads(before)
    assert first["played"] == second["played"] == ["1:26"]
    assert first["value"] == second["value"] and first["file"] == second["file"] == HARMONY


def test_moves_alone_stay_moves() -> None:
    words = ["solve", "puzzles/none.toml", "--moves", "1:13", "2:5"]
    assert position_after_moves(words) == words
    assert position_after_moves(["omens", "play", "--moves", "5:11", "6:19", LAW_AND_WRATH]) == [
        "omens", "play", LAW_AND_WRATH, "--moves", "5:11", "6:19"]
    text = "omens 7,15/3,25 lead 1"
    assert position_after_moves(["solve", "--moves", "1:7", text]) == [
        "solve", text, "--moves", "1:7"]


def test_omens_play_reads_a_file_after_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "omens", "play", "--moves", "2:28 return 15", LAW_AND_WRATH)
    assert status == 0, err
    assert "2:28 return 15" in out


# -- a puzzle's what-if ------------------------------------------------------------------------


def test_a_puzzle_is_solved_after_moves_without_comparing_its_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """harmony.toml: seat 1 wins the round with 1:10 only; after 1:26 the puzzle's question
    is asked of another position, so its stated answer is not compared."""
    status, out, err = _run(capsys, "solve", HARMONY, "--moves", "1:26")
    assert status == 0, err
    assert "after: 1:26" in out
    assert "question: " in out
    assert "seats 2, 4 win" in out
    assert "stated answer: not compared" in out and "CONTRADICTED" not in out
    status, out, _ = _run(capsys, "solve", HARMONY, "--moves", "1:26", "--json")
    data = json.loads(out)
    assert data["agrees"] is None and data["compared"] is False
    assert {"flag": "--moves", "key": "puzzle.position", "given": ["1:26"],
            "file": None} in data["overrides"]


# -- puzzles check FILE ------------------------------------------------------------------------


def test_puzzles_check_takes_files_and_folders(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "puzzles", "check", HARMONY, "--json")
    assert status == 0, err
    rows = json.loads(out)
    assert [row["file"] for row in rows] == [HARMONY] and rows[0]["status"] == "agrees"
    status, out, _ = _run(capsys, "puzzles", "check", HARMONY, OCCUPATION)
    assert status == 0 and "2 puzzles: 2 agree" in out
    status, _, err = _run(capsys, "puzzles", "check", str(ROOT / "no-such.toml"))
    assert status == 2 and "no such puzzle file or folder of puzzles" in err


# -- one way to write a memory size -----------------------------------------------------------


@pytest.mark.parametrize("command", [["perft", LAW_AND_WRATH, "--json"],
                                     ["graph", LAW_AND_WRATH, "--out", "{out}", "--json"],
                                     ["solve", HARMONY, "--json"]])
@pytest.mark.parametrize(("given", "mib"), [("512M", 512), ("400", 400), ("1.5GiB", 1536)])
def test_every_max_memory_reads_units(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      command: list[str], given: str, mib: int) -> None:
    argv = [word.replace("{out}", str(tmp_path / "tree.graphml")) for word in command]
    status, out, err = _run(capsys, *argv, "--max-memory", given)
    assert status == 0, err
    data = json.loads(out)
    if command[0] == "solve":
        assert data["max_memory"] == mib * 2**20
    elif command[0] == "perft":
        assert data["budget"]["max_memory_mib"] == mib
    else:
        assert data["max_memory_mib"] == mib


@pytest.mark.parametrize("command", [["perft", LAW_AND_WRATH], ["solve", HARMONY],
                                     ["serve"]])
def test_a_bad_memory_size_is_refused_the_same_way(capsys: pytest.CaptureFixture[str],
                                                   command: list[str]) -> None:
    status, _, err = _run(capsys, *command, "--max-memory", "2X")
    assert status == 2
    assert "'2X' is not an amount of memory (write e.g. 2G, 512M; a bare number is MiB)" in err


def test_serve_reads_a_memory_size_in_units() -> None:
    from omen_solver.cli import serve

    assert serve._memory("1G") == 1024 and serve._memory("300") == 300


# -- output that wraps -------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["omens", "cards"], ["prove", "--list"],
                                  ["puzzles", "check", "puzzles/omen/endgame-occupation.toml",
                                   "puzzles/omens/harmony.toml", "puzzles/omen/stalled.toml"]])
def test_piped_output_wraps_instead_of_cutting(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch,
                                               argv: list[str]) -> None:
    """Captured output is not a terminal: at 80 columns (a pipe's width) no word is cut (no
    ellipsis), the lines fit, and each card's whole effect text is there."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(ROOT)
    status, out, _ = _run(capsys, *argv)
    assert status == 0
    assert "…" not in out
    lines = out.splitlines()
    # a word longer than what is left of the width stands alone on its line, whole
    assert all(cell_len(line) <= 80 or len(line.split()) == 1 for line in lines[1:])
    if argv[0] == "omens":
        from omen_solver.omens.cards import default_catalogue

        words = " ".join(out.split())
        for card in default_catalogue().values():
            assert " ".join(card.text.split()) in words


# -- an option's refusal cites the option and the rule -----------------------------------------


def test_replaying_the_card_wrath_sent_back_cites_the_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Rules file 000, "Wrath": "They must play another card" (option wrath_replay, default
    forbidden): Law sent back by Wrath may not be played again at once."""
    status, _, err = _run(capsys, "omens", "play", LAW_AND_WRATH, "--moves", "2:28 return 15",
                          "1:15")
    assert status == 2
    assert "wrath_replay = forbidden" in err and "[card.wrath.replay]" in err
    assert "legal: 1:5, 1:23 swap 28" in err


# -- omen ask ----------------------------------------------------------------------------------


def test_omen_ask_says_no_with_exit_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    """endgame-fourth-unit.toml: seat 1 cannot win city 1's war this turn with plays alone."""
    status, out, _ = _run(capsys, "omen", "ask", FOURTH, "win-city", "1")
    assert status == 1
    assert "win it this turn: no" in out


def test_omen_ask_check_prints_no_python_repr(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "omen", "ask", KEEP, "keep", "1", "--check")
    assert status == 0
    assert "[[" not in out and "['" not in out
    assert ("cross-check by the search: agrees (search: the choices that hold: "
            "keep 1@1:pillager; keep 1@1:veteran)") in out


# -- omen endgame --moves ----------------------------------------------------------------------


def test_omen_endgame_solves_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    """endgame-occupation.toml: seat 1 wins with 'play herald 1'; after it the question is
    seat 2's (the seat to act), who loses by 2 VP."""
    status, out, err = _run(capsys, "omen", "endgame", OCCUPATION, "--moves", "play herald 1")
    assert status == 0, err
    assert "after: play herald 1" in out
    assert "endgame for seat 2: loss" in out
    status, out, _ = _run(capsys, "omen", "endgame", OCCUPATION, "--moves", "play herald 1",
                          "--json")
    assert json.loads(out)["played"] == ["play herald 1"]
    status, _, err = _run(capsys, "omen", "endgame", OCCUPATION, "--moves", "play nothing 9")
    assert status == 2 and "--moves[1] (of 1)" in err


# -- new_game(seed=) is --deal's deal ----------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (5, 0), (5, 11)])
def test_new_game_with_a_seed_deals_the_solve_deal(capsys: pytest.CaptureFixture[str],
                                                   players: int, seed: int) -> None:
    import omen_solver.omens

    state = omen_solver.omens.new_game(players=players, seed=seed)
    _, out, _ = _run(capsys, "solve", "--deal", str(seed), "--players", str(players),
                        "--json", "--max-nodes", "1")
    deal = json.loads(out)["deal"]
    assert {str(s + 1): list(h) for s, h in enumerate(state.hands)} == deal["hands"]
    assert state.current_player() + 1 == deal["leader"]


# -- a line of play shows its bouts ------------------------------------------------------------


def test_the_principal_variation_separates_the_bouts(capsys: pytest.CaptureFixture[str]) -> None:
    """Deal 3 of 4 players, 3 cards a hand: the line crosses from the first bout (four cards
    played) into the second."""
    status, out, _ = _run(capsys, "solve", "--deal", "3", "--players", "4", "--cards", "3")
    assert status == 0
    line = next(x for x in out.splitlines() if x.startswith("principal variation: "))
    bouts = line.removeprefix("principal variation: ").split(" | ")
    assert len(bouts) == 2
    first = bouts[0].split(" · ")
    assert [move.split(":")[0] for move in first] == ["4", "1", "2", "3"]


# -- advise: the best action is the table's top row -------------------------------------------


def test_advise_best_action_is_the_top_row(capsys: pytest.CaptureFixture[str]) -> None:
    """With a node limit most deals stay unknown, and each such deal's search gives the
    actions estimates (docs/estimates.md): the actions are ranked by the mean of the settled
    deals' values and the others' estimates, in the table and in the best action alike (which
    says that it rests on estimates); the ties of that score are broken by the bounds."""
    argv = ["advise", "--deal", "3", "--players", "4", "--cards", "3", "--moves", "4:6",
            "--max-nodes", "2000", "--samples", "20"]
    _, out, _ = _run(capsys, *argv)
    lines = out.splitlines()
    header = next(n for n, line in enumerate(lines) if line.split()[:1] == ["action"])
    top = lines[header + 1].split("  ")[0].strip()
    best = next(line for line in lines if line.startswith("best action: "))
    assert best == f"best action: {top} (by the estimates)"
    _, out, _ = _run(capsys, *argv, "--json")
    data = json.loads(out)
    assert data["best_action"] == top
    rows = {row["action"]: row for row in data["actions"]}

    def score(row: dict[str, Any]) -> tuple[float, float]:
        guess = row.get("estimate")
        rate = guess["win_rate"] if guess else row["win_probability"]
        return (-1.0 if rate is None else rate, row["bounds"][1])

    assert rows[top].get("estimate", {}).get("kind") == "estimate"
    assert score(rows[top]) == max(score(row) for row in data["actions"])


# -- default budgets: one table, true to the code ---------------------------------------------


def test_the_default_budgets_are_documented_once_and_true() -> None:
    """docs/search.md, "Budgets and memory on the command line": each command's default time
    limit as the code has it."""
    from omen_solver.cli import graph, omen, perft, puzzles, solve, survey
    from omen_solver.cli.args import DEFAULT_WALK_MEMORY_MIB
    from omen_solver.survey import advice

    text = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    section = text.split("### Budgets and memory on the command line", 1)[1].split("\n## ")[0]
    rows = {line.split(" | ")[0].strip("| "): line for line in section.splitlines()
            if line.startswith("| `")}

    def says(command: str, seconds: float) -> bool:
        return f" {seconds:g} s" in rows[command]

    assert says("`solve`, `omen endgame`, `omen ask --check`", solve.DEFAULT_SOLVE_SECONDS)
    assert omen.DEFAULT_SECONDS == solve.DEFAULT_SOLVE_SECONDS
    assert says("`perft`, `graph`", perft.DEFAULT_PERFT_SECONDS)
    assert graph.DEFAULT_GRAPH_SECONDS == perft.DEFAULT_PERFT_SECONDS
    assert says("`advise`", advice.DEFAULT_TOTAL_SECONDS)
    assert says("`advise`", advice.DEFAULT_DEAL_SECONDS)
    assert says("`puzzles check`", puzzles.DEFAULT_CHECK_SECONDS)
    assert says("`survey`", survey.DEFAULT_SECONDS)
    assert f"{survey.DEFAULT_NODES:,} nodes" in rows["`survey`"]
    assert DEFAULT_WALK_MEMORY_MIB == 2048 and "The default is `2G` everywhere" in section
    # every other page points at this table instead of restating it
    for page in ("web.md", "robustness.md"):
        assert "MiB (default 2048)" not in (ROOT / "docs" / page).read_text(encoding="utf-8")


# -- balance prints tables as survey does ------------------------------------------------------


def test_balance_prints_tables_not_markdown(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    status, out, _ = _run(capsys, "balance", "--games", "2", "--players", "4", "--workers", "0",
                          "--no-plots", "--out", str(tmp_path / "b"))
    assert status == 0
    assert "|---" not in out and "## " not in out and "`" not in out
    assert "┃ players ┃" in out  # rich's table, as survey's
    for title in ("The first leader's team, and the team sizes", "By seat"):
        assert title in out
    markdown = (tmp_path / "b" / "balance.md").read_text(encoding="utf-8")
    assert "| players | seat | `rulebook` | `gamepark` |" in markdown  # the file stays Markdown


def test_omen_endgame_shows_its_progress_on_a_terminal() -> None:
    """On a terminal (rich forced to one by FORCE_COLOR) stderr carries the progress bar of
    the search; piped, stderr stays empty. The terminal is made wide (COLUMNS) so the line
    is whole however long the checkout's path is."""
    import os
    import subprocess
    import sys

    argv = [sys.executable, "-m", "omen_solver", "omen", "endgame", OCCUPATION]
    plain = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT,
                           env={k: v for k, v in os.environ.items() if k != "FORCE_COLOR"})
    assert plain.returncode == 0 and plain.stderr == ""
    shown = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT,
                           env={**os.environ, "FORCE_COLOR": "1", "COLUMNS": "400"})
    assert shown.returncode == 0
    assert f"solving {OCCUPATION}" in shown.stderr and "nodes/s" in shown.stderr


# -- survey --no-plots says no plots were written -------------------------------------------------


def test_survey_without_plots_names_no_plots(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """``--no-plots`` writes no PNG/SVG (``survey --help``), so the last line, which lists what
    was written, does not mention plots (docs/survey.md)."""
    status, out, _ = _run(capsys, "survey", "--out", str(tmp_path / "s"), "--deals", "1",
                          "--players", "4", "--cards", "2", "--workers", "0", "--no-plots",
                          "--no-options", "--no-lines")
    assert status == 0
    words = " ".join(out.split())  # the line wraps with a long folder name
    last = words[words.rindex("Tables "):]
    assert last.startswith("Tables and card values in ") and "plot" not in last.replace(
        str(tmp_path), "")
    assert not list((tmp_path / "s").glob("*.png"))


def test_advise_json_lists_the_actions_in_the_tables_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``advise --json`` lists the actions best first, as the table does, each with its
    ``rank`` (docs/advice.md, "For every legal action")."""
    argv = ["advise", "--deal", "3", "--players", "4", "--cards", "3", "--moves", "4:6",
            "--max-nodes", "2000", "--samples", "8"]
    _, out, _ = _run(capsys, *argv)
    lines = out.splitlines()
    header = next(n for n, line in enumerate(lines) if line.split()[:1] == ["action"])
    table = []
    for line in lines[header + 1:]:
        if not line.startswith(" ") or not line.strip():
            break
        if line[1] != " ":  # a row's first line (the cells wrap on the lines below it)
            table.append(line.split("  ")[0].strip())
    _, out, _ = _run(capsys, *argv, "--json")
    actions = json.loads(out)["actions"]
    assert [row["action"] for row in actions] == table
    assert [row["rank"] for row in actions] == list(range(1, len(table) + 1))
    assert len(table) > 2


# -- vectors export: a game's own flags ----------------------------------------------------------


@pytest.mark.parametrize(("flags", "named"), [
    (["--witnesses", "proofs/witnesses"], "--witnesses is for Omens"),
    (["--preset", "gamepark"], "--preset, --rule and --suite are for Omens"),
    (["--suite", "mine"], "--preset, --rule and --suite are for Omens"),
])
def test_export_refuses_a_flag_of_another_games_vectors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flags: list[str], named: str,
) -> None:
    """Omen's vectors are mined from its seed positions and name their profile themselves
    (docs/vectors.md), so an Omens-only flag is refused with exit status 2 and writes
    nothing; the refusal is the registered game's part (vectors/publish.py)."""
    status, _, err = _run(capsys, "vectors", "export", "--game", "omen", "--out",
                            str(tmp_path / "out"), *flags)
    assert status == 2 and named in err
    assert not (tmp_path / "out").exists()
