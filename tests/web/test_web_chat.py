"""The room's chat, hole cards reordered on a touch screen, and the replayer's stacks, driven in
Chromium the way a person drives them:

- chat: two players (one on a phone) and a spectator; a line sent by one reaches the others with
  the sender's name, markup shows as text, a closed panel counts unread lines, the server's
  errors show in the panel, and on a phone the closed chat covers nothing and nothing scrolls
  sideways;
- a phone with a touch screen reorders its hole cards by tapping two cards (a swap) and by
  dragging one with a finger (real touch events through the DevTools protocol), and the order
  outlives the actions that follow;
- the hand replayer shows every player's stack at each step: down by the blinds, the raise and
  the call, and at the last step the history's finishing stacks.

Screenshots of the chat go to tests/web/screenshots/."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Locator, Page, expect
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
    status_of,
    unnamed_controls,
)

MARKUP = "<b>x</b> & <img src=x onerror=alert(1)>"


def chat_toggle(page: Page) -> Locator:
    return page.get_by_role("button", name=re.compile(r"^Chat\b"))


def open_chat(page: Page) -> Locator:
    toggle = chat_toggle(page)
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    panel = page.get_by_role("region", name="Chat")
    panel.wait_for()
    return panel


def close_chat(page: Page) -> None:
    page.get_by_role("button", name="Close chat").click()
    expect(page.get_by_role("region", name="Chat")).to_have_count(0)


def say(page: Page, text: str, *, enter: bool = True) -> None:
    panel = open_chat(page)
    box = panel.get_by_role("textbox", name="Chat message")
    box.fill(text)
    if enter:
        box.press("Enter")
    else:
        panel.get_by_role("button", name="Send").click()
    expect(box).to_have_value("")  # cleared once the server took it


def unread(page: Page) -> Locator:
    return page.locator(".chat-toggle .unread")


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def uncovered(page: Page, target: Locator) -> None:
    """Each button of ``target`` is the topmost element at its own centre."""
    buttons = target.get_by_role("button")
    assert buttons.count()
    for index in range(buttons.count()):
        button = buttons.nth(index)
        button.scroll_into_view_if_needed()
        assert button.evaluate("""b => { const r = b.getBoundingClientRect();
            const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return !!top && (top === b || b.contains(top)); }"""), button.inner_text()


def act(page: Page, prefer: tuple[str, ...] = ("Check", "Call")) -> None:
    """Press the first of ``prefer`` the action bar offers; wait for the table to move on."""
    version = page.evaluate("window.boardroom.snapshot.version")
    bar = page.get_by_role("group", name="Your action")
    for name in prefer:
        button = bar.get_by_role("button", name=name)
        if button.count():
            button.first.click()
            break
    else:
        raise AssertionError(bar.inner_text())
    page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version)


def whose_turn(*pages: Page) -> Page:
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "nobody's turn"
        for page in pages:
            if page.get_by_role("group", name="Your action").count():
                return page
        time.sleep(0.05)


def test_chat_between_players_and_a_spectator(browser: Browser, base: str) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bob = person(browser, "Bob", PHONE)
    sue = person(browser, "Sue", DESKTOP)
    everyone = (ann, bob, sue)
    try:
        room = create_room(ann.page, base, "plo", **{"Pause between hands": 0})
        seat_two(base, room, ann, bob)
        sue.page.goto(f"{base}/?room={room}&watch=1")
        sue.page.get_by_text("You are watching.").wait_for()
        for someone in everyone:
            expect(chat_toggle(someone.page)).to_have_attribute("aria-expanded", "false")
            expect(unread(someone.page)).to_have_count(0)

        # Ann says hello; the others read it, with her name, on a closed panel first.
        say(ann.page, "hello table")
        mine = ann.page.locator(".chat-line.mine")
        expect(mine).to_have_count(1)
        expect(mine.locator(".chat-name")).to_have_text("Ann")
        expect(mine.locator(".chat-text")).to_have_text("hello table")
        expect(unread(ann.page)).to_have_count(0)
        for page in (bob.page, sue.page):
            expect(unread(page)).to_have_text(re.compile(r"^1\b"))
            panel = open_chat(page)
            line = panel.locator(".chat-line")
            expect(line).to_have_count(1)
            expect(line.locator(".chat-name")).to_have_text("Ann")
            expect(line.locator(".chat-text")).to_have_text("hello table")
            expect(panel.locator(".chat-line.mine")).to_have_count(0)
            expect(unread(page)).to_have_count(0)  # read now that it is open
        named, missing = unnamed_controls(bob.page)
        assert missing == [], missing
        assert {"Chat message", "Send", "Close chat"} <= set(named), named

        # Markup is text: Bob's line reaches Sue (chat closed) as the characters he typed.
        close_chat(sue.page)
        say(bob.page, MARKUP, enter=False)
        expect(unread(sue.page)).to_have_text(re.compile(r"^1\b"))
        for page in (ann.page, sue.page):
            line = open_chat(page).locator(".chat-line").last
            expect(line.locator(".chat-name")).to_have_text("Bob")
            expect(line.locator(".chat-text")).to_have_text(MARKUP)
            assert page.locator(".chat-lines b, .chat-lines img").count() == 0

        # The spectator speaks too, and sees the line as hers.
        say(sue.page, "nice hand")
        expect(sue.page.locator(".chat-line.mine .chat-text")).to_have_text("nice hand")
        line = ann.page.locator(".chat-line").last
        expect(line.locator(".chat-text")).to_have_text("nice hand")
        expect(line.locator(".chat-role")).to_have_text("(watching)")
        assert "mine" not in str(line.get_attribute("class"))

        # A closed panel counts every line it missed, and none of its own.
        close_chat(bob.page)
        for text in ("one", "two", "three"):
            say(ann.page, text)
        expect(unread(bob.page)).to_have_text(re.compile(r"^3\b"))
        expect(chat_toggle(bob.page)).to_have_accessible_name(re.compile(r"^Chat 3 unread$"))
        say(sue.page, "four")
        expect(unread(bob.page)).to_have_text(re.compile(r"^4\b"))
        # An empty line is not sent; the server's refusals show in the panel.
        panel = open_chat(sue.page)
        box = panel.get_by_role("textbox", name="Chat message")
        box.fill("   ")
        box.press("Enter")
        expect(panel.get_by_role("alert")).to_have_text("Type a message first")
        box.fill("too fast")
        # 60 snapshots in a burst empty the connection's allowance (20 at once, 10 a second);
        # the chat line sent right behind them on the same socket is refused.
        sue.page.evaluate("""() => {
            for (let i = 0; i < 60; i++) window.boardroom.command('snapshot');
            document.querySelector('.chat-form').requestSubmit(); }""")
        expect(panel.get_by_role("alert")).to_contain_text("too many messages")
        expect(box).to_have_value("too fast")  # kept, to send again
        expect(ann.page.locator(".chat-line .chat-text", has_text="too fast")).to_have_count(0)

        # The phone: the closed chat covers no action, nothing scrolls sideways; the open
        # chat is a sheet at the bottom and the page still fits the width.
        page = whose_turn(ann.page, bob.page)
        if page is ann.page:
            act(ann.page)
        bar = bob.page.get_by_role("group", name="Your action")
        bar.wait_for()
        expect(bob.page.get_by_role("region", name="Chat")).to_have_count(0)
        uncovered(bob.page, bar)
        no_horizontal_scroll(bob.page)
        bob.page.screenshot(path=str(SHOTS / "chat-phone-closed.png"), full_page=False)
        open_chat(bob.page)
        expect(bob.page.locator(".chat-line")).to_have_count(7)
        expect(unread(bob.page)).to_have_count(0)
        no_horizontal_scroll(bob.page)
        bob.page.screenshot(path=str(SHOTS / "chat-phone.png"), full_page=False)
        # With the sheet open the page scrolls far enough to bring the action bar above it.
        bob.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        uncovered(bob.page, bar)
        open_chat(ann.page)
        ann.page.screenshot(path=str(SHOTS / "chat-desktop.png"), full_page=False)
        # On a wide screen the open chat sits beside the table, over no seat.
        box_chat = ann.page.locator(".chat-panel").bounding_box()
        box_table = ann.page.locator(".table-wrap").bounding_box()
        assert box_chat
        assert box_table
        assert box_table["x"] + box_table["width"] <= box_chat["x"], (box_table, box_chat)
        assert not [f for p in everyone for f in p.frames if f.startswith("PAGEERROR")]
    finally:
        for someone in everyone:
            someone.context.close()


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """A finger on ``source`` slides to ``target`` and lifts: real touch events, so Chromium
    fires touch pointer events (DevTools protocol ``Input.dispatchTouchEvent``)."""
    start, end = source.bounding_box(), target.bounding_box()
    assert start
    assert end
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                              "touchPoints": [{"x": x0, "y": y0}]})
        for k in range(1, 9):
            x, y = x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                  "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def expect_order(page: Page, codes: list[str]) -> None:
    cards = page.locator(".my-cards .card.face")
    expect(cards).to_have_count(len(codes))
    for index, code in enumerate(codes):
        expect(cards.nth(index)).to_have_attribute("data-card", code)


def test_hole_cards_reordered_by_touch(browser: Browser, base: str) -> None:
    ann = person(browser, "Ann", DESKTOP)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    bob = Person("Bob", context, context.new_page())
    bob.page.on("pageerror", lambda error: bob.frames.append(f"PAGEERROR {error}"))
    try:
        room = create_room(ann.page, base, "plo", **{"Pause between hands": 0})
        seat_two(base, room, ann, bob)
        page = bob.page
        expect(page.locator(".my-cards .card.face")).to_have_count(4)
        dealt = card_codes(page, ".my-cards .card")
        hand_no = page.evaluate("window.boardroom.snapshot.table.hand_no")
        buttons = page.locator(".my-cards .my-card-btn")

        # Tap, tap: the first and the third card swap places.
        buttons.nth(0).tap()
        expect(buttons.nth(0)).to_have_attribute("aria-pressed", "true")
        expect(buttons.nth(2)).to_have_accessible_name(re.compile("swap with"))
        buttons.nth(2).tap()
        swapped = [dealt[2], dealt[1], dealt[0], dealt[3]]
        expect_order(page, swapped)
        expect(page.locator(".my-cards .my-card-btn[aria-pressed=true]")).to_have_count(0)
        # A card tapped twice is let go, and nothing moves.
        buttons.nth(1).tap()
        buttons.nth(1).tap()
        expect(page.locator(".my-cards .my-card-btn[aria-pressed=true]")).to_have_count(0)
        expect_order(page, swapped)

        # A finger drags the first card onto the last: it moves there, the others shift left.
        cards = page.locator(".my-cards .my-card")
        touch_drag(page, cards.nth(0), cards.nth(3))
        dragged = [swapped[1], swapped[2], swapped[3], swapped[0]]
        expect_order(page, dragged)
        expect(page.locator(".my-cards .my-card-btn[aria-pressed=true]")).to_have_count(0)
        no_horizontal_scroll(page)

        # The order outlives the actions that follow, to the flop. (Bob clicks: in this headless
        # Chromium a tap on an action button after the DevTools touch drag sometimes gets no
        # click, though its touchstart/touchend arrive; the button has no touch handlers.)
        deadline = time.monotonic() + 60
        while not page.locator(".board .card.face").count():
            assert time.monotonic() < deadline, "no flop"
            turn = whose_turn(ann.page, page)
            if turn is page:
                version = page.evaluate("window.boardroom.snapshot.version")
                bar = page.get_by_role("group", name="Your action")
                bar.get_by_role("button", name=re.compile("^(Check|Call)")).first.click()
                page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version)
            else:
                act(ann.page)
        assert page.evaluate("window.boardroom.snapshot.table.hand_no") == hand_no
        expect_order(page, dragged)
        assert sorted(dragged) == sorted(dealt)
        assert not [f for f in bob.frames if f.startswith("PAGEERROR")]
    finally:
        ann.context.close()
        context.close()


CBR = re.compile(r"^p(\d+) cbr (\d+)")


def step_to(page: Page, step: int) -> None:
    """Click the replayer's action list on action ``step`` (1-based); step 0 is First step."""
    if step == 0:
        page.get_by_role("button", name="First step").click()
    else:
        page.locator(".replay-actions li").nth(step - 1).get_by_role("button").click()
    total = page.locator(".replay-actions li").count()
    expect(page.locator(".replay-controls .step")).to_have_text(f"Step {step} / {total}")


