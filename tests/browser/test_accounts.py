"""Optional accounts in the browser: a guest playing a game signs up and keeps the seat, "My games" lists the
running game with "Your turn", and a second browser that signs in (and out, and in again) sees the same
games. The account pages have no serious or critical axe violation, at 1280x800 and at 375x667."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

from .conftest import WAIT_MS, screenshot
from .test_axe import assert_no_serious_violation
from .test_play import READY, start_short_game

pytestmark = pytest.mark.xdist_group("browser")  # one worker: one server and one Chromium

PASSWORD = "a long enough passphrase"


def sign(page: Any, server: ServerProcess, page_name: str, name: str) -> None:
    page.goto(f"{server.http}/#/{page_name}")
    page.fill("#account-user", name)
    page.fill("#account-password", PASSWORD)
    page.locator("#account-submit").click()
    page.wait_for_url("**/#/me")


def test_a_guest_signs_up_keeps_the_seat_and_my_games_shows_it_from_another_browser(
    page: Any, browser: Any, sqlite_server: ServerProcess
) -> None:
    name = f"Ann{secrets.randbelow(10**6)}"
    table = start_short_game(page, sqlite_server, name)
    page.wait_for_selector(READY)
    page.goto(f"{sqlite_server.http}/#/signup")
    assert_no_serious_violation(page, "the sign-up page")
    sign(page, sqlite_server, "signup", name)
    row = page.locator("table.my-games tr.your-turn")
    row.wait_for()
    assert "Your turn" in row.inner_text() and f"{name} (you)" in row.inner_text()
    assert row.get_by_role("link").get_attribute("href") == f"#/table/{table}"
    assert page.locator("#account-name").inner_text() == name
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_no_serious_violation(page, "My games")
    screenshot(page, "my-games")
    page.set_viewport_size({"width": 375, "height": 667})
    assert_no_serious_violation(page, "My games on a phone")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "my-games-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#account-name").click()
    page.wait_for_selector("#settings-email")
    assert_no_serious_violation(page, "the settings")
    screenshot(page, "account-settings", full_page=True)

    other = browser.new_context(viewport={"width": 1280, "height": 800})  # another browser: no seat tokens
    other.set_default_timeout(WAIT_MS)
    try:
        second = other.new_page()
        sign(second, sqlite_server, "signin", name.upper())  # the name is found whatever its case
        second.locator(f"table.my-games a[href='#/table/{table}']").wait_for()
        second.locator("#sign-out").click()
        second.wait_for_selector("#account a[href='#/signin']")
        second.goto(f"{sqlite_server.http}/#/me")
        second.wait_for_url("**/#/signin")
        sign(second, sqlite_server, "signin", name)
        second.locator(f"table.my-games a[href='#/table/{table}']").wait_for()
        assert "Your turn" in second.locator("table.my-games tr.your-turn").inner_text()
        second.locator(f"table.my-games a[href='#/table/{table}']").click()  # and plays it here
        second.wait_for_selector("#moves button.move:not([disabled])")
        second.locator("#moves button.move:not([disabled])").first.click()
        held = "() => JSON.parse(localStorage.getItem('warcards.seats'))"
        before = page.evaluate(held)[table]["token"]
        page.goto(f"{sqlite_server.http}/#/me")  # the first browser's token was replaced: My games hands it
        page.locator(f"table.my-games a[href='#/table/{table}']").click()  # a fresh one
        page.wait_for_selector(READY)
        assert page.evaluate(held)[table]["token"] != before
        second.goto(f"{sqlite_server.http}/#/lobby")  # a table made and joined while signed in: the account's
        second.fill("#name", "typed name")
        second.select_option("#game", "cards-of-war")
        second.wait_for_selector("select[name=seat1]")
        second.select_option("select[name=seat1]", "random")
        second.get_by_role("button", name="Create the table").click()
        second.wait_for_url("**/#/table/*")
        joined = second.url.rsplit("/", 1)[1]
        second.wait_for_selector(READY)
        second.goto(f"{sqlite_server.http}/#/me")
        second.locator(f"table.my-games a[href='#/table/{joined}']").wait_for()
        assert f"{name} (you)" in second.locator(f"tr:has(a[href='#/table/{joined}'])").inner_text()
    finally:
        other.close()


def test_a_wrong_password_is_shown_as_a_sentence(page: Any, sqlite_server: ServerProcess) -> None:
    page.goto(f"{sqlite_server.http}/#/signin")
    page.fill("#account-user", "nobody-at-all")
    page.fill("#account-password", "not the password")
    page.locator("#account-submit").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text() == "no account has that name and password"
    assert_no_serious_violation(page, "the sign-in page with a refusal")
