"""What the store writes per action (counted, never timed): the whole table state at hand
boundaries and when seats or the ledger change, and per action only the change (the hand's new
actions, the seats' clocks); a server killed mid-hand after several actions comes back with
every one of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import (
    Client,
    FakeClock,
    clients,
    first_turn,
    free_port,
    new_room,
    running_server,
    seat_all,
    serve,
)

from boardroom.store import Store

PLAYERS = 3
STACK = 1000


def _choice(legal: dict[str, Any]) -> dict[str, Any]:
    return {"action": "check"} if legal["check"] else {"action": "call"}


@pytest.mark.parametrize("game", ["esg", "plo", "allocator-redraw"])
async def test_an_action_writes_its_change_not_the_whole_state(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    clock = FakeClock()
    writes: list[dict[str, Any]] = []
    append = Store.append

    async def counting(self: Store, room_id: str, **kw: Any) -> None:
        writes.append(kw)
        await append(self, room_id, **kw)

    monkeypatch.setattr(Store, "append", counting)
    async with running_server(tmp_path, clock=clock) as running:
        room, _ = await new_room(running, game=game)
        async with clients(running.url, PLAYERS + 1) as people:
            players, watcher = people[:PLAYERS], people[PLAYERS]
            await seat_all(room, players, watcher)
            turn = await first_turn(clock, players, watcher)
            assert writes[-1]["state"] is not None  # the deal wrote the whole state
            actions = 0
            while actions < 4:
                before = len(writes)
                await players[turn["data"]["seat"]].ok("act", **_choice(turn["data"]["legal"]))
                actions += 1
                new = writes[before:]
                assert len(new) == 1  # one write per commit
                if any(e["kind"] == "hand_ended" for e in watcher.events):
                    break
                assert new[0]["state"] is None, "an action wrote the whole state"
                assert new[0]["change"]["actions"], new[0]["change"]
                turn = await watcher.wait_for(
                    lambda e, v=turn["version"]: e["kind"] == "turn" and e["version"] > v)
            assert actions >= 2


async def test_a_kill_mid_hand_after_several_actions_loses_none_of_them(tmp_path: Path) -> None:
    data, log = tmp_path / "data", tmp_path / "server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve(data, port, log) as process:
        async with httpx.AsyncClient(base_url=url) as http:
            made = await http.post("/api/rooms", json={
                "game": "esg", "pause_between_hands": 0.2, "starting_stack": STACK})
            assert made.status_code == 201, made.text
            room = made.json()["room"]
        # The spectator joins first: the first hand is dealt 0.2 s after the second player
        # sits, and a spectator that joined after it never saw its first turn.
        watcher = await Client(url).connect()
        await watcher.ok("join", room=room, role="spectator")
        players = [await Client(url).connect() for _ in range(PLAYERS)]
        tokens = []
        for seat, client in enumerate(players):
            await client.ok("join", room=room)
            tokens.append((await client.ok("sit", seat=seat, name=f"P{seat}"))["token"])
        turn = await watcher.wait_for(lambda e: e["kind"] == "turn", timeout=30)
        acted = 0
        last = 0
        while acted < 5:  # several actions, the hand still running after them
            answer = await players[turn["data"]["seat"]].ok("act",
                                                            **_choice(turn["data"]["legal"]))
            acted, last = acted + 1, answer["version"]
            turn = await watcher.wait_for(
                lambda e, v=turn["version"]: e["kind"] in ("turn", "hand_ended")
                and e["version"] > v)
            assert turn["kind"] == "turn", "the hand ended before the kill"
        await watcher.wait_for(lambda e: e["version"] >= turn["version"])
        before = (await watcher.ok("snapshot"))["snapshot"]
        process.kill()  # SIGKILL: nothing is flushed on the way out
        process.wait()
        for client in [*players, watcher]:
            await client.close()
    assert before["version"] >= last
    with serve(data, port, log):
        watcher = await Client(url).connect()
        after = (await watcher.ok("join", room=room, role="spectator"))["snapshot"]
        # Every action came back: the hand's events, the table and the view as before the kill.
        assert after["hand_log"] == before["hand_log"]
        acts = [e for e in after["hand_log"]["events"] if e["type"] in
                ("Checked", "Called", "Folded", "RaisedTo")]
        assert len(acts) >= acted
        assert after["version"] == before["version"]
        assert after["hand"] == before["hand"]
        table = after["table"]
        stacks = sum(s["stack"] for s in table["seats"] if not s["empty"])
        assert stacks + sum(p["amount"] for p in after["hand"]["pots"]) == PLAYERS * STACK
        await watcher.close()
