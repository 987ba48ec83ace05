"""Every room's HTTP route answers the same on every worker of a cluster: the room, its ledger
and its hand histories, asked of the worker that runs the room and of one that does not, with
the same checks of seat tokens (a token in a URL, another room's token, no such room)."""

from __future__ import annotations

import random

import httpx
from play import Player, new_room, play_until
from server_helpers import Client
from services import Redis, cluster


async def test_a_rooms_routes_answer_the_same_on_a_worker_that_does_not_run_it(
        database: str, redis_server: Redis) -> None:
    rng = random.Random(11)
    with cluster(database, redis_server, 2) as running:
        room, _ = await new_room(running.url, game="plo", pause_between_hands=0.2,
                                 starting_stack=2000)
        other_room, _ = await new_room(running.url, game="plo")
        owner = running.owner_of(room)
        other = next(w for w in running.workers if w is not owner)
        players = [Player(await Client(other.url).connect(), 0),
                   Player(await Client(owner.url).connect(), 1)]
        stranger = Player(await Client(running.url).connect(), 0)
        try:
            for seat, player in enumerate(players):
                await player.join(room, f"P{seat}")
            await stranger.join(other_room, "S")
            await play_until(players, 1, rng)
            # The next hand waits for its first actor (a 30 s clock): the room holds still.
            await players[0].client.wait_for(lambda e: e["kind"] == "hand_started"
                                             and e["data"]["hand_no"] == 2)
            own = {"X-Seat-Token": players[0].token}
            asks: list[tuple[str, dict[str, str]]] = [
                (f"/api/rooms/{room}", {}),
                (f"/api/rooms/{room}/ledger.csv", {}),
                (f"/api/rooms/{room}/hands", {}),
                (f"/api/rooms/{room}/hands", own),
                (f"/api/rooms/{room}/hands/1", {}),
                (f"/api/rooms/{room}/hands/1", own),
                (f"/api/rooms/{room}/hands/1/history.toml", own),
                (f"/api/rooms/{room}/hands/2", own),  # not over: 404
                (f"/api/rooms/{room}/hands/1?token={players[0].token}", {}),  # 400
                (f"/api/rooms/{room}/hands/1", {"X-Seat-Token": stranger.token}),  # 403
                (f"/api/rooms/{room}/hands/1", {"X-Seat-Token": "forged"}),  # 403
                ("/api/rooms/feedfacecafe", {}),  # 404
                ("/api/rooms/feedfacecafe/ledger.csv", {}),  # 404
                ("/api/rooms/feedfacecafe/hands", {}),  # 404
            ]
            # A connection each request: a worker closes a connection idle for 5 s (uvicorn's
            # keep-alive), and under a heavy load a request sent on one as it closed failed.
            async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(
                    max_keepalive_connections=0)) as http:
                for path, headers in asks:
                    here = await http.get(owner.url + path, headers=headers)
                    there = await http.get(other.url + path, headers=headers)
                    assert (there.status_code, there.text) == (here.status_code, here.text), \
                        path
                statuses = [(await http.get(owner.url + path, headers=headers)).status_code
                            for path, headers in asks]
                assert statuses == [200] * 7 + [404, 400, 403, 403, 404, 404, 404]
                room_body = (await http.get(other.url + f"/api/rooms/{room}")).json()
                assert [s["name"] for s in room_body["table"]["seats"][:2]] == ["P0", "P1"]
                ledger = (await http.get(other.url + f"/api/rooms/{room}/ledger.csv")).text
                rows = [line.split(",") for line in ledger.splitlines()[1:]]
                assert sum(int(row[4]) for row in rows) == 4000  # the chips on the table
        finally:
            for player in [*players, stranger]:
                await player.client.close()
        assert running.owner_of(room) is owner  # nothing moved the room
    assert "Traceback" not in running.logs()
