"""The board in a real browser (headless Chromium through Playwright): the rulebook's worked
example played by clicking, a rules question of each "now" card by clicking alone, the editor,
Omen, and the page at a laptop's and a phone's size with nothing cut off. The analysis board's
move tree and solver panel are in ``test_analysis.py``, the puzzle trainer in
``test_trainer.py``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import HEAD, ROOT, moves_shown, open_board


def click(page: Any, token: str) -> None:
    page.click(f'#view-board [data-token="{token}"], #view-puzzles [data-token="{token}"]')


def trace_rules(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#trace .rule",
                                          "nodes => nodes.map(n => n.dataset.rule)"))


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
    # Back and forward; the link in the address bar reopens the same moves.
    page.click("#back")
    page.wait_for_function("document.querySelector('#acting') !== null")
    assert moves_shown(page)[-1] == "5:11"
    page.click("#forward")
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
    # the board shown may still be the one before until the new position is drawn
    page.wait_for_function(
        "document.querySelectorAll('[data-seat=\"1\"] .hand .card').length === 2")
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


def test_omen_board(page: Any, board_url: str) -> None:
    open_board(page, board_url)
    page.click("#tab-omen")
    page.wait_for_selector("#omen-legal button")
    page.select_option("#omen-examples", "omen/war-order")
    page.wait_for_selector('#omen-legal [data-action="war 1"]')
    assert page.locator("#omen-board [data-city]").count() == 3
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
    the choices, the solver and the trace inside the window's width; on a phone the hand to
    play from on the first screen. The rulebook's worked example (rules file 000, "How a
    Bout Is Resolved") with a side line: seat 5 plays Spring (7) instead of Summer. With
    ``OMEN_WEB_SCREENSHOTS=DIR`` the pictures are kept there (docs/web/ holds them)."""
    page.set_viewport_size({"width": width, "height": height})
    text = (ROOT / "docs/examples/omens/worked-example.toml").read_text(encoding="utf-8")
    open_board(page, board_url, text, ["5:11"], [["5:11", ["6:19"]], ["5:7"]])
    page.check("#solve-on")
    page.wait_for_selector("#solver-table tr.best")
    page.wait_for_selector('#solver-table [data-line-of="6:35 with 1"] .pv-move')
    page.wait_for_selector('[data-seat="6"] [data-card="35"] .score')
    assert "seat 6 to play" in page.inner_text("#acting")
    assert page.locator("#move-list .variation .mv").count() == 1
    _check_fits(page, ["#table", "#choices", "#solver-panel", "#trace", ".tabs", "#back",
                       "#move-list"])
    page.evaluate("window.scrollTo(0, 0)")  # ticking "analyse" scrolled down to it
    box = page.locator('[data-seat="6"] [data-card="35"]').bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (
        "the hand to play from is off screen")
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
