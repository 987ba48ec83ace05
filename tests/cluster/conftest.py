"""The cluster tests' services, started once per session: one PostgreSQL server (each test
takes a fresh database on it: ``pg`` and ``database``, in the tests' root conftest, shared with
the store's tests), one Redis, and one cluster of two workers behind HAProxy that
the tests which stop no service share (each in rooms of its own), on a Redis of its own (worker
ids and channels must not meet another cluster's). A test that kills, pauses or stops a worker,
or restarts Redis, starts workers of its own."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from services import Cluster, Postgres, Redis, cluster, redis


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    with redis() as server:
        yield server


@pytest.fixture(scope="session")
def shared_cluster(pg: Postgres) -> Iterator[Cluster]:
    """Two workers and HAProxy on a database and a Redis of their own, for the tests that stop
    nothing."""
    with redis() as own, cluster(pg.database("shared"), own, 2) as running:
        yield running
