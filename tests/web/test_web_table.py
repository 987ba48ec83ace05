"""The browser table end to end: a host creates rooms through the home page, two players join
from their own browser contexts (one on a phone-sized screen), a spectator watches, and they play
a full hand of PLO, ESG, Tilt and Allocator with the action bar, the POT button, the keyboard and
the allocation slots (drag and tap). Results on screen are checked against the server's hand
history, and no other seat's hole card may reach a player's or the spectator's DOM or websocket
frames before the showdown. Screenshots of each running table go to tests/web/screenshots/."""

from __future__ import annotations

import re
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from web_helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    Person,
    before_showdown,
    card_codes,
    create_room,
    get_json,
    hole_cards_of,
    person,
    sit,
    status_of,
)


class Table:
    """A room with a host-player (desktop), a second player (phone) and a spectator."""

    def __init__(self, browser: Browser, base: str, game: str) -> None:
        self.base, self.game = base, game
        self.host = person(browser, "Ann", DESKTOP)
        self.room = create_room(self.host.page, base, game, **{"Pause between hands": 5})
        self.guest = person(browser, "Bob", PHONE)
        self.watcher = person(browser, "Sue", DESKTOP)
        self.people = [self.host, self.guest, self.watcher]
        sit(self.host.page, 0, "Ann")
        self.guest.page.goto(f"{base}/?room={self.room}")
        sit(self.guest.page, 1, "Bob")
        self.watcher.page.goto(f"{base}/?room={self.room}&watch=1")
        self.watcher.page.get_by_text("You are watching.").wait_for()
        self.players = [self.host, self.guest]
        self.shot_taken = False
        self.plans: dict[str, dict[str, list[str]]] = {}

    def close(self) -> None:
        for someone in self.people:
            someone.context.close()

    def hand_over(self) -> bool:
        return status_of(f"{self.base}/api/rooms/{self.room}/hands/1") == 200

    def screenshot(self) -> None:
        self.host.page.screenshot(path=str(SHOTS / f"{self.game}-desktop.png"))
        self.guest.page.screenshot(path=str(SHOTS / f"{self.game}-phone.png"), full_page=True)
        self.shot_taken = True

    def play_hand(self, *, pot_by_keyboard: bool = False) -> dict[str, Any]:
        """Play hand 1 to its end: the first decision pots, every other one checks or calls."""
        potted = ranged = False
        allocated: set[str] = set()
        deadline = time.monotonic() + 90
        while not self.hand_over():
            assert time.monotonic() < deadline, f"{self.game}: the hand did not finish"
            acted = False
            for someone in self.players:
                page = someone.page
                if page.locator(".allocation").count() and someone.name not in allocated:
                    self.allocate(someone, by_drag=someone is self.host)
                    allocated.add(someone.name)
                    acted = True
                    continue
                if not page.locator(".action-bar").count():
                    continue
                for watcher in self.people:
                    watcher.doms.append(watcher.page.content())
                version = page.evaluate("window.boardroom.snapshot.version")
                if not self.shot_taken and page.locator(".board .card.face").count() >= 8:
                    self.screenshot()
                legal = page.evaluate("window.boardroom.snapshot.hand.legal")
                ranged = ranged or (legal["raise_min"] is not None
                                    and legal["raise_min"] != legal["raise_max"])
                if not potted and page.get_by_role("button", name="Pot", exact=True).count():
                    potted = True
                    self.pot(page, pot_by_keyboard)
                elif page.get_by_role("button", name="Check").count():
                    page.get_by_role("button", name="Check").click()
                else:
                    page.get_by_role("button", name="Call", exact=False).click()
                page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version,
                                       timeout=10000)
                acted = True
            if not acted:
                time.sleep(0.1)
        # The host pauses the table so the result stays on screen for the checks.
        page = self.host.page
        page.get_by_role("button", name="Host", exact=True).click()
        page.get_by_role("button", name="Pause", exact=True).click()
        page.locator(".badge", has_text="Paused").wait_for()
        page.get_by_role("button", name="Close host controls").click()
        # Every decision with a range of sizes offers POT (one with one size has no sizing).
        assert potted or not ranged, f"{self.game}: no decision offered the POT size"
        if not self.shot_taken:
            self.screenshot()
        return get_json(f"{self.base}/api/rooms/{self.room}/hands/1")["history"]  # type: ignore[no-any-return]

    @staticmethod
    def pot(page: Page, by_keyboard: bool) -> None:
        sizes = page.evaluate("window.boardroom.snapshot.sizes")
        if by_keyboard:
            page.keyboard.press("p")
            assert page.get_by_label("Raise amount", exact=True).input_value() == str(sizes["pot"])
            page.get_by_label("Raise amount", exact=True).press("Enter")
        else:
            page.get_by_role("button", name="Pot", exact=True).click()
            button = page.locator(".btn.raise")
            assert button.inner_text().endswith(f" {sizes['pot']}"), button.inner_text()
            button.click()

    def allocate(self, someone: Person, *, by_drag: bool) -> None:
        page = someone.page
        names = page.eval_on_selector_all(".alloc-slot", "els => els.map(e => e.dataset.slot)")
        assert names == ["A", "B", "Hand"]
        cards = card_codes(page, ".alloc-tray .alloc-card")
        assert len(cards) == 6, cards
        plan = {"A": cards[0:2], "B": cards[2:4], "Hand": cards[4:6]}
        if by_drag:
            for slot, chosen in plan.items():
                for card in chosen:
                    page.locator(f".alloc-tray .alloc-card[data-card='{card}']").drag_to(
                        page.locator(f".alloc-slot[data-slot='{slot}']"))
        else:
            for taps, slot in ((1, "A"), (2, "B"), (3, "Hand")):
                for card in plan[slot]:
                    for _ in range(taps):
                        page.locator(f".alloc-card[data-card='{card}']").click()
        for slot, chosen in plan.items():
            placed = card_codes(page, f".alloc-slot[data-slot='{slot}'] .alloc-card")
            assert sorted(placed) == sorted(chosen), (slot, placed, chosen)
        page.get_by_role("button", name="Commit").click()
        # Committed, or (the last to commit) the allocations are revealed and the hand ends.
        page.wait_for_function("() => !document.querySelector('.allocation') || "
                               "document.querySelector('.allocation.committed')")
        self.plans[someone.name] = plan

    def check_allocations(self, history: dict[str, Any]) -> None:
        """Each player's allocation, made by drag or by tap, is the one the history records."""
        assert set(self.plans) == {"Ann", "Bob"}
        for k, name in enumerate(history["players"]):
            commits = [a for a in history["actions"] if a.startswith(f"p{k + 1} _allocate ")]
            assert len(commits) == 1, commits
            parts = dict(part.split(":") for part in commits[0].split("#")[0].split()[2:])
            for slot, cards in self.plans[name].items():
                assert sorted(re.findall("..", parts[slot])) == sorted(cards), (name, slot)

    def check_results(self, history: dict[str, Any]) -> None:
        """The stacks and winners on screen are the history's."""
        names = history["players"]
        finishing = dict(zip(names, history["finishing_stacks"], strict=True))
        starting = dict(zip(names, history["starting_stacks"], strict=True))
        page = self.watcher.page
        page.locator(".showdown").wait_for()
        for name, stack in finishing.items():
            expect(page.locator(f".seat[aria-label$=': {name}'] .stack")).to_have_text(str(stack))
        page.screenshot(path=str(SHOTS / f"{self.game}-showdown-desktop.png"))
        text = page.locator(".showdown").inner_text()
        # Winners gain chips; in a chopped pot nobody does and every share is named.
        winners = [name for name in names if finishing[name] > starting[name]] or names
        for name in winners:
            assert name in text, (name, text)

    def check_no_leaks(self, history_by_token: dict[str, dict[str, Any]]) -> None:
        """No seat's hole card in another viewer's frames or DOM before the showdown; each
        player's own cards are found in their own (so the search can fail)."""
        labels = {name: f"p{k + 1}" for k, name in
                  enumerate(next(iter(history_by_token.values()))["players"])}
        cards = {name: hole_cards_of(history_by_token[name], labels[name])
                 for name in history_by_token}
        for name, held in cards.items():
            assert len(held) >= 4, (name, held)
        for viewer in self.people:
            frames = "\n".join(before_showdown(viewer.frames))
            assert "PAGEERROR" not in "\n".join(viewer.frames)
            assert viewer.doms, f"{viewer.name}: no DOM sampled during the betting"
            for owner, held in cards.items():
                for card in held:
                    in_frames = f'"{card}"' in frames
                    in_dom = any(f'data-card="{card}"' in dom for dom in viewer.doms)
                    if owner == viewer.name:
                        assert in_frames, (viewer.name, card)
                        assert in_dom, (viewer.name, card)
                    else:
                        assert not in_frames, f"{owner}'s {card} reached {viewer.name}'s frames"
                        assert not in_dom, f"{owner}'s {card} reached {viewer.name}'s page"
        fair = next(iter(history_by_token.values()))["_fairness"]
        for viewer in self.people:  # no seed, the server's or a browser's, in any frame
            frames = "\n".join(viewer.frames)
            for seed in [fair["server_seed"], *fair["client_seeds"]]:
                assert seed not in frames, f"a seed reached {viewer.name}'s frames"

    def histories(self) -> dict[str, dict[str, Any]]:
        out = {}
        for someone in self.players:
            token = someone.token(self.room)
            assert token, someone.name
            out[someone.name] = get_json(f"{self.base}/api/rooms/{self.room}/hands/1", token)[
                "history"]
        return out


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the phone layout scrolls sideways ({width}px)"


