"""The puzzle trainer in a real browser (headless Chromium through Playwright): a wrong move is
"not this one" and the player tries again, a hint on request, the solution only when asked
for or solved, solved puzzles remembered by the browser; the Omen puzzles with their
questions; on a phone the board stays in view. ``--runslow`` plays every shipped puzzle of
both games through the page at a laptop's and a phone's size."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import ROOT

PUZZLES = ROOT / "puzzles"


def open_puzzles(page: Any, url: str, name: str | None = None) -> None:
    page.goto(url + (f"#puzzle={name}" if name else ""))
    page.wait_for_selector('body[data-ready="1"]')
    if name is None:
        page.click("#tab-puzzles")
        page.wait_for_selector("#puzzle-list li")


def select(page: Any, name: str, title: str) -> None:
    page.click(f'[data-puzzle="{name}"]')
    page.wait_for_function("t => document.querySelector('#puzzle-title').textContent === t",
                           arg=title)


def verdict(page: Any, kind: str) -> str:
    page.wait_for_selector(f"#puzzle-feedback.{kind}")
    return str(page.inner_text("#puzzle-verdict"))


def inside(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the window (no scrolling needed to see it)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and (
        box["x"] >= 0 and box["x"] + box["width"] <= size["width"])


def test_a_wrong_move_then_a_hint_then_the_answer(page: Any, board_url: str) -> None:
    """puzzles/omens/law-and-wrath.toml: 1:27 loses (Wrath sends Winter back), 1:15 lower
    wins (Law binds seat 2 to Calm; rules file 000, "Special Card Effects"). The wrong try
    gives nothing away; the solution comes with the right one, without the file's metadata."""
    open_puzzles(page, board_url)
    select(page, "omens/law-and-wrath", "Law and Wrath")
    assert "1 of 3 plays wins" in page.inner_text('[data-puzzle="omens/law-and-wrath"]')
    page.click('#view-puzzles [data-token="hand:1:27"]')
    assert verdict(page, "wrong") == "Not this one: 1:27. Try again."
    assert page.is_hidden("#puzzle-result")
    assert page.locator("#puzzle-best, #puzzle-comments, .score").count() == 0
    page.click("#puzzle-why summary")  # the refutation, on request
    assert "1:27" in page.inner_text("#puzzle-refutation")
    # the board is as it was, ready for another try
    assert page.locator('#view-puzzles [data-token="hand:1:15"]:not([disabled])').count() == 1
    page.click("#puzzle-hint")
    assert verdict(page, "hint") == "Hint: Look at Law (15) in seat 1's hand."
    assert page.locator('#puzzle-table [data-card="15"].hinted').count() == 1
    page.click('#view-puzzles [data-token="hand:1:15"]')
    page.click('#view-puzzles [data-token="word:lower"]')
    assert verdict(page, "right").startswith("Right: 1:15 lower.")
    page.wait_for_selector("#puzzle-comments")
    assert "1:15 lower" in page.inner_text("#puzzle-best")
    assert "points:" not in page.inner_text("#puzzle-result")
    assert "Law and Wrath" in page.inner_text("#puzzle-comments")
    # Remembered by the browser: after a reload the list marks it (solved with help).
    page.reload()
    page.wait_for_selector('body[data-ready="1"]')
    page.click("#tab-puzzles")
    page.wait_for_selector('[data-puzzle="omens/law-and-wrath"].done-helped')


def test_the_solution_on_request_and_a_clean_solve(page: Any, board_url: str) -> None:
    """Asking for the solution shows it without solving the puzzle; a first-try answer is
    remembered as solved. puzzles/omens/harmony.toml: only 1:10 wins (its README)."""
    open_puzzles(page, board_url)
    select(page, "omens/malice", "Malice")
    page.click("#puzzle-solution")
    page.wait_for_selector("#puzzle-best")
    assert "2:17" in page.inner_text("#puzzle-best")
    page.wait_for_selector('[data-puzzle="omens/malice"].done-seen')
    select(page, "omens/harmony", "Harmony")
    page.click('#view-puzzles [data-token="hand:1:10"]')
    assert verdict(page, "right").endswith("Solved.")
    page.wait_for_selector('[data-puzzle="omens/harmony"].done-solved')
    stored = json.loads(page.evaluate("localStorage.getItem('omen-solver.puzzles')"))
    assert stored["omens/harmony"]["status"] == "solved"
    assert stored["omens/malice"]["status"] == "seen"


