"""Text on the felt is legible: at least 4.5:1 against the lightest colour of the felt (WCAG AA
for normal text), for the board names, the street and the pot and pool labels; and a system's
"reduce motion" setting turns every transition off."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
import socketio  # type: ignore[import-untyped]
from playwright.sync_api import Browser
from web_helpers import DESKTOP, person

CONTRAST = """() => {
  const channel = (v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const lum = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const colours = (text) => [...text.matchAll(/rgba?\\(([^)]+)\\)/g)]
    .map((m) => m[1].split(',').map(Number).slice(0, 3));
  const felt = getComputedStyle(document.querySelector('.felt-inner')).backgroundImage;
  const lightest = Math.max(...colours(felt).map(lum));
  const out = {};
  for (const selector of ['.board-name', '.street', '.pot', '.pool']) {
    const element = document.querySelector(selector);
    const fg = lum(colours(getComputedStyle(element).color)[0]);
    out[selector] = (Math.max(fg, lightest) + 0.05) / (Math.min(fg, lightest) + 0.05);
  }
  return out;
}"""


async def _bot_room(base: str) -> str:
    """An ESG room where two bots play on by themselves."""
    async with httpx.AsyncClient(base_url=base) as http:
        made = (await http.post("/api/rooms", json={"game": "esg"})).json()
    host = socketio.AsyncClient(reconnection=False)
    await host.connect(base, transports=["websocket"])
    try:
        joined = await host.call("command", {"id": "j", "type": "join", "room": made["room"],
                                             "host_secret": made["host_secret"]})
        assert joined["ok"], joined
        for n in range(2):
            added = await host.call("command", {"id": f"b{n}", "type": "add_bot",
                                                "style": "station"})
            assert added["ok"], added
    finally:
        await host.disconnect()
    room: str = made["room"]
    return room


def test_text_on_the_felt_has_a_contrast_of_at_least_4_5(browser: Browser, base: str) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        room = pool.submit(asyncio.run, _bot_room(base)).result(timeout=60)
    watcher = person(browser, "Watcher", DESKTOP)
    try:
        page = watcher.page
        page.goto(f"{base}/?room={room}&watch=1")
        for selector in (".centre .street", ".pot", ".pool", ".board-name"):
            page.locator(selector).first.wait_for(timeout=30000)
        ratios = page.evaluate(CONTRAST)
        low = {selector: round(ratio, 2) for selector, ratio in ratios.items() if ratio < 4.5}
        assert low == {}, f"contrast under 4.5:1 on the felt: {low}"
    finally:
        watcher.context.close()


MOTION = """() => ['clock-bar', 'my-card'].map((name) => {
  const probe = document.createElement('div');
  probe.className = name;
  document.body.append(probe);
  const duration = getComputedStyle(probe).transitionDuration;
  probe.remove();
  return duration;
})"""


def test_reduced_motion_turns_the_transitions_off(browser: Browser, base: str) -> None:
    viewer = person(browser, "Viewer", DESKTOP)
    try:
        page = viewer.page
        page.goto(f"{base}/")
        page.locator("h1, .brand").first.wait_for()
        assert page.evaluate(MOTION) == ["0.2s", "0.1s"]  # the clock bar and the hole cards move
        page.emulate_media(reduced_motion="reduce")
        assert page.evaluate(MOTION) == ["0s", "0s"]
    finally:
        viewer.context.close()
