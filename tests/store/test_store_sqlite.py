"""The store on SQLite: migrations on open, rooms and their event log, hands and the ledger,
group commits, and what survives a reopen."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from boardroom.store import EventRow, HandRow, LedgerRow, RoomRow, Store, StoreError, database_url


def _room(room_id: str = "r1", version: int = 0) -> RoomRow:
    return RoomRow(room_id, 1.0, {"game": "plo"}, "hash", {"seats": {}}, version, False)


async def test_open_migrates_an_empty_folder_and_again_is_a_no_op(tmp_path: Path) -> None:
    url = database_url(None, tmp_path)
    store = await Store.open(url)
    await store.close()
    store = await Store.open(url)
    await store.close()
    with sqlite3.connect(tmp_path / "boardroom.db") as db:
        tables = {row[0] for row in db.execute("select name from sqlite_master where type='table'")}
        revision = db.execute("select version_num from alembic_version").fetchone()
        mode = db.execute("pragma journal_mode").fetchone()
    assert {"rooms", "events", "hands", "ledger", "room_leases", "alembic_version"} <= tables
    assert revision == ("0005",)
    assert mode == ("wal",)


def test_the_stores_head_is_the_newest_migration() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from boardroom.store import store

    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    assert ScriptDirectory.from_config(config).get_heads() == [store.HEAD]


async def test_a_database_at_the_head_opens_without_running_alembic(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's start opens a migrated database: alembic (and the mako and pygments it
    imports) is loaded only when a migration is due."""
    from alembic import command

    upgrades: list[str] = []
    upgrade = command.upgrade

    def counted(config: object, revision: str) -> None:
        upgrades.append(revision)
        upgrade(config, revision)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "upgrade", counted)
    url = database_url(None, tmp_path)
    await (await Store.open(url)).close()
    assert upgrades == ["head"]  # a new database is migrated
    await (await Store.open(url)).close()
    assert upgrades == ["head"]  # one at the head is not
    with sqlite3.connect(tmp_path / "boardroom.db") as db:
        db.execute("update alembic_version set version_num = '0004'")
    monkeypatch.setattr(command, "upgrade", lambda _config, revision: upgrades.append(revision))
    await (await Store.open(url)).close()
    assert upgrades == ["head", "head"]  # one behind is migrated again


async def test_rooms_events_hands_and_ledger_survive_a_reopen(tmp_path: Path) -> None:
    url = database_url(None, tmp_path)
    store = await Store.open(url)
    await store.create_room(_room())
    await store.append("r1", version=2, state={"seats": {"0": 1}}, closed=False, events=[
        EventRow(1, "seated", None, "c1", 2.0, {"seat": 0}),
        EventRow(2, "chips", None, None, 2.0, {"amount": 200}),
    ], ledger=[LedgerRow(2, 2.0, 0, "p", "Ann", "buy-in", 200)])
    await store.append("r1", version=3, state={"seats": {}}, closed=True,
                       events=[EventRow(3, "hand_ended", 1, "c2", 3.0, {})],
                       hands=[HandRow(1, "plo", 3.0, {"deck": [1, 2]})], host_hash="new")
    await store.close()
    store = await Store.open(url)
    try:
        assert await store.rooms() == []
        (room,) = await store.rooms(include_closed=True)
        assert room == RoomRow("r1", 1.0, {"game": "plo"}, "new", {"seats": {}}, 3, True)
        assert await store.room("r1") == room
        assert await store.room("nope") is None
        assert [e.version for e in await store.events("r1")] == [1, 2, 3]
        assert [e.kind for e in await store.events("r1", after=2)] == ["hand_ended"]
        assert await store.recent_commands("r1", 10) == [("c2", 3), ("c1", 1)]
        assert await store.hands("r1") == [HandRow(1, "plo", 3.0, {"deck": [1, 2]})]
        assert await store.hand("r1", 1) == HandRow(1, "plo", 3.0, {"deck": [1, 2]})
        assert await store.hand("r1", 2) is None
        assert await store.ledger("r1") == [LedgerRow(2, 2.0, 0, "p", "Ann", "buy-in", 200)]
    finally:
        await store.close()


