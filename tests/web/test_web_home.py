"""Issue 15's home-game fixes and features through the browser, on a desktop and on a phone: the
replayer's Bet column and step buttons, the top bar's forced bets, notices that name players,
the Dealer's Choice picker's options and the host's Deal now."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect
from web_helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    create_room,
    get_json,
    history_of_one_hand,
    person,
    push_all_in,
    run_it_once,
    seat_two,
    sit,
    status_of,
)

MISSING_GLYPHS = ("\u23ee", "\u23ed")  # drawn as empty boxes by Debian's fonts


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_replayer_bets_stay_in_their_rows_and_step_buttons_are_drawn(
        browser: Browser, base: str, viewport: dict[str, int]) -> None:
    with history_of_one_hand(browser, base, ["Ann", "Ben"]) as viewer:
        page = viewer.page
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        page.get_by_role("button", name="First step").click()  # the blinds are on the table
        cells = page.locator(".replay-players td.bet")
        expect(cells.filter(has_text="2")).to_have_count(1)
        for index in range(cells.count()):
            cell = cells.nth(index)
            assert cell.evaluate("e => getComputedStyle(e).position") == "static"
            box, row = cell.bounding_box(), cell.locator("xpath=..").bounding_box()
            assert box is not None
            assert row is not None
            assert row["y"] <= box["y"]
            assert box["y"] + box["height"] <= row["y"] + row["height"] + 0.5
        for name in ("First step", "Previous step", "Next step", "Last step"):
            button = page.get_by_role("button", name=name)
            assert not any(glyph in button.inner_text() for glyph in MISSING_GLYPHS)
            icon = button.locator("svg path")
            expect(icon).to_have_count(1)
            drawn = button.locator("svg").bounding_box()
            assert drawn is not None
            assert drawn["width"] >= 12


@pytest.mark.parametrize(("game", "posts"), [("xmas", "Ante 1 · bet 2"), ("plo", "1/2"),
                                             ("stud-hilo", "Ante 1 · bring-in 1 · 2/4")])
def test_the_top_bar_shows_what_the_game_posts(browser: Browser, base: str, game: str,
                                               posts: str) -> None:
    host = person(browser, "Ann", PHONE)
    try:
        create_room(host.page, base, game)
        expect(host.page.locator(".topbar .stakes")).to_have_text(posts)
    finally:
        host.context.close()


def test_a_timeout_notice_names_the_player(browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = create_room(ann.page, base, "plo", **{"Action clock": 1,
                                                      "Time bank": 0,
                                                      "Pause between hands": 30})
        sit(ann.page, 0, "Ann")
        bob.page.goto(f"{base}/?room={room}")
        sit(bob.page, 1, "Bobby")
        ann.page.get_by_role("button", name="Host").click()
        ann.page.get_by_role("button", name="Deal now").click()
        for page in (ann.page, bob.page):
            expect(page.locator(".notices")).to_contain_text(
                "ran out of time", timeout=20_000)
            text = page.locator(".notices").inner_text()
            assert "Seat " not in text
            assert "Ann ran out of time" in text or "Bobby ran out of time" in text
    finally:
        ann.context.close()
        bob.context.close()


def test_dealers_choice_picker_offers_the_limit_and_the_bring_in_rule(
        browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", PHONE), person(browser, "Bob", DESKTOP)
    try:
        room = create_room(ann.page, base, "dealers-choice",
                           **{"Pause between hands": 30})
        seat_two(base, room, ann, bob)
        ann.page.get_by_role("button", name="Host").click()
        ann.page.get_by_role("button", name="Deal now").click()
        picker = ann.page  # the first button is seat 1's
        expect(picker.get_by_role("group", name="Pick the game")).to_be_visible()
        picker.get_by_label("Game to play").select_option("plo")
        limits = picker.get_by_label("Betting limit")
        expect(limits.locator("option")).to_have_count(3)
        picker.get_by_label("Game to play").select_option("stud-hilo")
        picker.get_by_label("Bring-in by").select_option("lowest")
        picker.get_by_label("Betting limit").select_option("pot-limit")
        picker.get_by_role("button", name="Pick").click()
        for page in (ann.page, bob.page):
            expect(page.locator(".topbar .stakes")).to_have_text("Ante 1 · bring-in 1 · 2/4")
        table = get_json(f"{base}/api/rooms/{room}")["table"]
        assert table["game"] == "stud-hilo"
        assert table["options"] == {"bring_in": "lowest", "betting": "pot-limit"}
    finally:
        ann.context.close()
        bob.context.close()


def _play_pot_then_check_down(pages: list[Page], base: str, room: str) -> None:
    """Hand 1 through the action bar: the first decision pots, every other one checks or calls."""
    potted = False
    deadline = time.monotonic() + 90
    while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
        assert time.monotonic() < deadline, "hand 1 did not finish"
        acted = False
        for page in pages:
            if not page.locator(".action-bar").count():
                continue
            version = page.evaluate("window.boardroom.snapshot.version")
            if not potted and page.get_by_role("button", name="Pot", exact=True).count():
                potted = True
                page.get_by_role("button", name="Pot", exact=True).click()
                page.locator(".btn.raise").click()
            elif page.get_by_role("button", name="Check").count():
                page.get_by_role("button", name="Check").click()
            else:
                page.get_by_role("button", name="Call", exact=False).click()
            page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version,
                                   timeout=10000)
            acted = True
        if not acted:
            time.sleep(0.1)


def test_the_action_log_tells_the_hand_in_words_and_the_replayer_says_the_same(
        browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    watcher = person(browser, "Sue", PHONE)
    try:
        room = create_room(ann.page, base, "plo", **{"Pause between hands": 60})
        seat_two(base, room, ann, bob)
        ann.page.get_by_role("button", name="Host").click()
        ann.page.get_by_role("button", name="Deal now").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        ann.page.wait_for_function("window.boardroom.snapshot && window.boardroom.snapshot.hand")
        watcher.page.goto(f"{base}/?room={room}&watch=1")  # joins mid-hand: the log so far
        watcher.page.get_by_text("You are watching.").wait_for()
        for someone in (ann, bob, watcher):
            someone.page.get_by_role("button", name="Log", exact=True).click()
        _play_pot_then_check_down([ann.page, bob.page], base, room)
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        names = history["players"]  # p1 is the big blind, p2 the button heads-up
        button, big = names[1], names[0]
        expected = [f"{button} posts the small blind of 1", f"{big} posts the big blind of 2",
                    f"{button} raises to 6", f"{big} calls 6", "Flop", f"{big} checks",
                    "Turn", "River", "main pot (12)"]
        logs = {}
        for someone in (ann, bob, watcher):
            lines = someone.page.get_by_role("region", name="Action log").locator("li")
            expect(lines.filter(has_text="main pot (12)")).to_have_count(1)
            text = "\n".join(lines.all_inner_texts())
            logs[someone.name] = text
            someone.page.screenshot(path=str(SHOTS / f"log-{someone.name.lower()}.png"))
            for sentence in expected:
                assert sentence in text, (someone.name, sentence, text)
            assert "checks or calls" not in text
            assert re.search(r"Board A: \S\S \S\S \S\S", text), text
        # Nobody's log shows another player's hole cards before the showdown.
        assert f"{big} is dealt 4 cards" in logs["Sue"]
        assert f"{button} is dealt 4 cards" in logs["Sue"]
        mine = {"Ann": "Ann", "Bob": "Bob"}
        for viewer, own in mine.items():
            other = "Bob" if own == "Ann" else "Ann"
            assert f"{other} is dealt 4 cards" in logs[viewer]
            assert re.search(rf"{own} is dealt \S\S \S\S \S\S \S\S", logs[viewer])
        # The replayer tells the same actions in the same words.
        page = bob.page
        page.goto(f"{base}/?room={room}&history=1&hand=1")
        steps = page.locator(".replay-actions li")
        expect(steps.first).to_be_visible()
        told = "\n".join(steps.all_inner_texts())
        for sentence in (f"{button} raises to 6", f"{big} calls 6", f"{big} checks"):
            assert sentence in told, (sentence, told)
        assert "checks or calls" not in told
        outcome = page.locator(".replay-outcome").inner_text()
        assert "(200 →" in outcome
    finally:
        for someone in (ann, bob, watcher):
            someone.context.close()


def test_the_host_panel_gives_a_watch_link_and_the_table_counts_watchers(
        browser: Browser, base: str) -> None:
    ann, sue, anon = (person(browser, "Ann", PHONE), person(browser, "Sue", PHONE),
                      person(browser, "Anon", DESKTOP))
    try:
        room = create_room(ann.page, base, "esg", **{"Pause between hands": 60})
        sit(ann.page, 0, "Ann")
        ann.page.get_by_role("button", name="Host").click()
        link = ann.page.get_by_label("Watch link", exact=True).input_value()
        assert link == f"{base}/?room={room}&watch=1"
        ann.page.get_by_role("button", name="Copy watch link").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        expect(ann.page.locator(".watchers")).to_have_count(0)  # nobody watches yet
        sue.page.goto(link)
        sue.page.get_by_text("You are watching.").wait_for()
        sue.page.get_by_label("Your name as a watcher").fill("Sue")
        sue.page.get_by_role("button", name="Show my name").click()
        expect(ann.page.locator(".watchers")).to_have_text("1 watching: Sue")
        anon.page.goto(link)
        anon.page.get_by_text("You are watching.").wait_for()
        for page in (ann.page, sue.page, anon.page):
            expect(page.locator(".watchers")).to_have_text("2 watching: Sue and 1 more")
        anon.context.close()
        expect(ann.page.locator(".watchers")).to_have_text("1 watching: Sue")
    finally:
        for someone in (ann, sue):
            someone.context.close()


def test_the_uncontested_winner_shows_a_card_after_the_hand(browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = create_room(ann.page, base, "plo", **{"Pause between hands": 60})
        seat_two(base, room, ann, bob)
        ann.page.get_by_role("button", name="Host").click()
        ann.page.get_by_role("button", name="Deal now").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        pages = {"Ann": ann.page, "Bob": bob.page}
        deadline = time.monotonic() + 30
        folder = None
        while folder is None:
            assert time.monotonic() < deadline, "nobody was asked to act"
            folder = next((name for name, page in pages.items()
                           if page.get_by_role("button", name="Fold").count()), None)
            time.sleep(0.1)
        pages[folder].get_by_role("button", name="Fold").click()
        winner = "Bob" if folder == "Ann" else "Ann"
        page, other = pages[winner], pages[folder]
        group = page.get_by_role("group", name="Show your cards")
        expect(group).to_be_visible()
        expect(other.get_by_role("group", name="Show your cards")).to_have_count(0)
        first = group.locator(".show-card").first
        card = first.get_attribute("data-card")
        assert card
        first.click()
        group.get_by_role("button", name="Show chosen").click()
        seat = 1 if winner == "Bob" else 0
        expect(other.locator(f".seat[data-seat='{seat}'] [data-card='{card}']")).to_have_count(1)
        expect(other.locator(".notices")).to_contain_text(f"{winner} shows {card} after the hand")
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        assert card in next(iter(history["_shown_after"].values()))
        group.get_by_role("button", name="Show all").click()
        expect(page.get_by_role("group", name="Show your cards")).to_have_count(0)
        expect(other.locator(f".seat[data-seat='{seat}'] [data-card]")).to_have_count(4)
    finally:
        ann.context.close()
        bob.context.close()


def test_a_seated_player_hunts_the_rabbit_and_the_deal_still_verifies(
        browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = create_room(ann.page, base, "esg", **{"Pause between hands": 60})
        seat_two(base, room, ann, bob)
        ann.page.get_by_role("button", name="Host").click()
        ann.page.get_by_role("button", name="Deal now").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        pages = [ann.page, bob.page]
        deadline = time.monotonic() + 30
        while not any(p.get_by_role("button", name="Fold").count() for p in pages):
            assert time.monotonic() < deadline, "nobody was asked to act"
            time.sleep(0.1)
        next(p for p in pages if p.get_by_role("button", name="Fold").count()).get_by_role(
            "button", name="Fold").click()
        for page in pages:
            expect(page.get_by_role("button", name="Rabbit hunt")).to_be_visible()
            expect(page.locator(".board .card.rabbit")).to_have_count(0)
        bob.page.get_by_role("button", name="Rabbit hunt").click()
        for page in pages:
            expect(page.locator(".board .card.rabbit")).to_have_count(10)  # A and B, 5 each
            expect(page.get_by_text("Rabbit hunt: the dimmed cards were not dealt")).to_be_visible()
            expect(page.get_by_role("button", name="Rabbit hunt")).to_have_count(0)
            expect(page.locator(".notices")).to_contain_text("Bob hunts the rabbit")
            label = page.locator(".board .card.rabbit").first.get_attribute("aria-label")
            assert label is not None
            assert label.endswith("not dealt (rabbit hunt)")
        hunted = set(ann.page.eval_on_selector_all(
            ".board .card.rabbit", "els => els.map(e => e.dataset.card)"))
        mine = set(ann.page.eval_on_selector_all(
            ".my-card [data-card]", "els => els.map(e => e.dataset.card)"))
        assert len(hunted) == 10
        assert mine
        assert not hunted & mine  # never a hole card
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        assert len(history["_rabbit"]) == 6  # flop A, flop B, turn A, turn B, river A, river B
        page = bob.page
        page.goto(f"{base}/?room={room}&history=1&hand=1")
        page.get_by_role("button", name="Verify this hand").click()
        expect(page.locator(".verify-result")).to_contain_text("Verified in this browser")
    finally:
        ann.context.close()
        bob.context.close()


def test_an_all_in_shows_the_equity_at_the_seats_and_under_the_result(
        browser: Browser, base: str) -> None:
    # Issue 15, part 5: after an all-in run-out every player (here one on a phone) sees each
    # live player's chance at the seats and every street's figures under the result; the action
    # log and the screen reader say them too.
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = create_room(ann.page, base, "esg", **{"Pause between hands": 60,
                                                     "Starting stack": 20})
        sit(ann.page, 0, "Ann")
        bob.page.goto(f"{base}/?room={room}")
        sit(bob.page, 1, "Bob")
        ann.page.get_by_role("button", name="Host").click()
        ann.page.get_by_role("button", name="Deal now").click()
        ann.page.get_by_role("button", name="Close host controls").click()
        pages = [ann.page, bob.page]
        deadline = time.monotonic() + 60
        while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
            assert time.monotonic() < deadline, "hand 1 did not finish"
            # all-in: run it once (running it twice has its own tests)
            acted = [run_it_once(page) or push_all_in(page) for page in pages]
            if not any(acted):
                time.sleep(0.1)
        for page in pages:
            table = page.get_by_role("group", name="All-in equity")
            expect(table).to_be_visible(timeout=15000)
            expect(table.locator(".equity-street")).to_have_count(3)  # preflop, flop, turn
            expect(table).to_contain_text("share")
            expect(page.locator(".seat-equity")).to_have_count(2)
            page.get_by_role("button", name="Log", exact=True).click()
            expect(page.locator(".log-lines")).to_contain_text("All-in equity on the preflop")
            page.get_by_role("button", name="Close the action log").click()
            heard = page.locator("#announce-polite")
            expect(heard).to_contain_text("All-in equity on the preflop")
        shares = ann.page.eval_on_selector_all(
            ".equity-street[data-street='preflop'] .equity-seat small",
            "els => els.map(e => parseFloat(e.textContent.replace('share ', '')))")
        assert len(shares) == 2
        assert abs(sum(shares) - 100) <= 0.2  # two shares of one pot, each rounded to 0.1
        bob.page.screenshot(path=str(SHOTS / "equity-phone.png"), full_page=True)
    finally:
        ann.context.close()
        bob.context.close()
