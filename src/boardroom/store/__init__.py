"""Persistence (DESIGN.md, store layer): SQLite under the data folder by default, PostgreSQL when
a URL says so; rooms, their event log, finished hands and the ledger. Migrations run on open."""

from boardroom.store import leases
from boardroom.store.store import (
    EventRow,
    HandRow,
    LeaseLost,
    LedgerRow,
    RoomRow,
    Store,
    StoreError,
    TournamentRow,
    database_url,
    save_tournament,
    tournament,
    tournaments,
)

__all__ = ["EventRow", "HandRow", "LeaseLost", "LedgerRow", "RoomRow", "Store", "StoreError",
           "TournamentRow", "database_url", "leases", "save_tournament", "tournament",
           "tournaments"]
