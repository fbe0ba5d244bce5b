"""Names at the table (issue 33, "Names everywhere"; issue 34, "Players around the table"): two players and a
spectator, each in a browser context of their own, see every seat's display name on the panels, the turn
banner and the result — a name written as HTML shown as text — and "Play against bots now" needs no name
typed (a guest name is generated and kept)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .conftest import WAIT_MS, screenshot

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

ANN = "<img src=x onerror=z>"
BEN = "<script>x</script> Ben"


class Pages:
    """Browser contexts of their own (their own localStorage), each with one page; a page error fails the test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str, width: int = 1280, height: int = 800) -> Any:
        context = self.browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(url)
        return page


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    made = Pages(browser)
    try:
        yield made
    finally:
        for context in made.contexts:
            context.close()
    assert not made.errors, made.errors


def panel_names(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#players .player-name").all_inner_texts()]


def take_seat(page: Any, name: str, seat_name: str) -> None:
    page.locator("#join input").fill(name)
    page.get_by_role("button", name=f"Take {seat_name}").click()
    page.wait_for_selector("#resign")


def test_two_players_and_a_spectator_see_each_others_names_as_text_on_the_panels_and_the_result(
    pages: Pages, sqlite_server: ServerProcess
) -> None:
    table = sqlite_server.post("/tables", {"game": "cards-of-war", "seats": [{"kind": "person"}] * 2})["id"]
    ann = pages.open(f"{sqlite_server.http}/#/table/{table}")
    take_seat(ann, ANN, "player 0")
    ben = pages.open(f"{sqlite_server.http}/#/table/{table}", 375, 667)
    take_seat(ben, BEN, "player 1")
    watcher = pages.open(f"{sqlite_server.http}/#/table/{table}")
    for page, own in ((ann, 0), (ben, 1), (watcher, None)):
        page.wait_for_function("document.querySelectorAll('#players .player-name').length === 2")
        page.wait_for_function("document.getElementById('watching').textContent === '1 watching'")
        names = panel_names(page)
        assert [re.sub(r"^▶ ", "", name) for name in names] == [
            f"{ANN}{' (you)' if own == 0 else ''}", f"{BEN}{' (you)' if own == 1 else ''}"], names
        # the names are text: no element was made of them, and the page's own scripts are all there are
        assert page.locator("#main img, #main script").count() == 0
    banner = watcher.locator("#turn-banner").inner_text()
    assert re.fullmatch(rf"({re.escape(ANN)}|{re.escape(BEN)})’s turn \(you are watching\)", banner), banner
    screenshot(ben, "names-table-phone")
    screenshot(watcher, "names-table-spectator")

    ben.once("dialog", lambda dialog: dialog.accept())
    ben.locator("#resign").click()
    for page in (ann, ben, watcher):
        page.wait_for_selector("#result:not([hidden])")
        assert page.locator("#winners").inner_text() == f"Winner: {ANN}"
        assert page.locator("#reason").inner_text() == f"Reason: {BEN} resigned"
        assert page.locator("#main img, #main script").count() == 0
    assert ann.locator("#outcome").inner_text() == "You won"
    assert ben.locator("#outcome").inner_text() == "You lost"
    assert watcher.locator("#outcome").inner_text() == f"{ANN} won"
    screenshot(watcher, "names-result-spectator")

    ann.get_by_role("link", name="Replay this game").click()
    ann.wait_for_function("document.querySelectorAll('#replay-seat option').length === 3")
    assert ann.locator("#replay-seat option").all_inner_texts()[1:] == [f"as {ANN}", f"as {BEN}"]
    ann.locator("#replay-last").click()
    ann.wait_for_selector("#replay-result:not([hidden])")
    assert ann.locator("#replay-winners").inner_text() == f"Winner: {ANN}"


def test_playing_against_bots_needs_no_name_typed_and_keeps_the_guest_name(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector("#quick")
    assert page.locator("#name").input_value() == ""
    page.locator("#quick").click()
    page.wait_for_selector("#players .player-name")
    page.wait_for_function("document.querySelectorAll('#players .player-name').length === 2")
    names = [re.sub(r"^▶ ", "", name) for name in panel_names(page)]
    guest_seen = re.fullmatch(r"(Guest \d{4}) \(Allies\) \(you\)", names[0])  # the lobby's first game: Race to Messina
    assert guest_seen, names
    assert names[1] == "Bot · heuristic (Axis)", names
    guest = guest_seen.group(1)
    page.wait_for_selector("#log li")
    screenshot(page, "names-guest-race-to-messina")
    assert page.evaluate("localStorage.getItem('warcards.guestName')") == guest
    page.goto(f"{sqlite_server.http}/#/lobby")
    page.wait_for_selector("#name")
    assert guest in (page.locator("#name").get_attribute("placeholder") or "")


def test_a_refused_name_is_explained_in_words_on_the_page(page: Any, sqlite_server: ServerProcess) -> None:
    table = sqlite_server.post("/tables", {"game": "cards-of-war", "seats": [{"kind": "person"}] * 2})["id"]
    page.goto(f"{sqlite_server.http}/#/table/{table}")
    page.locator("#join input").fill("B0T")
    page.get_by_role("button", name="Take player 0").click()
    page.wait_for_selector("#refusal:not([hidden])", state="attached")
    text = page.locator("#refusal").inner_text()
    assert "reads as a bot's name" in text and "{" not in text, text
