"""No hidden card crosses Redis in a message that a wrong audience can receive: two workers,
players of one table on both, a spectator on the worker that does not run the room; every
message Redis carries is recorded (a subscriber to every channel) and every push, answer and
forwarded reply must hold only the cards its addressee was entitled to at its version (its own
hole cards and the public ones), as every payload every client received."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from checks import check_room, open_store
from leaks import cards_in
from play import Player, new_room, play_until
from redis_tap import tapped
from server_helpers import Client
from services import Cluster

from boardroom.server.seal import Sealer
from boardroom.store import leases


def _payload(item: Any) -> Any:
    return json.loads(item) if isinstance(item, str) and item[:1] in "{[" else item


async def test_no_hidden_card_crosses_redis_to_a_wrong_audience(
        shared_cluster: Cluster) -> None:
    rng = random.Random(3)
    running = shared_cluster
    store = await open_store(running.database)
    sealer = Sealer(await leases.shared_secret(store))

    def read(channel: str, data: bytes) -> Any:
        """The workers' own messages opened with the cluster's key, to check them too."""
        return sealer.open(channel, data)

    try:
        async with tapped(running.redis.url, read) as seen:
            room, _ = await new_room(running.url, game="esg", pause_between_hands=0.2,
                                     starting_stack=2000)
            owner = running.owner_of(room)
            other = next(w for w in running.workers if w is not owner)
            players = [Player(await Client(other.url).connect(), 0),
                       Player(await Client(owner.url).connect(), 1),
                       Player(await Client(other.url).connect(), 2)]
            watcher = await Client(other.url).connect()
            for seat, player in enumerate(players):
                await player.join(room, f"P{seat}")
            await watcher.ok("join", room=room, role="spectator")
            await play_until(players, 2, rng)
            await asyncio.sleep(0.5)
            stored = await check_room(store, room)
            seats = {player.client.sio.get_sid(): player.seat for player in players}
            seats[watcher.sio.get_sid()] = None
            clients = [(p.client, p.seat) for p in players] + [(watcher, None)]
            for player in players:
                await player.client.close()
            await watcher.close()
    finally:
        await store.close()
    entitled = stored.entitled
    pushes = replies = 0
    asked: dict[str, str] = {}  # a forwarded command's correlation id -> its connection
    opened = [inner for _channel, message in seen  # a batch: several messages sealed together
              for inner in (message["messages"] if message.get("op") == "batch" else [message])]
    assert any(message.get("op") == "batch" for _channel, message in seen)  # read here too
    for message in opened:
        if message.get("op") == "deliver":
            # a push to connections of another worker, sealed: each must be entitled to it
            payload = _payload(message.get("fragment", message.get("payload")))
            if not isinstance(payload, dict) or payload.get("room") != room:
                continue
            for sid in message["sids"]:
                assert sid in seats, f"a push of room {room} to a stranger: {sid}"
                assert cards_in(payload) <= entitled.at(payload["version"], seats[sid]), sid
            pushes += 1
        elif message.get("op") == "command":
            asked[message["cid"]] = message["sid"]
        elif message.get("op") == "reply" and isinstance(message.get("body"), dict):
            answer = message["body"].get("answer") or {}
            sid = asked.get(message["cid"])
            if sid is not None and sid not in seats:
                continue  # another test's connection, in another room of the shared cluster
            version = answer.get("version") or (answer.get("snapshot") or {}).get("version", 0)
            assert cards_in(answer) <= entitled.at(version, seats.get(sid)), sid
            replies += 1
    assert pushes > 20
    assert replies > 5  # the players on the other worker were answered through Redis
    for client, seat in clients:
        version = 0
        for _kind, payload in client.received:
            if isinstance(payload, dict):
                version = max(version, payload.get("version") or 0)
            assert cards_in(payload) <= entitled.at(version, seat)
