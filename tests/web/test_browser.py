"""The board in a real browser (headless Chromium through Playwright): the rulebook's worked
example played by clicking, a rules question of each "now" card by clicking alone, the editor,
a puzzle, the solver panel, Omen, and the page at a laptop's and a phone's size with nothing
cut off."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import link

ROOT = Path(__file__).resolve().parents[2]
HEAD = 'game = "omens"\nplayers = 4\nteams = [[1, 3], [2, 4]]\n'


def open_board(page: Any, url: str, toml: str | None = None,
               moves: list[str] | None = None) -> None:
    page.goto(url + (link(toml, moves) if toml else ""))
    page.wait_for_selector('body[data-ready="1"]')


def click(page: Any, token: str) -> None:
    page.click(f'#view-board [data-token="{token}"], #view-puzzles [data-token="{token}"]')


def trace_rules(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#trace .rule",
                                          "nodes => nodes.map(n => n.dataset.rule)"))


def moves_shown(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#move-list li:not(.undone)",
                                          "nodes => nodes.map(n => n.dataset.move)"))


def test_worked_example_by_clicking(page: Any, board_url: str) -> None:
    """Rules file 000, "How a Bout Is Resolved", EXAMPLE: with 5:11 and 6:19 played, Secret
    wins; Secret, Calm and Summer are discarded; Day, Death and Autumn go back to hand."""
    open_board(page, board_url)
    assert "seat 5 to play" in page.inner_text("#acting")
    click(page, "hand:5:11")
    page.wait_for_function(
        "(document.querySelector('#acting') || {textContent: ''}).textContent.includes('seat 6')")
    click(page, "hand:6:19")
    page.wait_for_selector("#last-bout")
    assert "discarded: Calm (4), Summer (11), Secret (24)" in page.inner_text("#last-bout")
    assert "seat 1 won bout 1" in page.inner_text("#last-bout")
    trace = page.inner_text("#trace")
    assert "Day (18): discard the highest red card in play -> Secret (24) is discarded" in trace
    assert "Day (18) goes back to seat 2's hand" in trace
    assert {"bout.winner.highest", "bout.discard.simultaneous", "bout.return"} <= set(
        trace_rules(page))
    # A rule id shows the rule's text.
    page.click('#trace .rule[data-rule="bout.winner.highest"]')
    assert "The highest card in play wins the bout." in page.inner_text("#trace .rule-text")
    # Day is back in seat 2's hand.
    assert page.locator('[data-seat="2"] .hand [data-card="18"]').count() == 1
    # Undo and redo; the link in the address bar reopens the same moves.
    page.click("#undo")
    page.wait_for_function("document.querySelector('#acting') !== null")
    assert moves_shown(page)[-1] == "5:11"
    page.click("#redo")
    page.wait_for_selector("#last-bout")
    address = page.url
    assert "#omens=z" in address
    page.goto("about:blank")
    page.goto(address)
    page.wait_for_selector('body[data-ready="1"]')
    assert moves_shown(page)[-2:] == ["5:11", "6:19"]


NOW_CARDS = [
    # (what, hands and moves, clicks, rule ids the trace must show, text it must show)
    ("Law", "[hands]\n1 = [15, 27]\n2 = [28, 4]\n3 = [10, 11]\n4 = [26, 3]\n[bout]\nleader = 1\n",
     ["hand:1:15", "word:lower"], {"card.law.choose"}, "Law: lower than 15"),
    ("Wrath", "[hands]\n1 = [15, 27]\n2 = [28, 4]\n3 = [10, 11]\n4 = [26, 3]\n[bout]\nleader = 1"
     '\nmoves = ["1:27"]\n', ["hand:2:28", "hand:1:15", "word:higher"],
     {"card.wrath.return", "card.wrath.replay"}, "Winter (27) goes back to seat 1's hand"),
    ("Dream", "[hands]\n1 = [21, 5]\n2 = [9, 3]\n3 = [10, 11]\n4 = [26, 2]\n[bout]\nleader = 1\n",
     ["hand:1:21", "seat:3", "hand:3:10"], {"card.dream.target"}, "in front of seat 1"),
    ("Jealousy", "[hands]\n1 = [18, 5]\n2 = [23, 3]\n3 = [10, 11]\n4 = [26, 2]\n[bout]\n"
     'leader = 1\nmoves = ["1:18"]\n', ["hand:2:23"], {"card.jealousy.swap"}, "Day (18)"),
    ("Secret", "[hands]\n1 = [24, 5]\n2 = [9, 3]\n3 = [10, 11]\n4 = [26, 2]\n[bout]\nleader = 1\n",
     ["hand:1:24", "seat:2", "word:ask", "hand:2:9"], {"card.secret.choose", "card.secret.show"},
     "Lie (9)"),
    ("Betrayal", "[hands]\n1 = [18, 5]\n2 = [29, 3]\n3 = [10, 11]\n4 = [26, 2]\n[bout]\n"
     'leader = 1\nmoves = ["1:18"]\n', ["hand:2:29", "play:18", "hand:2:3"],
     {"card.betrayal.take", "card.betrayal.give"}, "Day (18)"),
    ("The Absolute", "[hands]\n1 = [31, 5]\n2 = [9, 3]\n3 = [10, 11]\n4 = [26, 2]\n[bout]\n"
     "leader = 1\n", ["hand:1:31", "seat:2", "hand:1:5", "hand:2:9"],
     {"card.absolute.target", "card.absolute.exchange"}, "Feast (5)"),
    ("Luck's discard", "[hands]\n1 = [13, 5, 6]\n2 = [27, 3]\n3 = [10, 4]\n4 = [26, 2]\n[bout]\n"
     "leader = 1\n", ["hand:1:13", "hand:2:27", "hand:3:4", "hand:4:2", "hand:1:5"],
     {"card.colour.all", "card.luck.discard"}, "Luck"),
]


@pytest.mark.parametrize(("what", "position", "clicks", "rules", "text"), NOW_CARDS,
                         ids=[case[0] for case in NOW_CARDS])
def test_a_rules_question_of_each_now_card_by_clicking(
    page: Any, board_url: str, what: str, position: str, clicks: list[str], rules: set[str],
    text: str,
) -> None:
    """Each immediate card (rules file 000, "Special Card Effects"), and Luck's discard,
    played by clicks alone: the card in hand, then its target or choice; the trace names
    the card's rule."""
    open_board(page, board_url, HEAD + position)
    before = len(moves_shown(page))
    for token in clicks:
        selector = f'#view-board [data-token="{token}"]'
        page.wait_for_selector(selector + ":not([disabled])")
        page.click(selector)
    # the trace is drawn as the answer comes: wait for every rule, not only one of them
    page.wait_for_function(
        "want => want.every(w => [...document.querySelectorAll('#trace .rule')]"
        ".some(n => n.dataset.rule === w))",
        arg=sorted(rules))
    assert rules <= set(trace_rules(page)), what
    assert text in page.inner_text("#view-board")
    assert len(moves_shown(page)) > before


