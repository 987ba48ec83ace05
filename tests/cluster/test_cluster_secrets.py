"""A cluster's secrets stay out of reach: the database and Redis URLs (which may hold passwords)
reach its workers in their environment, never on their command line, which every user of the
machine can read (``ps``, ``/proc/PID/cmdline``); and no host secret, seat token or entry token
crosses Redis where a subscriber could read it."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import time
from pathlib import Path

import httpx
from play import Player, new_room
from redis_tap import tapped
from server_helpers import Client
from services import Cluster


def test_no_worker_command_line_carries_a_url(shared_cluster: Cluster) -> None:
    for worker in shared_cluster.workers:
        assert worker.child.pid is not None
        words = Path(f"/proc/{worker.child.pid}/cmdline").read_bytes().decode().split("\0")
        line = " ".join(words)
        assert "serve" in words, line
        assert shared_cluster.database not in line, line
        assert shared_cluster.redis.url not in line, line
        assert "postgresql://" not in line, line
        assert "redis://" not in line, line


def _readable(data: bytes) -> str:
    """What a Redis subscriber can read in a message: its text, every string in it (JSON
    text inside a JSON string, as python-socketio publishes a pre-encoded update, reads
    unescaped), and the text of every string that is base64 (a forwarded HTTP body is)."""
    text = data.decode("utf-8", "replace")
    parts = [text]
    strings: list[str] = []
    with contextlib.suppress(ValueError):
        strings.append(json.loads(text) if text[:1] == '"' else text)
        value = json.loads(text)
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str):
                strings.append(item)
    parts += strings
    for item in strings:
        with contextlib.suppress(ValueError):
            parts.append(base64.b64decode(item, validate=True).decode("utf-8", "replace"))
    return "\n".join(parts)


async def test_no_secret_or_token_crosses_redis_in_forwarded_requests(
        shared_cluster: Cluster) -> None:
    """A room's host, a seated player and a tournament's host and entrant, each on the worker
    that does not run their room or tournament: their requests (a host's join, a sit and its
    new seat token, a join with that token, a transfer of the host, a new room on the other
    worker, a tournament's entry, ``/me``, the host's waiting list and bots) go to the owner
    through Redis, where a subscriber to every channel reads none of their secrets."""
    running = shared_cluster
    secrets: list[str] = []
    clients: list[Client] = []
    async with tapped(running.redis.url) as seen:
        try:
            rooms = [await new_room(worker.url, game="plo") for worker in running.workers * 2]
            secrets += [secret for _, secret in rooms]  # one or both made by the other worker
            room, secret = rooms[0]
            owner = running.owner_of(room)
            other = next(w for w in running.workers if w is not owner)
            host = await Client(other.url).connect()
            clients.append(host)
            await host.ok("join", room=room, host_secret=secret)
            player = Player(await Client(other.url).connect(), 1)
            clients.append(player.client)
            await player.join(room, "P1")
            again = await Client(other.url).connect()
            clients.append(again)
            await again.ok("join", room=room, token=player.token)
            secrets.append(player.token)
            await host.ok("transfer_host", seat=1)
            deadline = time.monotonic() + 30
            while not (told := [p for kind, p in again.received if kind == "host"]):
                assert time.monotonic() < deadline, "the new host was not sent the host secret"
                await asyncio.sleep(0.05)
            secrets.append(told[0]["host_secret"])
            async with httpx.AsyncClient(timeout=30) as http:
                made = await http.post(f"{owner.url}/api/tournaments",
                                       json={"name": "Sealed", "games": ["plo"]})
                assert made.status_code == 201, made.text
                tournament, t_secret = made.json()["tournament"], made.json()["host_secret"]
                secrets.append(t_secret)
                # a new tournament goes to the least-loaded worker: ask the one not running it
                runs = [w for w in running.workers if tournament in w.health()["tournament_ids"]]
                assert len(runs) == 1, runs
                elsewhere = next(w for w in running.workers if w is not runs[0])
                base = f"{elsewhere.url}/api/tournaments/{tournament}"
                entered = await http.post(f"{base}/entries", json={"name": "Ann"})
                assert entered.status_code == 201, entered.text
                secrets.append(entered.json()["token"])
                me = await http.get(f"{base}/me", headers={"X-Seat-Token": secrets[-1]})
                assert me.status_code == 200, me.text
                waiting = await http.get(f"{base}/waiting", headers={"X-Host-Secret": t_secret})
                assert waiting.status_code == 200, waiting.text
                bots = await http.post(f"{base}/bots", json={"count": 1},
                                       headers={"X-Host-Secret": t_secret})
                assert bots.status_code == 201, bots.text
            await asyncio.sleep(0.5)
        finally:
            for client in clients:
                await client.close()
    forwarded = [data for channel, data in seen if channel.startswith("boardroom:worker:")]
    assert len(forwarded) >= 14, len(forwarded)  # each request and its answer crossed Redis
    assert all(len(secret) >= 16 for secret in secrets), secrets
    for channel, data in seen:
        readable = _readable(data)
        for secret in secrets:
            assert secret not in readable, f"a secret crossed Redis on {channel}: {readable}"


async def test_no_hole_card_crosses_redis_where_a_subscriber_reads_it(
        shared_cluster: Cluster) -> None:
    """Two players on the worker that does not run their room are dealt their hole cards: the
    owner's pushes to their seats reach their worker sealed, so a subscriber to every channel
    reads neither player's cards in any message."""
    running = shared_cluster
    players: list[Player] = []
    async with tapped(running.redis.url) as seen:
        try:
            room, _ = await new_room(running.workers[0].url, game="plo")
            owner = running.owner_of(room)
            other = next(w for w in running.workers if w is not owner)
            for seat, name in ((0, "Ann"), (1, "Bob")):
                players.append(Player(await Client(other.url).connect(), seat))
                await players[-1].join(room, name)
            deadline = time.monotonic() + 60
            while True:
                hands = [player.view().get("hand") for player in players]
                holes = [hand["seats"][hand["viewer"]]["cards"] if hand else None for hand in hands]
                if all(holes):
                    break
                assert time.monotonic() < deadline, "no hand was dealt"
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
        finally:
            for player in players:
                await player.client.close()
    assert any(channel.startswith("boardroom:worker:") for channel, _ in seen)
    for channel, data in seen:
        readable = _readable(data)
        for hole in holes:
            for form in (json.dumps(hole), json.dumps(hole, separators=(",", ":"))):
                assert form not in readable, f"hole cards {hole} crossed Redis on {channel}"
