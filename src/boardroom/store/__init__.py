"""Persistence (DESIGN.md, store layer): SQLite under the data folder by default, PostgreSQL when
a URL says so; rooms, their event log, finished hands and the ledger. Migrations run on open."""

from boardroom.store.store import (
    EventRow,
    HandRow,
    LedgerRow,
    RoomRow,
    Store,
    StoreError,
    database_url,
)

__all__ = ["EventRow", "HandRow", "LedgerRow", "RoomRow", "Store", "StoreError", "database_url"]
