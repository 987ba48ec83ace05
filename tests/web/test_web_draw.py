"""The draw games through the browser: a whole hand of each (2-7 Triple Draw, Five Card Draw,
2-7 Single Draw, Badugi) between a phone and a desktop, throwing cards by tapping them and by
the keyboard, standing pat, to the showdown; the others see how many cards were thrown, never
which."""

from __future__ import annotations

import re
import time

import pytest
from a11y_helpers import announcements
from playwright.sync_api import Browser, Page, expect
from test_web_chat import no_horizontal_scroll
from web_helpers import DESKTOP, PHONE, SHOTS, create_room, deal_now, person, seat_two


def my_cards(page: Page) -> list[str]:
    codes = page.evaluate("""() => {
      const s = window.boardroom.snapshot;
      const mine = s.hand && s.hand.seats.find((v) => v.seat === window.boardroom.you.seat);
      return mine ? mine.cards : []; }""")
    return list(codes)


def play_a_draw_hand(browser: Browser, base: str, game: str, *, draws: int, cards: int,
                     shot: str) -> None:
    """A whole hand of ``game`` (``draws`` draws of ``cards`` cards) between Ann on a desktop
    and Bob on a phone, checking and calling to the showdown: Bob taps two cards on his first
    draw, Ann throws her fourth card by the keyboard on her second draw (her only one in a
    single-draw game), every other draw stands pat; the others hear how many were thrown,
    never which."""
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    ann_by_keys = min(2, draws)
    try:
        room = create_room(ann.page, base, game, **{"Pause between hands": 30})
        seat_two(base, room, ann, bob)
        deal_now(ann.page)  # not the 30 s pause: that is for reading a result
        drawn = {"Ann": 0, "Bob": 0}
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
                    assert len(before) == cards, before
                    drawn[someone.name] += 1
                    if someone is bob and drawn["Bob"] == 1:  # taps two cards on the phone
                        shown = page.locator(".draw-card")
                        expect(shown).to_have_count(cards)
                        shown.nth(0).click()
                        shown.nth(2).click()
                        expect(page.get_by_role("button", name="Draw 2")).to_be_visible()
                        no_horizontal_scroll(page)
                        page.screenshot(path=str(SHOTS / shot), full_page=True)
                        thrown = [before[0], before[2]]
                        page.get_by_role("button", name="Draw 2").click()
                    elif someone is ann and drawn["Ann"] == ann_by_keys:  # a key, then Enter
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
                    assert len(after) == cards
                    assert not set(thrown) & set(after), (thrown, after)
                    continue
                for name in (r"^Check$", r"^Call \d+$"):
                    button = bar.get_by_role("button", name=re.compile(name))
                    if button.count():
                        button.click()
                        break
            time.sleep(0.1)
        assert drawn == {"Ann": draws, "Bob": draws}, drawn
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


def test_a_whole_triple_draw_hand_by_taps_and_keys(browser: Browser, base: str) -> None:
    play_a_draw_hand(browser, base, "27-triple-draw", draws=3, cards=5, shot="draw-phone.png")


@pytest.mark.parametrize(("game", "draws", "cards"), [
    ("five-card-draw", 1, 5), ("27-single-draw", 1, 5), ("badugi", 3, 4)])
def test_a_whole_hand_of_each_draw_game_on_a_phone_and_a_desktop(
        browser: Browser, base: str, game: str, draws: int, cards: int) -> None:
    play_a_draw_hand(browser, base, game, draws=draws, cards=cards,
                     shot=f"draw-{game}-phone.png")
