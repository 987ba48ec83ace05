"""Alembic migrations of the store, run by ``Store.open`` on start."""
