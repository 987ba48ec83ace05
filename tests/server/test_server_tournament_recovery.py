"""A tournament recovered after a crash that came between its director unseating a player (an
elimination, a move) and its save: the hand the table ended is reported with the stacks the
table ended it with, not with the seats left, and every chip is still accounted for."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from server_helpers import running_server

from boardroom.server.tournament import TournamentHost
from boardroom.store import tournament as tournament_row
from boardroom.table import Table

FAST = {"name": "fast", "starting_stack": 200, "late_registration_levels": 0,
        "levels": [{"small_blind": 10 * 2**k, "big_blind": 20 * 2**k, "ante": 2**k, "hands": 4}
                   for k in range(8)]}


async def _until(check: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline
        await asyncio.sleep(0.02)


async def test_a_hand_ended_before_a_crash_is_reported_with_its_stacks_when_a_seat_left_since(
        tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        body = {"name": "Crash", "games": ["plo"], "structure": FAST, "table_size": 4,
                "action_clock": 5.0}
        created = (await running.http.post("/api/tournaments", json=body)).json()
        tournament, host = created["tournament"], {"X-Host-Secret": created["host_secret"]}
        url = f"/api/tournaments/{tournament}"
        await running.http.post(f"{url}/bots", json={"style": "loose", "count": 4}, headers=host)
        await running.http.post(f"{url}/start", headers=host)
        first = running.server.tournaments[tournament]
        room = running.server.rooms[first.rooms[1]]
        await _until(lambda: room.table.hand is not None)
        await first.stop()  # the director hears no more: the crash
        await _until(lambda: room.table.hand is None)  # the bots finish the hand
        plan = first.plans[1]
        assert room.table.hand_no == plan.hand_no
        seat, player, _ = plan.players[0]

        def unseat(table: Table) -> None:  # what the director did before the crash's save
            table.unseat(seat, "moved" if table.seats[seat].stack else "eliminated")
        await room.call(unseat)
        row = await tournament_row(running.server.store, tournament)
        assert row is not None
        again = TournamentHost.from_row(running.server, row)
        room.listener = again.listen
        running.server.tournaments[tournament] = again
        await again.recover()
        try:
            assert again.director.tables[1].hand_no >= plan.hand_no
            assert room.table.chips_on_table() == room.table.balance
            stacks = {p: state.stack for p, state in again.director.players.items()}
            on_table = {state.player: room.table.chips_of(s)
                        for s, state in room.table.seats.items()}
            assert sum(stacks.values()) == again.director.chips == 4 * 200
            assert sum(on_table.values()) == again.director.chips  # every chip is back
            if stacks[player]:  # moved, not eliminated: seated again, with its chips
                assert on_table[player] == stacks[player]
        finally:
            await again.stop()
