"""The controls the hand tests do not reach, clicked the way a person clicks them:

- a Dealer's Choice room with seat approval: the host approves each seat, the button picks a
  game and an option, and both players and a spectator see the pick; the four-colour deck, hole
  cards reordered by drag, the mute switch and the tab title on your turn;
- an Allocator room run by its host: pause, set a stack, a rebuy asked for and approved, a kick,
  resume, "Suggest" filling the slots with the server's allocation, and the host role passed on;
- every button, box and select of these pages has an accessible name (Chromium's own
  accessibility tree), and so has every control of the home page.

Screenshots of the picker and of the allocation panel go to tests/web/screenshots/."""

from __future__ import annotations

import csv
import io
import re
import time
import urllib.request

from a11y_helpers import spoken
from playwright.sync_api import Browser, Page, expect
from web_helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    Person,
    card_codes,
    create_room,
    get_json,
    person,
    seat_two,
    sit,
    status_of,
    unnamed_controls,
)

# Counts the oscillators the "your turn" chime starts, instead of playing them.
BEEP_COUNTER = """
window.__beeps = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { window.__beeps += 1;
    return {frequency: {}, connect: (next) => next, start() {}, stop() {}}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                         connect: (next) => next}; }
};
"""
RED, BLACK, BLUE, GREEN = ("rgb(210, 45, 45)", "rgb(20, 23, 28)", "rgb(28, 95, 212)",
                           "rgb(22, 138, 61)")


def listening(browser: Browser, name: str, viewport: dict[str, int]) -> Person:
    someone = person(browser, name, viewport)
    someone.context.add_init_script(BEEP_COUNTER)
    return someone


def all_named(page: Page, *expected: str) -> None:
    """Every control on the page has an accessible name, and the named ones include
    ``expected`` (so the walk did find the controls)."""
    named, unnamed = unnamed_controls(page)
    assert unnamed == [], unnamed
    for name in expected:
        assert any(n == name or n.startswith(name) for n in named), (name, named)


def host_panel(page: Page) -> None:
    if not page.get_by_role("dialog", name="Host controls").count():
        page.get_by_role("button", name="Host", exact=True).click()
    page.get_by_role("dialog", name="Host controls").wait_for()


def act_once(page: Page) -> None:
    """Check or call, and wait for the table to move on."""
    version = page.evaluate("window.boardroom.snapshot.version")
    bar = page.get_by_role("group", name="Your action")
    for name in ("Check", "Call"):
        button = bar.get_by_role("button", name=name)
        if button.count():
            button.click()
            break
    else:
        raise AssertionError(bar.inner_text())
    page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version)


def ledger(base: str, room: str) -> dict[str, dict[str, str]]:
    with urllib.request.urlopen(f"{base}/api/rooms/{room}/ledger.csv", timeout=10) as answer:
        rows = csv.DictReader(io.StringIO(answer.read().decode()))
        return {row["player"]: row for row in rows}


def test_home_page_controls_are_named(browser: Browser, base: str) -> None:
    someone = person(browser, "Host", DESKTOP)
    try:
        page = someone.page
        page.goto(base + "/")
        page.locator("select[name=game] option[value=tilt]").wait_for(state="attached")
        all_named(page, "Game", "Small blind", "Seats", "Spectators may watch",
                  "I approve every player who sits", "Create room", "Room link or id", "Join")
        page.get_by_label("Game", exact=True).select_option("bomb")
        all_named(page, "Hole cards")
        page.get_by_label("Game", exact=True).select_option("dealers-choice")
        all_named(page, "Pick clock")
        # The walk sees a control without a name.
        page.evaluate("document.querySelector('form').append(document.createElement('button'))")
        assert unnamed_controls(page)[1], "an unnamed button went unnoticed"
    finally:
        someone.context.close()