async def test_concurrent_appends_share_commits_and_keep_each_rooms_order(tmp_path: Path) -> None:
    store = await Store.open(database_url(None, tmp_path))
    try:
        for n in range(20):
            await store.create_room(_room(f"r{n}"))
        before = store.commits

        async def room_writes(n: int) -> None:
            for version in range(1, 11):
                await store.append(f"r{n}", version=version, state={"v": version}, closed=False,
                                   events=[EventRow(version, "chat", None, None, 0.0, {})])

        await asyncio.gather(*(room_writes(n) for n in range(20)))
        assert store.commits - before < 200  # group commit: fewer transactions than writes
        for room in await store.rooms():
            assert room.state == {"v": 10}
            assert room.version == 10
            assert [e.version for e in await store.events(room.id)] == list(range(1, 11))
    finally:
        await store.close()


async def test_a_failed_write_fails_its_waiters_and_not_the_next(tmp_path: Path) -> None:
    store = await Store.open(database_url(None, tmp_path))
    try:
        await store.create_room(_room())
        event = EventRow(1, "chat", None, None, 0.0, {})
        await store.append("r1", version=1, state={}, closed=False, events=[event])
        secret = EventRow(1, "hand", 1, None, 0.0, {"event": {"cards": ["Qh", "7c"]}})
        with pytest.raises(StoreError, match="cannot write to the database") as failed:
            await store.append("r1", version=1, state={"deck": "Qh7c"}, closed=False,
                               events=[secret])
        # The error (which the server logs) names the failure, never the rows' contents.
        assert "UNIQUE constraint failed: events.room_id, events.version" in str(failed.value)
        assert "Qh" not in str(failed.value)
        await store.append("r1", version=2, state={}, closed=False,
                           events=[EventRow(2, "chat", None, None, 0.0, {})])
        assert [e.version for e in await store.events("r1")] == [1, 2]
    finally:
        await store.close()
    with pytest.raises(StoreError, match="the store is closed"):
        await store.append("r1", version=3, state={}, closed=False)


def test_database_urls() -> None:
    data = Path("/srv/data")
    assert database_url(None, data) == "sqlite+aiosqlite:////srv/data/boardroom.db"
    assert database_url("postgresql://u:p@h:5432/db", data) == "postgresql+asyncpg://u:p@h:5432/db"
    assert database_url("postgres://h/db", data) == "postgresql+asyncpg://h/db"
    assert database_url("sqlite:///x.db", data) == "sqlite+aiosqlite:///x.db"
    with pytest.raises(StoreError, match="unsupported database 'mysql'"):
        database_url("mysql://u:secret@h/db", data)
    with pytest.raises(StoreError, match="not a database URL: 'h/db'") as info:
        database_url("u:secret@h/db", data)
    assert "secret" not in str(info.value)


async def test_an_unreachable_database_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"cannot open the database: the folder .*/missing "
                                         r"does not exist"):
        await Store.open(f"sqlite+aiosqlite:///{tmp_path}/missing/x.db")
    (tmp_path / "file").write_text("not a database")
    with pytest.raises(StoreError, match="cannot open the database"):
        await Store.open(f"sqlite+aiosqlite:///{tmp_path}/file/x.db")


