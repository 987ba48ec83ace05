"""Audiences through a Redis outage: while Redis is down, the room's owner moves a connection of
the other worker out of a seat (the host kicks the player) and a newcomer takes that seat. Once
Redis is back, the moved connection must get none of the seat's cards (every message it receives
is checked against what it was entitled to at that message's version), and its new view works:
the spectators' pushes reach it, and a seat it takes shows it its own cards. A spectator on the
same worker through the outage gets its pushes again and never a hidden card."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from checks import check_room, open_store
from leaks import Entitled, cards_in
from play import Player, new_room, play_until
from server_helpers import Client
from services import Cluster, Redis, cluster

OPTIONS = ("--bot-think", "0.1")


async def _until(check: Any, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.1)


def _check_received(received: list[tuple[str, Any]], entitled: Entitled,
                    seat_until: dict[int, int]) -> int:
    """Assert every message a client ``received`` (taken before the store was read for
    ``entitled``) holds only cards it was entitled to at its version: seat S's own cards while
    ``version < seat_until[S]`` (the version it lost the seat at), the public ones always.
    How many messages were checked."""
    version = 0
    for _kind, payload in received:
        if isinstance(payload, dict):
            version = max(version, payload.get("version") or 0)
        allowed = entitled.at(version, None)
        for seat, until in seat_until.items():
            if version < until:
                allowed |= entitled.at(version, seat)
        leaked = cards_in(payload) - allowed
        assert not leaked, (f"at version {version} the connection got {sorted(leaked)}, "
                            f"not its own: {payload}")
    return len(received)


def _own_cards(client: Client, seat: int) -> list[str]:
    for update in reversed(client.updates):
        hand = update["view"]["hand"]
        if hand is not None and hand["viewer"] == seat:
            return list(hand["seats"][seat]["cards"] or [])
    return []


async def _start(running: Cluster) -> tuple[str, str, Any, Any]:
    room, secret = await new_room(running.url, game="plo", starting_stack=1000,
                                  pause_between_hands=0.2)
    owner = running.owner_of(room)
    other = next(w for w in running.workers if w is not owner)
    return room, secret, owner, other


@pytest.mark.timeout(900)
async def test_a_player_kicked_while_redis_is_down_gets_none_of_the_seats_cards(
        database: str, redis_server: Redis) -> None:
    rng = random.Random(5)
    with cluster(database, redis_server, 2, *OPTIONS) as running:
        room, secret, owner, other = await _start(running)
        store = await open_store(database)
        clients: list[Client] = []
        playing: asyncio.Task[None] | None = None

        async def connect(url: str) -> Client:
            client = await Client(url).connect()
            clients.append(client)
            return client

        try:
            moved = await connect(other.url)  # the connection the owner moves
            await moved.ok("join", room=room)
            await moved.ok("sit", seat=2, name="Moved")
            await moved.ok("sit_out")  # before any hand: the bots play on without it
            host = await connect(owner.url)
            await host.ok("join", room=room, role="spectator", host_secret=secret)
            for seat in (0, 1):
                await host.ok("add_bot", seat=seat, style="station")
            watcher = await connect(other.url)
            await watcher.ok("join", room=room, role="spectator")
            newcomer = Player(await connect(owner.url), 2)
            newcomer.snapshot = (await newcomer.client.ok("join", room=room))["snapshot"]
            await _until(lambda: moved.updates and watcher.updates,
                         "the other worker's connections got no push")
            await asyncio.sleep(1.0)
            redis_server.stop()
            try:
                await host.ok("kick", seat=2)  # on the owner: no Redis needed
                left = await host.wait_for(lambda e: e["kind"] == "left"
                                           and e["data"]["seat"] == 2, timeout=60)
                sat = await newcomer.client.ok("sit", seat=2, name="Newcomer")
                newcomer.token = sat["token"]
                playing = asyncio.create_task(  # the newcomer acts in turn from now on
                    play_until([newcomer], 10**6, rng, timeout=10**6))
                await asyncio.sleep(2.0)
            finally:
                redis_server.start()
            seen = len(watcher.updates)
            await _until(lambda: len(watcher.updates) > seen,
                         "the spectator on the other worker got no push after the outage")
            dealt = sum(e["kind"] == "hand_started" for e in newcomer.client.events)
            await _until(lambda: sum(e["kind"] == "hand_started"  # its cards, pushed to seat 2
                                     for e in newcomer.client.events) >= dealt + 3,
                         "the room dealt no more hands after the outage", 120)
            seen = len(moved.updates)
            await _until(lambda: len(moved.updates) > seen,
                         "the moved connection gets no push after the outage")
            # none of the newcomer's cards, in anything the moved connection got
            got = list(moved.received)
            _check_received(got, (await check_room(store, room)).entitled, {2: left["version"]})
            assert moved.updates[-1]["view"]["hand"] is None or \
                moved.updates[-1]["view"]["hand"]["viewer"] is None  # a spectator's view
            await moved.ok("sit", seat=3, name="Moved")  # a new seat, through Redis
            await _until(lambda: len(_own_cards(moved, 3)) == 4,
                         "the moved player's new seat does not show its cards", 90)
            got, watched = list(moved.received), list(watcher.received)
            own, at = _own_cards(moved, 3), moved.updates[-1]["version"]
            stored = await check_room(store, room)
            _check_received(got, stored.entitled, {2: left["version"], 3: 10**9})
            assert _check_received(watched, stored.entitled, {}) > 0
            assert set(own) <= stored.entitled.at(at, 3)
        finally:
            if playing is not None:
                playing.cancel()
            for client in clients:
                await client.close()
            await store.close()
    assert "Traceback" not in running.logs()
