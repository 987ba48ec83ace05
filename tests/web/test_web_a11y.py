"""Everyone at the table: a whole hand played with the keyboard alone (the room created, the seats
taken and every action), read through the screen reader's announcements, which never name a card
the listener may not see; the help overlay, the table summary, allocation by keys with the focus
following the card; axe-core at each of these states (test_web_axe.py covers every page)."""

from __future__ import annotations

import re
import time

from a11y_helpers import (
    announcements,
    assert_accessible,
    create_room_by_http,
    region_text,
    sit_by_keyboard,
    spoken,
    tab_to,
    wait_for_announcement,
)
from playwright.sync_api import Browser, Page, expect
from web_helpers import (
    DESKTOP,
    PHONE,
    Person,
    get_json,
    hole_cards_of,
    host_sends,
    person,
    status_of,
)

ALL_CARDS = [r + s for r in "AKQJT98765432" for s in "shdc"]
CARD = r"\w+ of \w+"
THREE = rf"{CARD}, {CARD} and {CARD}"


def cards_named(texts: list[str]) -> set[str]:
    """Every card some announcement names."""
    joined = "\n".join(texts)
    return {card for card in ALL_CARDS if re.search(rf"\b{spoken(card)}\b", joined)}


def turn(page: Page, pattern: str) -> str:
    """The assertive "your turn" announcement, offering what ``pattern`` says."""
    return wait_for_announcement(page, r"^Your turn: you may " + pattern, "assertive")


def my_turn(page: Page) -> bool:
    return page.locator(".action-bar").count() > 0


def wait_turn(people: list[Person], timeout: float = 30) -> Person:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for someone in people:
            busy = someone.page.locator(".action-bar .btn:disabled").count()
            if my_turn(someone.page) and not busy:
                return someone
        people[0].page.wait_for_timeout(100)
    raise AssertionError("nobody's turn came")


