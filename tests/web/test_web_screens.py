"""A running table of every variant at desktop (1366x900) and phone (390x844) size: two players
(one per size) play check and call to the variant's last betting street, where the most cards
are on the table (redraws included), and the test writes both screens to tests/web/screenshots/.
Every board the variant defines is drawn with its cards, no seat plate covers a board, and the
phone never scrolls sideways."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from web_helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    Person,
    by_kind,
    create_room,
    get_json,
    person,
    seat_two,
)

GAMES = ["esg", "esg-low", "xmas", "balance", "bomb", "allocator", "allocator-redraw", "tilt",
         "plo", "omaha-hilo", "courchevel", "stud-hilo", "holdem", "stud", "razz", "stud5"]
# The stud games' up cards at the last street, shown face up at every other seat; and the words
# each game's pills use (razz is a low game: "8-6 low").
UP_CARDS = {"stud-hilo": 4, "stud": 4, "razz": 4, "stud5": 4}
PILL_WORDS = {"razz": r"\blow\b", "holdem": r"\w", "stud5": r"\w"}

# Things drawn on top of each other: a seat (plate, cards, empty-seat label) over a board card,
# a board name or the pot line; two seats; a dealer or blind badge over a player's name; the
# dock (your cards, pills, action bar) over the table.
OVERLAPS = """() => {
  const box = (r, what) => ({l: r.left, t: r.top, r: r.right, b: r.bottom, what});
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((e) => box(
    e.getBoundingClientRect(), `${e.className} ${e.closest('[data-seat]')?.dataset.seat ?? ''}`
    + `${e.closest('[data-board]')?.dataset.board ?? ''}`));
  const text = (selector) => [...document.querySelectorAll(selector)].map((e) => {
    const range = document.createRange(); range.selectNodeContents(e);
    return box(range.getBoundingClientRect(), `name ${e.closest('[data-seat]').dataset.seat}`); });
  const hit = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
  const out = [];
  const cross = (xs, ys) => {
    for (const x of xs) for (const y of ys) if (hit(x, y)) out.push([x.what, y.what]); };
  const seats = [...document.querySelectorAll('.seat')];
  const parts = seats.map((s) => [
    ...s.querySelectorAll('.plate, .seat-cards, .empty-label, .btn.sit, .blind, .dealer')].map(
      (e) => box(e.getBoundingClientRect(), `${e.className} seat ${s.dataset.seat}`)));
  cross(parts.flat(), boxes(
    '.centre .board .card:not(.spacer), .centre .board-name, .pot-line > *, .phase-note'));
  parts.forEach((mine, i) => parts.slice(i + 1).forEach((other) => cross(mine, other)));
  cross(boxes('.seat .blind, .seat .dealer'), text('.seat .name'));
  cross(boxes('.dock > *'), boxes('.table-wrap'));
  return out;
}"""


@pytest.fixture(scope="module")
def people(browser: Browser) -> Iterator[tuple[Person, Person]]:
    """Ann at a desktop hosts every room; Bob joins each from a phone."""
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        yield ann, bob
    finally:
        ann.context.close()
        bob.context.close()


@pytest.fixture(scope="module")
def variants(base: str) -> dict[str, dict[str, Any]]:
    return {v["id"]: v for v in get_json(f"{base}/api/games")["games"]}


def street(page: Page) -> str | None:
    value = page.evaluate("window.boardroom?.snapshot?.hand?.street ?? null")
    return value if isinstance(value, str) else None


def play_to(players: list[Page], last: str) -> None:
    """Check, call or bring in until the betting of street ``last`` is open."""
    deadline = time.monotonic() + 40
    while True:
        assert time.monotonic() < deadline, f"no betting on the {last} street"
        for page in players:
            if not page.locator(".action-bar").count():
                continue
            if street(page) == last:
                return
            version = page.evaluate("window.boardroom.snapshot.version")
            bar = page.locator(".action-bar")
            for name in ("Check", "Call", "Bring in"):
                button = bar.get_by_role("button", name=name)
                if button.count():
                    button.click()
                    break
            else:
                raise AssertionError(bar.inner_text())
            page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version)
        time.sleep(0.05)


@pytest.mark.parametrize("game", by_kind(GAMES))
def test_variant_table_at_desktop_and_phone(people: tuple[Person, Person], base: str,
                                            variants: dict[str, dict[str, Any]],
                                            game: str) -> None:
    ann, bob = people
    variant = variants[game]
    room = create_room(ann.page, base, game, **{"Pause between hands": 0})
    seat_two(base, room, ann, bob)
    play_to([ann.page, bob.page], variant["streets"][-1]["name"])
    for someone in (ann, bob):
        page = someone.page
        page.wait_for_function("n => document.querySelectorAll('.my-cards .card.face').length >= n",
                               arg=variant["hole_cards"])
        drawn = page.eval_on_selector_all(".centre .board", "els => els.map(e => [e.dataset.board,"
                                          " e.querySelectorAll('.card.face').length])")
        assert drawn == [[b["name"], b["size"]] for b in variant["boards"]], (someone.name, drawn)
        assert page.locator(".seat:not(.mine) .seat-cards .card").count() >= variant["hole_cards"]
        if game in UP_CARDS:  # the other seat's up cards, by seat, face up to everyone
            up = page.locator(".seat:not(.mine) .seat-cards .card.face")
            assert up.count() == UP_CARDS[game], (someone.name, game, up.count())
        bar = page.locator(".action-bar")
        if bar.count():  # one legal size (fixed limit): a Bet or Raise button, no slider or box
            legal = page.evaluate("window.boardroom.snapshot.hand.legal")
            sizing = bar.locator("input[type=range], input.amount").count()
            assert sizing == (2 if legal["raise_min"] != legal["raise_max"] else 0), (game, legal)
            assert bar.locator(".btn.raise").count() == 1
        if game in UP_CARDS:  # your own down cards are marked, and named so
            downs = page.locator(".my-card.down")
            assert downs.count() == (3 if game != "stud5" else 1), (game, downs.count())
            assert ", down:" in (downs.first.locator("button").get_attribute("aria-label") or "")
        if game in PILL_WORDS:
            pills = page.locator(".pills").inner_text()
            assert re.search(PILL_WORDS[game], pills), (game, pills)
        page.screenshot(path=str(SHOTS / f"table-{game}-{'desktop' if someone is ann else 'phone'}"
                                           ".png"), full_page=True)
        overlaps = page.evaluate(OVERLAPS)
        assert overlaps == [], f"{someone.name}, {game}: {overlaps}"
        assert "PAGEERROR" not in "\n".join(someone.frames)
    width = bob.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{game}: the phone layout scrolls sideways ({width}px)"
