"""The cluster tests' services, started once per session: one PostgreSQL server (each test
takes a fresh database on it), one Redis, and one cluster of two workers behind HAProxy that
the tests which stop no service share (each in rooms of its own), on a Redis of its own (worker
ids and channels must not meet another cluster's). A test that kills, pauses or stops a worker,
or restarts Redis, starts workers of its own."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from services import Cluster, Postgres, Redis, cluster, postgres, redis

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg() -> Iterator[Postgres]:
    with postgres() as server:
        yield server


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    with redis() as server:
        yield server


@pytest.fixture
def database(pg: Postgres) -> str:
    """A fresh database for one test: its postgresql:// URL."""
    return pg.database(f"test{next(_names)}")


@pytest.fixture(scope="session")
def shared_cluster(pg: Postgres) -> Iterator[Cluster]:
    """Two workers and HAProxy on a database and a Redis of their own, for the tests that stop
    nothing."""
    with redis() as own, cluster(pg.database("shared"), own, 2) as running:
        yield running
