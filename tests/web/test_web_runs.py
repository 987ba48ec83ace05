"""Straddles and running it twice through the browser (issue 15), on a desktop and on a phone:
where the host allows straddles each player ticks "Straddle next hand", only the player in the
straddle position who chose it posts (the seat's label, the top bar, the log); an all-in heads-up
hand offers Once / Twice / Three times to both players, and agreed, the table draws every run's
boards and each run's share of the pot; a decline runs it once."""

from __future__ import annotations

import re
import time

from a11y_helpers import announcements, wait_for_announcement
from playwright.sync_api import Browser, Page, expect
from web_helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    Person,
    create_room,
    get_json,
    person,
    push_all_in,
    sit,
    status_of,
)

from boardroom.fairness import check_history


def _deal_now(page: Page) -> None:
    page.get_by_role("button", name="Host").click()
    page.get_by_role("button", name="Deal now").click()
    page.get_by_role("button", name="Close host controls").click()


def test_a_player_chooses_to_straddle_on_a_desktop_and_on_a_phone(browser: Browser,
                                                                   base: str) -> None:
    people = [person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE),
              person(browser, "Cy", DESKTOP)]
    ann, bob, cy = people
    try:
        ann.page.goto(base + "/")
        ann.page.get_by_label("Game", exact=True).select_option("plo")
        ann.page.get_by_label("Straddle", exact=True).select_option("utg")
        ann.page.get_by_label("Pause between hands", exact=True).fill("60")
        ann.page.get_by_role("button", name="Create room").click()
        ann.page.wait_for_url(re.compile(r".*\?room=\w+"))
        match = re.search(r"room=(\w+)", ann.page.url)
        assert match is not None
        room = match.group(1)
        sit(ann.page, 0, "Ann")
        for seat, someone in ((1, bob), (2, cy)):
            someone.page.goto(f"{base}/?room={room}")
            sit(someone.page, seat, someone.name)
        # Each player decides for themselves: Ann (desktop) and Bob (phone) tick the toggle.
        for someone in (ann, bob):
            toggle = someone.page.get_by_role("checkbox", name="Straddle next hand")
            expect(toggle).not_to_be_checked()
            toggle.check()
            expect(toggle).to_be_checked()
        expect(cy.page.get_by_role("checkbox", name="Straddle next hand")).not_to_be_checked()
        expect(ann.page.locator(".topbar .stakes")).to_have_text("1/2")
        _deal_now(ann.page)
        # Three-handed the UTG seat is the button's: Ann, in seat 0, has it in hand 1. Only she
        # straddles; Bob's choice waits for his turn in the position.
        for someone in people:
            page = someone.page
            expect(page.locator(".topbar .stakes")).to_have_text("1/2 · straddle 4")
            straddle = page.get_by_label("Straddle", exact=True)
            expect(straddle).to_have_count(1)
            expect(straddle).to_have_text("STR")
        expect(ann.page.locator(".seat[data-seat='0'] .blind.straddle")).to_have_count(1)
        expect(ann.page.get_by_role("checkbox", name="Straddle next hand")).not_to_be_checked()
        expect(bob.page.get_by_role("checkbox", name="Straddle next hand")).to_be_checked()
        bob.page.get_by_role("button", name="Log", exact=True).click()
        expect(bob.page.locator(".log-lines")).to_contain_text("Ann straddles 4")
        bob.page.screenshot(path=str(SHOTS / "straddle-phone.png"), full_page=True)
        ann.page.screenshot(path=str(SHOTS / "straddle-desktop.png"), full_page=True)
    finally:
        for someone in people:
            someone.context.close()


def _all_in_heads_up(base: str, ann: Person, bob: Person) -> str:
    room = create_room(ann.page, base, "esg", **{"Pause between hands": 60,
                                                 "Starting stack": 20})
    sit(ann.page, 0, "Ann")
    bob.page.goto(f"{base}/?room={room}")
    sit(bob.page, 1, "Bob")
    _deal_now(ann.page)
    pages = [ann.page, bob.page]
    deadline = time.monotonic() + 60
    while not any(page.locator(".runs-choice").count() for page in pages):
        assert time.monotonic() < deadline, "no offer to run it twice"
        if not any(push_all_in(page) for page in pages):
            time.sleep(0.1)
    return room