async def test_one_rooms_failed_write_never_fails_another_rooms_write(tmp_path: Path) -> None:
    store = await Store.open(database_url(None, tmp_path))
    try:
        for room_id in ("bad", "good", "later"):
            await store.create_room(_room(room_id))
        # Submitted in one loop turn, the three writes share one group commit.
        writes = [
            asyncio.create_task(store.append("bad", version=1, state={}, closed=False, ledger=[
                LedgerRow(1, 1.0, 0, "p", "Ann", "buy-in", 2**70)])),
            asyncio.create_task(store.append("good", version=1, state={"ok": 1}, closed=False,
                                             events=[EventRow(1, "seated", None, "c1", 1.0, {})])),
            asyncio.create_task(store.append("bad", version=2, state={}, closed=False,
                                             events=[EventRow(2, "x", None, None, 1.0, {})])),
            asyncio.create_task(store.append("later", version=1, state={}, closed=False)),
        ]
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert isinstance(results[0], StoreError)
        assert results[1] is None
        # A room's writes are in order: after its failed write, its next one is refused too.
        assert isinstance(results[2], StoreError)
        assert "an earlier write of this room failed" in str(results[2])
        assert results[3] is None
        assert [e.kind for e in await store.events("good")] == ["seated"]
        assert (await store.room("good")).state == {"ok": 1}  # type: ignore[union-attr]
        assert await store.events("bad") == []
        assert (await store.room("bad")).version == 0  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_a_room_reads_back_as_its_last_whole_state_and_the_changes_after_it(
        tmp_path: Path) -> None:
    url = database_url(None, tmp_path)
    store = await Store.open(url)
    await store.create_room(_room())
    await store.append("r1", version=1, state=None, change={"set": {"a": 1}}, closed=False,
                       events=[EventRow(1, "x", None, None, 1.0, {})])
    # One batch: a whole state, then two changes after it (the older change is superseded).
    await asyncio.gather(
        store.append("r1", version=3, state={"seats": {}, "a": 1}, closed=False,
                     events=[EventRow(2, "x", None, None, 1.0, {}),
                             EventRow(3, "x", None, None, 1.0, {})]),
        store.append("r1", version=5, state=None, change={"set": {"a": 2}}, closed=False,
                     events=[EventRow(4, "x", None, None, 1.0, {}),
                             EventRow(5, "x", None, None, 1.0, {})]),
        store.append("r1", version=6, state=None, change={"set": {"a": 3}}, closed=False,
                     events=[EventRow(6, "x", None, None, 1.0, {})]))
    with pytest.raises(StoreError, match="written with its events"):
        await store.append("r1", version=7, state=None, change={"set": {}}, closed=False)
    await store.close()
    store = await Store.open(url)
    try:
        (room,) = await store.rooms()
        assert (room.state, room.version) == ({"seats": {}, "a": 1}, 3)
        assert room.changes == ({"set": {"a": 2}}, {"set": {"a": 3}})
        assert await store.room("r1") == room
    finally:
        await store.close()


async def test_sqlites_memory_stays_within_a_small_page_cache_as_the_log_grows(
        tmp_path: Path) -> None:
    """The soak found SQLite's own memory (outside Python's objects) climbing with every hand: a
    connection's page cache keeps up to 2 MB of pages by default, filled as the log grows, and a
    server holds several pooled connections. Counted with SQLite's own allocation counter, which
    is process-wide: after writing and reading back a log of about 5 MB, each open connection
    holds at most 1 MiB."""
    import ctypes

    sqlite = ctypes.CDLL("libsqlite3.so.0")  # the library the sqlite3 module is linked to
    sqlite.sqlite3_memory_used.restype = ctypes.c_int64
    before = sqlite.sqlite3_memory_used()
    store = await Store.open(database_url(None, tmp_path))
    try:
        await store.create_room(_room())
        text = "".join(f"{n:08x}" for n in range(1000))  # 8 KB of event payload a write
        for version in range(1, 601):
            await store.append("r1", version=version, state={"seats": {}}, closed=False,
                               events=[EventRow(version, "hand", 1, None, 1.0, {"t": text})])
        assert len(await store.events("r1")) == 600
        held = sqlite.sqlite3_memory_used() - before
        pool = store.engine.pool
        # the pool's connections (reads) and the writer thread's own connection
        connections = pool.checkedin() + pool.checkedout() + 1
        assert connections >= 2
        assert held <= connections * 1024 * 1024, (held, connections)
    finally:
        await store.close()