def expect_stack(page: Page, player: str, amount: int) -> None:
    expect(page.locator(f"tr[data-player='{player}'] td.stack")).to_have_text(str(amount))


def test_replayer_shows_the_stacks_at_each_step(browser: Browser, base: str) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bob = person(browser, "Bob", DESKTOP)
    try:
        room = create_room(ann.page, base, "plo", **{"Pause between hands": 0})
        seat_two(base, room, ann, bob)
        # The first to act raises the pot; the other calls; then both check it down. Before
        # that, the stacks the table shows once the blinds are in.
        first = whose_turn(ann.page, bob.page)
        posted: dict[str, int] = dict(first.evaluate("""() => {
            const snap = window.boardroom.snapshot;
            return snap.hand.seats.map((s) => [snap.table.seats[s.seat].name, s.stack]); }"""))
        assert sorted(posted.values()) == [198, 199], posted  # blinds 1 and 2
        bar = first.get_by_role("group", name="Your action")
        bar.get_by_role("button", name="Pot", exact=True).click()
        act(first, ("Raise to", "Bet"))
        deadline = time.monotonic() + 60
        while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
            assert time.monotonic() < deadline, "hand 1 did not end"
            for page in (ann.page, bob.page):
                if page.get_by_role("group", name="Your action").count():
                    act(page)
            time.sleep(0.05)
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        players: list[str] = history["players"]
        starting: list[int] = history["starting_stacks"]
        antes: list[int] = history.get("antes") or [0] * len(players)
        actions: list[str] = history["actions"]
        raised = next(k for k, text in enumerate(actions) if CBR.match(text))
        match = CBR.match(actions[raised])
        assert match
        raiser, to = int(match.group(1)) - 1, int(match.group(2))
        assert to > 2  # above the big blind
        caller = 1 - raiser
        assert actions[raised + 1] == f"p{caller + 1} cc", actions

        page = ann.page
        page.goto(f"{base}/?room={room}&history=1&hand=1")
        page.get_by_role("button", name="Last step").click()
        for name, stack in zip(players, history["finishing_stacks"], strict=True):
            expect_stack(page, name, stack)
        assert history["finishing_stacks"] != starting  # somebody won the pot
        # Before any action: the blinds are in, as the table showed.
        step_to(page, 0)
        for name in players:
            expect_stack(page, name, posted[name])
        # The raise to `to` takes the raiser's stack down by it; the caller still has his.
        step_to(page, raised + 1)
        expect_stack(page, players[raiser], starting[raiser] - antes[raiser] - to)
        expect_stack(page, players[caller], posted[players[caller]])
        expect(page.locator(f"tr[data-player='{players[raiser]}'] td.bet")).to_have_text(str(to))
        # The call matches it; the pot holds both.
        step_to(page, raised + 2)
        expect_stack(page, players[caller], starting[caller] - antes[caller] - to)
        expect(page.locator(".replay-pot strong")).to_have_text(str(2 * to + sum(antes)))
        # Checks on the later streets change nothing until the pot is paid at the end.
        step_to(page, len(actions) - 1)
        for i, name in enumerate(players):
            expect_stack(page, name, starting[i] - antes[i] - to)
        page.get_by_role("button", name="Next step").click()
        for name, stack in zip(players, history["finishing_stacks"], strict=True):
            expect_stack(page, name, stack)
        assert not [f for p in (ann, bob) for f in p.frames if f.startswith("PAGEERROR")]
    finally:
        ann.context.close()
        bob.context.close()