def test_a_whole_hand_by_keyboard_alone_read_through_the_announcements(
        browser: Browser, base: str) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bob = person(browser, "Bob", PHONE)
    sue = person(browser, "Sue", DESKTOP)
    people = [ann, bob, sue]
    try:
        # Ann creates an ESG room from the home page, with the keyboard only.
        page = ann.page
        page.goto(base + "/")
        page.get_by_label("Game", exact=True).wait_for()
        assert_accessible(page, "home, desktop")
        tab_to(page, "Create room")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r".*\?room=\w+"))
        room = re.search(r"room=(\w+)", page.url).group(1)  # type: ignore[union-attr]
        page.get_by_role("button", name="Copy share link").wait_for()
        # The keyboard help opens on ?, takes the focus, and Escape gives it back.
        page.keyboard.press("?")
        dialog = page.get_by_role("dialog", name="Keyboard")
        expect(dialog).to_be_visible()
        expect(page.get_by_role("button", name="Close the keyboard help")).to_be_focused()
        assert "move the focused card to A, B or the Hand" in dialog.inner_text()
        assert_accessible(page, "keyboard help")
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        sit_by_keyboard(page, 0, "Ann")
        bob.page.goto(f"{base}/?room={room}")
        sit_by_keyboard(bob.page, 1, "Bob")
        sue.page.goto(f"{base}/?room={room}&watch=1")
        sue.page.get_by_text("You are watching.").wait_for()
        players = [ann, bob]

        # Preflop: the button calls; the big blind raises to 6 by typing it; the button calls.
        first = wait_turn(players)
        other = bob if first is ann else ann
        loud = wait_for_announcement(first.page, r"^Your turn", "assertive")
        assert "call 1" in loud, loud
        assert region_text(first.page, "assertive").startswith("Your turn")
        assert_accessible(first.page, f"{first.name}'s turn")
        first.page.keyboard.press("c")
        turn(other.page, r"check or raise to 4 up to 6\. Pot 4\.")
        other.page.keyboard.press("r")
        expect(other.page.get_by_label("Raise amount", exact=True)).to_be_focused()
        other.page.keyboard.press("Control+A")
        other.page.keyboard.type("6")
        other.page.keyboard.press("Enter")
        wait_for_announcement(first.page, rf"^{other.name} raises to 6\.$")
        turn(first.page, r"call 4")
        first.page.keyboard.press("c")
        # The flop: both boards, each player's own redraw, the others' counts.
        for someone in people:
            wait_for_announcement(someone.page, rf"^Board A, flop: {THREE}\.$")
            wait_for_announcement(someone.page, r"^Board B, flop: ")
        for someone in players:
            wait_for_announcement(someone.page, rf"^You redraw 3: {THREE}\.$")
        wait_for_announcement(sue.page, r"^Redraws: 3 cards each to (Ann and Bob|Bob and Ann)\.$")
        # The summary, on demand: boards, your cards, your hand, pot, stacks, who is to act.
        ann.page.keyboard.press("s")
        summary = wait_for_announcement(ann.page, r"^Hand 1, ESG, flop\.", "assertive")
        for part in ("Board A: ", "Board B: ", "Your cards: ", "Your hand: A, ", "Pot 12",
                     "Pool 24 cards", "Stacks: ", "You 194", "Bob 194"):
            assert part in summary, (part, summary)
        assert re.search(r"(You are|Bob is) to act\.", summary), summary
        sue.page.keyboard.press("s")
        watched = wait_for_announcement(sue.page, r"^Hand 1, ESG, flop\.", "assertive")
        assert "Your cards" not in watched
        assert "Stacks: Ann 194" in watched or "Stacks: Bob 194" in watched, watched

        # The flop's betting: the big blind checks, the button bets the minimum, the big blind
        # folds. Heads-up the big blind acts first after the flop.
        turn(other.page, r"check or bet 2 up to 12\. Pot 12\.")
        other.page.keyboard.press("c")
        wait_for_announcement(first.page, rf"^{other.name} checks\.$")
        turn(first.page, r"check or bet 2 up to 12")
        first.page.keyboard.press("r")
        first.page.keyboard.press("Enter")
        wait_for_announcement(other.page, rf"^{first.name} bets 2\.$")
        turn(other.page, r"call 2, raise to 4 up to \d+ or fold")
        other.page.keyboard.press("f")
        for someone in people:
            wait_for_announcement(someone.page, rf"^(You fold|{other.name} folds)\.$")
            wait_for_announcement(someone.page,
                                  rf"^The pot of 12: ({first.name} wins|You win) 12\.$")
        deadline = time.monotonic() + 30
        while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)

        # Nobody heard a card they may not see; each player heard all of their own.
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        own = {someone.name: hole_cards_of(
            get_json(f"{base}/api/rooms/{room}/hands/1", someone.token(room))["history"],
            f"p{history['players'].index(someone.name) + 1}") for someone in players}
        assert all(len(cards) == 9 for cards in own.values()), own  # 6 dealt and 3 redrawn
        hidden = own["Ann"] | own["Bob"]
        assert cards_named(announcements(sue.page)) & hidden == set()
        for someone, rival in ((ann, bob), (bob, ann)):
            heard = cards_named(announcements(someone.page))
            assert heard & own[rival.name] == set(), f"{someone.name} heard {rival.name}'s cards"
            assert own[someone.name] <= heard, f"{someone.name} did not hear all their cards"
        for someone in people:
            assert "PAGEERROR" not in "".join(someone.frames)
    finally:
        for someone in people:
            someone.context.close()


