"""A tournament's lease on a real PostgreSQL (``store.leases``): its tables are no orphans of
their own (they are taken with their tournament), an unfinished tournament nobody holds is one,
and a save carrying a stale token lands nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardroom.store import (
    LeaseLost,
    RoomRow,
    Store,
    TournamentRow,
    database_url,
    leases,
    save_tournament,
    tournament,
)


async def test_a_tournaments_tables_are_taken_with_it_and_its_saves_are_fenced(
        database: str, tmp_path: Path) -> None:
    store = await Store.open(database_url(database, tmp_path))
    try:
        await store.create_room(RoomRow("cash", 1.0, {}, "h", {"v": 0}, 0, False))
        await store.create_room(RoomRow("table1", 1.0, {}, "h", {"v": 0}, 0, False,
                                        tournament="t1"))
        assert (await store.room("table1")).tournament == "t1"  # type: ignore[union-attr]
        assert await leases.orphans(store) == ["cash"]  # not the tournament's table
        key = leases.tournament_key("t1")
        assert leases.tournament_of_key(key) == "t1"
        assert leases.tournament_of_key("table1") is None
        assert await leases.take(store, key, "w1", seconds=60) == 1
        await save_tournament(store, TournamentRow("t1", 1.0, "h", {"n": 1}, False),
                              lease=(key, 1))
        await save_tournament(store, TournamentRow("t2", 1.0, "h", {"n": 1}, True))
        assert await leases.orphan_tournaments(store) == []  # t1 held, t2 finished
        assert await leases.release(store, key, "w1", 1)  # as if it had lapsed
        assert await leases.orphan_tournaments(store) == ["t1"]
        assert await leases.take(store, key, "w2") == 2
        with pytest.raises(LeaseLost):  # w1 wakes up and saves: nothing lands
            await save_tournament(store, TournamentRow("t1", 1.0, "h", {"n": 2}, False),
                                  lease=(key, 1))
        assert (await tournament(store, "t1")).state == {"n": 1}  # type: ignore[union-attr]
        await save_tournament(store, TournamentRow("t1", 1.0, "h", {"n": 3}, False),
                              lease=(key, 2))
        assert (await tournament(store, "t1")).state == {"n": 3}  # type: ignore[union-attr]
        assert await tournament(store, "nope") is None
    finally:
        await store.close()
