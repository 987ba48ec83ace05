"""The draw games through the browser: a whole hand of 2-7 Triple Draw between a phone and a
desktop, throwing cards by tapping them and by the keyboard, standing pat, to the showdown; the
others see how many cards were thrown, never which."""

from __future__ import annotations

import re
import time

from a11y_helpers import announcements
from playwright.sync_api import Browser, Page, expect
from test_web_chat import no_horizontal_scroll
from web_helpers import DESKTOP, PHONE, SHOTS, create_room, person, seat_two


def my_cards(page: Page) -> list[str]:
    codes = page.evaluate("""() => {
      const s = window.boardroom.snapshot;
      const mine = s.hand && s.hand.seats.find((v) => v.seat === window.boardroom.you.seat);
      return mine ? mine.cards : []; }""")
    return list(codes)


def test_a_whole_triple_draw_hand_by_taps_and_keys(browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = create_room(ann.page, base, "27-triple-draw", **{"Pause between hands": 30})
        seat_two(base, room, ann, bob)
        draws = {"Ann": 0, "Bob": 0}
        thrown_by: dict[str, list[str]] = {"Ann": [], "Bob": []}
        deadline = time.monotonic() + 120
        while not ann.page.locator(".showdown").count():
            assert time.monotonic() < deadline, "the hand never ended"
            for someone in (ann, bob):
                page = someone.page
                bar = page.locator(".action-bar:not(:has(.btn:disabled))")
                if not bar.count():
                    continue
                if page.locator(".draw-bar").count():
                    before = my_cards(page)
                    draws[someone.name] += 1
                    if someone is bob and draws["Bob"] == 1:  # taps two cards on the phone
                        cards = page.locator(".draw-card")
                        cards.nth(0).click()
                        cards.nth(2).click()
                        expect(page.get_by_role("button", name="Draw 2")).to_be_visible()
                        no_horizontal_scroll(page)
                        page.screenshot(path=str(SHOTS / "draw-phone.png"), full_page=True)
                        thrown = [before[0], before[2]]
                        page.get_by_role("button", name="Draw 2").click()
                    elif someone is ann and draws["Ann"] == 2:  # one card by the keyboard
                        page.keyboard.press("4")
                        expect(page.locator(".draw-card.thrown")).to_have_count(1)
                        thrown = [before[3]]
                        page.keyboard.press("Enter")
                    else:
                        thrown = []
                        page.get_by_role("button", name="Stand pat").click()
                    thrown_by[someone.name] += thrown
                    expect(page.locator(".draw-bar")).to_have_count(0)
                    after = my_cards(page)
                    assert len(after) == 5
                    assert not set(thrown) & set(after), (thrown, after)
                    continue
                for name in (r"^Check$", r"^Call \d+$"):
                    button = bar.get_by_role("button", name=re.compile(name))
                    if button.count():
                        button.click()
                        break
            time.sleep(0.1)
        assert draws == {"Ann": 3, "Bob": 3}, draws
        # Ann heard how many Bob threw, and never which; Bob heard his own cards.
        heard = announcements(ann.page)
        assert "Bob draws 2 cards." in heard, heard
        assert any(re.fullmatch(r"You draw 1 card, throwing .+\.", t) for t in heard), heard
        assert thrown_by["Bob"]
        for card in thrown_by["Bob"]:  # in Bob's frames (so the search can fail), never Ann's
            assert f'"{card}"' in "\n".join(bob.frames), card
            assert f'"{card}"' not in "\n".join(ann.frames), card
        for someone in (ann, bob):
            assert not [f for f in someone.frames if f.startswith("PAGEERROR")]
    finally:
        ann.context.close()
        bob.context.close()