def test_dealers_choice_pick_seat_approval_and_table_preferences(browser: Browser,
                                                                  base: str) -> None:
    ann = listening(browser, "Ann", DESKTOP)
    bob = listening(browser, "Bob", PHONE)
    sue = person(browser, "Sue", DESKTOP)
    try:
        room = create_room(ann.page, base, "dealers-choice", ticks=("I approve every player "
                           "who sits",), **{"Pause between hands": 0, "Pick clock": 60})
        seat_two(base, room, ann, bob)
        sue.page.goto(f"{base}/?room={room}&watch=1")
        sue.page.get_by_text("You are watching.").wait_for()
        # Bob mutes his turn sound before anything is dealt.
        bob.page.get_by_role("button", name="Mute", exact=True).click()
        expect(bob.page.get_by_role("button", name="Unmute", exact=True)).to_have_attribute(
            "aria-pressed", "true")
        # Seat approval: both wait, nothing is dealt, until the host approves them.
        for page in (ann.page, bob.page, sue.page):
            expect(page.locator(".seat .status", has_text="Waiting for approval")).to_have_count(2)
        assert get_json(f"{base}/api/rooms/{room}")["table"]["phase"] == "waiting"
        host_panel(ann.page)
        all_named(ann.page, "Approve Ann", "Approve Bob", "Set stack of Bob", "Kick Bob",
                  "Make Bob host", "Pause", "Close room", "Close host controls")
        ann.page.get_by_role("button", name="Approve Ann").click()
        expect(sue.page.locator(".seat .status", has_text="Waiting for approval")).to_have_count(1)
        ann.page.get_by_role("button", name="Approve Bob").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        for page in (ann.page, bob.page, sue.page):
            expect(page.locator(".seat .status", has_text="Waiting for approval")).to_have_count(0)
            expect(page.locator(".seat[aria-label='Seat 2: Bob'] .stack")).to_have_text("200")

        # Dealer's Choice: the button (Ann, seat 1) picks Bomb with 5 hole cards.
        picker = ann.page.get_by_role("group", name="Pick the game")
        picker.wait_for()
        for page in (bob.page, sue.page):
            expect(page.locator(".phase-note")).to_have_text("Ann is picking the game")
            assert page.get_by_role("group", name="Pick the game").count() == 0
        picker.get_by_label("Game to play").select_option("bomb")
        picker.get_by_label("Hole cards").select_option("5")
        expect(picker).to_contain_text("Antes, both flops at once")
        all_named(ann.page, "Game to play", "Hole cards", "Pick", "Sit out", "Rebuy amount",
                  "Leave seat", "Four-colour deck", "Mute", "History", "Copy share link")
        ann.page.screenshot(path=str(SHOTS / "dealers-choice-pick-desktop.png"), full_page=True)
        bob.page.screenshot(path=str(SHOTS / "dealers-choice-waiting-phone.png"), full_page=True)
        picker.get_by_role("button", name="Pick", exact=True).click()
        for someone in (ann, bob, sue):
            page = someone.page
            expect(page.locator(".game-title strong")).to_have_text("Bomb")
            page.wait_for_function("document.querySelectorAll('.board .card.face').length == 6")
            assert page.evaluate("window.boardroom.snapshot.hand.game") == "bomb"
        expect(sue.page.locator(".notice", has_text="The button picked Bomb")).to_have_count(1)
        for page in (ann.page, bob.page):
            expect(page.locator(".my-cards .card.face")).to_have_count(5)
        expect(sue.page.locator(".seat .seat-cards .card.back")).to_have_count(10)
        assert get_json(f"{base}/api/rooms/{room}")["table"]["game"] == "bomb"

        # The four-colour deck: diamonds turn blue, clubs green; off again, red and black.
        page = ann.page
        inks = """() => Object.fromEntries(['s', 'h', 'd', 'c'].map((suit) => [suit, [...new Set(
            [...document.querySelectorAll(`.card.face.suit-${suit}`)].map(
                (card) => getComputedStyle(card).color))]]))"""
        two = {"s": [BLACK], "h": [RED], "d": [RED], "c": [BLACK]}
        four = {"s": [BLACK], "h": [RED], "d": [BLUE], "c": [GREEN]}
        shown = page.evaluate(inks)
        assert shown["d"] or shown["c"], shown  # among 11 cards on show
        assert shown == {suit: two[suit] if shown[suit] else [] for suit in two}
        toggle = page.get_by_role("button", name="Four-colour deck")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert page.evaluate(inks) == {suit: four[suit] if shown[suit] else [] for suit in four}
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert page.evaluate(inks) == {suit: two[suit] if shown[suit] else [] for suit in two}

        # Hole cards reordered by drag: the first card dropped on the third.
        dealt = card_codes(page, ".my-cards .card")
        cards = page.locator(".my-cards .my-card")
        cards.nth(0).drag_to(cards.nth(2))
        moved = [dealt[1], dealt[2], dealt[0], dealt[3], dealt[4]]
        assert card_codes(page, ".my-cards .card") == moved

        # Turns: the tab title says so on your turn only; the chime sounds unless muted.
        turns = {"Ann": 0, "Bob": 0}
        deadline = time.monotonic() + 30
        while min(turns.values()) < 2:
            assert time.monotonic() < deadline, turns
            for someone, other in ((ann, bob), (bob, ann)):
                if not someone.page.get_by_role("group", name="Your action").count():
                    continue
                expect(someone.page).to_have_title(re.compile("Your turn"))
                expect(other.page).to_have_title("Boardroom")
                if not turns[someone.name]:
                    legal = someone.page.evaluate("window.boardroom.snapshot.hand.legal")
                    if legal["raise_min"] != legal["raise_max"]:  # a range: the sizing controls
                        all_named(someone.page, "Raise amount", "Raise amount slider",
                                  "Pot", "Min")
                    else:  # one size only: the button says it, nothing to size
                        all_named(someone.page, "Bet" if legal["is_bet"] else "Raise to")
                        assert not someone.page.locator(".action-bar .sizing").count()
                    all_named(other.page, "Check/Fold", "Call any")
                turns[someone.name] += 1
                act_once(someone.page)
            time.sleep(0.05)
        expect(sue.page).to_have_title("Boardroom")
        assert ann.page.evaluate("window.__beeps") >= 2  # two notes a chime
        assert bob.page.evaluate("window.__beeps") == 0
        # The dragged order outlived every action since.
        assert card_codes(ann.page, ".my-cards .card") == moved
        all_named(sue.page, "History", "Four-colour deck", "Mute")
        assert not [f for p in (ann, bob, sue) for f in p.frames if f.startswith("PAGEERROR")]
    finally:
        for someone in (ann, bob, sue):
            someone.context.close()


