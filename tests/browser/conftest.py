"""Fixtures of the browser tests: a real `warcards serve` on a free loopback port (the server tests'
`sqlite_server`) and Debian's Chromium driven headless by Playwright (nothing is downloaded)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import sqlite_server  # noqa: F401  (the real server, shared with tests/server)

CHROMIUM = Path(os.environ.get("WARCARDS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
"""Where `WARCARDS_SCREENSHOTS=1` keeps the pages the tests show (a plain run writes nothing in the tree)."""
NO_PACING = "try { if (localStorage.getItem('warcards.pace') === null) localStorage.setItem('warcards.pace', '0'); } catch {}"
"""The page shows the bots' moves at once (static/pacing.js): a test waits for nothing it does not check;
test_table_page's pacing test asks for the pace with `?pace=`."""
WAIT_MS = 60_000
"""How long a test waits for the page to show what it expects (the machine may be loaded)."""


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (skipped with the reason when it or Playwright is missing)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the test extra's playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (Debian: apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context (its own localStorage) and page; a page error, or a page resource (the page,
    a script, a stylesheet, an image) the server does not have, fails the test."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(NO_PACING)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on(
        "response",
        lambda answer: errors.append(f"{answer.status} {answer.url}")
        if answer.status >= 400 and answer.request.resource_type in ("document", "script", "stylesheet", "image", "font")
        else None,
    )
    try:
        yield opened
    finally:
        context.close()
    assert not errors, errors


def screenshot(page: Any, name: str, full_page: bool = False) -> None:
    """Keep the page as docs/screenshots/NAME.png when `WARCARDS_SCREENSHOTS` is set."""
    if os.environ.get("WARCARDS_SCREENSHOTS"):
        SCREENSHOTS.mkdir(exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")  # the table from its top, wherever the last click scrolled
        page.mouse.move(0, 0)  # no card's popover opened by where the last click left the pointer
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
