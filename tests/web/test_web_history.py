"""The hand history page on a phone: long names without spaces wrap instead of pushing the page
sideways."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import socketio  # type: ignore[import-untyped]
from playwright.sync_api import Browser
from web_helpers import PHONE, person

LONG = ["W" * 24, "M" * 24]


async def _play_one_hand(base: str) -> str:
    """Two players with 24-letter names; the first to act folds: hand 1 is over."""
    async with httpx.AsyncClient(base_url=base) as http:
        made = await http.post("/api/rooms", json={"game": "esg", "pause_between_hands": 0.2})
        room: str = made.json()["room"]
    clients = [socketio.AsyncClient(reconnection=False) for _ in LONG]
    turns: list[dict[str, Any]] = []
    for client in clients:
        client.on("update", lambda data: turns.extend(
            e for e in data.get("events", []) if e.get("kind") == "turn"))
        await client.connect(base, transports=["websocket"])
    try:
        for seat, (client, name) in enumerate(zip(clients, LONG, strict=True)):
            joined = await client.call("command", {"id": f"j{seat}", "type": "join",
                                                    "room": room})
            sat = await client.call("command", {"id": f"s{seat}", "type": "sit", "seat": seat,
                                                "name": name})
            assert joined["ok"], joined
            assert sat["ok"], sat
        for _ in range(400):
            if turns:
                break
            await asyncio.sleep(0.05)
        seat = turns[0]["data"]["seat"]
        answer = await clients[seat].call("command", {"id": "f", "type": "act",
                                                      "action": "fold"})
        assert answer["ok"], answer
        async with httpx.AsyncClient(base_url=base) as http:
            for _ in range(400):
                if (await http.get(f"/api/rooms/{room}/hands")).json()["hands"]:
                    return room
                await asyncio.sleep(0.05)
        raise AssertionError("hand 1 never ended")
    finally:
        for client in clients:
            await client.disconnect()


def test_long_names_do_not_scroll_the_history_page_sideways(browser: Browser, base: str) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        room = pool.submit(asyncio.run, _play_one_hand(base)).result(timeout=120)
    viewer = person(browser, "Viewer", PHONE)
    try:
        page = viewer.page
        page.goto(f"{base}/?room={room}&history=1&hand=1")
        page.locator(".replay-players tr[data-player]").first.wait_for()
        assert LONG[0] in page.locator(".hand-list").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the history page scrolls sideways ({width}px)"
    finally:
        viewer.context.close()