def test_host_runs_an_allocator_room(browser: Browser, base: str) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bob = person(browser, "Bob", PHONE)
    cat = person(browser, "Cat", DESKTOP)
    try:
        room = create_room(ann.page, base, "allocator", **{"Pause between hands": 0})
        host_panel(ann.page)
        all_named(ann.page, "Pause", "Close room", "Close host controls")
        ann.page.get_by_role("button", name="Pause", exact=True).click()
        ann.page.locator(".badge", has_text="Paused").wait_for()
        sit(ann.page, 0, "Ann")
        for someone, seat in ((bob, 1), (cat, 2)):
            someone.page.goto(f"{base}/?room={room}")
            sit(someone.page, seat, someone.name)
        everybody = (ann.page, bob.page, cat.page)
        for page in everybody:
            expect(page.locator(".seat[aria-label='Seat 3: Cat'] .stack")).to_have_text("200")
        assert get_json(f"{base}/api/rooms/{room}")["table"]["hand_no"] in (0, None)

        # Set a stack; the difference is in the ledger.
        ann.page.get_by_label("New stack for Bob").fill("120")
        ann.page.get_by_role("button", name="Set stack of Bob").click()
        for page in everybody:
            expect(page.locator(".seat[aria-label='Seat 2: Bob'] .stack")).to_have_text("120")
        assert int(ledger(base, room)["Bob"]["adjustments"]) == -80

        # Bob asks for a rebuy of 80; the host approves it.
        bob.page.get_by_label("Rebuy amount").fill("80")
        bob.page.get_by_role("button", name="Rebuy", exact=True).click()
        expect(bob.page.get_by_text("Rebuy of 80 waits for the host")).to_be_visible()
        approve = ann.page.get_by_role("button", name="Approve rebuy 80 for Bob")
        expect(approve).to_have_text("Approve rebuy 80")
        all_named(ann.page, "Approve rebuy 80 for Bob", "New stack for Cat", "Kick Cat", "Resume")
        approve.click()
        for page in everybody:
            expect(page.locator(".seat[aria-label='Seat 2: Bob'] .stack")).to_have_text("200")
        expect(bob.page.get_by_text("Rebuy of 80 waits for the host")).to_have_count(0)
        assert int(ledger(base, room)["Bob"]["on_table"]) == 200

        # Kick Cat: her seat is free again, and she may sit anew.
        ann.page.get_by_role("button", name="Kick Cat").click()
        expect(ann.page.locator(".seat[data-seat='2'].empty")).to_have_count(1)
        expect(cat.page.locator(".seat.mine")).to_have_count(0)
        expect(cat.page.locator(".notice", has_text="Cat was removed")).to_have_count(1)
        assert cat.token(room) is None
        cat.page.get_by_role("button", name="Sit in seat 3").click()
        all_named(cat.page, "Your name", "Take seat", "Cancel", "Sit in seat 4")
        cat.context.close()

        # Resume: the hand is dealt; check and call to the allocation.
        ann.page.get_by_role("button", name="Resume").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        expect(ann.page.locator(".badge", has_text="Paused")).to_have_count(0)
        players = (ann, bob)
        deadline = time.monotonic() + 40
        while not all(p.page.locator(".allocation").count() for p in players):
            assert time.monotonic() < deadline, "no allocation phase"
            for someone in players:
                if someone.page.get_by_role("group", name="Your action").count():
                    act_once(someone.page)
            time.sleep(0.05)

        # Mid-allocation: one card tapped onto A, then "Suggest" fills the server's allocation.
        suggested: dict[str, dict[str, list[str]]] = {}
        for someone in players:
            page = someone.page
            first = card_codes(page, ".alloc-tray .alloc-card")[0]
            page.locator(f".alloc-card[data-card='{first}']").click()
            assert card_codes(page, ".alloc-slot[data-slot='A'] .alloc-card") == [first]
            size = "desktop" if someone is ann else "phone"
            page.screenshot(path=str(SHOTS / f"allocation-{size}.png"), full_page=True)
            all_named(page, "Suggest", "Clear", "Commit", f"{spoken(first)}: on A")
            assert page.evaluate("window.boardroom.snapshot.suggestion") is None  # not pushed
            page.get_by_role("button", name="Suggest").click()
            expect(page.locator(".alloc-tray .alloc-card")).to_have_count(0)
            hint = page.evaluate("window.boardroom.suggestion")  # the suggest command's answer
            assert sorted(hint) == ["A", "B", "Hand"], hint
            for slot, chosen in hint.items():
                placed = card_codes(page, f".alloc-slot[data-slot='{slot}'] .alloc-card")
                assert sorted(placed) == sorted(chosen), (slot, placed, chosen)
            assert card_codes(page, ".alloc-tray .alloc-card") == []
            suggested[someone.name] = hint
            page.get_by_role("button", name="Commit").click()
        deadline = time.monotonic() + 20
        while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
            assert time.monotonic() < deadline, "the hand did not end"
            time.sleep(0.1)
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        for k, name in enumerate(history["players"]):
            commit = next(a for a in history["actions"] if a.startswith(f"p{k + 1} _allocate "))
            parts = dict(part.split(":") for part in commit.split("#")[0].split()[2:])
            for slot, chosen in suggested[name].items():
                assert sorted(re.findall("..", parts[slot])) == sorted(chosen), (name, slot)
        # The action log (here on the phone) tells each allocation and the points in words.
        bob.page.get_by_role("button", name="Log", exact=True).click()
        told = bob.page.locator(".log-lines")
        for name in ("Ann", "Bob"):
            expect(told).to_contain_text(re.compile(
                rf"{name} allocates A: \S\S \S\S, B: \S\S \S\S, Hand: \S\S \S\S"))
        expect(told).to_contain_text(re.compile(r"The main pot: A .*; points (Ann|Bob) "))
        bob.page.get_by_role("button", name="Close the action log").click()

        # Make Bob host: Ann's host controls go, Bob's come, and they work.
        host_panel(ann.page)
        ann.page.get_by_role("button", name="Make Bob host").click()
        expect(ann.page.get_by_role("button", name="Host", exact=True)).to_have_count(0)
        expect(ann.page.get_by_role("dialog", name="Host controls")).to_have_count(0)
        expect(bob.page.locator(".notice", has_text="You are the host now.")).to_have_count(1)
        host_panel(bob.page)
        all_named(bob.page, "Make Ann host", "Kick Ann", "Set stack of Ann")
        bob.page.get_by_role("button", name="Pause", exact=True).click()
        ann.page.locator(".badge", has_text="Paused").wait_for()
        assert not [f for p in (ann, bob) for f in p.frames if f.startswith("PAGEERROR")]
    finally:
        for someone in (ann, bob, cat):
            someone.context.close()