def test_both_players_agree_to_run_it_twice_on_a_desktop_and_a_phone(browser: Browser,
                                                                     base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = _all_in_heads_up(base, ann, bob)
        for page in (ann.page, bob.page):
            bar = page.get_by_role("group", name="Run it more than once")
            expect(bar).to_be_visible()
            for label in ("Once", "Twice", "Three times"):
                expect(bar.get_by_role("button", name=label, exact=True)).to_be_visible()
            expect(page.locator(".runs-note")).to_contain_text("run it up to three times")
        width = bob.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the phone layout scrolls sideways ({width}px)"
        bob.page.screenshot(path=str(SHOTS / "runs-offer-phone.png"), full_page=True)
        ann.page.get_by_role("button", name="Twice", exact=True).click()
        expect(bob.page.locator(".runs-note")).to_contain_text("Waiting for Bob")
        bob.page.get_by_role("button", name="Twice", exact=True).click()
        deadline = time.monotonic() + 30
        while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
            assert time.monotonic() < deadline, "hand 1 did not finish"
            time.sleep(0.1)
        for page in (ann.page, bob.page):
            run = page.get_by_role("group", name="Run 2")
            expect(run).to_be_visible(timeout=15000)
            expect(run.locator(".board")).to_have_count(2)  # boards A and B, dealt again
            expect(run.locator(".board .card[data-card]")).to_have_count(10)
            expect(page.locator(".showdown .result[data-run='1']")).not_to_have_count(0)
            expect(page.locator(".showdown .result[data-run='2']")).not_to_have_count(0)
            expect(page.locator(".showdown")).to_contain_text("Run 2 · Pot")
            page.get_by_role("button", name="Log", exact=True).click()
            expect(page.locator(".log-lines")).to_contain_text("Running it twice")
            expect(page.locator(".log-lines")).to_contain_text("Run 2: board A")
            # Redraws are told as counts, and each run's points say which run they are.
            expect(page.locator(".log-lines")).to_contain_text(re.compile(
                r"(Ann|Bob) draws \d extra cards?"))
            for number in (1, 2):
                expect(page.locator(".log-lines")).to_contain_text(re.compile(
                    rf"Run {number}: The main pot: .*points (Ann|Bob) \d"))
            page.get_by_role("button", name="Close the action log").click()
            # The screen reader hears each run's share of the pot with that run's own result.
            _heard_both_runs(page)
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        assert history["_runs"]["choices"] == [2, 2]
        assert len(history["_runs"]["runs"]) == 1
        assert sum(history["finishing_stacks"]) == 40
        bob.page.screenshot(path=str(SHOTS / "runs-twice-phone.png"), full_page=True)
        ann.page.screenshot(path=str(SHOTS / "runs-twice-desktop.png"), full_page=True)
        # The browser's own check of the deal counts every run's cards, as boardroom verify does.
        own = get_json(f"{base}/api/rooms/{room}/hands/1", bob.token(room))["history"]
        counted = check_history(own)  # Bob's history, as his page reads it
        del own["_runs"]
        assert check_history(own) < counted
        page = bob.page
        page.goto(f"{base}/?room={room}&history=1&hand=1")
        page.get_by_role("button", name="Verify this hand").click()
        expect(page.locator(".verify-result")).to_contain_text(
            "Verified in this browser: the seed matches the commitment published before the "
            "hand")
        expect(page.locator(".verify-result")).to_contain_text(f"all {counted} cards shown")
        _replay_both_runs(history, ann.page, room, base)
        _replay_both_runs(history, bob.page, room, base)
        width = bob.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the phone's replayer scrolls sideways ({width}px)"
        bob.page.screenshot(path=str(SHOTS / "runs-replayer-phone.png"), full_page=True)
        ann.page.screenshot(path=str(SHOTS / "runs-replayer-desktop.png"), full_page=True)
    finally:
        ann.context.close()
        bob.context.close()


def _heard_both_runs(page: Page) -> None:
    """Each run's pot was announced as that run's ("Run 2: The pot of ..."), with the category
    winners of that run's result, not another run's."""
    wait_for_announcement(page, r"^Run 2: The pot of \d+")
    pots = [text for text in announcements(page) if re.match(r"^Run \d: The pot of", text)]
    results = page.evaluate("""() => {
      const s = window.boardroom.snapshot;
      const view = s.hand || (s.last_hand && s.last_hand.view);
      const you = window.boardroom.you || {};
      const name = (seat) => (you.seat === seat ? 'You' : s.table.seats[seat].name);
      return view.results.filter((r) => r.index === 0).map((r) => ({ run: r.run,
        alone: r.categories.filter(([, w]) => w.length === 1)
          .map(([c, w]) => `${c}: ${name(w[0])}`) })); }""")
    assert sorted(r["run"] for r in results) == [1, 2], results
    for result in results:
        said = [text for text in pots if text.startswith(f"Run {result['run']}: ")]
        assert len(said) == 1, pots
        for category in result["alone"]:  # a category won alone, named as the reader says it
            assert category in said[0], (category, said[0])


def _replay_both_runs(history: dict[str, object], page: Page, room: str, base: str) -> None:
    """The replayer steps through both runs: each run's boards, and each run's share of the
    pot once the run is dealt (``_runs.awards``)."""
    page.goto(f"{base}/?room={room}&history=1&hand=1")
    actions = len(history["actions"])  # type: ignore[arg-type]
    later = history["_runs"]["runs"][0]["actions"]  # type: ignore[index]
    steps = actions + len(later)
    expect(page.locator(".replay-controls .step")).to_have_text(f"Step {steps} / {steps}")
    awards = history["_runs"]["awards"]  # type: ignore[index]
    players = history["players"]  # type: ignore[index]
    for number in (1, 2):
        run = page.get_by_role("group", name=f"Run {number}", exact=True)
        expect(run.locator(".board")).to_have_count(2)
        expect(run.locator(".board .card[data-card]")).to_have_count(10)
        for award in (a for a in awards if a["run"] == number):
            paid = [label for label, chips in award["shares"].items() if chips]
            if award["pot"] != 0:
                said = f"run {number}'s share of side pot {award['pot']}"
            elif len(paid) == 1:  # one winner; or a chop (the cards are random)
                said = f"{players[int(paid[0][1:]) - 1]} wins run {number}'s share of the main pot"
            else:
                said = f"split run {number}'s share of the main pot"
            expect(run.locator(".run-shares")).to_contain_text(said)
        if number == 2:
            boards = history["_runs"]["runs"][0]["actions"]  # type: ignore[index]
            dealt = "".join(a.split()[2] for a in boards if a.startswith("d db "))
            for code in (dealt[k:k + 2] for k in range(0, len(dealt), 2)):
                expect(run.locator(f".card[data-card='{code}']")).to_have_count(1)
    # Back to the first run's end: run 2 is not dealt yet, and the first run's share shows.
    page.locator(".replay-actions li").nth(actions - 1).get_by_role("button").click()
    expect(page.get_by_role("group", name="Run 2", exact=True)).to_have_count(0)
    first = page.get_by_role("group", name="Run 1", exact=True)
    expect(first.locator(".run-shares")).not_to_be_empty()
    page.get_by_role("button", name="Next step").click()
    second = page.get_by_role("group", name="Run 2", exact=True)
    expect(second).to_be_visible()
    expect(second.locator(".run-shares")).to_have_count(0)  # not all dealt yet
    expect(page.locator(".replay-actions li.current")).to_contain_text("Run 2, board")


def test_a_decline_on_the_phone_runs_it_once(browser: Browser, base: str) -> None:
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        room = _all_in_heads_up(base, ann, bob)
        ann.page.get_by_role("button", name="Three times", exact=True).click()
        bob.page.get_by_role("button", name="Once", exact=True).click()
        deadline = time.monotonic() + 30
        while status_of(f"{base}/api/rooms/{room}/hands/1") != 200:
            assert time.monotonic() < deadline, "hand 1 did not finish"
            time.sleep(0.1)
        expect(ann.page.locator(".showdown")).to_be_visible(timeout=15000)
        expect(ann.page.get_by_role("group", name="Run 2")).to_have_count(0)
        ann.page.get_by_role("button", name="Log", exact=True).click()
        expect(ann.page.locator(".log-lines")).to_contain_text("Bob wants to run it once")
        expect(ann.page.locator(".log-lines")).to_contain_text("Running it once")
        history = get_json(f"{base}/api/rooms/{room}/hands/1")["history"]
        assert history["_runs"]["choices"] == [3, 1] or history["_runs"]["choices"] == [1, 3]
        assert "runs" not in history["_runs"]
    finally:
        ann.context.close()
        bob.context.close()