def play_and_check(browser: Browser, base: str, game: str, **options: Any) -> Table:
    table = Table(browser, base, game)
    try:
        history = table.play_hand(**options)
        if game == "allocator":
            table.check_allocations(history)
        table.check_results(history)
        table.check_no_leaks(table.histories())
        no_horizontal_scroll(table.guest.page)
    except BaseException:
        table.close()
        raise
    return table


def test_plo_hand_with_reload_phone_layout_and_history(browser: Browser, base: str) -> None:
    table = Table(browser, base, "plo")
    try:
        guest = table.guest.page
        guest.locator(".my-cards .card.face").first.wait_for(timeout=15000)
        before = sorted(card_codes(guest, ".my-cards .card"))
        assert len(before) == 4
        no_horizontal_scroll(guest)
        guest.reload()
        guest.locator(".seat.mine").wait_for()
        assert sorted(card_codes(guest, ".my-cards .card")) == before  # back in the seat
        history = table.play_hand(pot_by_keyboard=True)
        table.check_results(history)
        table.check_no_leaks(table.histories())
        for name, written in table.histories().items():  # each browser sent its own seed
            assert written["_fairness"]["server_made"] == [False] * len(written["players"]), name
        no_horizontal_scroll(guest)
        # The hand history page: the list, the replayer, the downloads.
        page = table.host.page
        page.get_by_role("button", name="History").click()
        page.get_by_role("button", name="#1", exact=False).click()
        page.get_by_role("button", name="First step").click()
        assert page.locator(".replay-actions li.current").count() == 0
        page.get_by_role("button", name="Next step").click()
        assert page.locator(".replay-actions li.current").count() == 1
        page.get_by_role("button", name="Last step").click()
        for name, stack in zip(history["players"], history["finishing_stacks"], strict=True):
            row = page.locator(f"tr[data-player='{name}'] .finish")
            assert row.inner_text() == str(stack)
        # The file comes with the seat token in a header: no URL the page asks for holds it.
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        with page.expect_download() as download:
            page.get_by_role("button", name="Download history file").click()
        saved = Path(download.value.path()).read_text(encoding="utf-8")
        assert tomllib.loads(saved)["players"] == history["players"]
        assert any("/history.toml" in url for url in asked)
        assert not any("token" in url for url in asked)
        assert status_of(base + str(page.get_by_role("link", name="Download ledger")
                                    .get_attribute("href"))) == 200
    finally:
        table.close()


