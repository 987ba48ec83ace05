"""Rotations in the browser: the host makes one on the home page (HORSE, or any games of their
own), and the table says which game is dealt, which comes next and when, and tells everyone when
it changes; on a phone and on a desktop."""

from __future__ import annotations

import re

import pytest
from a11y_helpers import announcements
from playwright.sync_api import Browser, expect
from test_web_chat import no_horizontal_scroll
from web_helpers import DESKTOP, PHONE, create_room, get_json, host_sends, person


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_host_makes_a_rotation_and_the_table_follows_it(browser: Browser, base: str,
                                                            viewport: dict[str, int]) -> None:
    host = person(browser, "Ann", viewport)
    try:
        page = host.page
        page.goto(base + "/")
        page.get_by_label("Game", exact=True).select_option("rotation")
        games = page.get_by_role("group", name=re.compile("The games of your rotation"))
        expect(games.get_by_text("Tick two games or more.")).to_be_visible()
        games.get_by_label("PLO", exact=True).check()
        games.get_by_label("ESG", exact=True).check()  # ticked second: dealt second
        expect(games.get_by_text("(2)")).to_be_visible()
        page.get_by_label("Change game every", exact=True).fill("1")
        page.get_by_label("Pause between hands", exact=True).fill("1")
        no_horizontal_scroll(page)
        page.get_by_role("button", name="Create room").click()
        page.wait_for_url(re.compile(r".*\?room=\w+"))
        room = re.search(r"room=(\w+)", page.url).group(1)  # type: ignore[union-attr]
        state = get_json(f"{base}/api/rooms/{room}")
        assert state["table"]["settings"]["rotation"] == [{"game": "plo"}, {"game": "esg"}]
        title = page.locator(".game-title")
        expect(title.locator("strong")).to_have_text("Rotation: PLO")
        expect(title.locator(".rotation-next")).to_have_text("next: ESG, after 1 more hand")
        secret = page.evaluate(f"() => JSON.parse(localStorage.getItem('boardroom:room:{room}'))"
                               f".host_secret")
        host_sends(base, {"room": room, "host_secret": secret},
                   {"type": "add_bot", "style": "station"}, {"type": "add_bot", "style": "station"})
        # Each hand changes the game, and the page says so before the next game's first hand.
        expect(title.locator("strong")).to_have_text("Rotation: ESG", timeout=30_000)
        expect(page.locator(".notice", has_text="The game changes to ESG")).to_have_count(1)
        assert any(text == "The game changes to ESG." for text in announcements(page))
        expect(title.locator("strong")).to_have_text("Rotation: PLO", timeout=30_000)
        no_horizontal_scroll(page)
        assert not [f for f in host.frames if f.startswith("PAGEERROR")]
    finally:
        host.context.close()


def test_horse_is_offered_with_its_rules_and_shows_its_game(browser: Browser, base: str) -> None:
    host = person(browser, "Ann", PHONE)
    try:
        page = host.page
        room = create_room(page, base, "horse")
        expect(page.locator(".game-title strong")).to_have_text("HORSE: Texas Hold'em")
        expect(page.locator(".rotation-next")).to_have_text("next: Omaha Hi-Lo, after this orbit")
        page.get_by_role("button", name="Rules").click()  # the rules of the game dealt now
        expect(page.get_by_role("heading", level=1, name="Texas Hold'em")).to_be_visible()
        page.get_by_role("navigation", name="Games").get_by_role("link", name="HORSE").click()
        expect(page.get_by_role("heading", level=1, name="HORSE")).to_be_visible()
        items = page.locator(".rules-variant ol li")
        expect(items).to_have_count(5)
        expect(items.first).to_have_text("Texas Hold'em, fixed-limit")
        assert room
    finally:
        host.context.close()
