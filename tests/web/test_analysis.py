"""The analysis board in a real browser (headless Chromium through Playwright): the move tree
with its side lines, moved through by clicks and arrow keys and kept in the link; the solver's
answer for every legal action with its line, a line shown without changing the game; the
verdicts on the cards themselves; an estimate labelled as one, never drawn as a verdict."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import ROOT, moves_shown, open_board, read_link

LAW_AND_WRATH = (ROOT / "puzzles/omens/law-and-wrath.toml").read_text(encoding="utf-8")


def chips(page: Any, selector: str = "#move-list .mv[data-path]") -> list[list[str]]:
    return list(page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => JSON.parse(n.dataset.path))"))


def wait_moves(page: Any, moves: list[str]) -> None:
    page.wait_for_function(
        "want => { const c = document.querySelector('#move-list .mv.current');"
        " return c && c.dataset.path === JSON.stringify(want); }", arg=moves)


def play(page: Any, *tokens: str) -> None:
    for token in tokens:
        selector = f'#view-board [data-token="{token}"]'
        page.wait_for_selector(selector + ":not([disabled])")
        page.click(selector)


def test_move_tree_with_side_lines_and_keys(page: Any, board_url: str) -> None:
    """The rulebook's worked example (rules file 000, "How a Bout Is Resolved"): the book's
    5:11 then 6:19, and, as a side line, seat 6's The Absolute instead of Autumn. Arrow keys
    and clicks move through the tree; nothing is lost going back; the link keeps the tree."""
    open_board(page, board_url)
    play(page, "hand:5:11")
    wait_moves(page, ["5:11"])
    play(page, "hand:6:19")
    wait_moves(page, ["5:11", "6:19"])
    page.keyboard.press("ArrowLeft")
    wait_moves(page, ["5:11"])
    assert "seat 6 to play" in page.inner_text("#acting")
    # Another move where one was played already: a side line, the main line kept.
    play(page, "hand:6:35", "seat:3", "hand:6:19")
    side = ["5:11", "6:35 with 3", "6:gives 19 & 3:gives 5"]
    wait_moves(page, side)
    assert page.locator("#move-list .variation .mv.current").count() == 1
    assert ["5:11", "6:19"] in chips(page) and side in chips(page)
    # Up and down change line where they branch; Home and End go to the ends.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_moves(page, ["5:11"])
    page.keyboard.press("ArrowRight")  # forward comes back the way it went
    wait_moves(page, side[:2])
    page.keyboard.press("ArrowUp")
    wait_moves(page, ["5:11", "6:19"])
    page.keyboard.press("ArrowDown")
    wait_moves(page, side[:2])
    page.keyboard.press("End")
    wait_moves(page, side)
    page.keyboard.press("Home")
    wait_moves(page, [])
    assert moves_shown(page) == ["1:24 ask 2", "2:shows 3", "2:18", "3:4", "4:8"]
    # A click on a move goes to it; the link holds the whole tree and reopens it.
    page.click('#move-list .mv[data-move="6:19"]')
    wait_moves(page, ["5:11", "6:19"])
    page.wait_for_selector("#last-bout")
    held = read_link(page.url)
    assert held["m"] == ["5:11", "6:19"]
    assert held["v"] == [["5:11", ["6:19"], ["6:35 with 3", ["6:gives 19 & 3:gives 5"]]]]
    address = page.url
    page.goto("about:blank")
    page.goto(address)
    page.wait_for_selector('body[data-ready="1"]')
    wait_moves(page, ["5:11", "6:19"])
    assert side in chips(page)
    # The side line made the main line, then deleted.
    page.click('#move-list .mv[data-move="6:35 with 3"]')
    wait_moves(page, side[:2])
    page.click("#promote-line")
    page.wait_for_function(
        "document.querySelector('#move-list > .line .mv[data-move=\"6:35 with 3\"]') !== null")
    page.click("#delete-line")
    wait_moves(page, ["5:11"])
    assert side[:2] not in chips(page) and ["5:11", "6:19"] in chips(page)


def test_solver_lines_marks_and_a_line_shown(page: Any, board_url: str) -> None:
    """puzzles/omens/law-and-wrath.toml: only 1:15 lower wins (Law binds seat 2 to Calm; rules
    file 000, "Special Card Effects", Law and Wrath). Every action gets its verdict and its
    line, the cards in hand their verdicts, and a line is shown without being played."""
    open_board(page, board_url, LAW_AND_WRATH)
    page.check("#solve-on")
    page.wait_for_selector('#solver-table tr.best[data-move="1:15 lower"]')
    verdicts = page.eval_on_selector_all(
        "#solver-table tr.move-row", "rows => rows.map(r => [r.dataset.move, "
        "r.querySelector('.verdict').textContent])")
    assert dict(verdicts) == {"1:15 higher": "lost", "1:15 lower": "won", "1:27": "lost"}
    assert verdicts[0][0] == "1:15 lower"  # what is proven best comes first
    # Each action's line: the best one from the search, the others searched after it.
    for move in ("1:15 lower", "1:15 higher", "1:27"):
        page.wait_for_selector(f'#solver-table [data-line-of="{move}"] .pv-move')
    line = page.eval_on_selector_all('#solver-table [data-line-of="1:15 higher"] .pv-move',
                                     "nodes => nodes.map(n => n.textContent)")
    assert line[:2] == ["1:15 higher", "2:28 return 15"]  # Wrath sends Law back
    # The cards in hand carry the verdict of their best action.
    page.wait_for_selector('[data-seat="1"] [data-card="15"] .score.won')
    assert page.inner_text('[data-seat="1"] [data-card="27"] .score') == "loss"
    play(page, "hand:1:15")
    page.wait_for_selector('#choices [data-token="word:lower"] .score.won')
    assert page.inner_text('#choices [data-token="word:higher"] .score') == "loss"
    page.click("#choice-cancel")
    # A line shown: the board shows it, the game stays as it was.
    page.click('#solver-table [data-show="1:15 higher"]')
    page.wait_for_selector("#line-banner:not([hidden])")
    page.wait_for_function("document.querySelector('#law') && "
                           "document.querySelector('#law').textContent.includes('higher')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('.line-banner .pv-move.current')"
                           ".dataset.index === '2'")
    assert "Wrath" in page.inner_text("#trace .shown-line:last-child")
    assert moves_shown(page) == []  # nothing played
    assert page.locator("#solver-table tr.move-row").count() == 3
    page.keyboard.press("Escape")
    page.wait_for_selector("#line-banner", state="hidden")
    assert page.locator("#law").count() == 0
    # "Show the line" shows the best line; "Play" adds it to the moves.
    page.click("#show-line")
    page.wait_for_selector("#line-banner:not([hidden])")
    page.keyboard.press("End")
    page.wait_for_selector("#line-banner #line-play")
    page.click("#line-play")
    wait_moves(page, ["1:15 lower", "2:4", "3:10", "4:3"])
    assert "seat 1 won bout 1" in page.inner_text("#last-bout")


ESTIMATE = {
    "type": "move", "move": "1:27", "status": "unknown", "verdict": "unknown", "value": None,
    "lower": "0", "upper": "1", "nodes": 40,
    "estimate": {"kind": "estimate", "win_rate": 0.73, "low": 0.66, "high": 0.79,
                 "playouts": 1234, "line": ["1:27", "2:28 return 27", "1:15 lower"]},
}


def test_an_estimate_is_labelled_and_never_a_verdict(page: Any, board_url: str) -> None:
    """A move the search has not settled, with an estimate in the shared JSON form (a row's
    "estimate": kind, win_rate, low, high, playouts, line): the panel says "estimate", keeps
    the verdict "unknown" and the proven bounds, and the card shows "est.", not a verdict."""
    open_board(page, board_url, LAW_AND_WRATH)
    page.evaluate(
        "m => { const s = window.omenBoard.board.solver, v = window.omenBoard.board.view;"
        " s.news({type: 'start', moves: ['1:15 higher', '1:15 lower', '1:27'], team: [1, 3],"
        " concept: 'minimax'}, v); s.news(m, v); }", ESTIMATE)
    row = '#solver-table tr.move-row[data-move="1:27"]'
    page.wait_for_selector(row + " .estimate")
    assert page.inner_text(row + " .verdict") == "unknown"
    assert page.inner_text(row + " .bounds") == "0…1"
    assert page.inner_text(row + " .estimate").startswith("estimate 73%")
    assert "not a proof" in (page.get_attribute(row + " .estimate", "title") or "")
    assert "estimate" in page.inner_text('#solver-table [data-line-of="1:27"]')
    mark = '[data-seat="1"] [data-card="27"] .score'
    assert page.get_attribute(mark, "data-score") == "estimate"
    assert page.inner_text(mark) == "est. 73%"
    assert page.locator(f"{mark}.won, {mark}.lost").count() == 0
    page.click('#solver-table [data-show="1:27"]')
    page.wait_for_selector("#line-banner.estimated")
    assert "estimate" in page.inner_text("#line-banner")