def test_allocation_by_keys_with_the_focus_following_each_card(browser: Browser,
                                                               base: str) -> None:
    made = create_room_by_http(base, {"game": "allocator", "pause_between_hands": 30})
    ann = person(browser, "Ann", DESKTOP)
    bob = person(browser, "Bob", PHONE)
    people = [ann, bob]
    try:
        for seat, someone in enumerate(people):
            someone.page.goto(f"{base}/?room={made['room']}")
            sit_by_keyboard(someone.page, seat, someone.name)
        host_sends(base, made, {"type": "deal_now"})  # the 30 s pause is for after a hand
        # Check (or call the antes' bet) down to the allocation.
        deadline = time.monotonic() + 90
        while not all(p.page.locator(".allocation").count() for p in people):
            assert time.monotonic() < deadline, "the allocation never came"
            for someone in people:
                if my_turn(someone.page) and not someone.page.locator(
                        ".action-bar .btn:disabled").count():
                    someone.page.keyboard.press("c")
                    someone.page.wait_for_timeout(150)
            ann.page.wait_for_timeout(100)
        for someone in people:
            wait_for_announcement(someone.page, r"^Your turn to allocate your cards", "assertive")
        page = ann.page
        tab_to(page, re.compile(r"^\S+ of \w+: not placed$"))
        for key in ("a", "ArrowRight", "a", "ArrowRight", "b", "ArrowRight", "b", "ArrowRight",
                    "h", "ArrowRight", "h", "u"):
            moving = page.evaluate("() => document.activeElement.dataset.card")
            page.keyboard.press(key)
            if len(key) == 1:  # the card moved, and the focus went with it
                expect(page.locator(f'.alloc-card[data-card="{moving}"]')).to_be_focused()
        slot = page.evaluate("() => document.activeElement.closest('[data-slot]').dataset.slot")
        assert slot == "", "U takes the card back to the unplaced tray"
        page.keyboard.press("3")  # the third slot: the Hand
        placed = {name: page.eval_on_selector_all(
            f'.alloc-slot[data-slot="{name}"] .alloc-card', "els => els.map(e => e.dataset.card)")
            for name in ("A", "B", "Hand")}
        assert [len(cards) for cards in placed.values()] == [2, 2, 2], placed
        assert_accessible(page, "allocation, desktop")
        tab_to(bob.page, "Suggest")
        bob.page.keyboard.press("Enter")
        expect(bob.page.locator(".alloc-slot.full")).to_have_count(3)
        assert_accessible(bob.page, "allocation, phone")
        tab_to(page, "Commit")
        page.keyboard.press("Enter")
        tab_to(bob.page, "Commit")
        bob.page.keyboard.press("Enter")
        said = "; ".join(f"{name}: {spoken(a)} and {spoken(b)}" for name, (a, b) in placed.items())
        wait_for_announcement(page, rf"^You allocate {re.escape(said)}\.$")
        wait_for_announcement(bob.page, rf"^Ann allocates {re.escape(said)}\.$")
        # The pot, its category winners and the exact points, to both.
        for someone in people:
            wait_for_announcement(
                someone.page, r"^The pot of \d+: .* wins? \d+.*\. A: \w.*; B: \w.*; Hand: \w.*\. "
                r"Points: \w+ [\w ]+(, \w+ [\w ]+)*\.$")  # who scored; a player on 0 is not named
    finally:
        for someone in people:
            someone.context.close()


def test_points_and_lists_are_said_in_words(browser: Browser, base: str) -> None:
    someone = person(browser, "Ann", DESKTOP)
    try:
        someone.page.goto(base + "/")
        said = someone.page.evaluate("""() => import('/js/announce.js').then((m) => [
            ['2', '3/2', '1/2', '2/3', '5/3', '1/3', '7/4', '3/7', '0'].map(m.pointsSpoken),
            m.listing(['a']), m.listing(['a', 'b']), m.listing(['a', 'b', 'c']),
            m.cardsSpoken(['As', null, 'Td', null]),
        ])""")
        assert said == [
            ["2", "1 and a half", "a half", "2 thirds", "1 and 2 thirds", "one third",
             "1 and 3 quarters", "3 over 7", "0"],
            "a", "a and b", "a, b and c", "ace of spades and 10 of diamonds",
        ]
    finally:
        someone.context.close()


def test_enter_on_a_focused_action_button_presses_that_button(browser: Browser,
                                                              base: str) -> None:
    """Tab to Call and press Enter: that is a call, not the raise Enter confirms from the amount
    box (the action bar's Enter key must not take over a focused button)."""
    made = create_room_by_http(base, {"game": "plo"})
    ann = person(browser, "Ann", DESKTOP)
    bob = person(browser, "Bob", DESKTOP)
    players = [ann, bob]
    try:
        for seat, someone in enumerate(players):
            someone.page.goto(f"{base}/?room={made['room']}")
            sit_by_keyboard(someone.page, seat, someone.name)
        first = wait_turn(players)
        other = bob if first is ann else ann
        tab_to(first.page, re.compile(r"^Call 1$"))
        first.page.keyboard.press("Enter")
        wait_for_announcement(other.page, rf"^{first.name} calls 1\.$")
        turn(other.page, r"check or raise to 4")
        tab_to(other.page, re.compile(r"^Check$"))
        other.page.keyboard.press("Enter")
        wait_for_announcement(first.page, rf"^{other.name} checks\.$")
        assert not [t for t in announcements(first.page) if "raises" in t]
    finally:
        for someone in players:
            someone.context.close()
