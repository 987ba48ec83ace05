"""Accessibility helpers for the browser tests: axe-core (vendored, test-only) run in a page, the
keyboard (Tab to a control, checking every focus on the way is visible) and the announcements a
screen reader hears (the live regions, kept whole on ``window.boardroom.announcements``)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
BLOCKING = ("serious", "critical")

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
}"""

FOCUSED = r"""() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const text = el.getAttribute('aria-label') || el.textContent || el.value || el.placeholder || '';
  return { name: text.replace(/\s+/g, ' ').trim(), tag: el.tagName,
    visible: el.matches(':focus-visible'), outline: style.outlineStyle,
    width: parseFloat(style.outlineWidth) || 0 };
}"""

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def spoken(card: str) -> str:
    """How the announcements name a card: ``Ts`` is "10 of spades", ``As`` "ace of spades"."""
    return f"{RANKS.get(card[0], card[0])} of {SUITS[card[1]]}"


def axe_violations(page: Page, where: str) -> list[str]:
    """The serious and critical axe-core violations on ``page`` now, each described."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE)
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']}: {v['nodes']}"
            for v in found if v["impact"] in BLOCKING]


def assert_accessible(page: Page, where: str) -> None:
    """No serious or critical axe-core violation on ``page`` now."""
    found = axe_violations(page, where)
    assert not found, "\n".join(found)


def tab_to(page: Page, name: str | re.Pattern[str], limit: int = 120) -> None:
    """Press Tab until the focused control's name matches ``name``; every control focused on
    the way must show its focus (`:focus-visible` with an outline of at least 2px)."""
    pattern = re.compile(re.escape(name)) if isinstance(name, str) else name
    seen: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None:
            continue
        assert focused["visible"], f"no :focus-visible on {focused}"
        assert focused["outline"] != "none", f"no outline on {focused}"
        assert focused["width"] >= 2, f"a thin outline on {focused}"
        seen.append(focused["name"])
        if pattern.search(focused["name"]):
            return
    raise AssertionError(f"Tab never reached {pattern.pattern!r}; it went through {seen}")


def announcements(page: Page, politeness: str | None = None) -> list[str]:
    """Everything announced on this page so far, oldest first."""
    found: list[dict[str, str]] = page.evaluate(
        "() => (window.boardroom && window.boardroom.announcements) || []")
    return [a["text"] for a in found if politeness is None or a["politeness"] == politeness]


def wait_for_announcement(page: Page, pattern: str, politeness: str | None = None,
                          timeout: float = 30.0) -> str:
    """The first announcement matching ``pattern`` (a regular expression), waiting for it."""
    regex = re.compile(pattern)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for text in announcements(page, politeness):
            if regex.search(text):
                return text
        page.wait_for_timeout(100)
    raise AssertionError(f"no announcement matched {pattern!r}: {announcements(page)}")


def region_text(page: Page, which: str) -> str:
    """The text in a live region now: ``polite`` or ``assertive``."""
    text: str = page.locator(f"#announce-{which}").text_content() or ""
    return text


def sit_by_keyboard(page: Page, seat: int, name: str) -> None:
    """Take a seat with the keyboard alone: Tab to its Sit button, Enter, type the name, Enter."""
    tab_to(page, f"Sit in seat {seat + 1}")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Your name")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.locator(".seat.mine").wait_for()


def create_room_by_http(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/rooms``: the room, its join link and its host secret."""
    made: dict[str, Any] = httpx.post(f"{base}/api/rooms", json=body, timeout=10).json()
    return made