def test_titles_are_distinct_and_deep_puzzles_rated(page: Any, board_url: str) -> None:
    open_puzzles(page, board_url)
    titles = page.eval_on_selector_all("#puzzle-list .p-title", "ns => ns.map(n => n.textContent)")
    assert len(titles) == len(set(titles)) == len(list((PUZZLES / "omens").glob("*.toml")))
    meta = page.inner_text('[data-puzzle="omens/deep-4p-1"] .p-meta')
    rated = tomllib.loads((PUZZLES / "omens" / "deep-4p-1.toml").read_text())
    nodes = rated["puzzle"]["rating"]["nodes"]
    assert meta == ("4 players · 5 bouts deep · 1 tempting play · 1 of 4 plays wins · "
                    f"{nodes:,} nodes")


def test_omen_puzzles_with_their_questions(page: Any, board_url: str) -> None:
    """The 18 Omen puzzles in puzzle mode. puzzles/omen/war-order.toml: seat 1 wins only by
    fighting city 1 first (004 War Step: the active player decides the order);
    puzzles/omen/stalled.toml: neither side can win before the turn limit, value 1/2."""
    open_puzzles(page, board_url)
    page.click('#puzzle-games [data-game="omen"]')
    page.wait_for_selector('[data-puzzle="omen/war-order"]')
    assert page.locator("#puzzle-list li").count() == 18
    questions = page.eval_on_selector_all("#puzzle-list .q", "ns => ns.map(n => n.textContent)")
    assert all(q.endswith("?") for q in questions)
    select(page, "omen/war-order", "The order of the wars")
    assert page.inner_text("#puzzle-question") == (
        "Can seat 1 win the game, and in which order must it fight?")
    assert page.locator("#puzzle-omen [data-city]").count() == 3
    page.click('#puzzle-actions [data-action="war 2"]')
    assert verdict(page, "wrong") == "Not this one: war 2. Try again."
    page.click('#puzzle-actions [data-action="war 1"]')
    assert verdict(page, "right").startswith("Right: war 1.")
    select(page, "omen/stalled", "A stalled game")
    page.click('#puzzle-values [data-value="1"]')
    assert verdict(page, "wrong") == "Not this one: 1. Try again."
    page.click('#puzzle-values [data-value="1/2"]')
    assert verdict(page, "right").startswith("Right: 1/2.")
    page.wait_for_selector("#puzzle-best")


