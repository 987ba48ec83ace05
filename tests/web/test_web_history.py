"""The hand history page on a phone: long names without spaces wrap instead of pushing the page
sideways."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from web_helpers import PHONE, history_of_one_hand

LONG = ["W" * 24, "M" * 24]


def test_long_names_do_not_scroll_the_history_page_sideways(browser: Browser, base: str) -> None:
    with history_of_one_hand(browser, base, LONG) as viewer:
        page = viewer.page
        # the list fills after the page opens: wait for it (a fresh clone's run read it empty)
        expect(page.locator(".hand-list")).to_contain_text(LONG[0], timeout=20_000)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the history page scrolls sideways ({width}px)"