def test_edit_a_position(page: Any, board_url: str) -> None:
    """The editor refuses an impossible position with the command line's message, and deals
    as at a game start (rules file 000, "Setup": one Absolute each, teams from them)."""
    open_board(page, board_url)
    page.click("#tab-editor")
    page.select_option("#ed-players", "4")
    page.click('[data-ed-seat="1"]')
    page.click('#ed-palette [data-card="24"]')
    for seat, cards in ((2, (1, 2)), (3, (3, 4)), (4, (5, 6))):
        page.click(f'[data-ed-seat="{seat}"]')
        for card in cards:
            page.click(f'#ed-palette [data-card="{card}"]')
    page.select_option("#ed-leader", "1")
    page.click("#ed-play")
    page.wait_for_selector("#ed-message.bad")
    assert page.inner_text("#ed-message") == (
        "position: key 'hands.1': 1 card at the start of a bout: the round is already over")
    page.click('[data-ed-seat="1"]')
    page.click('#ed-palette [data-card="25"]')
    page.click("#ed-play")
    page.wait_for_selector("#view-board:not([hidden])")
    assert page.locator('[data-seat="1"] .hand .card').count() == 2
    # As at a game start, seeded.
    page.click("#tab-editor")
    page.fill("#ed-seed", "5")
    page.click("#ed-start")
    # The message of the position played before is gone at once; wait for the deal's own.
    page.wait_for_function(
        "document.querySelector('#ed-message').textContent.startsWith('Dealt: seed 5')")
    page.click("#ed-play")
    page.wait_for_selector("#view-board:not([hidden])")
    hands = page.eval_on_selector_all(
        "[data-seat] .hand", "zones => zones.map(z => [...z.querySelectorAll('[data-card]')]"
        ".map(c => Number(c.dataset.card)))")
    assert [len(hand) for hand in hands] == [5, 5, 5, 5]
    assert all(sum(card >= 30 for card in hand) == 1 for hand in hands)