async def test_writes_to_a_sqlite_file_go_through_the_writer_thread_not_the_engine(
        tmp_path: Path) -> None:
    """Each commit is one call into the writer thread, which runs the statements with the
    ``sqlite3`` module: no write goes through the async engine (counted by the engine's own
    statement hook), and what the thread wrote reads back through the engine."""
    from sqlalchemy import event

    store = await Store.open(database_url(None, tmp_path))
    through_engine: list[str] = []

    def counted(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        through_engine.append(statement)

    event.listen(store.engine.sync_engine, "before_cursor_execute", counted)
    try:
        await store.create_room(_room())
        before = store.commits
        for version in range(1, 11):
            await store.append("r1", version=version, state=None, closed=False,
                               change={"v": version},
                               events=[EventRow(version, "bet", 1, f"c{version}", 1.0, {})])
        await store.append("r1", version=11, state={"v": 11}, closed=False,
                           events=[EventRow(11, "hand_ended", 1, None, 1.0, {})],
                           hands=[HandRow(1, "plo", 1.0, {"deck": []})], host_hash="h2")
        assert store.commits - before == 11
        assert not any(s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
                       for s in through_engine)
        room = await store.room("r1")
        assert room is not None
        assert (room.version, room.state, room.host_hash) == (11, {"v": 11}, "h2")
        assert [e.command_id for e in await store.events("r1")][:2] == ["c1", "c2"]
        assert await store.hands("r1") == [HandRow(1, "plo", 1.0, {"deck": []})]
    finally:
        await store.close()


def test_stored_json_reads_back_as_the_standard_librarys_with_its_key_order() -> None:
    """The store's JSON (orjson's, the standard library's where orjson refuses a value) reads
    back to the same values with the keys in the same order as ``json.dumps(sort_keys=True)``
    writes them, whatever the keys and numbers."""
    import json

    from boardroom.store.store import _dumps

    values: list[object] = [
        {"seats": {"10": 1, "2": 2, "b": [1.5, None, True]}, "a": "Ann é ♠"},
        {3: "int keys", 1: "sort as numbers"},  # orjson refuses: the standard library's
        {"chips": 2**70},  # past 64 bits: likewise
        [],
        {"nested": {"z": {"y": {"x": [{"b": 1, "a": 2}]}}}},
    ]
    for value in values:
        text = _dumps(value)
        expected = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        assert text == expected
        assert list(json.loads(text)) == list(json.loads(expected)) if isinstance(value, dict) \
            else json.loads(text) == json.loads(expected)


def test_a_commit_that_fails_is_rolled_back_and_the_writer_goes_on() -> None:
    """A COMMIT that SQLite refuses (a lock held past the busy timeout, a full disk) leaves
    no transaction open behind it: the writer rolls it back, so its next batch can begin."""
    from boardroom.store.store import _SQLiteWriter

    class Connection:
        def __init__(self) -> None:
            self.said: list[str] = []
            self.in_transaction = False

        def execute(self, sql: str, *_args: object) -> None:
            if sql.startswith("BEGIN"):
                assert not self.in_transaction, "a transaction was left open"
                self.in_transaction = True
            elif sql == "COMMIT" and not self.said.count("COMMIT"):
                self.said.append(sql)
                raise sqlite3.OperationalError("database is locked")
            elif sql in ("COMMIT", "ROLLBACK"):
                self.in_transaction = False
            self.said.append(sql)

        def executemany(self, sql: str, rows: object) -> None:
            self.said.append("rows")

    writer = _SQLiteWriter(":unused:")
    connection = Connection()
    writer._connection = connection  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        writer._run([("INSERT ...", [{}])])
    writer._run([("INSERT ...", [{}])])
    assert connection.said == ["BEGIN IMMEDIATE", "rows", "COMMIT", "ROLLBACK",
                               "BEGIN IMMEDIATE", "rows", "COMMIT"]
    writer._pool.shutdown()
