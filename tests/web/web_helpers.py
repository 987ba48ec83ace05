"""A real `boardroom serve` on a free loopback port, Chromium pages and the table driven the way
a person drives it (the action bar, the POT button, the allocation slots)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio  # type: ignore[import-untyped]
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).parent / "screenshots"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
CONTROL_ROLES = {"button", "link", "textbox", "searchbox", "spinbutton", "combobox", "listbox",
                 "checkbox", "radio", "switch", "slider", "menuitem", "tab"}
SHOWDOWN_MARKERS = ("HandShown", "PotAwarded", "AllocationsRevealed", "hand_ended")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get_json(url: str, token: str | None = None) -> Any:
    request = urllib.request.Request(url, headers={"X-Seat-Token": token} if token else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            code: int = response.status
            return code
    except urllib.error.HTTPError as error:
        return error.code


@contextlib.contextmanager
def serve(data: Path, *options: str) -> Iterator[str]:
    """`boardroom serve` in a subprocess (``options`` passed on); yields its base URL. A port
    another process took between our probe and the server's bind makes the server exit: then a
    new port is tried."""
    log = (data / "serve.log").open("w")
    for attempt in range(3):
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "boardroom", "serve", "--port", str(port), "--data",
             str(data), "--log-level", "warning", *options], stdout=log,
            stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        started = False
        for _ in range(600):  # up to 30 s on a loaded machine
            with contextlib.suppress(OSError):
                if status_of(url + "/healthz") == 200:
                    started = True
                    break
            if process.poll() is not None:
                break
            time.sleep(0.05)
        if started:
            break
        process.kill()
        process.wait(10)
        if attempt == 2:
            log.close()
            raise RuntimeError("boardroom serve did not start: " + (data / "serve.log").read_text())
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


# One game of each kind of table the client draws: two boards with redraws, two boards and a
# one-card board, an allocation, the tilted boards, one board, stud of seven and of five cards, a
# draw, a rotation.
# Tests that go through every game run these by default and the others under ``-m slow``.
EACH_KIND = frozenset({"esg", "xmas", "allocator-redraw", "tilt", "plo", "stud-hilo", "stud5",
                       "27-triple-draw", "horse"})


def by_kind(games: Sequence[Any]) -> list[Any]:
    """``games`` (ids, or tuples whose first item is the id) as pytest parameters: those of
    ``EACH_KIND`` plain, every other one marked ``slow``."""
    params = []
    for item in games:
        values = item if isinstance(item, tuple) else (item,)
        marks = () if values[0] in EACH_KIND else (pytest.mark.slow,)
        params.append(pytest.param(*values, marks=marks, id=values[0]))
    return params


@dataclass
class Person:
    """One browser context: a page and every websocket frame it received."""

    name: str
    context: BrowserContext
    page: Page
    frames: list[str] = field(default_factory=list)
    doms: list[str] = field(default_factory=list)  # page HTML sampled during the betting

    def token(self, room: str) -> str | None:
        saved = self.page.evaluate(f"localStorage.getItem('boardroom:room:{room}')")
        value = json.loads(saved or "{}").get("token")
        return value if isinstance(value, str) else None


def person(browser: Browser, name: str, viewport: dict[str, int]) -> Person:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    someone = Person(name, context, page)

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: someone.frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: someone.frames.append(f"PAGEERROR {error}"))
    return someone


def create_room(page: Page, base: str, game: str, *, ticks: tuple[str, ...] = (),
                **numbers: int) -> str:
    """Create a room through the home page's form (``ticks``: checkboxes to tick, by label);
    returns the room id."""
    page.goto(base + "/")
    page.get_by_label("Game", exact=True).select_option(game)
    for label, value in numbers.items():
        page.get_by_label(label, exact=True).fill(str(value))
    for label in ticks:
        page.get_by_label(label).check()
    page.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r".*\?room=\w+"))
    match = re.search(r"room=(\w+)", page.url)
    assert match is not None
    page.get_by_role("button", name="Copy share link").wait_for()
    return match.group(1)


def sit(page: Page, seat: int, name: str) -> None:
    page.get_by_role("button", name=f"Sit in seat {seat + 1}").click()
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take seat").click()
    page.locator(".seat.mine").wait_for()


def seat_two(base: str, room: str, ann: Person, bob: Person) -> None:
    """Ann (already in the room) takes seat 1 and Bob joins and takes seat 2."""
    sit(ann.page, 0, "Ann")
    bob.page.goto(f"{base}/?room={room}")
    sit(bob.page, 1, "Bob")


async def _with_host(base: str, room: str, secret: str, commands: list[dict[str, Any]]) -> None:
    host = socketio.AsyncClient(reconnection=False)
    await host.connect(base, transports=["websocket"])
    try:
        joined = await host.call("command", {"id": "j", "type": "join", "room": room,
                                             "host_secret": secret})
        assert joined["ok"], joined
        for n, command in enumerate(commands):
            answer = await host.call("command", {"id": f"c{n}", **command})
            assert answer["ok"], answer
    finally:
        await host.disconnect()


def host_sends(base: str, made: dict[str, Any], *commands: dict[str, Any]) -> None:
    """The host of ``made`` (a room's creation answer) sends ``commands`` over its own socket."""
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        pool.submit(asyncio.run, _with_host(base, made["room"], made["host_secret"],
                                            list(commands))).result(timeout=60)


def deal_now(page: Page) -> None:
    """The host (on ``page``) deals the next hand at once, through the host panel: no waiting
    out the pause before it."""
    page.get_by_role("button", name="Host").click()
    page.get_by_role("button", name="Deal now").click()
    page.get_by_role("button", name="Close host controls").click()


def push_all_in(page: Page) -> bool:
    """If it is this page's player's turn, put in the most chips the bar offers (All-in or Max
    and the raise, the one raise size, or a call) and wait until the table has moved on; whether
    it acted."""
    if not page.locator(".action-bar").count():
        return False
    version = page.evaluate("window.boardroom.snapshot.version")
    quick = page.get_by_role("button", name=re.compile(r"^(All-in|Max)$"))
    if quick.count():
        quick.first.click()
        page.locator(".btn.raise").click()
    elif page.locator(".btn.raise").count():  # one size only: it is the most
        page.locator(".btn.raise").click()
    else:
        page.get_by_role("button", name="Call", exact=False).click()
    page.wait_for_function("v => window.boardroom.snapshot.version > v", arg=version,
                           timeout=10000)
    return True


def run_it_once(page: Page) -> bool:
    """Answer an offer to run it more than once with "Once", if this page shows one; whether it
    clicked. One player's "Once" ends the offer for everyone, so the button may vanish between
    finding it and clicking it: that is not a failure."""
    once = page.locator(".runs-choice").get_by_role("button", name="Once")
    if not once.count():
        return False
    try:
        once.click(timeout=3000)
    except PlaywrightTimeoutError:
        if once.count():
            raise
        return False
    return True


def unnamed_controls(page: Page) -> tuple[list[str], list[str]]:
    """Chromium's accessibility tree of ``page``: the names of its controls (buttons, links,
    text and number boxes, selects, checkboxes, sliders) and a description of each control that
    has no accessible name."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        named: list[str] = []
        unnamed: list[str] = []
        for node in nodes:
            role = node.get("role", {}).get("value")
            if node.get("ignored") or role not in CONTROL_ROLES:
                continue
            name = str(node.get("name", {}).get("value") or "").strip()
            if name:
                named.append(name)
                continue
            element = cdp.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})
            attributes = element["node"].get("attributes", [])
            unnamed.append(f"{role}: <{element['node']['localName']} {' '.join(attributes)}>")
    finally:
        cdp.detach()
    return named, unnamed


def card_codes(page: Page, selector: str) -> list[str]:
    codes: list[str] = page.eval_on_selector_all(
        selector, "els => els.map(e => e.getAttribute('data-card')).filter(Boolean)")
    return codes


def hole_cards_of(history: dict[str, Any], player: str) -> set[str]:
    """Every card dealt to ``player`` (a PHH label such as p1) in a history read with their
    own token."""
    cards: set[str] = set()
    for action in history["actions"]:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "dh"] and words[2] == player:
            cards.update(c for c in re.findall(r"..", words[3]) if c != "??")
    return cards


def before_showdown(frames: list[str]) -> list[str]:
    """The frames received before the first one that starts the showdown."""
    for index, frame in enumerate(frames):
        if any(marker in frame for marker in SHOWDOWN_MARKERS):
            return frames[:index]
    return frames


async def _play_one_hand(base: str, names: Sequence[str]) -> str:
    """Two players of these names in a new ESG room; the first to act folds: hand 1 is over."""
    async with httpx.AsyncClient(base_url=base) as http:
        made = await http.post("/api/rooms", json={"game": "esg", "pause_between_hands": 0.2})
        room: str = made.json()["room"]
    clients = [socketio.AsyncClient(reconnection=False) for _ in names]
    turns: list[dict[str, Any]] = []
    for client in clients:
        client.on("update", lambda data: turns.extend(
            e for e in data.get("events", []) if e.get("kind") == "turn"))
        await client.connect(base, transports=["websocket"])
    try:
        for seat, (client, name) in enumerate(zip(clients, names, strict=True)):
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


@contextlib.contextmanager
def history_of_one_hand(browser: Browser, base: str, names: Sequence[str]) -> Iterator[Person]:
    """A phone's page on hand 1's history, once two players of these names have played it."""
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        room = pool.submit(asyncio.run, _play_one_hand(base, names)).result(timeout=120)
    viewer = person(browser, "Viewer", PHONE)
    try:
        viewer.page.goto(f"{base}/?room={room}&history=1&hand=1")
        viewer.page.locator(".replay-players tr[data-player]").first.wait_for()
        yield viewer
    finally:
        viewer.context.close()