def test_solve_a_puzzle(page: Any, board_url: str) -> None:
    """puzzles/omens/law-and-wrath.toml: 1:27 loses (Wrath sends Winter back), 1:15 lower
    wins."""
    open_board(page, board_url)
    page.click("#tab-puzzles")
    page.click('[data-puzzle="omens/law-and-wrath"]')
    page.wait_for_function(
        "document.querySelector('#puzzle-title').textContent === 'Law and Wrath'")
    page.click('#view-puzzles [data-token="hand:1:27"]')
    page.wait_for_selector("#puzzle-verdict")
    assert page.inner_text("#puzzle-verdict").startswith("Wrong")
    result = page.inner_text("#puzzle-result")
    assert "The refutation" in result and "1:27 is lost" in result
    assert "1:15 lower" in page.inner_text("#puzzle-best")
    assert "Law and Wrath" in page.inner_text("#puzzle-comments")
    page.click("#puzzle-again")
    page.click('#view-puzzles [data-token="hand:1:15"]')
    page.click('#view-puzzles [data-token="word:lower"]')
    page.wait_for_function(
        "(document.querySelector('#puzzle-verdict') || {textContent: ''}).textContent"
        ".startsWith('Right')")


def test_solver_panel_and_the_line(page: Any, board_url: str) -> None:
    text = (ROOT / "puzzles/omens/law-and-wrath.toml").read_text(encoding="utf-8")
    open_board(page, board_url, text)
    page.check("#solve-on")
    page.wait_for_selector('#solver-table tr.best[data-move="1:15 lower"]')
    verdicts = page.eval_on_selector_all(
        "#solver-table tr", "rows => rows.map(r => [r.dataset.move, r.querySelector('.verdict')"
        ".textContent])")
    assert dict(verdicts) == {"1:15 higher": "lost", "1:15 lower": "won", "1:27": "lost"}
    page.click("#show-line")
    page.wait_for_selector("#last-bout")
    assert moves_shown(page)[0] == "1:15 lower"
    assert "seat 1 won bout 1" in page.inner_text("#last-bout")


def test_omen_board(page: Any, board_url: str) -> None:
    open_board(page, board_url)
    page.click("#tab-omen")
    page.wait_for_selector("#omen-legal button")
    page.select_option("#omen-examples", "omen/war-order")
    page.wait_for_selector('#omen-legal [data-action="war 1"]')
    assert page.locator("[data-city]").count() == 3
    page.click('#omen-legal [data-action="war 1"]')
    page.wait_for_selector('#omen-trace .rule[data-rule="war.torn"]')
    page.click("#omen-solve")
    page.wait_for_selector("#omen-verdict")
    assert page.inner_text("#omen-verdict").startswith("seat ")


def _check_fits(page: Any, selectors: list[str]) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "horizontal overflow"
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_screenshots_with_nothing_cut_off(page: Any, board_url: str, tmp_path: Path,
                                          width: int, height: int) -> None:
    """The board at a laptop's and at a phone's size: no horizontal scrolling, the table,
    the choices, the solver and the trace inside the window's width. With
    ``OMEN_WEB_SCREENSHOTS=DIR`` the pictures are kept there (docs/web/ holds them)."""
    page.set_viewport_size({"width": width, "height": height})
    text = (ROOT / "puzzles/omens/law-and-wrath.toml").read_text(encoding="utf-8")
    open_board(page, board_url, text, ["1:15 lower"])
    page.check("#solve-on")
    page.wait_for_selector("#solver-table tr.best")
    assert "Law: lower than 15" in page.inner_text("#law")
    _check_fits(page, ["#table", "#choices", "#solver-panel", "#trace", ".tabs", "#undo"])
    shot = tmp_path / f"board-{width}x{height}.png"
    page.screenshot(path=str(shot))
    for tab in ("editor", "puzzles", "omen"):
        page.click(f"#tab-{tab}")
        page.wait_for_timeout(300)
        _check_fits(page, [f"#view-{tab} .panel"])
    keep = os.environ.get("OMEN_WEB_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
