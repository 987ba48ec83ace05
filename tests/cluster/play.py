"""People playing a table across a cluster's workers: each follows its own pushes and acts
when its seat is to act, choosing among the legal actions its view offers."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
from server_helpers import Client

from action_script import random_throw


def choose(hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = hand["legal"]
    if legal["draw"] is not None:
        mine = hand["seats"][hand["viewer"]]["cards"]
        return {"action": "draw", "cards": random_throw(mine, legal["draw"], rng)}
    options: list[dict[str, Any]] = []
    if legal["check"]:
        options += [{"action": "check"}] * 4
    if legal["call"] is not None:
        options += [{"action": "call"}] * 4
    if legal["bring_in"] is not None:
        options.append({"action": "bring_in"})
    if legal["raise_min"] is not None:
        options.append({"action": "raise", "amount": legal["raise_min"]})
    if not options and legal["fold"]:
        options.append({"action": "fold"})
    return rng.choice(options)


def latest_view(client: Client, snapshot: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The newest view a client holds: its last update's, or the snapshot it joined with."""
    version, view = snapshot["version"], snapshot
    for update in client.updates:
        if update["version"] > version:
            version, view = update["version"], update["view"]
    return version, view


async def new_room(url: str, **options: Any) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        made = await http.post("/api/rooms", json=options)
    assert made.status_code == 201, made.text
    body = made.json()
    return body["room"], body["host_secret"]


class Player:
    """A seated person on one worker."""

    def __init__(self, client: Client, seat: int) -> None:
        self.client = client
        self.seat = seat
        self.snapshot: dict[str, Any] = {}
        self.token = ""

    async def join(self, room: str, name: str) -> None:
        joined = await self.client.ok("join", room=room)
        self.snapshot = joined["snapshot"]
        sat = await self.client.ok("sit", seat=self.seat, name=name)
        self.token = sat["token"]

    async def refresh(self) -> None:
        self.snapshot = (await self.client.ok("snapshot"))["snapshot"]
        self.client.updates.clear()

    def view(self) -> dict[str, Any]:
        return latest_view(self.client, self.snapshot)[1]


async def play_until(players: list[Player], hands_ended: int, rng: random.Random,
                     timeout: float = 120.0) -> None:
    """Act for whoever's turn it is until ``hands_ended`` hands have ended (counted from the
    first player's pushes)."""
    deadline = time.monotonic() + timeout
    while True:
        ended = sum(e["kind"] == "hand_ended" for e in players[0].client.events)
        if ended >= hands_ended:
            return
        assert time.monotonic() < deadline, f"only {ended} of {hands_ended} hands ended"
        acted = False
        for player in players:
            hand = player.view()["hand"]
            if hand is None or hand["is_over"]:
                continue
            if hand["allocating"] and hand["viewer"] in hand["allocation_pending"]:
                hint = await player.client.cmd("suggest")
                if hint["ok"]:
                    await player.client.cmd("allocate", cards=hint["suggestion"])
                    acted = True
                continue
            if hand.get("runs_most") and player.seat in hand.get("runs_pending", ()):
                await player.client.cmd("runs", runs=rng.choice([1, 2]))  # run it once or twice
                acted = True
                continue
            if hand["actor"] == player.seat and hand["legal"] is not None:
                answer = await player.client.cmd("act", **choose(hand, rng))
                acted = True
                if not answer["ok"]:  # the view was behind (a move, a missed push): resync
                    await player.refresh()
        if not acted:
            await asyncio.sleep(0.05)
