"""axe-core on every page and state, each on a desktop (1366x900) and a phone (390x844): the
home page, a live table of every game, every game's rules page (a test per game, so the
workers share them), the host panel, the history and the replayer, Dealer's Choice's picker;
no serious or critical violation. The rules page is reached from the home page, the room's
Rules button and the picker."""

from __future__ import annotations

import re
import time

import pytest
from a11y_helpers import axe_violations, create_room_by_http, sit_by_keyboard, tab_to
from playwright.sync_api import Browser, Page, expect
from web_helpers import DESKTOP, PHONE, by_kind, host_sends, person, status_of

from boardroom.rules import iter_games
from boardroom.rules.describe import describe_variant


def _every_game() -> list[tuple[str, str]]:
    """Every game a room deals but Dealer's Choice, with what shows its rules page is drawn
    (a worked example's cards; a rotation's list of games)."""
    return [(v["id"], ".rules-variant ol li" if "rotation" in v else ".rules-example .card")
            for v in map(describe_variant, iter_games()) if v["id"] != "dealers-choice"]


GAMES = _every_game()


def _on_both(page: Page, found: list[str], where: str, ready: str) -> None:
    """axe on ``page`` once drawn (``ready`` shows), at the desktop's size and the phone's."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        page.locator(ready).first.wait_for(timeout=30000)
        found.extend(axe_violations(page, f"{where}, {size}"))


@pytest.mark.parametrize(("game", "rules_ready"), by_kind(GAMES))
def test_axe_finds_nothing_serious_at_a_game_s_table_or_on_its_rules_page(
        browser: Browser, base: str, game: str, rules_ready: str) -> None:
    found: list[str] = []
    sue = person(browser, "Sue", DESKTOP)
    try:
        made = create_room_by_http(base, {"game": game, "pause_between_hands": 1})
        host_sends(base, made, {"type": "add_bot", "style": "station"},
                   {"type": "add_bot", "style": "station"})
        sue.page.goto(f"{base}/?room={made['room']}&watch=1")
        _on_both(sue.page, found, f"{game} table", ".seat-cards .card")
        sue.page.goto(f"{base}/?rules={game}")
        _on_both(sue.page, found, f"{game} rules", rules_ready)
        host_sends(base, made, {"type": "close"})
        assert not found, "\n".join(found)
    finally:
        sue.context.close()


def test_axe_finds_nothing_serious_on_any_page_or_state(browser: Browser, base: str) -> None:
    found: list[str] = []
    sue = person(browser, "Sue", DESKTOP)
    page = sue.page
    try:
        def both(where: str, ready: str) -> None:
            _on_both(page, found, where, ready)

        page.goto(base + "/")
        both("home", ".game-list li")
        # The home page reaches every game's rules.
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        page.get_by_role("link", name="Rules of ESG").click()
        expect(page.get_by_role("heading", level=1, name="ESG")).to_be_visible()
        # Each game's table and rules page have a test of their own (above).
        first = create_room_by_http(base, {"game": "esg", "pause_between_hands": 1})
        host_sends(base, first, {"type": "add_bot", "style": "station"},
                   {"type": "add_bot", "style": "station"})
        # The host panel, with the room's Rules button showing the current game.
        page.goto(f"{base}/?room={first['room']}#host={first['host_secret']}")
        page.get_by_role("button", name="Copy share link").wait_for()
        tab_to(page, re.compile(r"^Host$"))
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="Host controls")).to_be_focused()
        both("host panel", ".host-panel .host-seat")
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        tab_to(page, re.compile(r"^Pause$"))  # the host panel by keyboard
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Resume")).to_be_visible()
        tab_to(page, re.compile(r"^Resume$"))
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Pause")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog", name="Host controls")).to_have_count(0)
        expect(page.get_by_role("button", name="Host")).to_be_focused()
        page.get_by_role("button", name="Rules").click()
        expect(page.get_by_role("heading", level=1, name="ESG")).to_be_visible()
        page.get_by_role("link", name="Back to the table").click()
        page.get_by_role("button", name="Host").wait_for()
        # The history and the replayer of a finished hand.
        deadline = time.monotonic() + 60
        while status_of(f"{base}/api/rooms/{first['room']}/hands/1") != 200:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        page.goto(f"{base}/?room={first['room']}&history=1")
        both("history", ".hand-list li")
        page.goto(f"{base}/?room={first['room']}&history=1&hand=1")
        both("replayer", ".replay-players tr[data-player]")
        host_sends(base, first, {"type": "close"})
        # Dealer's Choice: the button's picker links to the rules of the game it shows.
        choice = create_room_by_http(base, {"game": "dealers-choice"})
        bob = person(browser, "Bob", DESKTOP)
        try:
            for seat, someone in enumerate((sue, bob)):
                someone.page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
                someone.page.goto(f"{base}/?room={choice['room']}")
                sit_by_keyboard(someone.page, seat, someone.name)
            deadline = time.monotonic() + 30
            while not (picker := next((p for p in (sue, bob) if p.page.locator(".picker").count()),
                                      None)):
                assert time.monotonic() < deadline, "nobody was asked to pick"
                time.sleep(0.1)
            page = picker.page
            both("dealer's choice picker", ".picker select")
            page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
            page.locator(".picker").get_by_role("link", name=re.compile("^Rules of ")).click()
            expect(page.get_by_role("heading", level=1)).not_to_have_text("Rules")
            assert "&back=" in page.url
        finally:
            bob.context.close()
        assert not found, "\n".join(found)
    finally:
        sue.context.close()
