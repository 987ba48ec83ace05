"""The hand history page on a phone: long names without spaces wrap instead of pushing the page
sideways."""

from __future__ import annotations

from playwright.sync_api import Browser
from web_helpers import PHONE, history_of_one_hand

LONG = ["W" * 24, "M" * 24]


def test_long_names_do_not_scroll_the_history_page_sideways(browser: Browser, base: str) -> None:
    with history_of_one_hand(browser, base, LONG) as viewer:
        page = viewer.page
        assert LONG[0] in page.locator(".hand-list").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the history page scrolls sideways ({width}px)"
