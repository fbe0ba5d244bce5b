"""Issue 33's whole story in two browsers: two accounts sign up through the page, one creates a rated private
Cards of War table and the other opens its copied invite link; they see each other's names, play a whole
game through the page (each its own moves, on its own turn), the end screen shows both rating changes, each
rating changed exactly once (the profile, the leaderboard, a reload), the profiles show the game, and "Play
again", accepted by both, starts a second game with the same names."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import ServerProcess

from .conftest import NO_PACING, WAIT_MS, screenshot
from .test_reconnect import own_server  # noqa: F401  (a server of this test's own: its leaderboard is theirs)

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

PASSWORD = "a long enough passphrase"
MOVE = "#moves button.move:not([disabled])"
GAME_SECONDS = 150
"""The most a short Cards of War game played through two pages may take on a loaded machine."""


@pytest.fixture
def two_browsers(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two browser contexts (two people: their own cookies and localStorage), a page each; a page error fails
    the test. The clipboard is allowed, so "Copy the link" copies."""
    contexts, errors = [], []
    pages = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(NO_PACING)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        pages.append(page)
    try:
        yield pages[0], pages[1]
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def sign_up(page: Any, server: ServerProcess, name: str) -> None:
    page.goto(f"{server.http}/#/signup")
    page.fill("#account-user", name)
    page.fill("#account-password", PASSWORD)
    page.locator("#account-submit").click()
    page.wait_for_url("**/#/me")
    page.wait_for_function(f"document.getElementById('account-name')?.textContent === {name!r}")


def create_rated_private_table(page: Any, server: ServerProcess) -> str:
    """From the lobby's form: a short Cards of War game, two person seats, not public, rated."""
    page.goto(f"{server.http}/#/lobby")
    page.select_option("#game", "cards-of-war")
    page.select_option("select[name=length]", label="short")
    page.wait_for_selector("select[name=seat1]")
    page.select_option("select[name=seat1]", "person")
    page.get_by_role("checkbox", name="Public table").uncheck()
    page.locator("#rated").check()
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/#/table/*")
    return str(page.url.rsplit("/", 1)[1])


def copied_invite_link(page: Any) -> str:
    """Press "Copy the link" and read what reached the clipboard."""
    page.locator("#invite-copy").click()
    page.wait_for_function("document.getElementById('invite-copied').textContent === 'Copied'")
    link = str(page.evaluate("navigator.clipboard.readText()"))
    assert link == page.locator("#invite-link").input_value()
    return link


def panel_names(page: Any) -> list[str]:
    """The players' panels' names, without the turn mark."""
    page.wait_for_function("document.querySelectorAll('#players .player-name').length === 2")
    return [re.sub(r"^▶ ", "", text.strip()) for text in page.locator("#players .player-name").all_inner_texts()]


def next_mover(pages: tuple[Any, Any], deadline: float) -> Any | None:
    """The page whose turn it is (a legal move shown), or None once both pages show the result."""
    while True:
        if all(page.locator("#result").is_visible() for page in pages):
            return None
        mover = next((page for page in pages if page.locator(MOVE).count()), None)
        if mover is not None:
            return mover
        assert time.monotonic() < deadline, "neither page shows a move or the result"
        pages[0].wait_for_timeout(100)  # a poll: the next view is on its way to one of the pages


def play_to_the_end(pages: tuple[Any, Any]) -> int:
    """Each page plays its first legal move when it is its turn, until both show the result; the moves made."""
    deadline = time.monotonic() + GAME_SECONDS
    moves = 0
    while (mover := next_mover(pages, deadline)) is not None:
        before = mover.evaluate("document.body.dataset.eventNo")
        mover.locator(MOVE).first.click()
        mover.wait_for_function(f"document.body.dataset.eventNo !== {before!r}")
        moves += 1
    return moves


def signed(change: int) -> str:
    """A rating change as the page writes it: "+12", "−12" (a minus sign), "±0"."""
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


def rating_line(page: Any, name: str) -> str:
    """The end screen's rating change of `name` ("Ann…: +12 → 1,512 (provisional)")."""
    page.locator("#rating-changes li").nth(1).wait_for()
    [line] = [text for text in page.locator("#rating-changes li").all_inner_texts() if text.startswith(f"{name}: ")]
    return str(line)