def test_on_a_phone_the_board_stays_in_view(page: Any, board_url: str) -> None:
    """At 390×844: after picking a puzzle the question and the hand to play from are on the
    screen, and after a wrong try too (nothing scrolls them away)."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_puzzles(page, board_url)
    page.click('[data-puzzle="omens/deep-4p-1"]')
    page.wait_for_function("document.querySelector('#puzzle-title').textContent"
                           ".includes('deal 32')")
    page.wait_for_timeout(300)
    for selector in ("#puzzle-question", '#puzzle-table [data-token="hand:2:27"]',
                     '#puzzle-table [data-token="hand:2:18"]'):
        assert inside(page, selector), selector
    page.click('#puzzle-table [data-token="hand:2:27"]')
    verdict(page, "wrong")
    for selector in ("#puzzle-feedback", '#puzzle-table [data-token="hand:2:18"]'):
        assert inside(page, selector), selector
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # An Omen puzzle: its actions come right under the question.
    page.click("#puzzle-picker > summary")
    page.click('#puzzle-games [data-game="omen"]')
    page.click('[data-puzzle="omen/war-order"]')
    page.wait_for_function("document.querySelector('#puzzle-title').textContent"
                           " === 'The order of the wars'")
    page.wait_for_timeout(300)
    for selector in ("#puzzle-question", '#puzzle-actions [data-action="war 2"]'):
        assert inside(page, selector), selector
    page.click('#puzzle-actions [data-action="war 2"]')
    verdict(page, "wrong")
    for selector in ("#puzzle-feedback", '#puzzle-actions [data-action="war 1"]',
                     "#puzzle-omen [data-city]"):
        assert inside(page, selector), selector


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_trainer_screenshots(page: Any, board_url: str, tmp_path: Path, width: int,
                             height: int) -> None:
    """The trainer after a wrong try (docs/web/puzzles-WxH.png with
    ``OMEN_WEB_SCREENSHOTS=DIR``)."""
    page.set_viewport_size({"width": width, "height": height})
    open_puzzles(page, board_url)
    page.click('[data-puzzle="omens/law-and-wrath"]')
    page.wait_for_function("document.querySelector('#puzzle-title').textContent "
                           "=== 'Law and Wrath'")
    page.click('#puzzle-table [data-token="hand:1:27"]')
    verdict(page, "wrong")
    page.click("#puzzle-hint")
    verdict(page, "hint")
    page.click('#puzzle-table [data-token="hand:1:27"]')
    verdict(page, "wrong")
    shot = tmp_path / f"puzzles-{width}x{height}.png"
    page.screenshot(path=str(shot))
    keep = os.environ.get("OMEN_WEB_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)


# -- every shipped puzzle, as a newcomer plays it ----------------------------------------------


def _api(url: str, path: str, body: object | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url.rstrip("/") + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def _answer(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        answer: dict[str, Any] = tomllib.load(handle)["puzzle"]["answer"]
    return answer


def _stated(text: str, best: list[str]) -> bool:
    return text in best or any(part.strip() in best for part in text.split("&"))


def _tries(url: str, game: str, name: str, answer: dict[str, Any]) -> list[str]:
    """A wrong first move where there is one, then a stated best one."""
    best = answer.get("best_actions") or answer["best_actions_include"]
    toml = _api(url, f"/api/puzzles/{name}")["toml"]
    legal = _api(url, f"/api/{game}/board", {"toml": toml})["legal"]
    texts = [a if isinstance(a, str) else a["text"] for a in legal]
    wrong = [t for t in texts if not _stated(t, best)]
    return [*wrong[:1], next(t for t in texts if _stated(t, best))]


def _play_omens(page: Any, url: str, entry: dict[str, Any], text: str) -> None:
    view = _api(url, "/api/omens/board", {"toml": _api(url, f"/api/puzzles/{entry['name']}")[
        "toml"]})
    clicks = next(a["clicks"] for a in view["legal"] if a["text"] == text)
    for index, token in enumerate(clicks):
        # the board plays the action as soon as the clicks so far name it alone
        if index and not page.evaluate("window.omenBoard.puzzles.chooser.prefix.length"):
            break
        selector = f'#puzzle-table [data-token="{token}"], #puzzle-choices [data-token="{token}"]'
        page.wait_for_selector(selector)
        page.click(selector)


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_every_shipped_puzzle_through_the_page(page: Any, board_url: str, tmp_path: Path,
                                               width: int, height: int) -> None:
    """Each puzzle of both games picked from the list, a wrong answer tried first where there
    is one (said "not this one", the board still in view), then the stated answer: solved."""
    page.set_viewport_size({"width": width, "height": height})
    page.set_default_timeout(60_000)  # an Omen puzzle's search takes seconds on a busy machine
    open_puzzles(page, board_url)
    for game in ("omens", "omen"):
        if not page.evaluate("document.querySelector('#puzzle-picker').open"):
            page.click("#puzzle-picker > summary")
        page.click(f'#puzzle-games [data-game="{game}"]')
        for entry in _api(board_url, f"/api/puzzles?game={game}"):
            name = entry["name"]
            if not page.evaluate("document.querySelector('#puzzle-picker').open"):
                page.click("#puzzle-picker > summary")  # folded away on a phone
            page.click(f'#puzzle-list [data-puzzle="{name}"]')
            page.wait_for_function("t => document.querySelector('#puzzle-title').textContent"
                                   " === t", arg=entry["title"])
            answer = _answer(PUZZLES / f"{name}.toml")
            if entry["kind"] == "value":
                wrong = next(v for v in entry["choices"] if v != str(answer.get("value", "0")))
                page.click(f'#puzzle-values [data-value="{wrong}"]')
                verdict(page, "wrong")
                page.click(f'#puzzle-values [data-value="{answer["value"]}"]')
            else:
                texts = _tries(board_url, game, name, answer)
                for text in texts:
                    if game == "omen":
                        page.click(f'#puzzle-actions [data-action="{text}"]')
                    else:
                        _play_omens(page, board_url, entry, text)
                    try:
                        page.wait_for_function(
                            "t => { const v = document.querySelector('#puzzle-verdict');"
                            " return v && v.textContent.includes(t + '.') && "
                            "!v.textContent.startsWith('Checking'); }", arg=text)
                    except Exception:
                        raise AssertionError(f"{name}, {text}: the page says "
                                             f"{page.inner_text('#puzzle-feedback')!r}") from None
                    if text != texts[-1]:
                        assert verdict(page, "wrong").startswith("Not this one"), name
                        board = "#puzzle-omen" if game == "omen" else "#puzzle-table"
                        box = page.locator(board).bounding_box()
                        assert box and box["y"] < height, (name, "board out of view")
            assert verdict(page, "right").startswith("Right"), name
            page.wait_for_selector("#puzzle-best")  # the solution, read before going on
            assert page.locator("#puzzle-board:not([disabled])").count() == 1
            page.screenshot(path=str(tmp_path / f"{name.replace('/', '-')}.png"))
    keep = os.environ.get("OMEN_WEB_PUZZLE_SHOTS")
    if keep:
        shutil.copytree(tmp_path, Path(keep) / f"{width}x{height}", dirs_exist_ok=True)
