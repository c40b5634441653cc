"""A position's one-line text on the boards, in a real browser (headless Chromium through
Playwright; docs/web.md, "A position as text"; docs/position-text.md): the board shows the
text of the position shown, moves included; a text pasted or typed is loaded; a refused text
leaves the board as it was and says why; a link holding the text opens the board on it; the
same for the Omen board."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import omen_solver
from omen_solver.omens.state import OmensState
from tests.web.conftest import ROOT, open_board

WORKED = ROOT / "docs/examples/omens/worked-example.toml"
LAW_AND_WRATH = ROOT / "puzzles/omens/law-and-wrath.toml"
WAR_ORDER = ROOT / "puzzles/omen/war-order.toml"


def wait_text(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([selector, want]) => document.querySelector(selector).value === want",
        arg=[selector, text])


def text_in_link(page: Any, selector: str, game: str) -> str:
    href = page.get_attribute(selector, "href")
    assert href and f"#{game}-text=" in href, href
    return unquote(href.split(f"#{game}-text=", 1)[1])


def test_the_board_shows_the_text_and_reads_one_pasted(page: Any, board_url: str) -> None:
    """The rulebook's worked example (rules file 000, "How a Bout Is Resolved", EXAMPLE): its
    text, the text after 5:11, a link holding it; a puzzle's text pasted opens that puzzle's
    position (seat 1 to play, its hand 15 and 27)."""
    worked = omen_solver.load(WORKED)
    open_board(page, board_url)
    wait_text(page, "#position-text", worked.to_text())
    page.click('#view-board [data-token="hand:5:11"]')
    after = worked.child("5:11").to_text()
    wait_text(page, "#position-text", after)
    assert text_in_link(page, "#position-link", "omens") == after
    assert OmensState.from_text(after) == worked.child("5:11")

    puzzle = omen_solver.load(LAW_AND_WRATH).to_text()
    page.evaluate(
        """text => {
            const box = document.getElementById("position-text");
            const data = new DataTransfer();
            data.setData("text/plain", text);
            box.focus();
            box.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true,
                                                           cancelable: true}));
        }""", "  " + puzzle + "\n")
    page.wait_for_selector('#view-board [data-seat="1"] .hand [data-card="27"]')
    assert "seat 1 to play" in page.inner_text("#acting")
    wait_text(page, "#position-text", puzzle)
    assert page.locator("#move-list .mv[data-move]").count() == 0

    # the link opens the board on the text, in another page load
    link = page.get_attribute("#position-link", "href")
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_selector('body[data-ready="1"]')
    wait_text(page, "#position-text", puzzle)
    assert page.locator('#view-board [data-seat="1"] .hand [data-card="15"]').count() == 1


def test_a_text_typed_is_loaded_and_a_bad_one_refused(page: Any, board_url: str) -> None:
    """Enter loads the text typed; a text that is not a position (too few hands for four
    players) is refused with the key it breaks, and the board keeps its position."""
    open_board(page, board_url)
    worked = omen_solver.load(WORKED).to_text()
    wait_text(page, "#position-text", worked)
    page.fill("#position-text", "omens 1,2/3")
    page.press("#position-text", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "key 'players'" in page.inner_text("#error")
    assert "not loaded" in page.inner_text("#position-status")
    assert "seat 5 to play" in page.inner_text("#acting")

    typed = "omens 1,2/3,4/5,6/7,8 teams=1,3/2,4 lead=2"
    page.fill("#position-text", typed)
    page.press("#position-text", "Enter")
    page.wait_for_function(
        "(document.querySelector('#acting') || {textContent: ''}).textContent"
        ".includes('seat 2 to play')")
    assert page.locator('#view-board [data-seat="4"] .hand [data-card="8"]').count() == 1
    wait_text(page, "#position-text", OmensState.from_text(typed).to_text())
    assert page.is_hidden("#error")


def test_the_omen_board_shows_and_reads_its_text(page: Any, board_url: str) -> None:
    """An Omen position: a link holding its text opens the Omen board on it; the text follows
    the actions played (``war 1``: rules of the war, Omen rulebook, "War")."""
    state = omen_solver.omen.load(WAR_ORDER)
    text = state.to_text()
    page.goto(f"{board_url}#omen-text={text.replace(' ', '%20')}")
    page.wait_for_selector('body[data-ready="1"]')
    page.wait_for_selector('#omen-legal [data-action="war 1"]')
    assert page.is_visible("#view-omen")
    wait_text(page, "#omen-text-text", text)
    page.click('#omen-legal [data-action="war 1"]')
    after = state.child("war 1").to_text()
    wait_text(page, "#omen-text-text", after)
    assert text_in_link(page, "#omen-text-link", "omen") == after
    # a text typed into the Omen board's box is read as the Omen board's position
    page.fill("#omen-text-text", text)
    page.press("#omen-text-text", "Enter")
    wait_text(page, "#omen-text-text", text)
    page.wait_for_selector('#omen-legal [data-action="war 1"]')