def profile(server: ServerProcess, name: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.http}/players/{name}", timeout=30)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_two_accounts_play_a_rated_private_game_by_invite_rated_once_then_play_again(
    two_browsers: tuple[Any, Any], own_server: ServerProcess  # noqa: F811
) -> None:
    server = own_server
    ann_page, bob_page = two_browsers
    suffix = secrets.randbelow(10**4)
    ann, bob = f"Ann{suffix}", f"Bob{suffix}"
    sign_up(ann_page, server, ann)
    sign_up(bob_page, server, bob)

    table = create_rated_private_table(ann_page, server)
    info = server.get_json(f"/tables/{table}")
    assert info["rated"] is True and info["public"] is False
    assert table not in [listed["id"] for listed in server.get_json("/tables")]  # private: not in the lobby
    link = copied_invite_link(ann_page)
    assert link.endswith(f"#/table/{table}")
    bob_page.goto(link)
    bob_page.get_by_role("button", name="Take player 1").click()
    bob_page.wait_for_selector("#resign")

    assert panel_names(ann_page) == [f"{ann} (you)", bob]
    assert panel_names(bob_page) == [ann, f"{bob} (you)"]
    screenshot(bob_page, "two-accounts-table")

    moves = play_to_the_end((ann_page, bob_page))
    assert moves >= 4
    before = {name: rating_line(page, name) for page in (ann_page, bob_page) for name in (ann, bob)}
    for page in (ann_page, bob_page):
        for name in (ann, bob):
            assert re.fullmatch(rf"{name}: [+−±]\d+ → [\d,]+( \(provisional\))?", rating_line(page, name))
            assert rating_line(page, name) == before[name]  # both pages show the same two changes
    screenshot(ann_page, "two-accounts-end")
    result = server.get_json(f"/tables/{table}")["result"]
    assert result["rated"] is True and result["unrated"] is None
    changes = {change["player"]: change for change in result["ratings"]}
    assert set(changes) == {ann, bob}

    def rated_once() -> dict[str, tuple[int, int]]:
        """Each account's Cards of War rating and its number of rated games, as its profile says."""
        found = {}
        for name in (ann, bob):
            shown = profile(server, name)
            [standing] = shown["ratings"]
            assert (standing["game"], standing["games"], shown["games"]) == ("cards-of-war", 1, 1), shown
            assert standing["rating"] == changes[name]["after"]
            [played] = shown["recent"]
            # a private table's id stays out of a public profile: no link to it, no replay
            assert (played["table"], played["replay"], played["rated"]) == (None, None, True)
            assert played["change"] == changes[name]["change"]
            found[name] = (standing["rating"], standing["games"])
        return found

    first = rated_once()
    ann_page.reload()  # the end screen again: nothing is rated a second time
    ann_page.wait_for_selector("#result:not([hidden])")
    assert rating_line(ann_page, ann) == before[ann] and rating_line(ann_page, bob) == before[bob]
    assert rated_once() == first

    # "Play again": Ann proposes, Bob accepts; both pages go to the new table, with the same names.
    ann_page.locator("#play-again").click()
    bob_page.locator("#accept-rematch").click()
    for page in (ann_page, bob_page):
        page.wait_for_function(f"!location.hash.endsWith({table!r}) && location.hash.startsWith('#/table/')")
    second = ann_page.url.rsplit("/", 1)[1]
    assert bob_page.url.rsplit("/", 1)[1] == second != table
    assert panel_names(ann_page) == [f"{ann} (you)", bob]
    assert panel_names(bob_page) == [ann, f"{bob} (you)"]
    again = server.get_json(f"/tables/{second}")
    assert again["status"] == "playing" and again["rated"] is True and again["public"] is False
    assert [seat["player"] for seat in again["seats"]] == [ann, bob]
    assert next_mover((ann_page, bob_page), time.monotonic() + 60) is not None  # one of them has the first move
    assert rated_once() == first  # the second game, just started, changed no rating

    # The profiles and the leaderboard pages show the rated game (the first browser, signed in or not).
    ann_page.goto(f"{server.http}/#/players/{bob}")
    ann_page.locator("#player-games li").first.wait_for()
    assert "1 finished game" in ann_page.locator("#player-summary").inner_text()
    [recent] = ann_page.locator("#player-games li").all_inner_texts()
    assert "cards-of-war" in recent and signed(changes[bob]["change"]) in recent
    assert f"{changes[bob]['after']:,}" in ann_page.locator("#player-ratings").inner_text()
    ann_page.goto(f"{server.http}/#/leaderboard/cards-of-war")
    ann_page.locator("#leaderboard tbody tr").nth(1).wait_for()
    rows = [row.split("\t") for row in ann_page.locator("#leaderboard tbody tr").all_inner_texts()]
    assert sorted(row[1] for row in rows) == sorted([ann, bob])
    assert {row[1]: row[2].rstrip("?") for row in rows} == {name: f"{changes[name]['after']:,}" for name in (ann, bob)}
    assert all(row[3] == "1" for row in rows)
    screenshot(ann_page, "two-accounts-leaderboard")
    ann_page.set_viewport_size({"width": 375, "height": 667})
    assert ann_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(ann_page, "two-accounts-leaderboard-phone")