@pytest.mark.parametrize("game", ["esg", "tilt", "allocator"])
def test_multi_board_hand(browser: Browser, base: str, game: str) -> None:
    table = play_and_check(browser, base, game)
    try:
        page = table.watcher.page
        variant = next(v for v in get_json(f"{base}/api/games")["games"] if v["id"] == game)
        boards = page.eval_on_selector_all(".centre .board", "els => els.map(e => e.dataset.board)")
        assert boards == [b["name"] for b in variant["boards"]]
        for spec in variant["boards"]:
            if spec.get("tilted"):
                tilted = page.locator(f".board[data-board='{spec['name']}'] .card").nth(
                    spec["tilted"] - 1 + (1 if spec["name"] == "D" else 0))
                assert "tilted" in str(tilted.get_attribute("class"))
        text = page.locator(".showdown").inner_text()
        for category in variant["categories"]:
            assert category["name"] in text, (category["name"], text)
    finally:
        table.close()


def test_home_page_offers_every_game_and_accessible_controls(browser: Browser, base: str,
                                                             tmp_path: Path) -> None:
    someone = person(browser, "Host", PHONE)
    try:
        page = someone.page
        page.goto(base + "/")
        page.locator("select[name=game] option[value=tilt]").wait_for(state="attached")
        options = page.eval_on_selector_all("select[name=game] option",
                                            "els => els.map(e => e.value)")
        variants = get_json(f"{base}/api/games")["games"]
        # Every game, and the host's own rotation.
        assert sorted(options) == sorted([*(v["id"] for v in variants), "rotation"])
        no_horizontal_scroll(page)
        unnamed = page.evaluate("""[...document.querySelectorAll('button, input, select, a')]
            .filter(e => !(e.getAttribute('aria-label') || e.innerText.trim() || e.labels?.length
                           || e.getAttribute('placeholder')))
            .map(e => e.outerHTML)""")
        assert unnamed == []
    finally:
        someone.context.close()


def test_the_fold_button_is_named_fold_and_folds(browser: Browser, base: str) -> None:
    """Heads-up PLO: the button acts first preflop and folds with the button named "Fold"; the
    big blind takes the blinds without a showdown."""
    table = Table(browser, base, "plo")
    try:
        deadline = time.monotonic() + 30
        actor: Person | None = None
        while actor is None:
            assert time.monotonic() < deadline, "nobody was offered an action"
            actor = next((p for p in table.players if p.page.locator(".action-bar").count()),
                         None)
            time.sleep(0.05)
        actor.page.get_by_role("button", name="Fold", exact=True).click()
        while not table.hand_over():
            assert time.monotonic() < deadline + 30, "the fold did not end the hand"
            time.sleep(0.1)
        history = get_json(f"{base}/api/rooms/{table.room}/hands/1")["history"]
        folder = history["players"].index(actor.name)
        assert f"p{folder + 1} f" in history["actions"]
        assert not any(" sm " in action for action in history["actions"])
        starting, finishing = history["starting_stacks"], history["finishing_stacks"]
        assert finishing[folder] == starting[folder] - 1  # the small blind, 1 chip
        assert sum(finishing) == sum(starting)
    finally:
        table.close()
