"""The store on PostgreSQL: a throwaway server from Debian's postgresql package, started in a
temporary folder for this module, runs the same migrations and round trip as SQLite."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardroom.store import (
    EventRow,
    HandRow,
    LedgerRow,
    RoomRow,
    Store,
    StoreError,
    database_url,
)

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _as_postgres(args: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root: run it as the package's postgres user then.
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    # Not under pytest's tmp folder: the postgres user cannot enter root's private folders.
    folder = Path(tempfile.mkdtemp(prefix="boardroom-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    subprocess.run(_as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust",
                                 "-U", "boardroom"]), check=True, capture_output=True, timeout=120)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                                 "-l", str(folder / "log"), "start"]),
                   check=True, capture_output=True, timeout=120)
    try:
        yield f"postgresql://boardroom@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast",
                                     "-w", "stop"]), check=True, capture_output=True, timeout=120)
        shutil.rmtree(folder)


async def test_postgres_migrates_and_round_trips(postgres_url: str, tmp_path: Path) -> None:
    url = database_url(postgres_url, tmp_path)
    assert url.startswith("postgresql+asyncpg://")
    store = await Store.open(url)
    try:
        await store.create_room(RoomRow("r1", 1.0, {"game": "plo"}, "h", {}, 0, False))
        await store.append("r1", version=1, state={"x": 1}, closed=False,
                           events=[EventRow(1, "seated", None, "c1", 1.5, {"seat": 0})],
                           ledger=[LedgerRow(1, 1.5, 0, "p", "Ann", "buy-in", 200)],
                           hands=[HandRow(1, "plo", 2.0, {"deck": [3]})])
    finally:
        await store.close()
    store = await Store.open(url)  # the second open finds the schema at the head
    try:
        (room,) = await store.rooms()
        assert (room.state, room.version) == ({"x": 1}, 1)
        assert await store.recent_commands("r1", 5) == [("c1", 1)]
        assert (await store.ledger("r1"))[0].amount == 200
        assert (await store.hand("r1", 1)) == HandRow(1, "plo", 2.0, {"deck": [3]})
    finally:
        await store.close()


async def test_an_unreachable_postgres_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StoreError, match="cannot open the database"):
        await Store.open(database_url(f"postgresql://nobody@127.0.0.1:{port}/x", tmp_path))
