"""The cluster tests' services, started once per session: one PostgreSQL server (each test
takes a fresh database on it) and one Redis."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from services import Postgres, Redis, postgres, redis

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
